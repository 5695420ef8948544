/**
 * Turns a perfguard policy spec into an SDK policy object, adding what every policy needs and
 * none should write again: config defaults and validation, unknown config keys reported once,
 * proxy-free resource views, and per-resource isolation (one odd resource yields one clear
 * violation about itself, never a crashed preview or a lost verdict on another resource).
 */
import type {
    EnforcementLevel,
    PolicyConfigSchema,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
} from "@pulumi/policy";
import { readPolicyConfig, unknownKeysMessage } from "./config";
import { Applicability, explaining, recordFacts, recordVerdict, StackApplicability, typeNotRead } from "./explain";
import { ResourceView, stackOf, StackView, viewOf } from "./resources";
import { registerPolicyId, waiverFor } from "./waivers";

/** Reports one violation: about `resource` (its URN is attached) or site-wide when omitted. */
export type Report = (message: string, resource?: ResourceView) => void;

/** What every perfguard policy declares. */
export interface PolicyMeta {
    /** The policy id: also the file name in policies/ and docs/policies/. */
    readonly name: string;
    /** One sentence; the CLI prints it above each message. */
    readonly description: string;
    readonly enforcementLevel: EnforcementLevel;
    /** JSON Schema of the config, with a `default` on every property. */
    readonly configSchema?: PolicyConfigSchema;
}

export interface StackPolicySpec<C> extends PolicyMeta {
    /** Evaluates the whole stack; use `isolate` around per-resource work. */
    check(stack: StackView, config: C, report: Report): void;
    /**
     * For --explain only (never called otherwise): per resource, why the policy applied or not,
     * with the same readers as `check`. Reasons show fact values only as describeValue does.
     */
    explain?(stack: StackView, config: C): StackApplicability;
}

export interface ResourcePolicySpec<C> extends PolicyMeta {
    /** Type tokens the policy reads; other resources are skipped cheaply. Omit for all types. */
    readonly types?: readonly string[];
    check(resource: ResourceView, config: C, report: Report): void;
    /** Returns the props to use instead (provider string forms), or undefined for no change. */
    remediate?(resource: ResourceView, config: C): Record<string, unknown> | undefined;
    /** For --explain only (never called otherwise): why the policy applies to `resource` or not. */
    explain?(resource: ResourceView, config: C): Applicability;
}

const EMPTY_SCHEMA: PolicyConfigSchema = { properties: {} };

/**
 * The SDK's reportViolation also takes an object that sets the level of one violation
 * (@pulumi/policy 1.21 server.js makeReportViolationFun); its typings only declare the string form.
 */
interface ViolationWithLevel {
    message: string;
    description: string;
    enforcementLevel: EnforcementLevel;
    urn?: string;
}

function reportWithLevel(reportViolation: ReportViolation, violation: ViolationWithLevel): void {
    (reportViolation as unknown as (v: ViolationWithLevel) => void)(violation);
}

// A resource policy's config problem is the same for every resource: report it once per pack
// process (the CLI starts one per preview), not once per resource.
const reportedOnce = new Set<string>();

function reportConfigProblem(policy: PolicyMeta, message: string, reportViolation: ReportViolation, once: boolean): void {
    const key = `${policy.name}\u0000${message}`;
    if (once && reportedOnce.has(key)) {
        return;
    }
    reportedOnce.add(key);
    reportWithLevel(reportViolation, { message: `${policy.description}\n${message}`, description: policy.description, enforcementLevel: "mandatory" });
}

/** Forgets which config problems were reported (tests that reuse one process). */
export function resetReportedOnce(): void {
    reportedOnce.clear();
}

/**
 * Reads config; returns undefined (after reporting) when it is invalid, so no check runs on a
 * config the user did not mean. Config problems are mandatory: a misconfigured gate must not pass.
 */
function configFor<C>(policy: PolicyMeta, raw: unknown, reportViolation: ReportViolation, once: boolean, reportUnknownKeys = true): C | undefined {
    const schema = policy.configSchema ?? EMPTY_SCHEMA;
    const result = readPolicyConfig<C>(policy.name, schema, raw);
    if (reportUnknownKeys && result.unknownKeys.length > 0) {
        reportConfigProblem(policy, unknownKeysMessage(policy.name, schema, result.unknownKeys), reportViolation, once);
    }
    if (result.errors.length > 0) {
        reportConfigProblem(policy, `${result.errors.join("; ")}. None of this policy's checks ran; fix the policy config (--policy-pack-config).`, reportViolation, once);
        return undefined;
    }
    return result.config;
}

