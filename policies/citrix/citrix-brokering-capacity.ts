/**
 * citrix-brokering-capacity: per Delivery Group lock, the predicted brokering response, timeout
 * rate and logon-storm launch time at peak must meet the targets, each lock on its own (the Site
 * database's shared work is shown in the basis, never judged here); a group spanning zones whose fastest zone pays for the
 * slower ones is advised to split. A separate Site is citrix-zone-rtt-limit's fix and is not
 * repeated here. The figures come from the Citrix evaluation (evaluation.ts).
 */
import { GROUP_TYPE, ZONE_TYPE } from "./site";
import { BROKERING_CAPACITY_SCHEMA } from "./schemas";
import { packEvaluation } from "./settings";
import type { GroupEvaluation } from "./evaluationTypes";
import { ONE_GROUP_TESTED, zoneShort } from "./names";
import { isolate, stackPolicy } from "../pack/definePolicy";
import { duration, num, pct } from "../pack/format";
import { CapacityTargets, capacityMessage, spanMessage } from "./capacityMessages";
import { daasNotChecked, rttDecision } from "./decisions";

export type BrokeringCapacityConfig = CapacityTargets;

/** Where a group's declared peak of 0 comes from, when every zone of it declares 0 for it. */
function zeroPeak(g: GroupEvaluation): string | undefined {
    const classes = g.load.classes;
    if (classes.length === 0 || !classes.every((c) => c.demand === 0)) {
        return undefined;
    }
    const own = g.group.peakConcurrentLaunches;
    if (own.state === "ok") {
        return "its perfguard:peakConcurrentLaunches";
    }
    const zones = [...new Set(classes.map((c) => zoneShort(c.zone)))].sort();
    return `perfguard:peakConcurrentLaunches of ${zones.join(", ")}`;
}

