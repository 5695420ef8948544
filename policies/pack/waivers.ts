/**
 * Waivers: `perfguard:waive=<policy-id>[,<policy-id>...]` with a required `perfguard:waiveReason`
 * on a resource. A waived verdict is not dropped: it is reported at advisory level, prefixed
 * "waived", with the reason, so the waiver stays visible in every preview.
 *
 * A waiver may expire: `perfguard:waiveUntil=YYYY-MM-DD` holds through that day (UTC); after it the
 * verdict returns at its level, its message naming the expired waiver (expiredWaiverFor). A date
 * that does not parse waives nothing and is a perfguard-facts problem. The clock is injectable
 * (setWaiverClock) so tests never depend on today's date.
 *
 * A waiver is all or nothing: when it names any id that is not a policy of this pack (a typo such
 * as `citrix-zone-rtt`), it waives nothing on that resource, since the author's intent is unclear,
 * and perfguard-facts names the wrong id.
 */
import type { ResourceView } from "./resources";
import { escapeControl } from "./message";
import { foldCase } from "./values";

/** A granted waiver: the reason as shown in messages and where it was declared. */
export interface Waiver {
    readonly reason: string;
    readonly where: string;
}

/** Now, for waiver expiry; tests replace it (setWaiverClock). */
let clock: () => Date = () => new Date();

/** Replaces the clock waivers read (tests); returns the previous one to restore. */
export function setWaiverClock(now: () => Date): () => Date {
    const previous = clock;
    clock = now;
    return previous;
}

/** The first instant after `YYYY-MM-DD` (UTC), or undefined when the text is not a calendar date. */
export function waiverEnd(text: string): number | undefined {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
    if (!match) {
        return undefined;
    }
    const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const day = new Date(Date.UTC(y, m - 1, d));
    if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) {
        return undefined; // 2026-02-30 rolls over: not a date
    }
    return Date.UTC(y, m - 1, d + 1);
}

type Expiry = { state: "none" } | { state: "holds" } | { state: "expired"; until: string } | { state: "invalid" } | { state: "unknown" };

function expiryOf(resource: ResourceView): Expiry {
    const until = resource.facts.text("waiveUntil");
    if (until.state === "absent") {
        return { state: "none" };
    }
    if (until.state === "unknown") {
        return { state: "unknown" }; // a preview's unknown date: the waiver is not assumed to hold
    }
    const text = until.state === "ok" ? until.value.trim() : "";
    const end = waiverEnd(text);
    if (end === undefined) {
        return { state: "invalid" };
    }
    return clock().getTime() < end ? { state: "holds" } : { state: "expired", until: text };
}

/** A problem with a waiver, as perfguard-facts reports it (a phrase without the resource name). */
export interface WaiverProblem {
    readonly problem: string;
    /** A shorter phrase for the problem line when the full one does not fit. */
    readonly short?: string;
    readonly fix: string;
}

/**
 * Every policy id of this pack, independent of which policy modules a process happens to load
 * (test/registry.test.ts checks it against the registry).
 */
export const POLICY_IDS: readonly string[] = [
    "perfguard-facts",
    "citrix-zone-rtt-limit",
    "citrix-zone-rtt-warning",
    "citrix-broker-throttle",
    "citrix-brokering-capacity",
    "citrix-site-limits",
    "citrix-site-database-load",
    "nsx-alb-se-capacity",
    "nsx-alb-se-capacity-advisory",
    "nsx-alb-se-minimum-resources",
    "nsx-alb-se-dedicated-dispatcher",
    "xen-dom0-workload",
    "xen-guest-network-share",
];

// Policies defined through definePolicy register here too, so a new policy is known before its id
// is added above (the registry test then asks for it).
const definedPolicyIds = new Set<string>(POLICY_IDS);

/** Records a policy id as defined (called by definePolicy). */
export function registerPolicyId(id: string): void {
    definedPolicyIds.add(foldCase(id));
}

/** True when `id` (any case) is a policy of this pack. */
export function isPolicyId(id: string): boolean {
    return definedPolicyIds.has(foldCase(id.trim()));
}

function waivedIds(resource: ResourceView): string[] {
    const waive = resource.facts.text("waive");
    return waive.state === "ok"
        ? waive.value
              .split(",")
              .map((id) => foldCase(id.trim()))
              .filter((id) => id.length > 0)
        : [];
}

