/**
 * citrix-broker-throttle: at high RTT every Delivery Controller of a zone must cap its concurrent
 * brokering requests, and the caps together must stay within what the Site database can broker.
 */
import { CITRIX_GUIDANCE } from "../model/citrixGuidance";
import { citrixSite, unknownNote, Zone } from "./support/citrixSite";
import { isolate, Report, stackPolicy } from "./support/definePolicy";
import { Applicability, applied, notApplicable, StackApplicability, unusableFact } from "./support/explain";
import type { StackView } from "./support/resources";
import { describeValue } from "./support/values";
import { listLabels, num, plural } from "./support/format";
import { BrokeringTargets, MODEL_SOURCE, predictionSentence, safeConcurrency, TARGET_SCHEMA, targetsText } from "./support/citrixTargets";

export interface BrokerThrottleConfig extends BrokeringTargets {
    /** Zones at or above this RTT need the throttle (ms). */
    requireAtRttMs: number;
    /** Report zones with no Delivery Controller in the stack. */
    requireControllersInStack: boolean;
}

const THROTTLE = CITRIX_GUIDANCE.throttleKeyPath;


function fixFor(safe: number, count: number): string {
    const declare = "and declare it with perfguard:throttleMaxConcurrentTransactions";
    if (safe === 0) {
        return "no concurrency meets the targets at this RTT: deploy a separate Site for this location";
    }
    if (safe < count) {
        return `the zone's ${count} Delivery Controllers cannot share ${safe} concurrent requests at 1 or more each: let at most ${safe} of them broker for this zone with ${THROTTLE} set to 1 ${declare}, or deploy a separate Site`;
    }
    if (count === 1) {
        return `set the DWORD ${THROTTLE} to ${safe} on the zone's Delivery Controller ${declare}`;
    }
    const each = Math.floor(safe / count);
    return `set the DWORD ${THROTTLE} to ${each} on each of the zone's ${count} Delivery Controllers (${each * count} in all, within the ${safe} that meet the targets) ${declare}`;
}

function checkZone(zone: Zone, rttMs: number, rttWhere: string, config: BrokerThrottleConfig, report: Report, unknownControllers: number): void {
    const controllers = zone.controllers;
    const rttText = `RTT ${num(rttMs)} ms to the Site database (${rttWhere} on ${zone.resource.label}), at or above ${num(config.requireAtRttMs)} ms (requireAtRttMs)`;
    if (controllers.length === 0) {
        if (config.requireControllersInStack) {
            report(
                `${zone.resource.label} (zone "${zone.zoneName}") has ${rttText}, but no resource in this stack is a Delivery Controller of it${unknownNote(unknownControllers)}, so its brokering throttle cannot be checked ` +
                `(requireControllersInStack is true). Fix: declare the zone's controllers with perfguard:citrixRole=deliveryController and perfguard:citrixZone=${zone.zoneName}, or set requireControllersInStack to false if they live in another stack.`,
                zone.resource,
            );
        }
        return;
    }
    const safe = safeConcurrency(rttMs, config);
    const peak = zone.peakConcurrentLaunches;
    for (const controller of controllers) {
        isolate(controller.resource, report, () => {
            if (controller.throttle.state !== "absent") {
                return; // set, unknown in preview, or reported by perfguard-facts when invalid
            }
            const predicted = peak.state === "ok" && peak.value >= 1
                ? ` Without it, at the zone's peak of ${peak.value} concurrent launches (${peak.where}), ${predictionSentence(rttMs, peak.value)}.`
                : "";
            report(
                `Delivery Controller ${controller.resource.label} of zone "${zone.zoneName}" sets no brokering throttle (no perfguard:throttleMaxConcurrentTransactions fact; absent means unlimited), and the zone has ${rttText}.${predicted} ` +
                `At this RTT ${safe} concurrent requests in all keep ${targetsText(config)} according to the ${MODEL_SOURCE}. Fix: ${fixFor(safe, controllers.length)}.`,
                controller.resource,
            );
        });
    }
    // Unthrottled controllers are reported above; unknown or invalid throttles can only add to
    // the sum, so the known throttles alone already exceeding the safe total is a verdict.
    const known = controllers.filter((c) => c.throttle.state === "ok");
    const sum = known.reduce((total, c) => total + (c.throttle.state === "ok" ? c.throttle.value : 0), 0);
    if (known.length === 0 || sum <= safe) {
        return;
    }
    const parts = known.map((c) => `${c.resource.label}: ${c.throttle.state === "ok" ? c.throttle.value : "?"}`);
    const others = controllers.length - known.length;
    const rest = others > 0 ? `, plus ${plural(others, "controller")} without a known throttle` : "";
    report(
        `${zone.resource.label} (zone "${zone.zoneName}"): its throttled Delivery Controllers allow ${sum} concurrent brokering requests in all ` +
        `(${listLabels(parts)}, from perfguard:throttleMaxConcurrentTransactions${rest}), above the ${safe} that keep ${targetsText(config)} at ${num(rttMs)} ms (${rttWhere} on ${zone.resource.label}) according to the ${MODEL_SOURCE}; ` +
        `${predictionSentence(rttMs, Math.min(sum, 1000))}. Fix: ${fixFor(safe, controllers.length)}.`,
        zone.resource,
    );
}