/** Reports a resource policy's unknown config keys, once per pack process; cheap when there are none. */
function reportUnknownKeys(policy: PolicyMeta, known: ReadonlySet<string>, raw: unknown, reportViolation: ReportViolation): void {
    if (raw === null || typeof raw !== "object") {
        return;
    }
    const unknownKeys = Object.keys(raw).filter((key) => !known.has(key));
    if (unknownKeys.length > 0) {
        reportConfigProblem(policy, unknownKeysMessage(policy.name, policy.configSchema ?? EMPTY_SCHEMA, unknownKeys), reportViolation, true);
    }
}

/**
 * Runs `fn` for one resource; an unexpected error becomes a violation about that resource
 * (naming the error class, never property values) instead of failing every verdict.
 */
export function isolate(resource: ResourceView, report: Report, fn: () => void): void {
    try {
        fn();
    } catch (e) {
        const what = e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : "a non-Error value was thrown";
        report(`perfguard could not evaluate ${resource.label} (internal error ${what}); the other resources were evaluated. Please report this with the resource type.`, resource);
    }
}

/**
 * perfguard-facts cannot be waived: an unreadable fact means another check silently did not run,
 * so waiving it would waive every check on the resource.
 */
export const UNWAIVABLE_POLICY = "perfguard-facts";

/** Reports as the SDK does, except that a waived verdict goes out at advisory, prefixed "waived". */
function reporterFor(policy: PolicyMeta, reportViolation: ReportViolation): Report {
    return (message, resource) => {
        const urn = resource?.urn || undefined;
        const waiver = resource && policy.name !== UNWAIVABLE_POLICY ? waiverFor(resource, policy.name) : undefined;
        if (!waiver) {
            reportViolation(message, urn);
            return;
        }
        reportWithLevel(reportViolation, {
            message: `${policy.description}\nwaived (${waiver.where}: "${waiver.reason}"): ${message}`,
            description: policy.description,
            enforcementLevel: "advisory",
            urn,
        });
    };
}

/** Counts reports per URN ("" = stack-wide) for --explain, passing each on to `report`. */
function countingReport(report: Report, counts: Map<string, number>): Report {
    return (message, resource) => {
        const urn = resource?.urn ?? "";
        counts.set(urn, (counts.get(urn) ?? 0) + 1);
        report(message, resource);
    };
}

/** Runs an explain hook; an error in it must not change any verdict, so it becomes a reason. */
function safely<T>(fn: () => T, fallback: (why: string) => T): T {
    try {
        return fn();
    } catch (e) {
        return fallback(e instanceof Error ? e.name : "an error");
    }
}

/** Records a stack policy's explanation of every resource of the stack (PERFGUARD_EXPLAIN only). */
function explainStack<C>(spec: StackPolicySpec<C>, stack: StackView, config: C, counts: Map<string, number>): void {
    const explained = safely<StackApplicability>(
        () => spec.explain ? spec.explain(stack, config) : { resources: new Map(), others: "evaluated with the whole stack (this policy gives no per-resource explanation)" },
        (why) => ({ resources: new Map(), others: `could not be explained (${why} in the explain hook)` }));
    for (const resource of stack.resources) {
        recordFacts("analyzeStack", resource);
        const verdict = explained.resources.get(resource.urn) ?? typeNotRead(explained.others);
        recordVerdict("analyzeStack", spec.name, resource.urn, verdict, counts.get(resource.urn) ?? 0);
    }
    const stackWide = counts.get("") ?? 0;
    if (explained.stack || stackWide > 0) {
        recordVerdict("analyzeStack", spec.name, "", explained.stack ?? { applies: true, detail: "stack-wide verdict" }, stackWide);
    }
}

/**
 * Builds a stack policy (AnalyzeStack: all resources' outputs, with property dependencies).
 * @returns an SDK StackValidationPolicy; its validateStack never throws.
 */
