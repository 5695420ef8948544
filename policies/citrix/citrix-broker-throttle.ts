/**
 * citrix-broker-throttle: at high RTT every Delivery Controller of a zone must cap its concurrent
 * brokering requests, and no Delivery Group's lock may receive more than it sustains at the
 * targets. The throttle is first come, first served (the brokering transaction locks the workers
 * of one Delivery Group: citrix-zones-latency-brokering.ja.txt), so a lock can receive the sum of
 * the throttles of every controller that brokers for it, bounded only by its group's own peak.
 * The figures come from the Citrix evaluation (evaluation.ts).
 */
import { AFTER_APPLY, ExternalControllers, GROUP_TYPE, ZONE_TYPE } from "./site";
import { packEvaluation } from "./settings";
import { fitted, zoneRef } from "./names";
import { Message, shortName } from "../pack/message";
import type { ResourceView } from "../pack/resourceView";
import { isolate, Report, stackPolicy } from "../pack/definePolicy";
import { num } from "../pack/format";
import type { BrokeringTargets } from "./targets";
import { BROKER_THROTTLE_SCHEMA } from "./schemas";
import { groupOverMessage, unthrottledMessage, zoneUnthrottledMessage } from "./throttleMessages";
import { daasNotChecked, rttDecision } from "./decisions";
import { JudgedZone, throttleDecisions } from "./throttleDecisions";
import { ambiguousKeyWhy, unknownKeysWhy, unresolvedKeysWhy } from "./externalControllers";
import type { Site } from "./site";
import { fold } from "./zoneJoin";
import { currentInventory } from "../pack/inventory/current";
import { holdsStacks } from "../pack/inventory/empty";

const POLICY = "citrix-broker-throttle";

/** Its config; the targets are deprecated copies (their home: citrix-brokering-capacity, roomSettings.ts). */
export interface BrokerThrottleConfig extends BrokeringTargets {
    /** Zones at or above this RTT need the throttle (ms). */
    requireAtRttMs: number;
    /** Report zones with no Delivery Controller in the stack (else "not checked"). */
    requireControllersInStack: boolean;
    /** Delivery Controllers another stack manages, by zone name. */
    externalControllers: ExternalControllers;
}

/** A judged zone's decision as verdicts, and each of its controllers' outcome. */
function reportZone(judged: JudgedZone, targets: BrokeringTargets, report: Report): void {
    const { zone: z, rttMs, decision } = judged;
    const zone = z.zone;
    if (decision?.kind === "noControllers") {
        if (decision.nameUnknown) {
            report.notChecked(
                { reason: "its name is unknown in this preview, so no Delivery Controller's perfguard:citrixZone can match it", remedy: AFTER_APPLY },
                zone.resource,
            );
        } else if (decision.required) {
            report(
                {
                    problem: fitted(
                        (ref) => `${ref} has no Delivery Controller in this stack, so its brokering throttle cannot be checked.`,
                        zoneRef(zone, true, rttMs),
                        `Zone "${shortName(zone.resource.name)}" (${num(rttMs)} ms)`,
                    ),
                    fix: `declare perfguard:citrixRole=deliveryController and perfguard:citrixZone=${zone.zoneName} on its controllers, or list them in externalControllers`,
                    basis: ["requireControllersInStack is true"],
                },
                zone.resource,
            );
        } else {
            report.notChecked(
                {
                    reason: "none of its Delivery Controllers is in this stack or in externalControllers",
                    remedy: "declare perfguard:citrixZone=<zone name> on its controllers, or list them in citrix-broker-throttle's externalControllers",
                },
                zone.resource,
            );
        }
        return;
    }
    if (decision?.kind === "zoneUnthrottled") {
        report(zoneUnthrottledMessage(decision, targets), zone.resource);
    }
    for (const controller of zone.controllers) {
        if (controller.throttle.state === "unknown" && controller.resource) {
            report.notChecked(
                { reason: "its perfguard:throttleMaxConcurrentTransactions is unknown in this preview", remedy: AFTER_APPLY },
                controller.resource,
            );
        } else if (controller.throttle.state === "absent") {
            // One cause, one verdict: with several unthrottled controllers the zone's verdict is it,
            // and each controller's decision points to it (a mandatory verdict each would block thrice).
            if (decision?.kind === "zoneUnthrottled") {
                if (controller.resource) {
                    report.applied(
                        `Delivery Controller of ${zoneRef(zone)}: no throttle fact; judged by the violation on ${zone.resource.label}`,
                        controller.resource,
                    );
                }
                continue;
            }
            if (controller.resource) {
                report.applied(`Delivery Controller of ${zoneRef(zone)}: no throttle fact`, controller.resource);
            }
            if (decision?.kind === "controllerUnthrottled") {
                report(unthrottledMessage(decision, targets), controller.resource ?? zone.resource);
            }
        } else if (controller.resource) {
            report.applied(
                `Delivery Controller of ${zoneRef(zone)}: throttle ${controller.throttle.state === "ok" ? controller.throttle.value : controller.throttle.state}`,
                controller.resource,
            );
        }
    }
}

