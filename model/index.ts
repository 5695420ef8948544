/**
 * perfguard's performance model: pure TypeScript, no Pulumi imports, reusable outside the pack.
 */
export * from "./brokering";
export * from "./citrixGuidance";
