/**
 * citrix-zone-rtt-warning: the band just below citrix-zone-rtt-limit's limit, at advisory, so a
 * zone at 249 ms is not silently fine (at 250 ms the source measured 4.6 % launch errors at 36
 * concurrent requests). A separate policy because a policy reports at one enforcement level.
 */
import { resourcePolicy } from "../pack/definePolicy";
import { isDaasZone, ZONE_TYPE } from "./site";
import { DAAS_REASON, zoneLine } from "./decisions";
import { takeRttLimit } from "./rttLimit";
import { configured } from "./targets";
import { schemaNumber, ZONE_RTT_LIMIT_SCHEMA, ZONE_RTT_WARNING_SCHEMA } from "./schemas";
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
    configSchema: { properties: { ...ZONE_RTT_WARNING_SCHEMA } },
    types: [ZONE_TYPE],
    check(zone, config, report) {
        const limit = takeRttLimit(zone.urn);
        const rtt = zone.facts.number("rttMs");
        if (isDaasZone(zone, "inputs")) {
            report.notApplicable(DAAS_REASON, zone); // citrix-zone-rtt-limit reports it as not checked
            return;
        }
        if (rtt.state === "unknown" || (rtt.state === "absent" && zone.facts.incomplete)) {
            // One "not checked" per zone is enough: citrix-zone-rtt-limit reports it.
            report.notApplicable(
                `perfguard:rttMs is ${rtt.state === "unknown" ? "unknown" : "maybe hidden by an unknown entry"} in this preview (citrix-zone-rtt-limit reports it as not checked)`,
                zone,
            );
            return;
        }
        if (rtt.state !== "ok") {
            report.notApplicable(
                rtt.state === "absent" ? "no perfguard:rttMs fact on this zone" : "perfguard:rttMs is invalid (perfguard-facts reports it)",
                zone,
            );
            return;
        }
        // The band ends at the limit citrix-zone-rtt-limit judged this zone with (rttLimit.ts), so a
        // zone at or above it gets that policy's verdict alone.
        const below = limit !== undefined ? Math.min(limit, config.belowRttMs) : config.belowRttMs;
        const end =
            limit !== undefined && limit <= config.belowRttMs
                ? `citrix-zone-rtt-limit's maxRttMs ${configured(limit, schemaNumber(ZONE_RTT_LIMIT_SCHEMA, "maxRttMs"), " ms")}`
                : `belowRttMs ${configured(config.belowRttMs, schemaNumber(ZONE_RTT_WARNING_SCHEMA, "belowRttMs"), " ms")}`;
        if (rtt.value < config.warnAtRttMs || rtt.value >= below) {
            report.notApplicable(`RTT ${num(rtt.value)} ms (${rtt.where}) outside the band ${num(config.warnAtRttMs)}-${num(below)} ms (ends at ${end})`, zone);
            return;
        }
        report.applied(`RTT ${num(rtt.value)} ms (${rtt.where}) in the band ${num(config.warnAtRttMs)}-${num(below)} ms`, zone);
        report(
            {
                problem: zoneLine(
                    zone,
                    (ref) => `${ref} is ${num(rtt.value)} ms from the Site database, within ${num(below - rtt.value)} ms of the ${num(below)} ms limit.`,
                ),
                fix: "plan a separate Site for this location, or keep its Delivery Controllers' throttles low (citrix-broker-throttle)",
                basis: [
                    `band: warnAtRttMs ${configured(config.warnAtRttMs, schemaNumber(ZONE_RTT_WARNING_SCHEMA, "warnAtRttMs"), " ms")} to ${end}`,
                    `at 250 ms the XenApp/XenDesktop 7.7 tests measured 4.6% launch errors at 36 concurrent requests`,
                ],
            },
            zone,
        );
    },
});
