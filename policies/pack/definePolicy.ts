/**
 * Turns a perfguard policy spec into an SDK policy object, adding what every policy needs and
 * none should write again: config defaults and validation, unknown config keys reported once,
 * proxy-free resource views, and per-resource isolation (one odd resource yields one clear
 * violation about itself, never a crashed preview or a lost verdict on another resource).
 */
import { rememberConfig } from "./policyConfigs";
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
import { Applicability, explaining, recordFacts, recordVerdict, typeNotRead } from "./decisionLog";
import { ResourceView, stackOf, StackView, viewOf } from "./resources";
import { expiredWaiverFor, registerPolicyId, waiverFor } from "./waivers";
import { escapeControl, Message, PROBLEM_LINE_MAX, renderMessage, shortLabel, shortName } from "./message";
import { plural } from "./format";
import type { FactRole } from "./factKeys";

/** The kinds of resources a policy judges, as its spec declares them (`types`, `roles`). */

/** What to do about a fact behind an encrypted secret that was not decrypted (`[secret]`). */
export const REDACTED_REMEDY = "run `pulumi policy analyze` with the stack's secrets provider (for a passphrase stack, PULUMI_CONFIG_PASSPHRASE), or export with `--show-secrets` for `perfguard check`; or keep perfguard facts out of secrets";

/** A "not checked" caused by a secret that was not decrypted, not by the preview. */
function redactedWhy(why: NotChecked): NotChecked {
    return { reason: `${why.reason.replace(/ in (?:this|the) preview/g, "")} (its perfguard facts are encrypted secrets that were not decrypted)`, remedy: REDACTED_REMEDY };
}

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

/**
 * Why a resource a policy judges could not be checked, and what would make it checkable:
 * `{ reason: "perfguard:rttMs is unknown in this preview", remedy: "known after apply: run ..." }`.
 */
export interface NotChecked {
    /** Short phrase, no resource name (stack policies group resources by it). */
    readonly reason: string;
    /** What would make it checkable. */
    readonly remedy: string;
}

/**
 * Reports one violation (a Message; plain strings are the old form) about `resource` (its URN is
 * attached) or stack-wide when omitted, and records each decision the policy takes: the one
 * decision API behind verdicts, "not checked" reports, the SDK's not-applicable channel and
 * --explain.
 */
export interface Report {
    (message: Message | string, resource?: ResourceView): void;
    /**
     * The policy evaluated `resource` (or the stack); `detail` names the numbers it used. Only
     * --explain shows the detail: pass a function to build it only then (a stack policy records
     * this for every resource it judges).
     */
    applied(detail: string | (() => string), resource?: ResourceView): void;
    /** None of the facts the policy needs is declared on `resource`: nothing to judge (a function: built only for --explain). */
    notApplicable(reason: string | (() => string), resource?: ResourceView): void;
    /**
     * Some of what the policy needs is declared but cannot be used (unknown in the preview,
     * unresolved, unreadable, in conflict): reported at the policy's `unverified` level.
     */
    notChecked(why: NotChecked, resource?: ResourceView): void;
}

/** What every perfguard policy declares. */
export interface PolicyMeta {
    /** The policy id: also the file name in policies/ and docs/policies/. */
    readonly name: string;
    /** One sentence; the CLI prints it above each message. */
    readonly description: string;
    readonly enforcementLevel: EnforcementLevel;
    /** JSON Schema of the config, with a `default` on every property (`unverified` is added). */
    readonly configSchema?: PolicyConfigSchema;
    /** False for a policy that judges nothing itself (perfguard-facts): no `unverified` key. */
    readonly reportsUnverified?: boolean;
}

/** The config keys a policy declares itself (`unverified` is added by definePolicy). */
export type OwnConfigKey<C> = Exclude<keyof C, keyof UnverifiedConfig> & string;

/**
 * The config schema of a policy whose config type is C: exactly one property per key of C (a key
 * of C missing from the schema, or a schema property C does not declare, is a compile error), each
 * with a `default` and a `description` (test/registry.test.ts).
 */
export interface ConfigSchemaOf<C> extends Omit<PolicyConfigSchema, "properties" | "required"> {
    readonly properties: { readonly [K in OwnConfigKey<C>]-?: PolicyConfigSchema["properties"][string] };
    readonly required?: Array<OwnConfigKey<C>>;
}

/** What a policy of config type C declares: PolicyMeta with its schema typed by C. */
export interface TypedPolicyMeta<C> extends Omit<PolicyMeta, "configSchema"> {
    /** JSON Schema of the config, one property per key of C, with a `default` on each (`unverified` is added). */
    readonly configSchema?: ConfigSchemaOf<C>;
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
    return { problem: `invalid config for policy ${policyName}: ${plural(errors.length, "problem")} (below); none of this policy's checks ran.`, fix, basis: errors };
}