/**
 * The keys of externalControllers that name no single zone: their controllers are counted nowhere,
 * so a zone they were meant for is judged without them. A key naming no zone is not checked on the
 * stack (externalControllers.ts unknownKeysWhy), except one naming the same zone as a
 * perfguard:citrixZone of this stack that is already not checked for it (one cause, one verdict);
 * one that may name a zone whose name is unknown in this preview, or names several, leaves those
 * zones not checked.
 */
function reportExternalKeys(site: Site, report: Report): void {
    const keys = site.externalKeys;
    // An org-wide config reaches stacks with no Citrix resource too (an NSX or Xen team's): there
    // the keys judge nothing, so nothing is said of them.
    if (!ownsCitrix(site)) {
        return;
    }
    const alreadyUnplaced = new Set<string>();
    for (const { resource } of site.unplaced) {
        const named = resource.foreign ? undefined : resource.facts.text("citrixZone");
        if (named?.state === "ok") {
            alreadyUnplaced.add(fold(named.value));
        }
    }
    const unknown = keys.unknown.filter((k) => !alreadyUnplaced.has(fold(k)));
    if (unknown.length > 0) {
        const names = site.zones.filter((z) => !z.nameUnknown).map((z) => z.zoneName);
        report.notChecked(unknownKeysWhy(unknown, names, holdsStacks(currentInventory())));
    }
    for (const zone of keys.unresolved.length > 0 ? site.zones : []) {
        if (zone.nameUnknown && !zone.resource.foreign) {
            report.notChecked(unresolvedKeysWhy(keys.unresolved), zone.resource);
        }
    }
    for (const { key, zones } of keys.ambiguous) {
        const own = zones.filter((z) => !z.resource.foreign);
        // Zones of other stacks get no verdict here: the key's not checked then lands on the stack.
        for (const zone of own.length > 0 ? own : [undefined]) {
            report.notChecked(ambiguousKeyWhy(key, zones), zone?.resource);
        }
    }
}

/** Whether this stack declares a zone, Delivery Group, catalog or Delivery Controller of the Site. */
function ownsCitrix(site: Site): boolean {
    return (
        site.zones.some((z) => !z.resource.foreign || z.controllers.some((c) => c.resource !== undefined && !c.resource.foreign)) ||
        site.groups.some((g) => !g.implicit && !g.resource.foreign) ||
        site.unplaced.some((u) => !u.resource.foreign)
    );
}

/**
 * Where a lock's over-throttle verdict lands: on its Delivery Group; on another stack's group
 * (PERFGUARD_INVENTORY), on the first zone of this stack that feeds it, whose controllers'
 * throttles this stack sets (the owning team's change judged with the other stacks' load), with a
 * note naming the group's stack; nowhere when no feeding zone is this stack's (their stacks' own
 * previews judge it).
 */
function overLanding(
    group: ResourceView,
    feeds: ReadonlyArray<{ readonly zone: { readonly resource: ResourceView } }>,
): { on: ResourceView; note?: string } | undefined {
    const o = group.origin;
    if (!o) {
        return { on: group };
    }
    const own = feeds
        .map((f) => f.zone.resource)
        .filter((z) => !z.foreign)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))[0];
    return own
        ? {
              on: own,
              note: `the Delivery Group is stack ${o.project}/${o.stack}'s (PERFGUARD_INVENTORY${o.time ? `, deployed ${o.time}` : ""}); this stack's ${own.label} feeds its lock`,
          }
        : undefined;
}

