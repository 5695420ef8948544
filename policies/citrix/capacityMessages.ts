/** Messages of citrix-brokering-capacity for one Delivery Group's lock. */
import { predictGroupBrokering } from "../../model/deliveryGroupBrokering";
import type { CitrixEvaluation, GroupEvaluation } from "./evaluation";
import { fitted, groupRef, groupShort, ONE_GROUP_TESTED, zoneRef, zoneShort } from "./evaluation";
import { round } from "./load";
import type { Message } from "../pack/message";
import { duration, num, pct } from "../pack/format";
import { BrokeringTargets } from "./targets";

export interface CapacityTargets extends BrokeringTargets {
    launchWindowMinutes: number;
    /** Brokered/s measured on this Site's database (0 = not measured: the source's plateau). */
    measuredSiteBrokeredPerS: number;
}

/** The line a message on a lock adds about the one Site database, when its launch time shares it. */
function siteLines(g: GroupEvaluation, e: CitrixEvaluation): string[] {
    const d = e.database;
    if (d.storms <= 1 || g.load.users === undefined) {
        return [];
    }
    return [d.capped
        // The cap lowers throughput with the requests still in flight, so responses rise (Little's law).
        ? `Site database: ${d.storms} groups' ${num(d.uncappedPerS)}/s capped at ${num(d.capPerS)}/s, response ×${num(d.responseScale, 2)}: ${ONE_GROUP_TESTED}`
        : `launch: ${d.storms} groups' storms at once on one Site database: ${ONE_GROUP_TESTED}`];
}

/** The verdict for one lock, or undefined when it meets every target. */
export function capacityMessage(g: GroupEvaluation, e: CitrixEvaluation, t: CapacityTargets): Message | undefined {
    const p = g.prediction!;
    const load = g.load;
    const problems: string[] = [];
    const slow = p.worstMeanResponseS > t.targetResponseS || p.worstErrorRate > t.errorBudgetPct / 100;
    if (p.worstMeanResponseS > t.targetResponseS) {
        problems.push(`mean ${num(p.worstMeanResponseS)} s > ${num(t.targetResponseS)} s`);
    }
    if (p.worstErrorRate > t.errorBudgetPct / 100) {
        problems.push(`${pct(p.worstErrorRate)} timed out > ${num(t.errorBudgetPct, 4)}%`);
    }
    const longLaunch = g.launchTimeS !== undefined && g.launchTimeS > t.launchWindowMinutes * 60;
    if (longLaunch && load.users !== undefined) {
        problems.push(`${load.users} users in ${duration(g.launchTimeS as number)} > ${num(t.launchWindowMinutes)} min`);
    }
    if (problems.length === 0) {
        return undefined;
    }
    const safe = g.safe ?? 0;
    const fixes: string[] = [];
    if (slow) {
        fixes.push(safe > 0
            ? `cap its lock at ${safe} concurrent requests (${g.feeds.length > 1 ? "the zones'" : "its zone's"} throttles) or split the Delivery Group (one lock each)`
            : "split the Delivery Group: no concurrency meets the targets on this lock");
    }
    if (longLaunch && load.users !== undefined) {
        const best = safe > 0 ? predictGroupBrokering({ classes: p.classes.map((c) => ({ rttMs: c.rttMs, concurrency: (c.concurrency / p.concurrency) * safe })) }) : undefined;
        // At its safe concurrency, never faster than the Site database's cap allows.
        const rate = best ? Math.min(best.successfulPerS, e.database.capPerS) : 0;
        const bestS = rate > 0 ? load.users / rate : Number.POSITIVE_INFINITY;
        if (bestS > t.launchWindowMinutes * 60) {
            fixes.push(`even at ${safe} concurrent requests its lock takes ${duration(bestS)}: split the Delivery Group (one lock each) or spread the logon storm over time`);
        } else if (!slow) {
            // When the lock is too slow, the cap above is the fix for both.
            fixes.push(`allow up to ${safe} concurrent requests into its lock (the launch then takes ${duration(bestS)})`);
        }
    }
    const zones = load.classes.filter((c) => c.concurrency !== undefined && c.concurrency > 0).map((c) => c.zone);
    const basis = [
        `lock: ${zones.map((z, i) => ({ z, c: p.classes[i] })).sort((a, b) => a.z.resource.name.localeCompare(b.z.resource.name)).map(({ z, c }) => `${round(c?.concurrency ?? 0)} from ${zoneShort(z)} at ${num(c?.rttMs ?? 0)} ms`).join(", ")} (brokering model)`,
        ...(longLaunch && p.worstErrorRate > 0.01 ? [`launch time at the successful rate, ${num(g.successfulPerS ?? 0, 2)}/s (a timed-out launch is retried)`] : []),
        ...p.notMeasured,
        ...siteLines(g, e),
        ...load.notes,
    ];
    return {
        problem: fitted((ref) => `${ref}: at ${round(p.concurrency)} concurrent launches, ${problems.join("; ")}.`, groupRef(g.group, true), groupShort(g.group, true)),
        fix: fixes.join("; "),
        basis,
    };
}

/**
 * A group spanning zones whose fastest zone's users pay for the slower ones: its response with
 * them at least twice its response alone, or missing the targets.
 */
export function spanMessage(g: GroupEvaluation): Message | undefined {
    const s = g.span;
    if (!s || !s.advise) {
        return undefined;
    }
    return {
        problem: fitted((ref) => `${ref} waits ${num(s.withOthersS)} s on the lock it shares with slower zones, against ${num(s.aloneS)} s alone.`,
            `${groupRef(g.group, true)}: ${zoneRef(s.fastest, false, s.rttMs)}`, `${groupShort(g.group, true)}: ${zoneShort(s.fastest)} (${num(s.rttMs)} ms)`),
        fix: "split the group per zone (one lock each)",
        basis: [
            `${zoneShort(s.fastest)}: ${round(s.concurrency)} concurrent requests, ${pct(s.errorRate)} timed out with the slower zones; alone: its own lock at the same concurrency (brokering model)`,
            "a launch's RTT is that of the zone whose controllers broker it, taken as the VDA's zone",
            "a Delivery Group brokered from zones at different RTTs: not measured (multi-class MVA)",
        ],
    };
}
