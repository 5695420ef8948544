/**
 * citrix-brokering-capacity: per Delivery Group lock (and per zone as the sum), the predicted
 * brokering response, timeout rate and logon-storm launch time at peak must meet the targets.
 * A separate Site is citrix-zone-rtt-limit's fix and is not repeated here.
 */
import { citrixSite, GROUP_TYPE, ZONE_TYPE } from "./site";
import { effectiveConcurrency, groupLoads } from "./load";
import { siteBudget } from "./budget";
import { isolate, stackPolicy } from "../pack/definePolicy";
import { duration, num, pct } from "../pack/format";
import { TARGET_SCHEMA } from "./targets";
import { CapacityTargets, capacityMessage, predictLoad } from "./capacityMessages";
import { daasNotChecked, rttDecision } from "./decisions";

export type BrokeringCapacityConfig = CapacityTargets;

export const citrixBrokeringCapacity = stackPolicy<BrokeringCapacityConfig>({
    name: "citrix-brokering-capacity",
    description: "Delivery Groups should meet the brokering and logon-storm targets.",
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
    types: [ZONE_TYPE, GROUP_TYPE],
    check(stack, config, report) {
        const site = citrixSite(stack);
        const loads = groupLoads(site);
        const budget = siteBudget(loads, config);
        for (const zone of site.zones) {
            if (zone.daas) {
                daasNotChecked(zone, report);
                continue;
            }
            const rtt = rttDecision(zone, report);
            const concurrency = rtt ? effectiveConcurrency(zone, loads) : undefined;
            if (rtt && concurrency) {
                report.applied(`RTT ${num(rtt.value)} ms (${rtt.where}), ${concurrency.how}, over ${zone.groups.length} Delivery Group lock(s)${zone.groups.length > 1 ? " (groups working at once: not measured)" : ""}`, zone.resource);
            } else if (rtt) {
                report.notApplicable(`RTT ${num(rtt.value)} ms but nothing to predict: no perfguard:peakConcurrentLaunches, and no throttle on every Delivery Controller with perfguard:users`, zone.resource);
            }
        }
        for (const { resource, as, why } of site.unplaced) {
            if (as === "catalog") {
                report.notChecked(why, resource);
            }
        }
        for (const load of loads) {
            isolate(load.group.resource, report, () => {
                if (load.notChecked) {
                    report.notChecked(load.notChecked, load.group.resource);
                    return;
                }
                const p = predictLoad(load);
                if (!p) {
                    if (!load.group.implicit) {
                        report.notApplicable("no demand declared for it or its zones", load.group.resource);
                    }
                    return;
                }
                const zoneGroups = Math.max(...load.classes.map((c) => c.zone.groups.length));
                const message = capacityMessage(load, p, budget.byGroup.get(load.group), config, zoneGroups);
                if (message) {
                    report(message, load.group.resource);
                }
                // A violation or a pass, the group's lock was judged: --explain shows the numbers either way.
                const launch = p.launchTimeS !== undefined ? `, launch ${duration(p.launchTimeS)}` : "";
                report.applied(`lock at ${num(p.concurrency)} concurrent: ${num(p.worstMeanResponseS)} s, ${pct(p.worstErrorRate)} timed out${launch}${[...p.notMeasured, ...(zoneGroups > 1 ? ["groups working at once: not measured"] : [])].map((n) => `; ${n}`).join("")}`, load.group.resource);
            });
        }
    },
});