function withNote(message: Message, note: string): Message {
    return { ...message, basis: [...(message.basis ?? []), note] };
}

export const citrixBrokerThrottle = stackPolicy<BrokerThrottleConfig>({
    name: POLICY,
    description: "Delivery Controllers of high-RTT zones must throttle brokering.",
    enforcementLevel: "mandatory",
    configSchema: { properties: { ...BROKER_THROTTLE_SCHEMA } },
    types: [ZONE_TYPE, GROUP_TYPE],
    roles: ["deliveryController"],
    check(stack, config, report) {
        // The room's one evaluation: externalControllers is this policy's (its home); the targets
        // are citrix-brokering-capacity's (this policy's own copy is deprecated: read where that sets none).
        const evaluation = packEvaluation(stack);
        const targets = evaluation.config;
        // The decisions, once (throttleDecisions.ts): `check --report` reads the same ones.
        const decisions = throttleDecisions(evaluation, { requireAtRttMs: config.requireAtRttMs, requireControllersInStack: config.requireControllersInStack });
        const site = evaluation.site;
        reportExternalKeys(site, report);
        for (const { resource, as, why } of site.unplaced) {
            if (as === "controller") {
                report.notChecked(why, resource);
            }
        }
        for (const z of evaluation.zones) {
            const zone = z.zone;
            isolate(zone.resource, report, () => {
                if (zone.daas) {
                    daasNotChecked(zone, report);
                    return;
                }
                const judged = decisions.zones.get(zone);
                if (judged === undefined) {
                    // Not judged: an RTT that is not usable says why, a known one is below the threshold.
                    const rtt = rttDecision(zone, report);
                    if (rtt !== undefined) {
                        report.notApplicable(`RTT ${num(rtt.value)} ms (${rtt.where}) below requireAtRttMs ${num(config.requireAtRttMs)} ms`, zone.resource);
                    }
                    return;
                }
                // With no controller the zone is a verdict (requireControllersInStack) or not checked, never a pass.
                if (zone.controllers.length > 0) {
                    report.applied(
                        `RTT ${num(judged.rttMs)} ms (${judged.where}) at or above requireAtRttMs ${num(config.requireAtRttMs)} ms; feeds ${z.locks.length} Delivery Group lock(s), the most exposed sustains ${z.lockLimit ?? 0}: ${z.perController ?? 0} per controller`,
                        zone.resource,
                    );
                }
                reportZone(judged, targets, report);
            });
        }
        // A controller is judged with its zone: of a zone not judged here, the zone's decision says why.
        for (const zone of site.zones) {
            for (const controller of decisions.zones.has(zone) ? [] : zone.controllers) {
                if (controller.resource) {
                    report.notApplicable(
                        `a Delivery Controller of ${zone.resource.label}, which this policy does not judge (see the zone's decision)`,
                        controller.resource,
                    );
                }
            }
        }
        // A Delivery Group is judged through its zones; a later decision (applied, a verdict, not checked) takes precedence.
        for (const g of evaluation.groups) {
            if (!g.group.implicit) {
                report.notApplicable("it puts no machines in a zone at or above requireAtRttMs", g.group.resource);
            }
            if (g.notChecked && !g.group.implicit) {
                report.notChecked(g.notChecked, g.group.resource);
            }
        }
        // Per lock, first come, first served: what the feeding controllers' known throttles can put
        // on it (unknown or absent ones can only add, and are reported above) against what it sustains.
        for (const { lock: g, safe, exposure, over } of decisions.locks) {
            isolate(g.group.resource, report, () => {
                if (over) {
                    const landing = overLanding(g.group.resource, g.feeds);
                    if (landing) {
                        report(landing.note ? withNote(groupOverMessage(over, targets), landing.note) : groupOverMessage(over, targets), landing.on);
                    }
                } else if (!g.group.implicit) {
                    report.applied(
                        exposure.bounded
                            ? `throttles can put ${num(exposure.value)} on its lock${exposure.byPeak ? " (its own peak)" : ""}, within the ${safe} it sustains`
                            : `throttles can put unlimited requests on its lock (a feeding Delivery Controller has no known throttle; its known throttles: ${num(exposure.value)}); it sustains ${safe}`,
                        g.group.resource,
                    );
                }
            });
        }
    },
});
