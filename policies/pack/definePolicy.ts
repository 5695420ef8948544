/**
 * Turns a perfguard policy spec into an SDK policy object, adding what every policy needs and
 * none should write again: config defaults and validation, unknown config keys reported once,
 * proxy-free resource views, and per-resource isolation (one odd resource yields one clear
 * violation about itself, never a crashed preview or a lost verdict on another resource).
 * Its parts each have a module: the published schema (policySchema.ts), config read and reported
 * once (configReporting.ts), the decisions a check records (decisions.ts), the never-throw
 * wrapper (isolate.ts). The rooms import all of it from here.
 */
import type { ReportViolation, ResourceValidationArgs, ResourceValidationPolicy, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { readPolicyConfig } from "./config";
import { configFor, currentProcess, reportUnknownKeys } from "./configReporting";
import { explaining, recordFacts, recordVerdict, typeNotRead } from "./decisionLog";
import { Decisions, Report, undecided } from "./decisions";
import type { FactRole } from "./factKeys";
import { noteAnalyzed } from "./inventory/prefetch";
import { isolate, thrownBasis, thrownName } from "./isolate";
import { rememberConfig } from "./policyConfigs";
import { EMPTY_SCHEMA, PolicyMeta, publishedSchema, TypedPolicyMeta, unverifiedLevel } from "./policySchema";
import { ResourceView, stackOf, StackView, viewOf } from "./resources";
import { registerPolicyId, waiverFor } from "./waivers";

// What the rooms' policy files use, from the module that builds their policies.
export { invalidConfigMessage, resetReportedOnce } from "./configReporting";
export { REDACTED_REMEDY, UNWAIVABLE_POLICY } from "./decisions";
export type { NotChecked, Report } from "./decisions";
export { isolate } from "./isolate";
export { UNVERIFIED_LEVELS } from "./policySchema";
export type { ConfigSchemaOf, OwnConfigKey, PolicyMeta, TypedPolicyMeta, UnverifiedConfig } from "./policySchema";

/** The kinds of resources a policy judges, as its spec declares them (`types`, `roles`). */
export interface JudgedKinds {
    /** Undefined: every type. */
    readonly types?: readonly string[];
    readonly roles: readonly FactRole[];
}

const judgedKindsByPolicy = new Map<string, JudgedKinds>();

/**
 * What the policy `name` declares it judges (undefined for a name not defined here): every
 * resource of these kinds must end in exactly one outcome (test/robustness/outcomes.test.ts).
 */
export function judgedKinds(name: string): JudgedKinds | undefined {
    return judgedKindsByPolicy.get(name);
}

export interface StackPolicySpec<C> extends TypedPolicyMeta<C> {
    /**
     * Type tokens of the resources the policy judges, for --explain: a resource of another type
     * is listed as not read; one of these types on which `check` recorded no decision is shown
     * as such (a gap in the check). Omit to list every undecided resource as not read.
     */
    readonly types?: readonly string[];
    /**
     * Roles (through facts: a Delivery Controller, a dom0 service) of the resources the policy
     * judges whatever their type; --explain treats them as `types`.
     */
    readonly roles?: readonly FactRole[];
    /**
     * Evaluates the whole stack; use `isolate` around per-resource work. Records, per resource it
     * judges, report.applied / notApplicable / notChecked: --explain shows exactly those.
     */
    check(stack: StackView, config: C, report: Report): void;
}

export interface ResourcePolicySpec<C> extends TypedPolicyMeta<C> {
    /** Type tokens the policy reads; other resources are skipped cheaply. Omit for all types. */
    readonly types?: readonly string[];
    check(resource: ResourceView, config: C, report: Report): void;
    /** Returns the props to use instead (provider string forms), or undefined for no change. */
    remediate?(resource: ResourceView, config: C): Record<string, unknown> | undefined;
}

/**
 * Calls the SDK's `args.notApplicable`, which throws a NotApplicableError that its Analyze catches
 * to record the reason: without a stack trace, which nothing reads (capturing one per resource
 * was 0.05 s of a 1,000-resource preview).
 */
function notApplicableWithoutTrace(args: ResourceValidationArgs, reason: string): void {
    // Under `node --frozen-intrinsics` the limit cannot be set: then the SDK's error keeps its trace.
    if (!TRACE_LIMIT_WRITABLE) {
        args.notApplicable(reason);
        return;
    }
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
        args.notApplicable(reason);
    } finally {
        Error.stackTraceLimit = limit;
    }
}

