/**
 * What each Delivery Group's lock sustains at the targets, and what that leaves each zone: a
 * zone's budget is the sum over its groups of each group's safe concurrency times the part of the
 * group's demand that comes from the zone (a group in one zone gives the zone all of it).
 */
import { maxSafeGroupConcurrency } from "../../model/deliveryGroupBrokering";
import type { BrokeringTargets } from "./targets";
import type { Group, Zone } from "./site";
import { GroupLoad } from "./load";

/** One group's lock at the targets. */
export interface GroupBudget {
    readonly load: GroupLoad;
    /** Most concurrent requests in all the lock sustains at the targets, with the group's zone mix. */
    readonly safe: number;
    /** Per zone: the part of the group's demand from it (sums to 1) and its share of the zone's throttles. */
    readonly zones: Array<{ zone: Zone; fraction: number; throttleFraction: number; rttMs: number }>;
}

/** Budgets of every judged group, and per zone the sum of its groups' parts. */
export interface SiteBudget {
    readonly groups: GroupBudget[];
    readonly zoneBudget: Map<Zone, number>;
    readonly byGroup: Map<Group, GroupBudget>;
}

function weightOf(load: GroupLoad, zone: Zone): number {
    const c = load.classes.find((x) => x.zone === zone);
    const share = load.group.shares.find((s) => s.zone === zone);
    return c?.demand ?? share?.machines ?? 0;
}

/** Builds the budgets; O(groups x zones per group + zones x groups per zone). */
export function siteBudget(loads: readonly GroupLoad[], targets: BrokeringTargets): SiteBudget {
    const byGroupLoad = new Map<Group, GroupLoad>(loads.map((l) => [l.group, l]));
    const groups: GroupBudget[] = [];
    const zoneBudget = new Map<Zone, number>();
    const byGroup = new Map<Group, GroupBudget>();
    for (const load of loads) {
        if (load.notChecked || load.classes.length === 0) {
            continue;
        }
        const weights = load.classes.map((c) => weightOf(load, c.zone));
        const total = weights.reduce((sum, w) => sum + w, 0);
        const fractions = weights.map((w) => (total > 0 ? w / total : 1 / weights.length));
        const safe = maxSafeGroupConcurrency(load.classes.map((c, i) => ({ rttMs: c.rttMs, weight: fractions[i] })),
            { targetResponseS: targets.targetResponseS, errorBudget: targets.errorBudgetPct / 100 });
        const zones = load.classes.map((c, i) => {
            const inZone = c.zone.groups.map((s) => {
                const other = byGroupLoad.get(s.group);
                return other ? weightOf(other, c.zone) : s.machines;
            });
            const zoneTotal = inZone.reduce((sum, w) => sum + w, 0);
            const throttleFraction = zoneTotal > 0 ? weights[i] / zoneTotal : 1 / c.zone.groups.length;
            return { zone: c.zone, fraction: fractions[i], throttleFraction, rttMs: c.rttMs };
        });
        const budget: GroupBudget = { load, safe, zones };
        groups.push(budget);
        byGroup.set(load.group, budget);
        for (const z of zones) {
            zoneBudget.set(z.zone, (zoneBudget.get(z.zone) ?? 0) + safe * z.fraction);
        }
    }
    return { groups, zoneBudget, byGroup };
}