/** The reason as messages show it: one line, at most 200 characters, control characters escaped. */
function shownReason(reason: string): string {
    const line = escapeControl(reason.replace(/\s+/g, " ").trim());
    return line.length <= 200 ? line : `${line.slice(0, 197)}...`;
}

/**
 * The waiver of `policyId` on `resource`, or undefined: none, no valid reason, or a list that
 * names an id that is not a policy (then the violation keeps its level and perfguard-facts
 * reports the waiver).
 */
export function waiverFor(resource: ResourceView, policyId: string): Waiver | undefined {
    const granted = grantedWaiver(resource, policyId);
    if (granted === undefined) {
        return undefined;
    }
    const expiry = expiryOf(resource).state;
    return expiry === "none" || expiry === "holds" ? granted : undefined;
}

/** The waiver as granted, expiry aside. */
function grantedWaiver(resource: ResourceView, policyId: string): Waiver | undefined {
    const ids = waivedIds(resource);
    if (!ids.includes(foldCase(policyId)) || ids.some((id) => !definedPolicyIds.has(id))) {
        return undefined;
    }
    const reason = resource.facts.text("waiveReason");
    return reason.state === "ok" ? { reason: shownReason(reason.value), where: reason.where } : undefined;
}

/**
 * The line a verdict carries when its waiver expired: `waiver expired after 2026-01-31 (owner
 * "team-x"; perfguard:waiveReason ...: "reason")`; undefined when no waiver of `policyId` expired.
 */
export function expiredWaiverFor(resource: ResourceView, policyId: string): string | undefined {
    const granted = grantedWaiver(resource, policyId);
    const expiry = expiryOf(resource);
    if (granted === undefined || expiry.state !== "expired") {
        return undefined;
    }
    const owner = resource.facts.text("waiveOwner");
    const ownerText = owner.state === "ok" ? `owner "${shownReason(owner.value).slice(0, 80)}"; ` : "";
    return `waiver expired after ${expiry.until} (${ownerText}${granted.where}: "${escapeControl(granted.reason)}")`;
}

function shownId(id: string): string {
    return id.length <= 64 ? `"${escapeControl(id)}"` : `an id of ${id.length} characters`;
}

/** Problems with a resource's waiver, as perfguard-facts reports them. */
export function waiverProblems(resource: ResourceView): WaiverProblem[] {
    const ids = waivedIds(resource);
    if (ids.length === 0) {
        return [];
    }
    const problems: WaiverProblem[] = [];
    const reason = resource.facts.text("waiveReason");
    if (reason.state === "absent") {
        const named = ids.length <= 2 ? ids.map(shownId).join(", ") : `${ids.slice(0, 2).map(shownId).join(", ")} and ${ids.length - 2} more`;
        problems.push({
            problem: `perfguard:waive names ${named} but there is no perfguard:waiveReason, so the verdicts keep their level`,
            short: "perfguard:waive has no perfguard:waiveReason, so the verdicts keep their level",
            fix: "add perfguard:waiveReason=<why the waiver was granted> next to perfguard:waive",
        });
    }
    const until = resource.facts.text("waiveUntil");
    if (until.state !== "absent" && expiryOf(resource).state === "invalid") {
        problems.push({
            problem: "perfguard:waiveUntil is not a date (YYYY-MM-DD), so the waiver holds nowhere and the verdicts keep their level",
            short: "perfguard:waiveUntil is not a date (YYYY-MM-DD), so the verdicts keep their level",
            fix: "write the waiver's last day as YYYY-MM-DD (UTC), e.g. perfguard:waiveUntil=2026-06-30",
        });
    }
    if (ids.includes("perfguard-facts")) {
        problems.push({
            problem: "perfguard:waive names perfguard-facts, which cannot be waived",
            fix: "fix the unreadable fact instead: it means the checks that need it did not run",
        });
    }
    const unknown = ids.filter((id) => !definedPolicyIds.has(id));
    if (unknown.length > 0) {
        problems.push({
            problem: `perfguard:waive names ${unknown.map(shownId).join(", ")}, not ${unknown.length === 1 ? "a policy" : "policies"} of this pack, so it waives nothing here`,
            short: `perfguard:waive names ${unknown.length === 1 ? "an id that is not a policy" : `${unknown.length} ids that are not policies`}, so it waives nothing here`,
            fix: `name policies of this pack: ${[...definedPolicyIds].join(", ")}`,
        });
    }
    return problems;
}
