/**
 * citrix-zone-rtt-warning: the band just below citrix-zone-rtt-limit's limit, at advisory, so a
 * zone at 249 ms is not silently fine (at 250 ms the source measured 4.6 % launch errors at 36
 * concurrent requests). A separate policy because a policy reports at one enforcement level.
 */
import { CITRIX_GUIDANCE } from "../../model/citrixGuidance";
import { resourcePolicy } from "../pack/definePolicy";
import { isDaasZone, ZONE_TYPE } from "./site";
import { DAAS_REASON } from "./decisions";
import { shortName } from "../pack/message";
import { num } from "../pack/format";

export interface ZoneRttWarningConfig {
    /** Zones at or above this RTT and below belowRttMs are reported (ms). */
    warnAtRttMs: number;
    /** Upper end of the band: citrix-zone-rtt-limit's maxRttMs (ms). */
    belowRttMs: number;
}

export const citrixZoneRttWarning = resourcePolicy<ZoneRttWarningConfig>({
    name: "citrix-zone-rtt-warning",
    description: "Citrix zones near the RTT limit should plan for their own Site.",
    enforcementLevel: "advisory",
    configSchema: {
        properties: {
            warnAtRttMs: {
                type: "number",
                exclusiveMinimum: 0,
                maximum: 10000,
                default: 225,
                description: "Zones whose perfguard:rttMs is at or above this (ms), and below belowRttMs, are reported (default 225: 90 % of the 250 ms limit, perfguard's choice, not a figure of the source).",
            },
            belowRttMs: {
                type: "number",
                exclusiveMinimum: 0,
                maximum: 10000,
                default: CITRIX_GUIDANCE.maxZoneRttMs,
                description: "Upper end of the band (ms): keep equal to citrix-zone-rtt-limit's maxRttMs (default 250), which reports zones at or above it.",
            },
        },
    },
    types: [ZONE_TYPE],
    check(zone, config, report) {
        const rtt = zone.facts.number("rttMs");
        if (isDaasZone(zone, "inputs")) {
            report.notApplicable(DAAS_REASON, zone); // citrix-zone-rtt-limit reports it as not checked
            return;
        }
        if (rtt.state === "unknown" || (rtt.state === "absent" && zone.facts.incomplete)) {
            // One "not checked" per zone is enough: citrix-zone-rtt-limit reports it.
            report.notApplicable(`perfguard:rttMs is ${rtt.state === "unknown" ? "unknown" : "maybe hidden by an unknown entry"} in this preview (citrix-zone-rtt-limit reports it as not checked)`, zone);
            return;
        }
        if (rtt.state !== "ok") {
            report.notApplicable(rtt.state === "absent" ? "no perfguard:rttMs fact on this zone" : "perfguard:rttMs is invalid (perfguard-facts reports it)", zone);
            return;
        }
        if (rtt.value < config.warnAtRttMs || rtt.value >= config.belowRttMs) {
            report.notApplicable(`RTT ${num(rtt.value)} ms (${rtt.where}) outside the band ${num(config.warnAtRttMs)}-${num(config.belowRttMs)} ms`, zone);
            return;
        }
        report.applied(`RTT ${num(rtt.value)} ms (${rtt.where}) in the band ${num(config.warnAtRttMs)}-${num(config.belowRttMs)} ms`, zone);
        report({
            problem: `Zone "${shortName(zone.name)}" is ${num(rtt.value)} ms from the Site database, within ${num(config.belowRttMs - rtt.value)} ms of the ${num(config.belowRttMs)} ms limit.`,
            fix: "plan a separate Site for this location, or keep its Delivery Controllers' throttles low (citrix-broker-throttle)",
            basis: [`RTT from ${rtt.where}; band warnAtRttMs ${num(config.warnAtRttMs)} to belowRttMs ${num(config.belowRttMs)} ms; at 250 ms the XenApp/XenDesktop 7.7 tests measured 4.6% launch errors at 36 concurrent requests`],
        }, zone);
    },
});
