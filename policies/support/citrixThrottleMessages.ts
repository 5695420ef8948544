/** Messages of citrix-broker-throttle (kept out of the policy file, which reads as the rule). */
import { CITRIX_GUIDANCE } from "../../model/citrixGuidance";
import type { Message } from "./message";
import { isShortened, shortName } from "./message";
import type { Controller, Zone } from "./citrixSite";
import type { GroupBudget } from "./citrixBudget";
import { round } from "./citrixLoad";
import { num } from "./format";
import { targetsBasis, BrokeringTargets } from "./citrixTargets";

export const THROTTLE = CITRIX_GUIDANCE.throttleKeyPath;
const DECLARE = "and declare it as perfguard:throttleMaxConcurrentTransactions";

/** The per-controller throttle that keeps a zone within its budget. */
export function perController(budget: number, controllers: number): number {
    return Math.max(0, Math.floor(budget / Math.max(1, controllers)));
}

/** "set the DWORD ... to 6 on each of the zone's 2 Delivery Controllers ..." */
export function zoneFix(zone: Zone, budget: number): string {
    const count = zone.controllers.length;
    const each = perController(budget, count);
    if (each === 0) {
        return budget < 1
            ? `no concurrency meets the targets at ${zone.rttMs.state === "ok" ? num(zone.rttMs.value) : "this"} ms: split the Delivery Groups, or deploy a separate Site (citrix-zone-rtt-limit)`
            : `let at most ${Math.floor(budget)} of zone "${shortName(zone.zoneName)}"'s ${count} Delivery Controllers broker, with ${THROTTLE} set to 1 ${DECLARE}`;
    }
    return count === 1
        ? `set the DWORD ${THROTTLE} to ${each} on zone "${shortName(zone.zoneName)}"'s Delivery Controller ${DECLARE}`
        : `set the DWORD ${THROTTLE} to ${each} on each of zone "${shortName(zone.zoneName)}"'s ${count} Delivery Controllers (${each * count} in all) ${DECLARE}`;
}

function basisFor(zone: Zone, budget: number, targets: BrokeringTargets, rttWhere: string): string[] {
    const lines = [
        `zone budget ${round(budget)} requests: the sum over its ${zone.groups.length} Delivery Group lock(s) at ${targetsBasis(targets)}; RTT from ${rttWhere}`,
    ];
    if (zone.groups.length > 1) {
        lines.push("several Delivery Groups at once on one Site database: not measured");
    }
    if (isShortened(zone.resource.name)) {
        lines.push(`zone ${zone.resource.name}, name input "${zone.zoneName}" (what perfguard:citrixZone names)`);
    }
    return lines;
}

/** One controller without a throttle; `pointTo` = the zone carries the fix (several unthrottled). */
export function unthrottledMessage(controller: Controller, zone: Zone, rttMs: number, rttWhere: string, budget: number, targets: BrokeringTargets, pointTo: boolean, demand: number | undefined): Message {
    // The zone's declared demand: its peak, plus the part of Delivery Groups' own peaks in it.
    // Within the budget the problem line says only what is missing (a cap); that the peak meets the
    // targets goes to a basis line, so the line stays within 160 characters.
    const within = demand !== undefined && demand <= budget;
    const meets = within
        ? `: nothing caps a logon storm above its peak of ${round(demand)}`
        : demand !== undefined ? `: its peak of ${round(demand)} exceeds the ${round(Math.floor(budget))} that meet the targets` : "";
    return {
        problem: `Delivery Controller "${shortName(controller.name)}" of Zone "${shortName(zone.resource.name)}" (${num(rttMs)} ms) sets no brokering throttle${meets}.`,
        fix: pointTo ? `see the violation on ${zone.resource.label}: ${zoneFix(zone, budget)}` : zoneFix(zone, budget),
        basis: [
            ...(within ? [`the declared peak of ${round(demand)} is within the ${round(Math.floor(budget))} that meet the targets`] : []),
            ...basisFor(zone, budget, targets, rttWhere),
        ],
    };
}

/** Several unthrottled controllers of one zone: the fix, stated once on the zone. */
export function zoneUnthrottledMessage(zone: Zone, count: number, rttMs: number, rttWhere: string, budget: number, targets: BrokeringTargets): Message {
    return {
        problem: `Zone "${shortName(zone.resource.name)}" (${num(rttMs)} ms) has ${count} Delivery Controllers without a brokering throttle, so nothing caps its concurrent requests.`,
        fix: zoneFix(zone, budget),
        basis: basisFor(zone, budget, targets, rttWhere),
    };
}

/** A group's lock receives more than it sustains from the throttles of the zones that broker into it. */
export function groupOverMessage(budget: GroupBudget, shares: number, budgets: Map<Zone, number>, targets: BrokeringTargets): Message {
    const load = budget.load;
    const spans = budget.zones.length > 1;
    const name = `${load.group.implicit ? "Zone" : "Delivery Group"} "${shortName(load.group.resource.name)}"`;
    const where = spans ? ` across ${budget.zones.length} zones` : "";
    const fixes = budget.zones.map((z) => zoneFix(z.zone, budgets.get(z.zone) ?? 0));
    const notMeasured = budget.safe === 0 ? [] : [];
    return {
        problem: `${name}: the throttles allow ${round(shares)} concurrent brokering requests into its ${spans ? "one " : ""}lock${where}, above the ${budget.safe} it sustains at the targets.`,
        fix: `${fixes.join("; ")}${spans ? "; or split the Delivery Group by zone (one lock each)" : ""}`,
        basis: [
            `lock: ${[...budget.zones].sort((a, b) => a.zone.zoneName.localeCompare(b.zone.zoneName)).map((z) => `${round(shares * z.fraction)} from zone "${z.zone.zoneName}" at ${num(z.rttMs)} ms`).join(", ")}; ${targetsBasis(targets)}`,
            ...(spans ? ["a Delivery Group brokered from several zones: not measured (multi-class MVA of its one lock)"] : []),
            ...(shares > 60 ? [`${round(shares)} concurrent requests: not measured (the source measured up to 60)`] : []),
            ...notMeasured,
            ...load.notes,
        ],
    };
}
