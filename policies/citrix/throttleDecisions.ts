/**
 * citrix-broker-throttle's decisions, taken once per evaluation and settings: which zones and
 * Delivery Group locks it judges, and for each the one decision with the throttle it proposes.
 * The policy maps them to verdicts and messages; `check --report` reads them to tell a proposed
 * throttle a verdict asks for from a suggestion. Pure: no report, no wording.
 *
 * Throttles are first come, first served (evaluation: a lock can receive the throttles of every
 * controller that brokers for it), so a lock over what it sustains lowers its feeding zones.
 */
import type { CitrixEvaluation, GroupEvaluation, ZoneEvaluation } from "./evaluationTypes";
import type { Controller, Group, Zone } from "./site";

/** What the decisions depend on: citrix-broker-throttle's own settings. */
export interface ThrottleSettings {
    /** Zones at or above this RTT need the throttle (ms). */
    readonly requireAtRttMs: number;
    /** A judged zone without a Delivery Controller in the stack is a violation (else not checked). */
    readonly requireControllersInStack: boolean;
}

/** A judged zone with no Delivery Controller in the stack or in externalControllers. */
export interface NoControllers {
    readonly kind: "noControllers";
    readonly zone: ZoneEvaluation;
    readonly rttMs: number;
    /** Its name is unknown in the preview: no controller's perfguard:citrixZone can match it. */
    readonly nameUnknown: boolean;
    /** requireControllersInStack: a violation, else not checked. */
    readonly required: boolean;
}

/** Several controllers of a judged zone set no throttle: one verdict, on the zone. */
export interface ZoneUnthrottled {
    readonly kind: "zoneUnthrottled";
    readonly zone: ZoneEvaluation;
    readonly rttMs: number;
    /** The controllers without a throttle (two or more). */
    readonly unthrottled: readonly Controller[];
    /** Proposed on each of the zone's controllers: its most exposed lock's (undefined or 0: none fits). */
    readonly perController: number | undefined;
}

/** The one controller of a judged zone that sets no throttle. */
export interface ControllerUnthrottled {
    readonly kind: "controllerUnthrottled";
    readonly zone: ZoneEvaluation;
    readonly rttMs: number;
    readonly controller: Controller;
    /** Proposed on each of the zone's controllers (undefined or 0: none fits). */
    readonly perController: number | undefined;
}

/** One feeding zone whose throttles a lock-over decision lowers, and to what. */
export interface LoweredZone {
    readonly zone: Zone;
    readonly rttMs: number;
    /** Per controller: the zone's most exposed lock's throttle (0: none fits). */
    readonly perController: number;
}

/** A lock that its feeding controllers' throttles can put more on than it sustains. */
export interface LockOver {
    readonly kind: "lockOver";
    readonly lock: GroupEvaluation;
    /** What the throttles (or the group's own peak) can put on it, and what it sustains. */
    readonly exposure: number;
    readonly safe: number;
    /**
     * The zones it lowers, sorted by name: of its fix zones, those with a controller above (or
     * without) their value; empty when every zone already is at its value (the sum still is not).
     */
    readonly lowered: readonly LoweredZone[];
    /** The lock's own per-controller throttle, for the fallback fix (undefined: no controller). */
    readonly perController: number | undefined;
}

export type ZoneDecision = NoControllers | ZoneUnthrottled | ControllerUnthrottled;
export type ThrottleDecision = ZoneDecision | LockOver;

/** A zone the policy judges (not DaaS, RTT known and at or above requireAtRttMs). */
export interface JudgedZone {
    readonly zone: ZoneEvaluation;
    readonly rttMs: number;
    /** Where its RTT was declared. */
    readonly where: string;
    /** Its decision; undefined when each of its controllers has a throttle (or one unknown in the preview). */
    readonly decision?: ZoneDecision;
}

/** A lock the policy judges: fed by a judged zone, with a safe concurrency and an exposure. */
export interface JudgedLock {
    readonly lock: GroupEvaluation;
    readonly safe: number;
    readonly exposure: NonNullable<GroupEvaluation["exposure"]>;
    /** Its decision when over; undefined when within what it sustains. */
    readonly over?: LockOver;
}

/** Every decision of citrix-broker-throttle on one evaluation. */
export interface ThrottleDecisions {
    readonly settings: ThrottleSettings;
    /** Judged zones by zone. */
    readonly zones: ReadonlyMap<Zone, JudgedZone>;
    /** Judged locks, in the evaluation's order of groups. */
    readonly locks: readonly JudgedLock[];
    /** Every decision: zones' in the evaluation's order of zones, then locks over. */
    readonly all: readonly ThrottleDecision[];
    /**
     * Whether a decision proposes the zone's per-controller throttle (ZoneEvaluation.perController):
     * its own decision (a controller without a throttle), or a lock it feeds is over (that lock's
     * decision lowers its feeding zones to their values).
     */
    zoneProposed(zone: Zone): boolean;
    /**
     * Whether a decision proposes the lock's per-controller throttle: the lock is over, or a
     * feeding zone's proposal is this lock's value (the lock is among the zone's most exposed).
     */
    lockProposed(group: Group): boolean;
}

