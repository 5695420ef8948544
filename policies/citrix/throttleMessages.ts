/** Messages of citrix-broker-throttle (kept out of the policy file, which reads as the rule). */
import { CITRIX_GUIDANCE } from "../../model/citrixGuidance";
import { MEASURED_MAX_CONCURRENCY } from "../../model/deliveryGroupBrokering";
import type { Message } from "../pack/message";
import { shortName } from "../pack/message";
import { factAsWritten } from "../pack/facts";
import type { Controller, Zone } from "./site";
import type { ZoneEvaluation } from "./evaluationTypes";
import { fitted, groupRef, groupShort, rttNotes, zoneRef, zoneShort } from "./names";
import type { ControllerUnthrottled, LockOver, ZoneUnthrottled } from "./throttleDecisions";
import { round } from "./load";
import { cappedList, num, plural } from "../pack/format";
import { targetsBasis, BrokeringTargets } from "./targets";

// HKLM: the abbreviation regedit, reg.exe and Citrix's own articles use for HKEY_LOCAL_MACHINE.
export const THROTTLE = CITRIX_GUIDANCE.throttleKeyPath.replace(/^HKEY_LOCAL_MACHINE\\/, "HKLM\\");

/** The fact that declares a controller's throttle to perfguard (docs/facts.md). */
const THROTTLE_FACT = "throttleMaxConcurrentTransactions";

/**
 * "(and declare it: extraConfig "guestinfo.perfguard.throttleMaxConcurrentTransactions": "12")":
 * the fact as each controller's carrier writes it with the value proposed for its zone, sorted,
 * one per carrier and value; for a controller of `externalControllers`, its entry's `throttle`.
 */
function declare(zones: readonly { readonly controllers: readonly Controller[]; readonly each: number }[]): string {
    const forms = new Set<string>();
    for (const { controllers, each } of zones) {
        const value = String(each);
        for (const c of controllers) {
            forms.add(c.resource ? factAsWritten(c.resource.type, THROTTLE_FACT, value) : `throttle: ${value} in its externalControllers entry`);
        }
    }
    const list = [...forms].sort();
    return list.length === 0 ? `(and declare perfguard:${THROTTLE_FACT})` : `(and declare it: ${list.join("; ")})`;
}

/** The rule every fix states, on a basis line: throttles are first come, first served. */
export const FIRST_COME = "throttles: first come, first served";

/** "set the DWORD ... to 12 on each of zone "emea-zone"'s 2 Delivery Controllers ..." */
export function zoneFix(zone: Zone, each: number | undefined, rttMs?: number): string {
    const count = zone.controllers.length;
    if (each === undefined || each === 0) {
        return `no throttle keeps ${zoneShort(zone)}'s most exposed lock within the targets at ${rttMs !== undefined ? num(rttMs) : "this"} ms with ${plural(count, "Delivery Controller")}: split the Delivery Groups, let fewer controllers broker, or deploy a separate Site (citrix-zone-rtt-limit)`;
    }
    return count === 1
        ? `set the DWORD ${THROTTLE} to ${each} on ${zoneShort(zone)}'s Delivery Controller ${declare([{ controllers: zone.controllers, each }])}`
        : `set the DWORD ${THROTTLE} to ${each} on each of ${zoneShort(zone)}'s ${count} Delivery Controllers ${declare([{ controllers: zone.controllers, each }])}`;
}

function basisFor(z: ZoneEvaluation, targets: BrokeringTargets): string[] {
    const limit = z.lockLimit ?? 0;
    const lines = [`${FIRST_COME}; its most exposed lock sustains ${limit} at ${targetsBasis(targets)}`, ...rttNotes([z.zone])];
    if (z.lockLimit !== undefined && z.lockLimit > MEASURED_MAX_CONCURRENCY) {
        lines.push(`the fix stays within ${MEASURED_MAX_CONCURRENCY} concurrent requests per lock, the most the source measured against one Site database`);
    }
    return lines;
}

/** The one controller of its zone without a throttle (several: zoneUnthrottledMessage, once on the zone). */
export function unthrottledMessage(decision: ControllerUnthrottled, targets: BrokeringTargets): Message {
    const { controller, zone: z, rttMs } = decision;
    // A storm can be all for one group: the zone's declared demand against its most exposed lock.
    const limit = z.lockLimit ?? 0;
    const demand = z.demand;
    const within = demand !== undefined && demand <= limit;
    const meets = within
        ? `: nothing caps a logon storm above its peak of ${round(demand)}`
        : demand !== undefined
          ? `: its peak of ${round(demand)} exceeds the ${limit} one lock sustains`
          : "";
    const problem = fitted(
        (ref) => `Delivery Controller ${ref} sets no brokering throttle${meets}.`,
        `"${shortName(controller.name)}" of ${zoneRef(z.zone, false, rttMs)}`,
        (n) => `"${shortName(controller.name, n)}" of ${zoneShort(z.zone, n)} (${num(rttMs)} ms)`,
    );
    return {
        problem,
        fix: zoneFix(z.zone, decision.perController, rttMs),
        basis: [...(within ? [`the declared peak of ${round(demand)} is within the ${limit} its most exposed lock sustains`] : []), ...basisFor(z, targets)],
    };
}

