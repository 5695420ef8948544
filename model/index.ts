/**
 * perfguard's performance models: pure TypeScript, no Pulumi imports, reusable outside the pack.
 */
export * from "./brokering";
export * from "./citrixGuidance";
export * from "./seCapacity";
export * from "./seTable";
export * from "./xenShares";
