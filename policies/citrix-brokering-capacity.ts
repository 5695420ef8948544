/**
 * citrix-brokering-capacity: at a zone's peak, the predicted brokering response, timeout rate
 * and logon-storm launch time must meet the targets.
 */
import { predictBrokering } from "../model/brokering";
import { citrixSite, unknownNote, Zone } from "./support/citrixSite";
import { isolate, Report, stackPolicy } from "./support/definePolicy";
import { Applicability, applied, notApplicable, StackApplicability, unusableFact } from "./support/explain";
import type { StackView } from "./support/resources";
import { duration, num, numVs, pct, plural } from "./support/format";
import { BrokeringTargets, MODEL_SOURCE, safeConcurrency, TARGET_SCHEMA, targetsText } from "./support/citrixTargets";

export interface BrokeringCapacityConfig extends BrokeringTargets {
    /** A logon storm of perfguard:users must be brokered within this many minutes. */
    launchWindowMinutes: number;
}

/** RTT from which an unverifiable throttle is noted (ms): the source measured no timeouts below it. */
const THROTTLE_NOTE_RTT_MS = 90;

/**
 * The zone's effective concurrency: its peak, capped by the sum of its controllers' throttles
 * (exported for `perfguard check --report`, which predicts with the same figure).
 * @returns the concurrency (requests) and how it was found, or undefined when nothing says.
 */
export function effectiveConcurrency(zone: Zone): { value: number; how: string } | undefined {
    const peak = zone.peakConcurrentLaunches;
    const throttles = zone.controllers.map((c) => c.throttle);
    const allThrottled = throttles.length > 0 && throttles.every((t) => t.state === "ok");
    const cap = allThrottled ? throttles.reduce((s, t) => s + (t.state === "ok" ? t.value : 0), 0) : undefined;
    if (peak.state === "ok" && peak.value >= 1) {
        if (cap !== undefined && cap < peak.value) {
            return { value: cap, how: `the peak of ${peak.value} concurrent launches (${peak.where}) capped at ${cap} by the throttles of its ${plural(zone.controllers.length, "Delivery Controller")}` };
        }
        return { value: peak.value, how: `${peak.value} concurrent launches at peak (${peak.where})` };
    }
    if (cap !== undefined && cap >= 1 && zone.users.state === "ok") {
        return { value: cap, how: `${cap} concurrent requests allowed by the throttles of its ${plural(zone.controllers.length, "Delivery Controller")}` };
    }
    return undefined;
}

/**
 * Whether to note that the zone's throttle cannot be verified: at 90 ms or more with no Delivery
 * Controller in the stack, unless the declared peak is already within the safe concurrency (then
 * the throttle would not change anything, and a note on every preview is noise).
 */
function throttleUnverifiable(zone: Zone, rttMs: number, config: BrokeringCapacityConfig): boolean {
    if (rttMs < THROTTLE_NOTE_RTT_MS || zone.controllers.length > 0) {
        return false;
    }
    const peak = zone.peakConcurrentLaunches;
    return !(peak.state === "ok" && peak.value <= safeConcurrency(rttMs, config));
}

