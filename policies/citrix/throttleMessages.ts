/** Messages of citrix-broker-throttle (kept out of the policy file, which reads as the rule). */
import { CITRIX_GUIDANCE } from "../../model/citrixGuidance";
import { MEASURED_MAX_CONCURRENCY } from "../../model/deliveryGroupBrokering";
import type { Message } from "../pack/message";
import { isShortened, shortName } from "../pack/message";
import type { Controller, Zone } from "./site";
import type { GroupBudget } from "./budget";
import { round } from "./load";
import { num, plural } from "../pack/format";
import { targetsBasis, BrokeringTargets } from "./targets";

// HKLM: the abbreviation regedit, reg.exe and Citrix's own articles use for HKEY_LOCAL_MACHINE.
export const THROTTLE = CITRIX_GUIDANCE.throttleKeyPath.replace(/^HKEY_LOCAL_MACHINE\\/, "HKLM\\");
const DECLARE = "(and perfguard:throttleMaxConcurrentTransactions)";

/** The per-controller throttle that keeps a zone within its budget. */
export function perController(budget: number, controllers: number): number {
    return Math.max(0, Math.floor(budget / Math.max(1, controllers)));
}

/** "set the DWORD ... to 6 on each of the zone's 2 Delivery Controllers ..." */
export function zoneFix(zone: Zone, zoneBudget: number): string {
    // Several locks may sustain more than was ever measured against one Site database: a fix never
    // recommends more than that (citrix-site-database-load reports the rest).
    const budget = Math.min(zoneBudget, MEASURED_MAX_CONCURRENCY);
    const count = zone.controllers.length;
    const each = perController(budget, count);
    if (each === 0) {
        return budget < 1
            ? `no concurrency meets the targets at ${zone.rttMs.state === "ok" ? num(zone.rttMs.value) : "this"} ms: split the Delivery Groups, or deploy a separate Site (citrix-zone-rtt-limit)`
            : `let at most ${Math.floor(budget)} of zone "${shortName(zone.zoneName)}"'s ${count} Delivery Controllers broker, with ${THROTTLE} set to 1 ${DECLARE}`;
    }
    return count === 1
        ? `set the DWORD ${THROTTLE} to ${each} on zone "${shortName(zone.zoneName)}"'s Delivery Controller ${DECLARE}`
        : `set the DWORD ${THROTTLE} to ${each} on each of zone "${shortName(zone.zoneName)}"'s ${count} Delivery Controllers ${DECLARE}`;
}

function basisFor(zone: Zone, budget: number, targets: BrokeringTargets): string[] {
    const lines = [
        // Where the RTT was read (rttWhere) is in the zone's --explain record.
        `zone budget ${round(budget)}: ${plural(zone.groups.length, "Delivery Group lock")} at ${targetsBasis(targets)}`,
    ];
    if (zone.groups.length > 1) {
        lines.push("several Delivery Groups at once on one Site database: not measured");
    }
    if (budget > MEASURED_MAX_CONCURRENCY) {
        lines.push(`the fix stays within ${MEASURED_MAX_CONCURRENCY} concurrent requests, the most the source measured against one Site database`);
    }
    if (isShortened(zone.resource.name)) {
        lines.push(`zone ${zone.resource.name}, name input "${zone.zoneName}" (what perfguard:citrixZone names)`);
    }
    return lines;
}

/** One controller without a throttle; `pointTo` = the zone carries the fix (several unthrottled). */
export function unthrottledMessage(controller: Controller, zone: Zone, rttMs: number, budget: number, targets: BrokeringTargets, pointTo: boolean, demand: number | undefined): Message {
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
            ...basisFor(zone, budget, targets),
        ],
    };
}

/** Several unthrottled controllers of one zone: the fix, stated once on the zone. */
export function zoneUnthrottledMessage(zone: Zone, count: number, rttMs: number, budget: number, targets: BrokeringTargets): Message {
    return {
        problem: `Zone "${shortName(zone.resource.name)}" (${num(rttMs)} ms) has ${count} Delivery Controllers without a brokering throttle, so nothing caps its concurrent requests.`,
        fix: zoneFix(zone, budget),
        basis: basisFor(zone, budget, targets),
    };
}

/** The sum of a zone's known throttles (unknown or absent ones are reported elsewhere). */
function knownThrottles(zone: Zone): number {
    return zone.controllers.reduce((sum, c) => sum + (c.throttle.state === "ok" ? c.throttle.value : 0), 0);
}

/** A group's lock receives more than it sustains from the throttles of the zones that broker into it. */
export function groupOverMessage(budget: GroupBudget, shares: number, budgets: Map<Zone, number>, targets: BrokeringTargets): Message {
    const load = budget.load;
    const spans = budget.zones.length > 1;
    const name = `${load.group.implicit ? "Zone" : "Delivery Group"} "${shortName(load.group.resource.name)}"`;
    // Each zone's part of the lock's budget, through the share of its throttles that reaches this
    // lock (never above the zone's own budget); a zone already within its part needs no change.
    const sorted = [...budget.zones].sort((a, b) => a.zone.zoneName.localeCompare(b.zone.zoneName));
    const lowered = sorted.map((z) => {
        const needed = Math.min(budgets.get(z.zone) ?? 0, z.throttleFraction > 0 ? (budget.safe * z.fraction) / z.throttleFraction : 0);
        return { z, needed, each: perController(needed, z.zone.controllers.length) };
    }).filter(({ z, each }) => z.zone.controllers.some((c) => c.throttle.state !== "ok" || c.throttle.value > each));
    const simple = lowered.length > 0 && lowered.every(({ each }) => each > 0);
    // The DWORD path stated once, then one value per zone.
    const throttles = simple
        ? `set the DWORD ${THROTTLE} ${DECLARE} to ${lowered.map(({ z, each }) => (z.zone.controllers.length === 1 ? `${each} on zone "${shortName(z.zone.zoneName)}"'s Delivery Controller` : `${each} on each of zone "${shortName(z.zone.zoneName)}"'s ${z.zone.controllers.length} Delivery Controllers`)).join(", ")}`
        : lowered.map(({ z, needed }) => zoneFix(z.zone, needed)).join("; ");
    return {
        problem: `${name}: the throttles${spans ? ` of ${budget.zones.length} zones` : ""} allow ${round(shares)} concurrent ${spans ? "" : "brokering "}requests into its ${spans ? "one " : ""}lock, above the ${budget.safe} it sustains at the targets.`,
        fix: `${throttles}${spans ? "; or split the Delivery Group by zone (one lock each)" : ""}`,
        basis: [
            // Each zone's known throttles times the part of them that reaches this lock (by demand).
            `lock: ${sorted.map((z) => `${round(knownThrottles(z.zone) * z.throttleFraction)} from zone "${z.zone.zoneName}" at ${num(z.rttMs)} ms`).join(", ")}; ${targetsBasis(targets)}`,
            ...(spans ? ["a Delivery Group brokered from several zones: not measured (multi-class MVA of its one lock)"] : []),
            ...(shares > 60 ? [`${round(shares)} concurrent requests: not measured (the source measured up to 60)`] : []),
            ...load.notes,
        ],
    };
}
