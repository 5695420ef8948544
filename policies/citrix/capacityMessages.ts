/** Messages of citrix-brokering-capacity for one Delivery Group's lock. */
import { MEASURED_MAX_CONCURRENCY, predictGroupBrokering } from "../../model/deliveryGroupBrokering";
import type { CitrixEvaluation, GroupEvaluation } from "./evaluationTypes";
import { fitted, groupRef, groupShort, SITE_WORK_NOT_MEASURED, stormsText, zoneRef, zoneShort } from "./names";
import { round } from "./load";
import type { Message } from "../pack/message";
import { cappedList, duration, num, pct } from "../pack/format";
import { BrokeringTargets } from "./targets";

export interface CapacityTargets extends BrokeringTargets {
    launchWindowMinutes: number;
    /**
     * Deprecated here: the setting's one home is citrix-site-database-load, which reads this copy as
     * a fallback. Never read by this policy: each lock is judged on its own.
     */
    measuredSiteBrokeredPerS: number;
}

/**
 * The line a verdict on a lock adds about the one Site database when several storms share it: the
 * database work they ask of it at once (Σ X_g·c), which no test measured beyond one group and which
 * decides nothing.
 */
export function siteWorkLine(e: CitrixEvaluation, g: GroupEvaluation): string[] {
    // The database of the group's own Site (several Sites in one stack are judged apart).
    const d = (e.siteOfGroup.get(g.group) ?? e).database;
    // One storm is the source's own case (one Delivery Group): nothing beyond it to label.
    if (d.storms <= 1) {
        return [];
    }
    return [
        `Site database: ${stormsText(d)} at once, ${num(d.uncappedPerS)} brokered/s, ${num(d.databaseWorkS, 2)} s of database work per s (${num(d.workPerRequestS * 1000)} ms each): ${SITE_WORK_NOT_MEASURED}`,
    ];
}

/** `value` as a message prints it against `limit`: with enough decimals that the two differ ("12.04 s > 12 s"). */
export function beyond(value: number, limit: number, digits = 1): string {
    let d = digits;
    while (d < 6 && num(value, d) === num(limit, d)) {
        d += 1;
    }
    return num(value, d);
}

/** A launch time against its window, never "60 min > 60 min". */
function launchBeyond(seconds: number, windowS: number): string {
    return duration(seconds) === duration(windowS) ? `${beyond(seconds / 60, windowS / 60)} min` : duration(seconds);
}