/** --explain: per zone and Delivery Controller, whether the throttle requirement applied. */
function explainThrottle(stack: StackView, config: BrokerThrottleConfig): StackApplicability {
    const out = new Map<string, Applicability>();
    const site = citrixSite(stack);
    for (const zone of site.zones) {
        const rtt = zone.rttMs;
        let verdict: Applicability;
        if (rtt.state !== "ok") {
            verdict = notApplicable(unusableFact(rtt, "perfguard:rttMs", "this zone") ?? "perfguard:rttMs cannot be read");
        } else if (rtt.value < config.requireAtRttMs) {
            verdict = notApplicable(`RTT ${num(rtt.value)} ms (${rtt.where}) below requireAtRttMs ${num(config.requireAtRttMs)} ms`);
        } else if (zone.controllers.length === 0 && !config.requireControllersInStack) {
            verdict = notApplicable(`RTT ${num(rtt.value)} ms at or above requireAtRttMs ${num(config.requireAtRttMs)} ms, but no Delivery Controller of this zone is in the stack (requireControllersInStack false)`);
        } else {
            const known = zone.controllers.filter((c) => c.throttle.state === "ok");
            const sum = known.reduce((t, c) => t + (c.throttle.state === "ok" ? c.throttle.value : 0), 0);
            verdict = applied(`RTT ${num(rtt.value)} ms (${rtt.where}) at or above requireAtRttMs ${num(config.requireAtRttMs)} ms: ` +
                `${plural(zone.controllers.length, "Delivery Controller")}, ${known.length} with a throttle (sum ${sum}), safe total ${safeConcurrency(rtt.value, config)}`);
        }
        out.set(zone.resource.urn, verdict);
        for (const controller of zone.controllers) {
            const t = controller.throttle;
            const throttle = t.state === "ok" ? `throttle ${t.value} (${t.where})` : t.state === "absent" ? "no throttle fact" : `throttle ${t.state}`;
            out.set(controller.resource.urn, verdict.applies
                ? applied(`Delivery Controller of zone ${describeValue(zone.zoneName)}: ${throttle}`)
                : notApplicable(`Delivery Controller of zone ${describeValue(zone.zoneName)}, which is not checked: ${verdict.reason}`));
        }
    }
    for (const resource of stack.resources) {
        if (!out.has(resource.urn) && resource.facts.text("citrixRole").state === "ok") {
            const zoneFact = resource.facts.text("citrixZone");
            out.set(resource.urn, notApplicable(zoneFact.state === "ok"
                ? `a Delivery Controller naming zone ${describeValue(zoneFact.value)}, which matches no zone's name input or resource name in this stack`
                : unusableFact(zoneFact, "perfguard:citrixZone", "this Delivery Controller") ?? "its zone cannot be read"));
        }
    }
    return { resources: out, others: "not a Citrix zone or Delivery Controller" };
}

export const citrixBrokerThrottle = stackPolicy<BrokerThrottleConfig>({
    name: "citrix-broker-throttle",
    description: "Delivery Controllers of high-RTT Citrix zones must throttle concurrent brokering requests, and the throttles together must fit what the Site database can broker.",
    enforcementLevel: "mandatory",
    configSchema: {
        properties: {
            requireAtRttMs: {
                type: "number",
                minimum: 0,
                maximum: 10000,
                default: 90,
                description: "Zones whose perfguard:rttMs is at or above this (ms) need the throttle (default 90: the source measured no timeouts up to 90 ms).",
            },
            ...TARGET_SCHEMA,
            requireControllersInStack: {
                type: "boolean",
                default: false,
                description: "Report a zone at or above requireAtRttMs when no Delivery Controller of it is in the stack (default false: controllers often live in another stack).",
            },
        },
    },
    explain: explainThrottle,
    check(stack, config, report) {
        const site = citrixSite(stack);
        for (const zone of site.zones) {
            isolate(zone.resource, report, () => {
                const rtt = zone.rttMs;
                if (rtt.state === "ok" && rtt.value >= config.requireAtRttMs) {
                    checkZone(zone, rtt.value, rtt.where, config, report, site.unknownControllers);
                }
            });
        }
    },
});