function checkZone(zone: Zone, rttMs: number, rttWhere: string, config: BrokeringCapacityConfig, report: Report, unknownControllers: number): void {
    const label = `${zone.resource.label} (zone "${zone.zoneName}", RTT ${num(rttMs)} ms from ${rttWhere})`;
    const unverifiable = throttleUnverifiable(zone, rttMs, config);
    const concurrency = effectiveConcurrency(zone);
    const problems: string[] = [];
    let facts = "";
    let launchProblem = false;
    if (concurrency) {
        const users = zone.users.state === "ok" ? zone.users.value : undefined;
        const p = predictBrokering({ rttMs, concurrency: concurrency.value, users });
        facts = `At ${concurrency.how}, the ${MODEL_SOURCE} predicts a mean response of ${num(p.meanResponseS)} s and ${pct(p.errorRate)} timed-out requests`;
        if (p.meanResponseS > config.targetResponseS) {
            problems.push(`mean response ${numVs(p.meanResponseS, config.targetResponseS)} s is above the ${num(config.targetResponseS)} s target (targetResponseS)`);
        }
        if (p.errorRate > config.errorBudgetPct / 100) {
            problems.push(`${pct(p.errorRate)} timed-out requests is above the ${num(config.errorBudgetPct, 4)}% budget (errorBudgetPct)`);
        }
        if (p.launchTimeS !== undefined && users !== undefined && zone.users.state === "ok") {
            facts += `, and ${users} users (${zone.users.where}) take ${duration(p.launchTimeS)} to launch`;
            if (p.launchTimeS > config.launchWindowMinutes * 60) {
                launchProblem = true;
                problems.push(`launching ${users} users takes ${duration(p.launchTimeS)}, longer than the ${num(config.launchWindowMinutes)} min window (launchWindowMinutes)`);
            }
        }
        facts += ".";
    }
    if (problems.length === 0 && !unverifiable) {
        return;
    }
    const safe = safeConcurrency(rttMs, config);
    const fixes: string[] = [];
    const slow = problems.length > (launchProblem ? 1 : 0);
    if (slow) {
        fixes.push(safe > 0
            ? `cap the zone at ${safe} concurrent brokering requests in all (the most that keep ${targetsText(config)}) with the Delivery Controllers' throttle`
            : "no concurrency meets the targets at this RTT: deploy a separate Site");
    }
    if (launchProblem && zone.users.state === "ok" && safe > 0) {
        const best = predictBrokering({ rttMs, concurrency: safe, users: zone.users.value });
        const bestS = best.launchTimeS ?? Number.POSITIVE_INFINITY;
        fixes.push(bestS > config.launchWindowMinutes * 60
            ? `even at ${safe} concurrent requests (the most that meet the targets) the launch takes ${duration(bestS)}: spread the logon storm over time or over more Sites, widen launchWindowMinutes, or bring the Delivery Controllers closer to the Site database`
            : `allow up to ${safe} concurrent brokering requests (the launch then takes ${duration(bestS)})`);
    }
    const note = unverifiable
        ? ` Its throttle cannot be verified: no resource in this stack is a Delivery Controller of it (perfguard:citrixRole=deliveryController, perfguard:citrixZone=${zone.zoneName})${unknownNote(unknownControllers)}; at this RTT each controller should cap concurrent brokering requests so the zone stays at or below ${safe} in all.`
        : "";
    const verdict = problems.length > 0 ? ` Exceeds: ${problems.join("; ")}.` : "";
    const fix = fixes.length > 0 ? ` Fix: ${fixes.join("; ")}.` : "";
    const parts = [facts, verdict, note, fix].map((part) => part.trim()).filter((part) => part.length > 0);
    report(`${label}: ${parts.join(" ")}`, zone.resource);
}

/** --explain: per zone, the prediction the check judged, or why there was nothing to predict. */
function explainCapacity(stack: StackView, config: BrokeringCapacityConfig): StackApplicability {
    const out = new Map<string, Applicability>();
    for (const zone of citrixSite(stack).zones) {
        const rtt = zone.rttMs;
        if (rtt.state !== "ok") {
            out.set(zone.resource.urn, notApplicable(unusableFact(rtt, "perfguard:rttMs", "this zone") ?? "perfguard:rttMs cannot be read"));
            continue;
        }
        const concurrency = effectiveConcurrency(zone);
        const unverifiable = throttleUnverifiable(zone, rtt.value, config);
        if (!concurrency) {
            const why = `RTT ${num(rtt.value)} ms (${rtt.where}) but nothing to predict: no perfguard:peakConcurrentLaunches of 1 or more, and no throttle on every Delivery Controller with perfguard:users`;
            out.set(zone.resource.urn, unverifiable ? applied(`${why}; at ${THROTTLE_NOTE_RTT_MS} ms or more with no Delivery Controller in the stack, the unverifiable throttle is noted`) : notApplicable(why));
            continue;
        }
        const users = zone.users.state === "ok" ? zone.users.value : undefined;
        const p = predictBrokering({ rttMs: rtt.value, concurrency: concurrency.value, users });
        const launch = p.launchTimeS !== undefined ? `, launch of ${users} users ${duration(p.launchTimeS)} (window ${num(config.launchWindowMinutes)} min)` : "";
        out.set(zone.resource.urn, applied(`RTT ${num(rtt.value)} ms (${rtt.where}), ${concurrency.how}: predicted ${num(p.meanResponseS)} s mean response, ${pct(p.errorRate)} timed out${launch}; ${targetsText(config)}`));
    }
    return { resources: out, others: "not a Citrix zone" };
}

export const citrixBrokeringCapacity = stackPolicy<BrokeringCapacityConfig>({
    name: "citrix-brokering-capacity",
    description: "A Citrix zone's predicted brokering response, timeout rate and logon-storm launch time at peak should meet the targets.",
    enforcementLevel: "advisory",
    configSchema: {
        properties: {
            ...TARGET_SCHEMA,
            launchWindowMinutes: {
                type: "number",
                exclusiveMinimum: 0,
                maximum: 10080,
                default: 60,
                description: "A logon storm of perfguard:users users should be brokered within this many minutes (default 60).",
            },
        },
    },
    explain: explainCapacity,
    check(stack, config, report) {
        const site = citrixSite(stack);
        for (const zone of site.zones) {
            isolate(zone.resource, report, () => {
                if (zone.rttMs.state === "ok") {
                    checkZone(zone, zone.rttMs.value, zone.rttMs.where, config, report, site.unknownControllers);
                }
            });
        }
    },
});
