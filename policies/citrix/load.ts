/**
 * Brokering load per Delivery Group and zone: each group's demand in each zone (its own
 * perfguard:peakConcurrentLaunches split over its zones by machines, or the zone's peak split
 * by machines over the zone's groups that declare no peak of their own; a zone's perfguard:users
 * likewise go to its groups without users of their own: a zone's fact describes the groups that
 * do not declare it), capped by the zone's Delivery Controllers' throttles split
 * over the groups they broker into in proportion to their demand: the expected load, which the
 * Citrix evaluation (evaluation.ts) predicts; the worst case of first-come throttles is the
 * evaluation's exposure.
 */
import type { NotChecked } from "../pack/definePolicy";
import { AFTER_APPLY, Group, Site, Zone } from "./site";

/** One zone's requests into one group. */
export interface LoadClass {
    readonly zone: Zone;
    readonly rttMs: number;
    /** Declared demand (concurrent launches) of the group in this zone, when any is declared. */
    readonly demand?: number;
    /** This group's share of the zone's throttles, when every controller of the zone is throttled. */
    readonly throttleShare?: number;
    /** What the lock sees from this zone: demand capped by the throttle share (or the share alone). */
    readonly concurrency?: number;
}

/** One group's load. */
export interface GroupLoad {
    readonly group: Group;
    readonly classes: LoadClass[];
    /** Users of its logon storm (its own fact, or its zones' users split by machines). */
    readonly users?: number;
    /** How the figures were found, for basis lines ("zone peak split by machines"). */
    readonly notes: string[];
    /** Why this group cannot be judged. */
    readonly notChecked?: NotChecked;
}

/** The zone's throttles: their sum when every controller has one (else undefined), and the count. */
export function zoneThrottle(zone: Zone): { sum?: number; unthrottled: number; unknown: number } {
    let sum = 0;
    let unthrottled = 0;
    let unknown = 0;
    for (const c of zone.controllers) {
        if (c.throttle.state === "ok") {
            sum += c.throttle.value;
        } else if (c.throttle.state === "absent") {
            unthrottled += 1;
        } else {
            unknown += 1;
        }
    }
    return { sum: zone.controllers.length > 0 && unthrottled === 0 && unknown === 0 ? sum : undefined, unthrottled, unknown };
}

function evenOr(weight: number, total: number, count: number): number {
    return total > 0 ? weight / total : 1 / count;
}

/** Demand of each group in each zone (undefined = nothing declared). */
function demands(site: Site): Map<Group, Map<Zone, number | undefined>> {
    const out = new Map<Group, Map<Zone, number | undefined>>();
    for (const group of site.groups) {
        const perZone = new Map<Zone, number | undefined>();
        const machines = group.shares.reduce((sum, s) => sum + s.machines, 0);
        for (const share of group.shares) {
            const peak = group.peakConcurrentLaunches;
            if (peak.state === "ok") {
                perZone.set(share.zone, peak.value * evenOr(share.machines, machines, group.shares.length));
                continue;
            }
            const zonePeak = share.zone.peakConcurrentLaunches;
            if (zonePeak.state !== "ok") {
                perZone.set(share.zone, undefined);
                continue;
            }
            const others = share.zone.groups.filter((s) => s.group.peakConcurrentLaunches.state !== "ok");
            const zoneMachines = others.reduce((sum, s) => sum + s.machines, 0);
            perZone.set(share.zone, zonePeak.value * evenOr(share.machines, zoneMachines, others.length));
        }
        out.set(group, perZone);
    }
    return out;
}

