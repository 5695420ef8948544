/**
 * A stack policy's check that throws outside the rooms' per-resource `isolate` (definePolicy.ts
 * stackPolicy): one violation naming the policy, never an AnalyzeStack that fails (the SDK rethrows
 * what validateStack throws as a gRPC error, and the preview loses every pack's verdicts).
 */
import type { ReportViolation, StackValidationArgs } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { stackPolicy } from "../../../policies/pack/definePolicy";
import type { PolicyConfigSchema } from "@pulumi/policy";

const SCHEMA = { properties: { limit: { type: "number", default: 3, description: "d" } } } as unknown as PolicyConfigSchema;

function run(check: (config: { limit: number }) => void): Array<{ message: string; urn?: string }> {
    const policy = stackPolicy<{ limit: number }>({
        name: "test-stack-throws",
        description: "A test stack policy.",
        enforcementLevel: "mandatory",
        configSchema: SCHEMA as never,
        check: (_stack, config) => check(config),
    });
    const sent: Array<{ message: string; urn?: string }> = [];
    const report = ((m: string | { message: string; urn?: string }, urn?: string) => {
        sent.push(typeof m === "string" ? { message: m, urn } : m);
    }) as unknown as ReportViolation;
    const args = { resources: [], getConfig: () => ({ limit: 3, unverified: "advisory" }), notApplicable: () => undefined } as unknown as StackValidationArgs;
    expect(() => policy.validateStack(args, report)).not.toThrow();
    return sent;
}

describe("a stack policy whose check throws", () => {
    it.each<[string, (config: { limit: number }) => void, string[]]>([
        // [case, the check, problem lines expected]
        ["baseline: a check that returns reports nothing", () => undefined, []],
        [
            "an Error",
            () => {
                throw new RangeError("boom");
            },
            ["perfguard could not finish test-stack-throws (internal error RangeError): its verdicts on this stack are unknown."],
        ],
        [
            "a non-Error value",
            () => {
                // eslint-disable-next-line @typescript-eslint/only-throw-error -- a check that throws a non-Error is the case
                throw 42;
            },
            ["perfguard could not finish test-stack-throws (internal error a non-Error value): its verdicts on this stack are unknown."],
        ],
        [
            "a check that writes to its (frozen) config",
            (config) => {
                config.limit = 9;
            },
            ["perfguard could not finish test-stack-throws (internal error TypeError): its verdicts on this stack are unknown."],
        ],
    ])("%s", (_name, check, problems) => {
        const sent = run(check);
        expect(sent.map((v) => v.message.split("\n")[0])).toEqual(problems);
        for (const v of sent) {
            expect(v.urn).toBeUndefined();
            expect(v.message).toContain("\nFix: report this perfguard bug");
        }
    });
});