/** The verdict for one lock, or undefined when it meets every target. */
export function capacityMessage(g: GroupEvaluation, e: CitrixEvaluation, t: CapacityTargets): Message | undefined {
    // Judged at the worse of the expected load (the lock on its own) and the first-come
    // storm on this one lock (evaluation.ts, GroupEvaluation.judged).
    const p = g.judged ?? g.prediction!;
    const firstCome = g.firstCome !== undefined && p === g.firstCome;
    const expected = g.prediction!;
    const load = g.load;
    const problems: string[] = [];
    const budget = t.errorBudgetPct / 100;
    const slow = p.worstMeanResponseS > t.targetResponseS || p.worstErrorRate > budget;
    if (p.worstMeanResponseS > t.targetResponseS) {
        problems.push(`mean ${beyond(p.worstMeanResponseS, t.targetResponseS)} s > ${num(t.targetResponseS)} s`);
    }
    if (p.worstErrorRate > budget) {
        problems.push(`${pct(p.worstErrorRate)} timed out > ${num(t.errorBudgetPct, 4)}%`);
    }
    const windowS = t.launchWindowMinutes * 60;
    const longLaunch = g.launchTimeS !== undefined && g.launchTimeS > windowS;
    if (longLaunch && load.users !== undefined) {
        problems.push(`${load.users} users in ${launchBeyond(g.launchTimeS, windowS)} > ${num(t.launchWindowMinutes)} min`);
    }
    if (problems.length === 0) {
        return undefined;
    }
    const safe = g.safe ?? 0;
    // Never propose more than the source measured against one Site database.
    const proposed = Math.min(safe, MEASURED_MAX_CONCURRENCY);
    const fixes: string[] = [];
    // Splitting a group that lies in one zone moves no load off its lock: first come, first served,
    // the zone's throttles can all go to one of the halves. Only a split per zone (a group spanning
    // zones) gives the zones' requests locks of their own.
    const spans = g.feeds.length > 1;
    if (slow) {
        fixes.push(
            proposed > 0
                ? spans
                    ? `cap its lock at ${proposed} concurrent requests (the zones' throttles) or split the Delivery Group per zone (one lock each)`
                    : `cap its lock at ${proposed} concurrent requests (its zone's throttles adding up to ${proposed}) or launch fewer at once`
                : spans
                  ? "split the Delivery Group per zone: no concurrency meets the targets on its shared lock"
                  : `no concurrency meets the targets on this lock at ${num(p.classes[0]?.rttMs ?? 0)} ms: move its machines to a zone nearer the Site database, or give the location a separate Site (citrix-zone-rtt-limit)`,
        );
    }
    if (longLaunch && load.users !== undefined) {
        const best =
            proposed > 0
                ? predictGroupBrokering({ classes: p.classes.map((c) => ({ rttMs: c.rttMs, concurrency: (c.concurrency / p.concurrency) * proposed })) })
                : undefined;
        const rate = best ? best.successfulPerS : 0;
        const bestS = rate > 0 ? load.users / rate : Number.POSITIVE_INFINITY;
        if (bestS > windowS || proposed <= p.concurrency) {
            // Here a split helps: its users move to locks of their own, each brokering at its own rate.
            const split = g.group.implicit ? "spread its users over several Delivery Groups (one lock each)" : "split the Delivery Group (one lock each)";
            fixes.push(`even at ${proposed} concurrent requests its lock takes ${duration(bestS)}: ${split} or spread the logon storm over time`);
        } else if (!slow) {
            // When the lock is too slow, the cap above is the fix for both.
            fixes.push(`allow up to ${proposed} concurrent requests into its lock (the launch then takes ${duration(bestS)})`);
        }
    }
    const zones = load.classes.filter((c) => c.concurrency !== undefined && c.concurrency > 0).map((c) => c.zone);
    const basis = [
        // Sorted by zone name, at most five named (a lock fed by 51 zones would list all 51).
        `lock: ${cappedList(
            zones
                .map((z, i) => ({ z, c: p.classes[i] }))
                .sort((a, b) => a.z.resource.name.localeCompare(b.z.resource.name))
                .map(({ z, c }) => `${round(c?.concurrency ?? 0)} from ${zoneShort(z)} at ${num(c?.rttMs ?? 0)} ms`),
            5,
            false,
        )} (brokering model)`,
        ...g.rttNotes,
        ...(firstCome
            ? [`first come: its zones' whole storm on this lock (peaks within throttles), not the ${round(expected.concurrency)} expected at an even split`]
            : []),
        ...(safe > MEASURED_MAX_CONCURRENCY && fixes.some((f) => f.includes(`${proposed} concurrent`))
            ? [
                  `the model allows ${safe} on this lock, but the source measured at most ${MEASURED_MAX_CONCURRENCY} concurrent requests against one Site database`,
              ]
            : []),
        ...(longLaunch && p.worstErrorRate > 0.01
            ? [`launch time at the successful rate, ${num(g.successfulPerS ?? 0, 2)}/s (a timed-out launch is retried)`]
            : []),
        ...p.notMeasured,
        ...siteWorkLine(e, g),
        ...load.notes,
    ];
    return {
        problem: fitted(
            (ref) => `${ref}: at ${round(p.concurrency)} concurrent launches${firstCome ? " (first come)" : ""}, ${problems.join("; ")}.`,
            groupRef(g.group, true),
            (n) => groupShort(g.group, true, n),
        ),
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
        problem: fitted(
            (ref) => `${ref} waits ${num(s.withOthersS)} s on the lock it shares with slower zones, against ${num(s.aloneS)} s alone.`,
            `${groupRef(g.group, true)}: ${zoneRef(s.fastest, false, s.rttMs)}`,
            (n) => `${groupShort(g.group, true, n)}: ${zoneShort(s.fastest, n)} (${num(s.rttMs)} ms)`,
        ),
        fix: "split the group per zone (one lock each)",
        basis: [
            `${zoneShort(s.fastest)}: ${round(s.concurrency)} concurrent requests, ${pct(s.errorRate)} timed out with the slower zones; alone: its own lock at the same concurrency (brokering model)`,
            "a launch's RTT is that of the zone whose controllers broker it, taken as the VDA's zone",
            "a Delivery Group brokered from zones at different RTTs: not measured (multi-class MVA)",
        ],
    };
}