/** Every group's load, O(groups x zones per group). */
export function groupLoads(site: Site): GroupLoad[] {
    const demand = demands(site);
    return site.groups.map((group): GroupLoad => {
        const notes: string[] = [];
        if (group.notChecked) {
            return { group, classes: [], notes, notChecked: group.notChecked };
        }
        if (group.evenSplit) {
            notes.push("machines split evenly over its catalogs (a preview does not say which count is whose)");
        }
        const classes: LoadClass[] = [];
        let users = group.users.state === "ok" ? group.users.value : undefined;
        let zoneUsers = 0;
        let anyZoneUsers = false;
        for (const share of group.shares) {
            const zone = share.zone;
            if (zone.daas) {
                notes.push(`zone "${zone.zoneName}" is a Citrix DaaS resource location (not judged by the Site-database model)`);
                continue;
            }
            const rtt = zone.rttMs;
            if (rtt.state === "unknown") {
                return {
                    group,
                    classes: [],
                    notes,
                    notChecked: { reason: `the perfguard:rttMs of its zone "${zone.zoneName}" is unknown in this preview`, remedy: AFTER_APPLY },
                };
            }
            if (rtt.state !== "ok") {
                continue;
            }
            const d = demand.get(group)?.get(zone);
            const sharing = zone.groups.filter((s) => s.group.peakConcurrentLaunches.state !== "ok").length;
            if (d !== undefined && group.peakConcurrentLaunches.state !== "ok" && sharing > 1) {
                notes.push(`zone "${zone.zoneName}"'s peak split over its ${sharing} Delivery Groups by machines`);
            }
            const throttle = zoneThrottle(zone).sum;
            let throttleShare: number | undefined;
            if (throttle !== undefined) {
                const all = zone.groups.map((s) => demand.get(s.group)?.get(zone));
                const byDemand = all.every((v) => v !== undefined);
                const weights = zone.groups.map((s, i) => (byDemand ? all[i] : s.machines));
                const total = weights.reduce((sum, w) => sum + w, 0);
                const mine = zone.groups.findIndex((s) => s.group === group);
                throttleShare = throttle * evenOr(weights[mine], total, zone.groups.length);
            }
            if (group.users.state !== "ok" && zone.users.state === "ok") {
                // As the zone's peak: the zone's users are those of its groups without their own.
                const others = zone.groups.filter((s) => s.group.users.state !== "ok");
                const zoneMachines = others.reduce((sum, s) => sum + s.machines, 0);
                zoneUsers += zone.users.value * evenOr(share.machines, zoneMachines, others.length);
                anyZoneUsers = true;
            }
            const concurrency =
                d !== undefined
                    ? throttleShare !== undefined
                        ? Math.min(d, throttleShare)
                        : d
                    : throttleShare !== undefined && (group.users.state === "ok" || zone.users.state === "ok")
                      ? throttleShare
                      : undefined;
            classes.push({ zone, rttMs: rtt.value, demand: d, throttleShare, concurrency });
        }
        if (users === undefined && anyZoneUsers) {
            users = Math.round(zoneUsers);
        }
        return { group, classes, users, notes };
    });
}

/**
 * A zone's effective concurrency: the sum over its groups of what their locks see from it
 * (for `perfguard check --report`); undefined when nothing is declared.
 */
export function effectiveConcurrency(zone: Zone, loads: readonly GroupLoad[]): { value: number; how: string } | undefined {
    let value = 0;
    let any = false;
    for (const load of loads) {
        for (const c of load.classes) {
            if (c.zone === zone && c.concurrency !== undefined) {
                value += c.concurrency;
                any = true;
            }
        }
    }
    if (!any) {
        return undefined;
    }
    const throttle = zoneThrottle(zone).sum;
    const peak = zone.peakConcurrentLaunches;
    const how =
        peak.state === "ok" && throttle !== undefined && throttle < peak.value
            ? `the peak of ${peak.value} (${peak.where}) capped at ${throttle} by its Delivery Controllers' throttles`
            : peak.state === "ok" && Math.abs(value - peak.value) < 1e-9
              ? `${peak.value} concurrent launches at peak (${peak.where})`
              : `${round(value)} concurrent requests from its Delivery Groups${peak.state === "ok" ? ` (its peak of ${peak.value} and groups' own peaks, capped by throttle shares)` : ""}`;
    return { value, how };
}

/**
 * What a zone's Delivery Groups declare they need from it in all (the zone's peak, plus the part
 * of groups' own peaks in it); undefined when no group's demand in it is known.
 */
export function zoneDemand(zone: Zone, loads: readonly GroupLoad[]): number | undefined {
    let total = 0;
    let any = false;
    for (const load of loads) {
        for (const c of load.classes) {
            if (c.zone === zone && c.demand !== undefined) {
                total += c.demand;
                any = true;
            }
        }
    }
    return any ? total : undefined;
}

/** A figure for messages: whole numbers as they are, others to one decimal. */
export function round(value: number): string {
    return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