/** Several unthrottled controllers of one zone: one cause, one verdict, on the zone (the controllers are named on its Basis). */
export function zoneUnthrottledMessage(decision: ZoneUnthrottled, targets: BrokeringTargets): Message {
    const { zone: z, unthrottled, rttMs } = decision;
    const demand = z.demand;
    const limit = z.lockLimit ?? 0;
    return {
        problem: fitted(
            (ref) => `${ref} has ${unthrottled.length} Delivery Controllers without a brokering throttle, so nothing caps its concurrent requests.`,
            zoneRef(z.zone, true, rttMs),
            (n) => `Zone "${shortName(z.zone.resource.name, n)}" (${num(rttMs)} ms)`,
        ),
        fix: zoneFix(z.zone, decision.perController, rttMs),
        basis: [
            `without a throttle: ${cappedList(unthrottled.map((c) => `"${shortName(c.name)}"`))}`,
            ...(demand !== undefined
                ? [
                      demand <= limit
                          ? `the declared peak of ${round(demand)} is within the ${limit} its most exposed lock sustains: nothing caps a storm above it`
                          : `its declared peak of ${round(demand)} exceeds the ${limit} one lock sustains`,
                  ]
                : []),
            ...basisFor(z, targets),
        ],
    };
}

/** A group's lock can receive more than it sustains from the throttles of the controllers that broker for it. */
export function groupOverMessage(over: LockOver, targets: BrokeringTargets): Message {
    const g = over.lock;
    const spans = g.feeds.length > 1;
    const exposure = g.exposure!;
    const sorted = [...g.feeds].sort((a, b) => a.zone.resource.name.localeCompare(b.zone.resource.name));
    // Each lowered zone's value is its most exposed lock's (this one or a more exposed one); a zone
    // already at or below it needs no change (throttleDecisions.ts).
    const lowered = over.lowered;
    const simple = lowered.length > 0 && lowered.every(({ perController }) => perController > 0);
    const throttles = simple
        ? `set the DWORD ${THROTTLE} ${declare(lowered.map((l) => ({ controllers: l.zone.controllers, each: l.perController })))} to ${lowered.map(({ zone, perController: each }) => (zone.controllers.length === 1 ? `${each} on ${zoneShort(zone)}'s Delivery Controller` : `${each} on each of ${zoneShort(zone)}'s ${zone.controllers.length} Delivery Controllers`)).join(", ")}`
        : lowered.length > 0
          ? lowered.map(({ zone, perController: each, rttMs }) => zoneFix(zone, each, rttMs)).join("; ")
          : // Every zone already at its own most exposed lock's value: the sum still is not (a
            // controller without a known throttle, or locks whose values differ).
            `lower the throttles of its ${plural(g.feeders, "Delivery Controller")} so that they add up to at most ${g.safe}${over.perController !== undefined && over.perController > 0 ? ` (${over.perController} each)` : ""}`;
    return {
        problem: fitted(
            (ref) =>
                `${ref}: the throttles of ${plural(g.feeders, "Delivery Controller")} can put ${round(exposure.value)} concurrent requests on its lock, above the ${g.safe} it sustains.`,
            groupRef(g.group, true),
            (n) => groupShort(g.group, true, n),
        ),
        fix: `${throttles}${spans ? "; or split the Delivery Group per zone (one lock each)" : ""}`,
        basis: [
            `${FIRST_COME} (each lock can receive every feeding controller's throttle): ${cappedList(
                sorted.map((f) => `${f.knownThrottles} from ${zoneShort(f.zone)} at ${num(f.rttMs)} ms`),
                5,
                false,
            )}${exposure.byPeak ? `, bounded by the group's own peak of ${round(exposure.value)}` : ""}; ${targetsBasis(targets)}`,
            ...g.rttNotes,
            ...(spans ? ["a Delivery Group brokered from several zones: not measured (multi-class MVA of its one lock)"] : []),
            ...(exposure.value > MEASURED_MAX_CONCURRENCY
                ? [`${round(exposure.value)} concurrent requests: not measured (the source measured up to ${MEASURED_MAX_CONCURRENCY})`]
                : []),
            ...g.load.notes,
        ],
    };
}