export const citrixBrokeringCapacity = stackPolicy<BrokeringCapacityConfig>({
    name: "citrix-brokering-capacity",
    description: "Delivery Groups should meet the brokering and logon-storm targets.",
    enforcementLevel: "advisory",
    configSchema: { properties: { ...BROKERING_CAPACITY_SCHEMA } },
    types: [ZONE_TYPE, GROUP_TYPE],
    check(stack, config, report) {
        // The room's one evaluation (its targets are this policy's, their home). Each lock on its
        // own: the Site's measured rate is citrix-site-database-load's to judge.
        const evaluation = packEvaluation(stack);
        // Several storms on the group's own Site's database (several Sites in one stack are judged apart).
        const several = (g: GroupEvaluation) =>
            (evaluation.siteOfGroup.get(g.group) ?? evaluation).database.storms > 1 ? `; several groups at once: ${ONE_GROUP_TESTED}` : "";
        for (const z of evaluation.zones) {
            const zone = z.zone;
            if (zone.daas) {
                daasNotChecked(zone, report);
                continue;
            }
            const rtt = rttDecision(zone, report);
            const peak = zone.peakConcurrentLaunches;
            if (rtt && peak.state === "ok" && peak.value === 0 && (z.demand ?? 0) === 0) {
                // A declared peak of 0: nothing launches at once. With users, the two facts disagree.
                if (zone.users.state === "ok" && zone.users.value > 0) {
                    report.notChecked(
                        {
                            reason: `its peak is 0 (${peak.where}): nothing launches at once, so the storm of its ${zone.users.value} users has no concurrency to predict`,
                            remedy: "declare the storm's perfguard:peakConcurrentLaunches (> 0), or remove perfguard:users if nobody logs on",
                        },
                        zone.resource,
                    );
                } else {
                    report.notApplicable(`its peak is 0 (${peak.where}): nothing launches at once`, zone.resource);
                }
            } else if (rtt && z.concurrency) {
                report.applied(
                    `RTT ${num(rtt.value)} ms (${rtt.where}), ${z.concurrency.how}, over ${zone.groups.length} Delivery Group lock(s); a launch's RTT is that of the zone whose controllers broker it, taken as the VDA's zone`,
                    zone.resource,
                );
            } else if (rtt && zone.users.state === "ok" && zone.users.value > 0) {
                // Users without a peak: there is a storm, but not its concurrency; never a silent pass.
                report.notChecked(
                    {
                        reason: "users declared but no perfguard:peakConcurrentLaunches, so its storm's concurrency is unknown",
                        remedy: "declare perfguard:peakConcurrentLaunches on the zone or its Delivery Groups",
                    },
                    zone.resource,
                );
            } else if (rtt) {
                report.notApplicable(
                    `RTT ${num(rtt.value)} ms but nothing to predict: no perfguard:peakConcurrentLaunches, and no throttle on every Delivery Controller with perfguard:users`,
                    zone.resource,
                );
            }
        }
        for (const { resource, as, why } of evaluation.site.unplaced) {
            if (as === "catalog") {
                report.notChecked(why, resource);
            }
        }
        for (const g of evaluation.groups) {
            isolate(g.group.resource, report, () => {
                if (g.notChecked) {
                    report.notChecked(g.notChecked, g.group.resource);
                    return;
                }
                const p = g.prediction;
                if (!p) {
                    // Users without a peak: there is a storm, but not its concurrency; never a silent pass.
                    // An implicit group is its zone, whose outcome the zone loop gave.
                    if (g.group.implicit) {
                        return;
                    }
                    const zero = zeroPeak(g);
                    if (zero !== undefined) {
                        // A declared peak of 0: nothing launches at once. With users, the two facts disagree.
                        if (g.load.users !== undefined && g.load.users > 0) {
                            report.notChecked(
                                {
                                    reason: `its peak is 0 (${zero}): nothing launches at once, so the storm of its ${g.load.users} users has no concurrency to predict`,
                                    remedy: "declare the storm's perfguard:peakConcurrentLaunches (> 0), or remove perfguard:users if nobody logs on",
                                },
                                g.group.resource,
                            );
                        } else {
                            report.notApplicable(`its peak is 0 (${zero}): nothing launches at once`, g.group.resource);
                        }
                        return;
                    }
                    if (g.load.users !== undefined && g.load.users > 0) {
                        report.notChecked(
                            {
                                reason: "users declared but no perfguard:peakConcurrentLaunches for it or its zones, so its storm's concurrency is unknown",
                                remedy: "declare perfguard:peakConcurrentLaunches on the Delivery Group or its zones",
                            },
                            g.group.resource,
                        );
                    } else {
                        report.notApplicable("no demand declared for it or its zones", g.group.resource);
                    }
                    return;
                }
                // The targets as the room reads them (their home is this policy; an old copy where it sets none).
                const message = capacityMessage(g, evaluation, {
                    ...config,
                    targetResponseS: evaluation.config.targetResponseS,
                    errorBudgetPct: evaluation.config.errorBudgetPct,
                });
                if (message) {
                    report(message, g.group.resource);
                }
                const span = spanMessage(g);
                if (span) {
                    report(span, g.group.resource);
                }
                // A violation or a pass, the group's lock was judged: --explain shows the numbers either way.
                const launch = g.launchTimeS !== undefined ? `, launch ${duration(g.launchTimeS)} at ${num(g.successfulPerS ?? 0, 2)} successful/s` : "";
                const f = g.firstCome;
                const storm = f
                    ? `; first come, its zones' whole storm on it: ${num(f.concurrency)} concurrent, ${num(f.worstMeanResponseS)} s, ${pct(f.worstErrorRate)} timed out`
                    : "";
                report.applied(
                    `lock at ${num(p.concurrency)} concurrent expected: ${num(p.worstMeanResponseS)} s, ${pct(p.worstErrorRate)} timed out${launch}${storm}${p.notMeasured.map((n) => `; ${n}`).join("")}${several(g)}`,
                    g.group.resource,
                );
            });
        }
    },
});