export function stackPolicy<C>(spec: StackPolicySpec<C>): StackValidationPolicy {
    registerPolicyId(spec.name);
    return {
        name: spec.name,
        description: spec.description,
        enforcementLevel: spec.enforcementLevel,
        configSchema: spec.configSchema,
        validateStack: (args: StackValidationArgs, reportViolation: ReportViolation) => {
            const config = configFor<C>(spec, args.getConfig(), reportViolation, false);
            if (config === undefined) {
                if (explaining) {
                    recordVerdict("analyzeStack", spec.name, "", { applies: false, reason: "the policy config is invalid (reported as a violation), so no check ran" }, 0);
                }
                return;
            }
            const stack = stackOf(args.resources);
            if (!explaining) {
                spec.check(stack, config, reporterFor(spec, reportViolation));
                return;
            }
            const counts = new Map<string, number>();
            spec.check(stack, config, countingReport(reporterFor(spec, reportViolation), counts));
            explainStack(spec, stack, config, counts);
        },
    };
}

/**
 * Builds a resource policy (Analyze: one resource's inputs, before it is created or updated).
 * @returns an SDK ResourceValidationPolicy; its validateResource never throws.
 */
export function resourcePolicy<C>(spec: ResourcePolicySpec<C>): ResourceValidationPolicy {
    registerPolicyId(spec.name);
    const types = spec.types ? new Set(spec.types) : undefined;
    // Unknown config keys (typos) do not stop the checks; they are reported once per pack process
    // on the first resource Analyze sees, whatever its type: the engine analyzes the root stack
    // resource first, so they show up against the stack. (A validateStack hook would report them
    // stack-wide, but the SDK decodes the whole stack again for every policy that has one.)
    const known = new Set(Object.keys(spec.configSchema?.properties ?? {}));
    const policy: ResourceValidationPolicy = {
        name: spec.name,
        description: spec.description,
        enforcementLevel: spec.enforcementLevel,
        configSchema: spec.configSchema,
        validateResource: (args: ResourceValidationArgs, reportViolation: ReportViolation) => {
            reportUnknownKeys(spec, known, args.getConfig(), reportViolation);
            if (types && !types.has(args.type)) {
                if (explaining) {
                    const resource = viewOf(args);
                    recordFacts("analyze", resource);
                    recordVerdict("analyze", spec.name, resource.urn, typeNotRead(`reads only ${[...types].join(", ")}`), 0);
                }
                return;
            }
            // Analyze runs once per resource: report an invalid config on the first one only (the
            // checks cannot run, and Analyze blocks before anything is created). Unknown keys do not
            // stop the checks, so validateStack reports them once, stack-wide (below).
            const config = configFor<C>(spec, args.getConfig(), reportViolation, true, false);
            if (config === undefined) {
                if (explaining) {
                    recordVerdict("analyze", spec.name, String(args.urn ?? ""), { applies: false, reason: "the policy config is invalid (reported as a violation), so no check ran" }, 0);
                }
                return;
            }
            const resource = viewOf(args);
            const report = reporterFor(spec, reportViolation);
            if (!explaining) {
                isolate(resource, report, () => spec.check(resource, config, report));
                return;
            }
            const counts = new Map<string, number>();
            const counting = countingReport(report, counts);
            isolate(resource, counting, () => spec.check(resource, config, counting));
            recordFacts("analyze", resource);
            const explain = spec.explain;
            const verdict = safely<Applicability>(
                () => explain ? explain(resource, config) : { applies: true, detail: "checked" },
                (why) => ({ applies: false, reason: `could not be explained (${why} in the explain hook)` }));
            recordVerdict("analyze", spec.name, resource.urn, verdict, counts.get(resource.urn) ?? 0);
        },
    };
    const remediate = spec.remediate;
    if (remediate) {
        policy.remediateResource = (args: ResourceValidationArgs) => {
            if (types && !types.has(args.type)) {
                return undefined;
            }
            const config = readPolicyConfig<C>(spec.name, spec.configSchema ?? EMPTY_SCHEMA, args.getConfig());
            if (config.errors.length > 0) {
                return undefined; // validateResource reports the config error
            }
            const resource = viewOf(args);
            if (waiverFor(resource, spec.name)) {
                return undefined; // a waived verdict is accepted as it is: do not change the resource
            }
            try {
                return remediate(resource, config.config);
            } catch {
                return undefined; // validateResource still reports the violation
            }
        };
    }
    return policy;
}