const TRACE_LIMIT_WRITABLE = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit")?.writable === true;

/**
 * Records a stack policy's decisions on every resource of the stack (PERFGUARD_EXPLAIN only):
 * what `check` recorded; for a resource of the policy's `types` with no decision, "no decision
 * recorded"; for other types, not read.
 */
function explainStack<C>(spec: StackPolicySpec<C>, stack: StackView, decisions: Decisions): void {
    const judged = spec.types ? new Set(spec.types) : undefined;
    const roles = spec.roles ?? [];
    const others = judged ? `reads only ${[...judged, ...roles.map((r) => `resources of role ${r}`)].join(", ")}` : "not a resource this policy judges";
    for (const resource of stack.resources) {
        if (resource.foreign) {
            continue; // another stack's resource: it contributes load, it is not judged here
        }
        recordFacts("analyzeStack", resource);
        const violations = decisions.violations.get(resource.urn) ?? 0;
        const ofRole = roles.length > 0 && resource.facts.roles.some((r) => roles.includes(r));
        const verdict =
            decisions.outcome(resource.urn) ?? (judged?.has(resource.type) || ofRole || violations > 0 ? undecided(violations) : typeNotRead(others));
        recordVerdict("analyzeStack", spec.name, resource.urn, verdict, violations);
    }
    const stackWide = decisions.violations.get("") ?? 0;
    const stackVerdict = decisions.outcome("");
    if (stackVerdict || stackWide > 0) {
        recordVerdict("analyzeStack", spec.name, "", stackVerdict ?? undecided(stackWide), stackWide);
    }
}

/**
 * Builds a stack policy (AnalyzeStack: all resources' outputs, with property dependencies).
 * @returns an SDK StackValidationPolicy; its validateStack never throws.
 */
export function stackPolicy<C>(spec: StackPolicySpec<C>): StackValidationPolicy {
    registerPolicyId(spec.name);
    judgedKindsByPolicy.set(spec.name, { types: spec.types, roles: spec.roles ?? [] });
    const configSchema = publishedSchema(spec);
    const meta: PolicyMeta = { ...spec, configSchema };
    return {
        name: spec.name,
        description: spec.description,
        enforcementLevel: spec.enforcementLevel,
        configSchema,
        validateStack: (args: StackValidationArgs, reportViolation: ReportViolation) => {
            const config = configFor<C>(meta, args.getConfig(), reportViolation, false);
            if (config === undefined) {
                if (explaining) {
                    recordVerdict(
                        "analyzeStack",
                        spec.name,
                        "",
                        { applies: false, reason: "the policy config is invalid (reported as a violation), so no check ran" },
                        0,
                    );
                }
                return;
            }
            const stack = stackOf(args.resources);
            // A room setting's one home is read by the room's other policies (policyConfigs.ts).
            rememberConfig(stack, spec.name, config);
            const decisions = new Decisions(spec, reportViolation, unverifiedLevel(config), "stack");
            try {
                spec.check(stack, config, decisions.report);
            } catch (e) {
                // The rooms isolate each resource; an error outside that would otherwise fail the
                // whole AnalyzeStack (the SDK rethrows it as a gRPC error) and every verdict with it.
                decisions.report({
                    problem: `perfguard could not finish ${spec.name} (internal error ${thrownName(e)}): its verdicts on this stack are unknown.`,
                    fix: `report this perfguard bug with the error below; meanwhile check what ${spec.name} checks by hand (docs/policies/${spec.name}.md)`,
                    basis: [thrownBasis(e)],
                });
            }
            // In a stack policy the SDK's notApplicable ends the whole policy: per-resource
            // not-applicable reasons stay in the decisions, for --explain only.
            decisions.flushGrouped();
            if (explaining) {
                explainStack(spec, stack, decisions);
            }
        },
    };
}

/**
 * Builds a resource policy (Analyze: one resource's inputs, before it is created or updated).
 * @returns an SDK ResourceValidationPolicy; its validateResource never throws.
 */
