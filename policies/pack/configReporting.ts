/**
 * A policy's config as its check receives it: read and validated against its schema
 * (config.ts), an invalid one reported as a mandatory violation (a misconfigured gate must not
 * pass) and unknown keys reported, each problem once per pack process.
 */
import type { ReportViolation } from "@pulumi/policy";
import { readPolicyConfig, unknownKeysMessage } from "./config";
import { reportWithLevel } from "./decisions";
import { plural } from "./format";
import { Message, PROBLEM_LINE_MAX, renderMessage, shortName } from "./message";
import { EMPTY_SCHEMA, PolicyMeta } from "./policySchema";

// A resource policy's config problem is the same for every resource: report it once per pack
// process (the CLI starts one per preview), not once per resource.
const reportedOnce = new Set<string>();

function reportConfigProblem(policy: PolicyMeta, message: Message, reportViolation: ReportViolation, once: boolean): void {
    const text = renderMessage(message);
    const key = `${policy.name}\u0000${text}`;
    if (once && reportedOnce.has(key)) {
        return;
    }
    reportedOnce.add(key);
    reportWithLevel(reportViolation, { message: `${policy.description}\n${text}`, description: policy.description, enforcementLevel: "mandatory" });
}

/**
 * The message of an invalid config: the first problem (and how many more) on the problem line,
 * every field to correct in the fix, each problem in a basis line when there are several.
 */
export function invalidConfigMessage(policyName: string, errors: readonly string[], fields: readonly string[]): Message {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more, below)` : "";
    const named = [...new Set(fields)].map((f) => shortName(f));
    const fix = `correct ${named.length > 0 ? named.join(", ") : "the config"} in the policy config (--policy-pack-config); docs/policies/${policyName}.md gives each key's type and default`;
    const problem = `${errors[0] ?? `invalid config for policy ${policyName}`}${more}; none of this policy's checks ran.`;
    if (problem.length <= PROBLEM_LINE_MAX) {
        return { problem, fix, basis: errors.length > 1 ? errors : [] };
    }
    // A long field path (nested keys are the user's): the count on the problem line, each problem below.
    return {
        problem: `invalid config for policy ${policyName}: ${plural(errors.length, "problem")} (below); none of this policy's checks ran.`,
        fix,
        basis: errors,
    };
}

/**
 * Which pack process this is, as tests see it: resetReportedOnce starts a new one. A one-type
 * resource policy takes the SDK's type fast path only after its first call in the current one.
 */
let processGeneration = 0;

/** The current pack process, as resetReportedOnce counts them. */
export function currentProcess(): number {
    return processGeneration;
}

/**
 * Forgets which config problems were reported, and re-arms each one-type policy's first call
 * (tests that reuse one process for several previews).
 */
export function resetReportedOnce(): void {
    reportedOnce.clear();
    processGeneration += 1;
}

/**
 * Reads config; returns undefined (after reporting) when it is invalid, so no check runs on a
 * config the user did not mean. Config problems are mandatory: a misconfigured gate must not pass.
 */
export function configFor<C>(policy: PolicyMeta, raw: unknown, reportViolation: ReportViolation, once: boolean, reportUnknownKeys = true): C | undefined {
    const schema = policy.configSchema ?? EMPTY_SCHEMA;
    const result = readPolicyConfig<C>(policy.name, schema, raw);
    if (reportUnknownKeys && result.unknownKeys.length > 0) {
        reportConfigProblem(policy, unknownKeysMessage(policy.name, schema, result.unknownKeys), reportViolation, once);
    }
    if (result.errors.length > 0) {
        reportConfigProblem(policy, invalidConfigMessage(policy.name, result.errors, result.fields), reportViolation, once);
        return undefined;
    }
    return result.config;
}

/** Reports a resource policy's unknown config keys, once per pack process; cheap when there are none. */
export function reportUnknownKeys(policy: PolicyMeta, known: ReadonlySet<string>, raw: unknown, reportViolation: ReportViolation): void {
    if (raw === null || typeof raw !== "object") {
        return;
    }
    const unknownKeys = Object.keys(raw).filter((key) => !known.has(key));
    if (unknownKeys.length > 0) {
        reportConfigProblem(policy, unknownKeysMessage(policy.name, policy.configSchema ?? EMPTY_SCHEMA, unknownKeys), reportViolation, true);
    }
}
