/**
 * citrix-broker-throttle: at high RTT every Delivery Controller of a zone must cap its concurrent
 * brokering requests, and for each Delivery Group the throttle shares of all controllers that
 * broker into it must fit what its lock sustains at the targets (the brokering transaction locks
 * the workers of one Delivery Group: citrix-zones-latency-brokering.ja.txt). A controller's
 * throttle is split over the groups it brokers into in proportion to their demand.
 */
import { AFTER_APPLY, citrixSite, ExternalControllers, GROUP_TYPE, Zone, ZONE_TYPE } from "./site";
import { groupLoads, zoneDemand } from "./load";
import { siteBudget } from "./budget";
import { isolate, Report, stackPolicy } from "../pack/definePolicy";
import { num } from "../pack/format";
import { shortName } from "../pack/message";
import { BrokeringTargets, TARGET_SCHEMA } from "./targets";
import { groupOverMessage, unthrottledMessage, zoneUnthrottledMessage } from "./throttleMessages";
import { daasNotChecked, rttDecision } from "./decisions";

export interface BrokerThrottleConfig extends BrokeringTargets {
    /** Zones at or above this RTT need the throttle (ms). */
    requireAtRttMs: number;
    /** Report zones with no Delivery Controller in the stack (else "not checked"). */
    requireControllersInStack: boolean;
    /** Delivery Controllers another stack manages, by zone name. */
    externalControllers: ExternalControllers;
}

function checkControllers(zone: Zone, rttMs: number, budget: number, demand: number | undefined, config: BrokerThrottleConfig, report: Report): void {
    if (zone.controllers.length === 0) {
        if (zone.nameUnknown) {
            report.notChecked({ reason: "its name is unknown in this preview, so no Delivery Controller's perfguard:citrixZone can match it", remedy: AFTER_APPLY }, zone.resource);
        } else if (config.requireControllersInStack) {
            report({
                problem: `Zone "${shortName(zone.resource.name)}" (${num(rttMs)} ms) has no Delivery Controller in this stack, so its brokering throttle cannot be checked.`,
                fix: `declare perfguard:citrixRole=deliveryController and perfguard:citrixZone=${zone.zoneName} on its controllers, or list them in externalControllers`,
                basis: ["requireControllersInStack is true"],
            }, zone.resource);
        } else {
            report.notChecked({ reason: "none of its Delivery Controllers is in this stack or in externalControllers", remedy: "declare perfguard:citrixZone=<zone name> on its controllers, or list them in citrix-broker-throttle's externalControllers" }, zone.resource);
        }
        return;
    }
    const unthrottled = zone.controllers.filter((c) => c.throttle.state === "absent");
    if (unthrottled.length > 1) {
        report(zoneUnthrottledMessage(zone, unthrottled.length, rttMs, budget, config), zone.resource);
    }
    for (const controller of zone.controllers) {
        if (controller.throttle.state === "unknown" && controller.resource) {
            report.notChecked({ reason: "its perfguard:throttleMaxConcurrentTransactions is unknown in this preview", remedy: AFTER_APPLY }, controller.resource);
        } else if (controller.throttle.state === "absent") {
            if (controller.resource) {
                report.applied(`Delivery Controller of zone "${zone.zoneName}": no throttle fact`, controller.resource);
            }
            const message = unthrottledMessage(controller, zone, rttMs, budget, config, unthrottled.length > 1, demand);
            report(message, controller.resource ?? zone.resource);
        } else if (controller.resource) {
            report.applied(`Delivery Controller of zone "${zone.zoneName}": throttle ${controller.throttle.state === "ok" ? controller.throttle.value : controller.throttle.state}`, controller.resource);
        }
    }
}