const memo = new WeakMap<CitrixEvaluation, Map<string, ThrottleDecisions>>();

/** The decisions on `evaluation` with `settings`, taken once per evaluation and settings. O(zones + locks). */
export function throttleDecisions(evaluation: CitrixEvaluation, settings: ThrottleSettings): ThrottleDecisions {
    let bySettings = memo.get(evaluation);
    if (!bySettings) {
        bySettings = new Map();
        memo.set(evaluation, bySettings);
    }
    const key = JSON.stringify([settings.requireAtRttMs, settings.requireControllersInStack]);
    let found = bySettings.get(key);
    if (!found) {
        found = decide(evaluation, settings);
        bySettings.set(key, found);
    }
    return found;
}

function zoneDecision(z: ZoneEvaluation, rttMs: number, settings: ThrottleSettings): ZoneDecision | undefined {
    const zone = z.zone;
    if (zone.controllers.length === 0) {
        return { kind: "noControllers", zone: z, rttMs, nameUnknown: zone.nameUnknown, required: settings.requireControllersInStack };
    }
    const unthrottled = zone.controllers.filter((c) => c.throttle.state === "absent");
    if (unthrottled.length > 1) {
        return { kind: "zoneUnthrottled", zone: z, rttMs, unthrottled, perController: z.perController };
    }
    return unthrottled.length === 1 ? { kind: "controllerUnthrottled", zone: z, rttMs, controller: unthrottled[0], perController: z.perController } : undefined;
}

/**
 * The zones a lock over lowers: of its fix zones (the satellites where that is enough, else
 * all), those with a controller above their value or without a known throttle. Each zone's value
 * is its most exposed lock's (this one or a more exposed one).
 */
function loweredZones(g: GroupEvaluation, byZone: ReadonlyMap<Zone, ZoneEvaluation>): LoweredZone[] {
    return [...g.feeds]
        .sort((a, b) => a.zone.resource.name.localeCompare(b.zone.resource.name))
        .filter((f) => g.fixZones === undefined || g.fixZones.includes(f.zone))
        .map((f) => ({ zone: f.zone, rttMs: f.rttMs, perController: byZone.get(f.zone)?.perController ?? 0 }))
        .filter((l) => l.zone.controllers.some((c) => c.throttle.state !== "ok" || c.throttle.value > l.perController));
}

function decide(evaluation: CitrixEvaluation, settings: ThrottleSettings): ThrottleDecisions {
    const zones = new Map<Zone, JudgedZone>();
    for (const z of evaluation.zones) {
        const rtt = z.zone.rttMs;
        if (z.zone.daas || rtt.state !== "ok" || rtt.value < settings.requireAtRttMs) {
            continue;
        }
        const decision = zoneDecision(z, rtt.value, settings);
        zones.set(z.zone, { zone: z, rttMs: rtt.value, where: rtt.where, ...(decision ? { decision } : {}) });
    }
    const locks: JudgedLock[] = [];
    for (const g of evaluation.groups) {
        if (g.safe === undefined || g.exposure === undefined || !g.feeds.some((f) => zones.has(f.zone))) {
            continue;
        }
        const over: LockOver | undefined =
            g.exposure.value > g.safe
                ? {
                      kind: "lockOver",
                      lock: g,
                      exposure: g.exposure.value,
                      safe: g.safe,
                      lowered: loweredZones(g, evaluation.byZone),
                      perController: g.perController,
                  }
                : undefined;
        locks.push({ lock: g, safe: g.safe, exposure: g.exposure, ...(over ? { over } : {}) });
    }
    const overs = new Set(locks.filter((l) => l.over).map((l) => l.lock.group));
    const zoneProposed = (zone: Zone): boolean => {
        const judged = zones.get(zone);
        if (!judged || zone.controllers.length === 0) {
            return false;
        }
        return judged.decision !== undefined || judged.zone.locks.some((g) => overs.has(g.group));
    };
    return {
        settings,
        zones,
        locks,
        all: [...[...zones.values()].flatMap((j) => (j.decision ? [j.decision] : [])), ...locks.flatMap((l) => (l.over ? [l.over] : []))],
        zoneProposed,
        lockProposed: (group) => {
            if (overs.has(group)) {
                return true;
            }
            const g = evaluation.byGroup.get(group);
            return g !== undefined && g.feeds.some((f) => zoneProposed(f.zone) && (evaluation.byZone.get(f.zone)?.perControllerFrom.includes(group) ?? false));
        },
    };
}
