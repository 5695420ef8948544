/** Prediction and message of citrix-brokering-capacity for one Delivery Group's lock. */
import { GroupPrediction, predictGroupBrokering } from "../../model/deliveryGroupBrokering";
import type { GroupBudget } from "./budget";
import type { GroupLoad } from "./load";
import { round } from "./load";
import type { Message } from "../pack/message";
import { isShortened, shortName } from "../pack/message";
import { duration, num, pct } from "../pack/format";
import { BrokeringTargets } from "./targets";

export interface CapacityTargets extends BrokeringTargets {
    launchWindowMinutes: number;
}

/** The lock's classes that carry a concurrency, as the model takes them. */
export function classesOf(load: GroupLoad): Array<{ rttMs: number; concurrency: number }> {
    return load.classes.filter((c) => c.concurrency !== undefined && c.concurrency > 0).map((c) => ({ rttMs: c.rttMs, concurrency: c.concurrency as number }));
}

/** Zone names of the classes classesOf keeps, in the same order. */
function zonesOf(load: GroupLoad): string[] {
    return load.classes.filter((c) => c.concurrency !== undefined && c.concurrency > 0).map((c) => c.zone.zoneName);
}

export function predictLoad(load: GroupLoad): GroupPrediction | undefined {
    const classes = classesOf(load);
    return classes.length === 0 ? undefined : predictGroupBrokering({ classes, users: load.users });
}

export function groupName(load: GroupLoad): string {
    return `${load.group.implicit ? "Zone" : "Delivery Group"} "${shortName(load.group.resource.name)}"`;
}

/** The verdict for one lock, or undefined when it meets every target. */
export function capacityMessage(load: GroupLoad, p: GroupPrediction, budget: GroupBudget | undefined, t: CapacityTargets, zoneGroups: number): Message | undefined {
    const problems: string[] = [];
    const slow = p.worstMeanResponseS > t.targetResponseS || p.worstErrorRate > t.errorBudgetPct / 100;
    if (p.worstMeanResponseS > t.targetResponseS) {
        problems.push(`mean ${num(p.worstMeanResponseS)} s > ${num(t.targetResponseS)} s`);
    }
    if (p.worstErrorRate > t.errorBudgetPct / 100) {
        problems.push(`${pct(p.worstErrorRate)} timed out > ${num(t.errorBudgetPct, 4)}%`);
    }
    const longLaunch = p.launchTimeS !== undefined && p.launchTimeS > t.launchWindowMinutes * 60;
    if (longLaunch && load.users !== undefined) {
        problems.push(`${load.users} users in ${duration(p.launchTimeS as number)} > ${num(t.launchWindowMinutes)} min`);
    }
    if (problems.length === 0) {
        return undefined;
    }
    const safe = budget?.safe ?? 0;
    const fixes: string[] = [];
    if (slow) {
        fixes.push(safe > 0
            ? `cap its lock at ${safe} concurrent requests with ${classesOf(load).length > 1 ? "the zones'" : "its zone's"} throttles, or split the Delivery Group (one lock each)`
            : "split the Delivery Group: no concurrency meets the targets on this lock");
    }
    if (longLaunch && load.users !== undefined) {
        const best = safe > 0 ? predictGroupBrokering({ classes: classesOf(load).map((c) => ({ ...c, concurrency: (c.concurrency / p.concurrency) * safe })), users: load.users }) : undefined;
        const bestS = best?.launchTimeS ?? Number.POSITIVE_INFINITY;
        fixes.push(bestS > t.launchWindowMinutes * 60
            ? `even at ${safe} concurrent requests its lock takes ${duration(bestS)}: split the Delivery Group (one lock each) or spread the logon storm over time`
            : `allow up to ${safe} concurrent requests into its lock (the launch then takes ${duration(bestS)})`);
    }
    const basis = [
        `lock: ${zonesOf(load).map((z, i) => ({ z, c: p.classes[i] })).sort((a, b) => a.z.localeCompare(b.z)).map(({ z, c }) => `${round(c?.concurrency ?? 0)} from zone "${z}" at ${num(c?.rttMs ?? 0)} ms`).join(", ")}; targets targetResponseS, errorBudgetPct (brokering model)`,
        ...p.notMeasured,
        ...(zoneGroups > 1 ? ["several Delivery Groups at once on one Site database: not measured"] : []),
        ...load.notes,
    ];
    if (!load.group.implicit && isShortened(load.group.resource.name)) {
        basis.push(`Delivery Group: ${load.group.resource.name}`);
    }
    return {
        problem: `${groupName(load)}: at ${round(p.concurrency)} concurrent launches its lock misses the targets (${problems.join("; ")}).`,
        fix: fixes.join("; "),
        basis,
    };
}
