/**
 * The inputs of a group's judgement that are unknown in a preview or unreadable, and how the
 * evaluation judges them: once at each extreme (fail closed), the verdict kept only when both agree.
 */
import { placementFits } from "../../model/sePlacement";
import { SeGroupView } from "./seGroups";
import { DISPATCHER_MIN_VCPUS, SeGroupSizing, unknownSizingFields } from "./seGroupFields";
import type { NotChecked } from "../pack/definePolicy";
import { cappedList, listLabels, pct } from "../pack/format";
import { SeCapacityConfig } from "./config";
import { groupFits, within } from "./fit";
import { GroupEvaluation, Unit } from "./groupTypes";

export const NO_PROXY_CORE: NotChecked = {
    reason: "its SE group's dedicated dispatcher core takes the only vCPU per SE: no proxy core, and the NSX ALB 20.1.6 per-SE table has no row for that",
    remedy: `set dedicatedDispatcherCore "false" (as the 1 vCPU row was measured), or vcpusPerSe "${DISPATCHER_MIN_VCPUS}" or more`,
};

export function blockedOf(group: SeGroupView, sizing: SeGroupSizing | undefined): NotChecked | undefined {
    if (sizing) {
        return undefined;
    }
    const unknown = unknownSizingFields(group.fields);
    return unknown.length > 0
        ? {
              reason: `the sizing of its SE group is unknown in this preview (${unknown.join(", ")})`,
              remedy: "known after apply: run `pulumi policy analyze` after the update, or set those fields literally",
          }
        : {
              reason: "a sizing field of its SE group is invalid (perfguard-facts, or the policy config error, names it)",
              remedy: "fix the SE group field that perfguard-facts names",
          };
}

/** How an input that is unknown in this preview (or unreadable) is taken in one of the two judgements. */
export interface Variant {
    /** dedicatedDispatcherCore when unread: true takes a core from proxying (worst), false (best). */
    readonly dispatcher: boolean;
    /** scaleoutEcmp when unread: native scale-out keeps ingress on the primary SE (worst), BGP/ECMP spreads it (best). */
    readonly ecmp: boolean;
    /** perfguard:ingressPct when unread: all ingress (worst) or all egress (best). */
    readonly ingressPct: number | undefined;
    /** applicationProfileRef when unread: the lower of the SE's L4 and L7 throughput rows (worst) or the higher (best). */
    readonly profileRow: "lower" | "higher";
}
export const WORST_CASE: Variant = { dispatcher: true, ecmp: false, ingressPct: undefined, profileRow: "lower" };
export const BEST_CASE: Variant = { dispatcher: false, ecmp: true, ingressPct: 0, profileRow: "higher" };

/** One input the verdict depends on that is not known, as messages name it. */
interface Unread {
    /** The field, e.g. "dedicatedDispatcherCore", "scaleoutEcmp of shop-vs". */
    readonly field: string;
    /** "dedicatedDispatcherCore is unknown in this preview". */
    readonly what: string;
    /** The two settings judged, worst first: ["true", "false"]. */
    readonly settings: readonly [string, string];
}

function state(s: "unknown" | "invalid"): string {
    return s === "unknown" ? "unknown in this preview" : "not a Go boolean";
}

/** The inputs of a group's judgement that are unknown or unreadable (sorted names; one entry per field). */
export function unreadInputs(read: SeGroupSizing | undefined, units: readonly Unit[]): Unread[] {
    if (!read) {
        return [];
    }
    const out: Unread[] = [];
    if (read.dispatcherUnread) {
        out.push({
            field: "dedicatedDispatcherCore",
            what: `dedicatedDispatcherCore is ${read.dispatcherUnread === "unknown" ? state("unknown") : "invalid"}`,
            settings: ["true", "false"],
        });
    }
    const throughput = (u: Unit) => u.demands.some((d) => d.throughputGbps !== undefined && d.throughputGbps > 0);
    const ecmp = units.filter((u) => u.head.scaleoutEcmpUnread !== undefined && throughput(u)).map((u) => u.head.vs.name);
    if (ecmp.length > 0) {
        const how = units.some((u) => u.head.scaleoutEcmpUnread === "unknown") ? state("unknown") : state("invalid");
        out.push({ field: "scaleoutEcmp", what: `scaleoutEcmp of ${cappedList(ecmp, 3)} is ${how}`, settings: ["native scale-out", "BGP/ECMP"] });
    }
    const ingress = units.flatMap((u) => u.members.filter((m) => m.ingressPctUnread !== undefined).map((m) => m.placement.vs.name));
    if (ingress.length > 0) {
        out.push({
            field: "perfguard:ingressPct",
            what: `perfguard:ingressPct of ${cappedList(ingress, 3)} is unknown or invalid`,
            settings: ["all ingress", "all egress"],
        });
    }
    const profile = units.flatMap((u) => u.members.filter((m) => m.profileUnread).map((m) => m.placement.vs.name));
    if (profile.length > 0) {
        out.push({
            field: "applicationProfileRef",
            what: `applicationProfileRef of ${cappedList(profile, 3)} is ${state("unknown")}`,
            settings: ["the lower throughput row", "the higher"],
        });
    }
    return out;
}

/** What a judgement decides: the group's fit, its placement, each VS's fit, the measured-figures fit. */
export function verdictOf(e: GroupEvaluation, config: SeCapacityConfig): string {
    const p = e.placement;
    if (!p) {
        return "not judged";
    }
    const units = e.units.map((u) => (u.idle ? 0 : within(p.perVs[u.index].peak, config) ? 1 : 2));
    return JSON.stringify([groupFits(e, config), p.placeable, units, e.measured ? placementFits(e.measured, config.headroomPct) : null]);
}

/** "with dedicatedDispatcherCore true the busiest SE needs 120% (limit 80%)": one judgement's outcome in words. */
export function outcomeText(e: GroupEvaluation, unread: readonly Unread[], which: "worst" | "best", config: SeCapacityConfig): string {
    const settings = unread.map((u) => `${u.field} ${u.settings[which === "worst" ? 0 : 1]}`).join(", ");
    if (!e.placement) {
        return `with ${settings} ${e.blocked === NO_PROXY_CORE ? "a 1 vCPU SE has no proxy core (no table row)" : "it cannot be judged"}`;
    }
    return `with ${settings} it ${groupFits(e, config) ? "fits" : "does not fit"} (busiest SE ${pct(e.placement.worstSe.peak)}, limit ${pct(1 - config.headroomPct / 100)})`;
}

/** The Basis line of a verdict both judgements agree on. */
export function bothWaysText(unread: readonly Unread[], worst: GroupEvaluation): string {
    const worstSettings = unread.length === 1 ? unread[0].settings[0] : unread.map((u) => `${u.field} ${u.settings[0]}`).join(", ");
    const figures = worst.placement ? `; figures with ${worstSettings} (the higher load)` : "";
    return `${listLabels(unread.map((u) => u.what))}: judged with ${unread.map((u) => `${u.settings[0]} and ${u.settings[1]}`).join("; ")}, the same verdict${figures}`;
}