/**
 * Which pack process this is, as tests see it: resetReportedOnce starts a new one. A one-type
 * resource policy takes the SDK's type fast path only after its first call in the current one.
 */
let processGeneration = 0;

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
function configFor<C>(policy: PolicyMeta, raw: unknown, reportViolation: ReportViolation, once: boolean, reportUnknownKeys = true): C | undefined {
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
 * Runs `fn` for one resource; an unexpected error becomes a violation about that resource
 * (naming the error class, never property values) instead of failing every verdict.
 */
export function isolate(resource: ResourceView, report: Report, fn: () => void): void {
    try {
        fn();
    } catch (e) {
        report({
            problem: `perfguard could not evaluate ${shortLabel(resource)} (internal error ${thrownName(e)}): its verdict is unknown.`,
            fix: `report this perfguard bug with the resource type ${resource.type} and the error below; meanwhile check this resource by hand (the other resources were evaluated)`,
            basis: [thrownBasis(e)],
        }, resource);
    }
}

/** What an internal error's problem line calls it: the error class, never its message. */
function thrownName(e: unknown): string {
    return e instanceof Error ? shortName(e.name) : "a non-Error value";
}

/** The basis line of an internal error: its class and the start of its message. */
function thrownBasis(e: unknown): string {
    return e instanceof Error ? `internal error ${e.name}: ${e.message.slice(0, 200)}` : "a non-Error value was thrown";
}

/**
 * perfguard-facts cannot be waived: an unreadable fact means another check silently did not run,
 * so waiving it would waive every check on the resource.
 */
export const UNWAIVABLE_POLICY = "perfguard-facts";

/** The levels a policy's `unverified` config key takes: the level of its "not checked" reports. */
export const UNVERIFIED_LEVELS = ["advisory", "mandatory"] as const;

/** Config every judging policy accepts besides its own keys. */
export interface UnverifiedConfig {
    /** Level of "not checked" reports (default advisory; "mandatory" blocks on blind spots). */
    readonly unverified?: (typeof UNVERIFIED_LEVELS)[number];
}

const UNVERIFIED_PROPERTY: PolicyConfigSchema["properties"][string] = {
    type: "string",
    enum: [...UNVERIFIED_LEVELS],
    default: "advisory",
    description: "Level of this policy's \"not checked\" reports (a fact unknown in the preview, an unresolved reference): advisory (default) or mandatory, to block on blind spots.",
};

/** The schema a policy is published with: its own properties plus `unverified` (unless it opts out). */
function publishedSchema(spec: PolicyMeta): PolicyConfigSchema | undefined {
    if (spec.reportsUnverified === false) {
        return spec.configSchema;
    }
    const own = spec.configSchema ?? EMPTY_SCHEMA;
    return { ...own, properties: { ...own.properties, unverified: UNVERIFIED_PROPERTY } };
}

/** How many names a grouped "not checked" report lists per reason. */
const FIRST_NAMES = 3;

/**
 * Collects what one policy call decided, per resource, and sends the violations: verdicts as the
 * SDK does (a waived one at advisory, prefixed "waived"), "not checked" at the `unverified` level
 * (per resource for a resource policy, grouped on the stack for a stack policy).
 */
class Decisions {
    /** URN ("" = the stack) -> violations reported about it. */
    readonly violations = new Map<string, number>();
    /** URN ("" = the stack) -> the last "applied" detail recorded. */
    private readonly applied = new Map<string, string>();
    /** URN ("" = the stack) -> the first "not applicable" reason recorded. */
    private readonly notApplicable = new Map<string, string>();
    /** URN -> the resource and why it was not checked, in the order recorded. */
    readonly notChecked = new Map<string, { resource?: ResourceView; whys: NotChecked[] }>();
    readonly report: Report;

    /**
     * Whether applied / not-applicable decisions are kept: always for a resource policy (one
     * resource; the SDK's not-applicable channel needs them), for a stack policy only under
     * --explain, the one reader of them there (a stack policy records one per resource it judges).
     */
    private readonly keepDecisions: boolean;
    /** Whether their texts are kept (--explain); otherwise a resource policy keeps "" for what was decided. */
    private readonly keepTexts: boolean;

    constructor(private readonly policy: PolicyMeta, private readonly reportViolation: ReportViolation, private readonly unverified: EnforcementLevel, kind: "stack" | "resource" = "resource") {
        this.keepTexts = explaining;
        this.keepDecisions = explaining || kind === "resource";
        // A resource of another stack (the inventory) adds load to what the previewed stack's
        // resources are judged with; it never gets a verdict, a decision or a "not checked" of its own.
        const report = ((message: Message | string, resource?: ResourceView) => {
            if (!resource?.foreign) {
                this.violation(message, resource);
            }
        }) as Report;
        report.applied = (detail, resource) => {
            if (this.keepDecisions && !resource?.foreign) {
                this.applied.set(resource?.urn ?? "", !this.keepTexts ? "" : typeof detail === "function" ? detail() : detail);
            }
        };
        report.notApplicable = (reason, resource) => {
            const urn = resource?.urn ?? "";
            if (this.keepDecisions && !this.notApplicable.has(urn) && !resource?.foreign) {
                // The reason is also the SDK's not-applicable text of a resource policy: always built there.
                this.notApplicable.set(urn, typeof reason === "function" ? reason() : reason);
            }
        };
        report.notChecked = (given, resource) => {
            if (resource?.foreign) {
                return;
            }
            const urn = resource?.urn ?? "";
            // On existing state nothing is unknown but a secret the run could not decrypt: say so.
            const why = resource?.facts.redacted && given.remedy.startsWith("known after apply") ? redactedWhy(given) : given;
            let entry = this.notChecked.get(urn);
            if (!entry) {
                entry = { resource, whys: [] };
                this.notChecked.set(urn, entry);
            }
            if (!entry.whys.some((w) => w.reason === why.reason && w.remedy === why.remedy)) {
                entry.whys.push(why);
            }
        };
        this.report = report;
    }

    /**
     * What was decided about `urn` ("" = the stack), undefined when nothing was recorded:
     * applied (with what was not checked besides), else not checked, else not applicable.
     */
    outcome(urn: string): Applicability | undefined {
        const whys = this.notChecked.get(urn)?.whys;
        const notChecked = whys && whys.length > 0 ? whys.map((w) => `${w.reason} (${w.remedy})`) : undefined;
        const detail = this.applied.get(urn);
        if (detail !== undefined) {
            return notChecked ? { applies: true, detail, notChecked } : { applies: true, detail };
        }
        if (notChecked) {
            return { applies: false, reason: whys!.map((w) => w.reason).join("; "), notChecked };
        }
        const reason = this.notApplicable.get(urn);
        return reason === undefined ? undefined : { applies: false, reason };
    }

    /** True when `check` decided nothing else about `urn` than "not applicable" (the SDK channel). */
    onlyNotApplicable(urn: string): string | undefined {
        return this.applied.has(urn) || this.notChecked.has(urn) || this.violations.has(urn) ? undefined : this.notApplicable.get(urn);
    }

    private violation(message: Message | string, resource: ResourceView | undefined): void {
        const urn = resource?.urn || undefined;
        this.violations.set(urn ?? "", (this.violations.get(urn ?? "") ?? 0) + 1);
        // A verdict is a decision: the resource was judged (its problem line says how).
        if (this.keepDecisions && !this.applied.has(urn ?? "") && typeof message !== "string") {
            this.applied.set(urn ?? "", `verdict: ${message.problem}`);
        }
        const text = typeof message === "string" ? message : renderMessage(message);
        const waiver = resource && this.policy.name !== UNWAIVABLE_POLICY ? waiverFor(resource, this.policy.name) : undefined;
        if (!waiver) {
            // An expired waiver: the verdict at its level, its message naming the waiver above the problem.
            const expired = resource && this.policy.name !== UNWAIVABLE_POLICY ? expiredWaiverFor(resource, this.policy.name) : undefined;
            this.reportViolation(expired === undefined ? text : `${expired}\n${text}`, urn);
            return;
        }
        reportWithLevel(this.reportViolation, {
            // The waiver on a line of its own above the problem: its reason is free text of any
            // length, and the problem line keeps its 160 characters.
            message: `${this.policy.description}\nwaived (${waiver.where}: "${escapeControl(waiver.reason)}")\n${text}`,
            description: this.policy.description,
            enforcementLevel: "advisory",
            urn,
        });
    }

    private sendUnverified(message: Message, urn: string | undefined): void {
        this.violations.set(urn ?? "", (this.violations.get(urn ?? "") ?? 0) + 1);
        reportWithLevel(this.reportViolation, {
            message: `${this.policy.description}\n${renderMessage(message)}`,
            description: this.policy.description,
            enforcementLevel: this.unverified,
            urn,
        });
    }

    /** Resource policy: one "not checked" violation on each resource that has any (unless waived). */
    flushPerResource(): void {
        for (const [urn, { resource, whys }] of this.notChecked) {
            if (resource && waiverFor(resource, this.policy.name)) {
                continue;
            }
            const label = resource ? resource.label : "the stack";
            // Sorted: a why recorded while judging another resource arrives in the engine's order.
            const sorted = [...whys].sort((a, b) => compareText(a.reason, b.reason) || compareText(a.remedy, b.remedy));
            this.sendUnverified({
                problem: `${label} not checked: ${sorted.map((w) => w.reason).join("; ")}.`,
                fix: [...new Set(sorted.map((w) => w.remedy))].join("; "),
            }, urn || undefined);
        }
    }

    /** Stack policy: one "not checked" violation on the stack, grouped by reason, count and first names. */
    flushGrouped(): void {
        const groups = new Map<string, { why: NotChecked; names: string[] }>();
        let total = 0;
        for (const { resource, whys } of this.notChecked.values()) {
            if (resource && waiverFor(resource, this.policy.name)) {
                continue;
            }
            total += 1;
            for (const why of whys) {
                const key = `${why.reason}\u0000${why.remedy}`;
                let group = groups.get(key);
                if (!group) {
                    group = { why, names: [] };
                    groups.set(key, group);
                }
                group.names.push(resource ? resource.label : "the stack");
            }
        }
        if (groups.size === 0) {
            return;
        }
        // Names and reasons sorted: the engine's resource order varies from run to run, and a
        // message that followed it would churn in a PR comment or a diff.
        const list = [...groups.values()].sort((a, b) => compareText(a.why.reason, b.why.reason) || compareText(a.why.remedy, b.why.remedy));
        for (const g of list) {
            g.names.sort(compareText);
        }
        const first = (names: string[]) => names.length <= FIRST_NAMES ? names.join(", ") : `${names.slice(0, FIRST_NAMES).join(", ")} and ${names.length - FIRST_NAMES} more`;
        // The problem line names the one reason and the first names when that fits, else the reason
        // alone, else only the count; what it leaves out goes to basis lines, so the line stays
        // within PROBLEM_LINE_MAX whatever the names and reasons.
        const count = plural(total, "resource");
        const withNames = list.length === 1 ? `${count} not checked: ${list[0].why.reason} (${first(list[0].names)}).` : "";
        const reasonOnly = list.length === 1 ? `${count} not checked: ${list[0].why.reason}; their verdicts are unknown.` : "";
        const namesFit = withNames !== "" && withNames.length <= PROBLEM_LINE_MAX;
        const problem = namesFit ? withNames
            : reasonOnly !== "" && reasonOnly.length <= PROBLEM_LINE_MAX ? reasonOnly
                : `${count} not checked, for ${plural(list.length, "reason")} (below); their verdicts are unknown.`;
        this.sendUnverified({
            problem,
            fix: [...new Set(list.map((g) => g.why.remedy))].join("; "),
            basis: namesFit ? [] : list.map((g) => `${g.why.reason}: ${g.names.length} (${first(g.names)})`),
        }, undefined);
        // --explain of the stack says what that violation is, next to what the check judged there.
        if (!this.keepTexts) {
            return;
        }
        const note = `${count} not checked, reported in one violation at the unverified level`;
        const judged = this.applied.get("");
        this.applied.set("", judged ? `${judged}; ${note}` : note);
    }
}

/** Code-unit order (not locale order): the same on every machine. */
function compareText(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

function unverifiedLevel(config: unknown): EnforcementLevel {
    const level = (config as UnverifiedConfig | undefined)?.unverified;
    return level === "mandatory" ? "mandatory" : "advisory";
}

/** What --explain says of a resource the policy judges but on which `check` recorded nothing. */
function undecided(violations: number): Applicability {
    return violations > 0
        ? { applies: true, detail: `reported ${plural(violations, "violation")} (no decision recorded)` }
        : { applies: false, reason: "no decision recorded: the check neither applied nor declared itself not applicable (a gap in the policy)" };
}

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
        const verdict = decisions.outcome(resource.urn)
            ?? (judged?.has(resource.type) || ofRole || violations > 0 ? undecided(violations) : typeNotRead(others));
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
                    recordVerdict("analyzeStack", spec.name, "", { applies: false, reason: "the policy config is invalid (reported as a violation), so no check ran" }, 0);
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
        calledIn = processGeneration;
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
                recordVerdict("analyze", spec.name, String(args.urn ?? ""), { applies: false, reason: "the policy config is invalid (reported as a violation), so no check ran" }, 0);
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
        Object.defineProperty(validateResource, "__pulumiType", { get: () => (calledIn === processGeneration && !explaining ? only : undefined) });
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