export const citrixBrokerThrottle = stackPolicy<BrokerThrottleConfig>({
    name: "citrix-broker-throttle",
    description: "Delivery Controllers of high-RTT zones must throttle brokering.",
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
                description: "Report a zone at or above requireAtRttMs with no Delivery Controller in the stack as a violation (default false: \"not checked\" at the unverified level).",
            },
            externalControllers: {
                type: "object",
                default: {},
                additionalProperties: {
                    type: "array",
                    items: {
                        type: "object",
                        properties: { name: { type: "string", minLength: 1 }, throttle: { type: "integer", minimum: 1, maximum: 4294967295 } },
                        required: ["name"],
                        additionalProperties: false,
                    },
                },
                description: "Delivery Controllers another stack manages, by zone name: { \"<zone name>\": [{ name, throttle? }] } (throttle absent = none set).",
            },
        },
    },
    types: [ZONE_TYPE, GROUP_TYPE],
    roles: ["deliveryController"],
    check(stack, config, report) {
        const site = citrixSite(stack, config.externalControllers);
        const loads = groupLoads(site);
        const budget = siteBudget(loads, config);
        for (const { resource, as, why } of site.unplaced) {
            if (as === "controller") {
                report.notChecked(why, resource);
            }
        }
        const judged = new Set<Zone>();
        for (const zone of site.zones) {
            isolate(zone.resource, report, () => {
                if (zone.daas) {
                    daasNotChecked(zone, report);
                    return;
                }
                const rtt = rttDecision(zone, report);
                if (rtt === undefined) {
                    return;
                }
                if (rtt.value < config.requireAtRttMs) {
                    report.notApplicable(`RTT ${num(rtt.value)} ms (${rtt.where}) below requireAtRttMs ${num(config.requireAtRttMs)} ms`, zone.resource);
                    return;
                }
                judged.add(zone);
                // With no controller the zone is a verdict (requireControllersInStack) or not checked, never a pass.
                if (zone.controllers.length > 0) {
                    report.applied(`RTT ${num(rtt.value)} ms (${rtt.where}) at or above requireAtRttMs ${num(config.requireAtRttMs)} ms; zone budget ${num(budget.zoneBudget.get(zone) ?? 0)} over ${zone.groups.length} Delivery Group lock(s)`, zone.resource);
                }
                checkControllers(zone, rtt.value, budget.zoneBudget.get(zone) ?? 0, zoneDemand(zone, loads), config, report);
            });
        }
        // A controller is judged with its zone: of a zone not judged here, the zone's decision says why.
        for (const zone of site.zones) {
            for (const controller of judged.has(zone) ? [] : zone.controllers) {
                if (controller.resource) {
                    report.notApplicable(`a Delivery Controller of ${zone.resource.label}, which this policy does not judge (see the zone's decision)`, controller.resource);
                }
            }
        }
        // A Delivery Group is judged through its zones; a later decision (applied, a verdict, not checked) takes precedence.
        for (const group of site.groups) {
            if (!group.implicit) {
                report.notApplicable("it puts no machines in a zone at or above requireAtRttMs", group.resource);
            }
        }
        for (const load of loads) {
            if (load.notChecked && !load.group.implicit) {
                report.notChecked(load.notChecked, load.group.resource);
            }
        }
        // Per lock: the known throttle shares (unknown or absent ones can only add) against what it sustains.
        for (const group of budget.groups) {
            isolate(group.load.group.resource, report, () => {
                if (!group.zones.some((z) => judged.has(z.zone))) {
                    return;
                }
                let shares = 0;
                for (const z of group.zones) {
                    const known = z.zone.controllers.reduce((sum, c) => sum + (c.throttle.state === "ok" ? c.throttle.value : 0), 0);
                    shares += known * z.throttleFraction;
                }
                if (shares > group.safe) {
                    report(groupOverMessage(group, shares, budget.zoneBudget, config), group.load.group.resource);
                } else if (!group.load.group.implicit) {
                    report.applied(`throttle shares ${num(shares)} into its lock, within the ${group.safe} it sustains`, group.load.group.resource);
                }
            });
        }
    },
});
