/**
 * The decision API every policy's `check` reports through (Report), and the Decisions that
 * implement it for one policy call: verdicts sent as the SDK does (a waived one at advisory),
 * "not checked" reports at the policy's `unverified` level, and what --explain shows per resource.
 */
import type { EnforcementLevel, ReportViolation } from "@pulumi/policy";
import { Applicability, explaining } from "./decisionLog";
import { plural } from "./format";
import { escapeControl, Message, PROBLEM_LINE_MAX, renderMessage } from "./message";
import type { PolicyMeta } from "./policySchema";
import type { ResourceView } from "./resources";
import { expiredWaiverFor, waiverFor } from "./waivers";

/** What to do about a fact behind an encrypted secret that was not decrypted (`[secret]`). */
export const REDACTED_REMEDY =
    "run `pulumi policy analyze` with the stack's secrets provider (for a passphrase stack, PULUMI_CONFIG_PASSPHRASE), or export with `--show-secrets` for `perfguard check`; or keep perfguard facts out of secrets";

/** A "not checked" caused by a secret that was not decrypted, not by the preview. */
function redactedWhy(why: NotChecked): NotChecked {
    return {
        reason: `${why.reason.replace(/ in (?:this|the) preview/g, "")} (its perfguard facts are encrypted secrets that were not decrypted)`,
        remedy: REDACTED_REMEDY,
    };
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

/**
 * perfguard-facts cannot be waived: an unreadable fact means another check silently did not run,
 * so waiving it would waive every check on the resource.
 */
export const UNWAIVABLE_POLICY = "perfguard-facts";

/**
 * The SDK's reportViolation also takes an object that sets the level of one violation
 * (@pulumi/policy 1.21 server.js makeReportViolationFun); its typings only declare the string form.
 */
export interface ViolationWithLevel {
    message: string;
    description: string;
    enforcementLevel: EnforcementLevel;
    urn?: string;
}

export function reportWithLevel(reportViolation: ReportViolation, violation: ViolationWithLevel): void {
    (reportViolation as unknown as (v: ViolationWithLevel) => void)(violation);
}

/** How many names a grouped "not checked" report lists per reason. */
const FIRST_NAMES = 3;

/**
 * Collects what one policy call decided, per resource, and sends the violations: verdicts as the
 * SDK does (a waived one at advisory, prefixed "waived"), "not checked" at the `unverified` level
 * (per resource for a resource policy, grouped on the stack for a stack policy).
 */
export class Decisions {
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

    constructor(
        private readonly policy: PolicyMeta,
        private readonly reportViolation: ReportViolation,
        private readonly unverified: EnforcementLevel,
        kind: "stack" | "resource" = "resource",
    ) {
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
            this.sendUnverified(
                {
                    problem: `${label} not checked: ${sorted.map((w) => w.reason).join("; ")}.`,
                    fix: [...new Set(sorted.map((w) => w.remedy))].join("; "),
                },
                urn || undefined,
            );
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
        const first = (names: string[]) =>
            names.length <= FIRST_NAMES ? names.join(", ") : `${names.slice(0, FIRST_NAMES).join(", ")} and ${names.length - FIRST_NAMES} more`;
        // The problem line names the one reason and the first names when that fits, else the reason
        // alone, else only the count; what it leaves out goes to basis lines, so the line stays
        // within PROBLEM_LINE_MAX whatever the names and reasons.
        const count = plural(total, "resource");
        const withNames = list.length === 1 ? `${count} not checked: ${list[0].why.reason} (${first(list[0].names)}).` : "";
        const reasonOnly = list.length === 1 ? `${count} not checked: ${list[0].why.reason}; their verdicts are unknown.` : "";
        const namesFit = withNames !== "" && withNames.length <= PROBLEM_LINE_MAX;
        const problem = namesFit
            ? withNames
            : reasonOnly !== "" && reasonOnly.length <= PROBLEM_LINE_MAX
              ? reasonOnly
              : `${count} not checked, for ${plural(list.length, "reason")} (below); their verdicts are unknown.`;
        this.sendUnverified(
            {
                problem,
                fix: [...new Set(list.map((g) => g.why.remedy))].join("; "),
                basis: namesFit ? [] : list.map((g) => `${g.why.reason}: ${g.names.length} (${first(g.names)})`),
            },
            undefined,
        );
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

/** What --explain says of a resource the policy judges but on which `check` recorded nothing. */
export function undecided(violations: number): Applicability {
    return violations > 0
        ? { applies: true, detail: `reported ${plural(violations, "violation")} (no decision recorded)` }
        : { applies: false, reason: "no decision recorded: the check neither applied nor declared itself not applicable (a gap in the policy)" };
}