export function resourcePolicy<C>(spec: ResourcePolicySpec<C>): ResourceValidationPolicy {
    registerPolicyId(spec.name);
    judgedKindsByPolicy.set(spec.name, { types: spec.types, roles: [] });
    const types = spec.types ? new Set(spec.types) : undefined;
    const configSchema = publishedSchema(spec);
    const meta: PolicyMeta = { ...spec, configSchema };
    // Unknown config keys (typos) do not stop the checks; they are reported once per pack process
    // on the first resource Analyze sees, whatever its type: the engine analyzes the root stack
    // resource first, so they show up against the stack. (A validateStack hook would report them
    // stack-wide, but the SDK decodes the whole stack again for every policy that has one.)
    const known = new Set(Object.keys(configSchema?.properties ?? {}));
    const only = types?.size === 1 ? [...types][0] : undefined;
    let calledIn = -1;
    const validateResource = (args: ResourceValidationArgs, reportViolation: ReportViolation): void => {
        calledIn = currentProcess();
        // Before the type filter: every resource's join keys may reach another stack's load.
        noteAnalyzed(args);
        reportUnknownKeys(meta, known, args.getConfig(), reportViolation);
        if (types && !types.has(args.type)) {
            if (explaining) {
                const resource = viewOf(args);
                recordFacts("analyze", resource);
                recordVerdict("analyze", spec.name, resource.urn, typeNotRead(`reads only ${[...types].join(", ")}`), 0);
            }
            // The SDK's own words when its fast path skips the policy (below), so that the CLI's
            // policy summary reads the same for the first resource, under --explain and after.
            if (only !== undefined) {
                notApplicableWithoutTrace(args, `Policy only applies to resources of type '${only}'`);
            }
            return;
        }
        // Analyze runs once per resource: report an invalid config on the first one only (the
        // checks cannot run, and Analyze blocks before anything is created). Unknown keys do not
        // stop the checks; reportUnknownKeys (above) reports them once per pack process.
        const config = configFor<C>(meta, args.getConfig(), reportViolation, true, false);
        if (config === undefined) {
            if (explaining) {
                recordVerdict(
                    "analyze",
                    spec.name,
                    String(args.urn ?? ""),
                    { applies: false, reason: "the policy config is invalid (reported as a violation), so no check ran" },
                    0,
                );
            }
            return;
        }
        const resource = viewOf(args);
        const decisions = new Decisions(spec, reportViolation, unverifiedLevel(config));
        isolate(resource, decisions.report, () => spec.check(resource, config, decisions.report));
        decisions.flushPerResource();
        if (explaining) {
            recordFacts("analyze", resource);
            const violations = decisions.violations.get(resource.urn) ?? 0;
            const verdict = decisions.outcome(resource.urn) ?? undecided(violations);
            recordVerdict("analyze", spec.name, resource.urn, verdict, violations);
        }
        // The SDK's not-applicable channel (it throws; the SDK records the reason).
        const notApplicable = decisions.onlyNotApplicable(resource.urn);
        if (notApplicable !== undefined) {
            notApplicableWithoutTrace(args, notApplicable);
        }
    };
    if (only !== undefined) {
        // The SDK's own fast path (@pulumi/policy 1.21 server.js Analyze): a validateResource with a
        // `__pulumiType` is skipped, undecoded, for every other type. Read on each call, so it is
        // set only once this policy has seen its first resource (the root stack, where unknown
        // config keys are reported whatever the type) and never under --explain (which records
        // "reads only ..." for the other types). This assumes one Configure per pack process, as the
        // CLI sends: a second one's unknown keys would show on the next resource of the type only.
        // Without it, the SDK builds each of the typed policies' arguments for every resource:
        // measured in BENCHMARKS.md, "A real `pulumi preview`".
        Object.defineProperty(validateResource, "__pulumiType", { get: () => (calledIn === currentProcess() && !explaining ? only : undefined) });
    }
    const policy: ResourceValidationPolicy = {
        name: spec.name,
        description: spec.description,
        enforcementLevel: spec.enforcementLevel,
        configSchema,
        validateResource,
    };
    const remediate = spec.remediate;
    if (remediate) {
        policy.remediateResource = (args: ResourceValidationArgs) => {
            if (types && !types.has(args.type)) {
                return undefined;
            }
            const config = readPolicyConfig<C>(spec.name, configSchema ?? EMPTY_SCHEMA, args.getConfig());
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
