/**
 * citrix-zone-rtt-limit: a satellite zone whose Delivery Controllers are too far from the Site
 * database must become a separate Site (Citrix guidance: keep zone RTT under 250 ms). A Citrix
 * DaaS zone (a resource location, no Site database over the WAN) is not judged.
 */
import { CITRIX_GUIDANCE, measuredAt } from "../../model/citrixGuidance";
import { resourcePolicy } from "../pack/definePolicy";
import { AFTER_APPLY, isDaasZone, ZONE_TYPE } from "./site";
import { DAAS_REASON, RTT_HIDDEN, zoneLine } from "./decisions";
import { recordRttLimit } from "./rttLimit";
import { configured } from "./targets";
import { schemaNumber, ZONE_RTT_LIMIT_SCHEMA } from "./schemas";
import { num, pct } from "../pack/format";

export interface ZoneRttLimitConfig {
    /** Zones at or above this RTT are reported (ms). */
    maxRttMs: number;
}

/** The measured error rates at the guidance limit, for the basis line (citrix-brokering.json, 250 ms rows). */
function evidenceAtLimit(): string {
    const failing = measuredAt(CITRIX_GUIDANCE.maxZoneRttMs).filter((c) => (c.errorPct ?? 0) > 0);
    const cells = failing.map((c) => `${pct((c.errorPct as number) / 100)} at ${c.concurrentRequests}`).join(", ");
    return `7.7 tests at ${CITRIX_GUIDANCE.maxZoneRttMs} ms: launch errors ${cells} concurrent requests`;
}

export const citrixZoneRttLimit = resourcePolicy<ZoneRttLimitConfig>({
    name: "citrix-zone-rtt-limit",
    description: "Citrix zones must stay below the RTT limit to the Site database.",
    enforcementLevel: "mandatory",
    configSchema: { properties: { ...ZONE_RTT_LIMIT_SCHEMA } },
    types: [ZONE_TYPE],
    check(zone, config, report) {
        recordRttLimit(zone.urn, config.maxRttMs);
        const rtt = zone.facts.number("rttMs");
        if (isDaasZone(zone, "inputs")) {
            if (rtt.state === "absent") {
                report.notApplicable(DAAS_REASON, zone);
            } else {
                report.notChecked({ reason: DAAS_REASON, remedy: "judge it against Citrix Cloud's published limits; remove perfguard:rttMs from it" }, zone);
            }
            return;
        }
        if (rtt.state === "unknown") {
            report.notChecked({ reason: "its perfguard:rttMs is unknown in this preview", remedy: AFTER_APPLY }, zone);
            return;
        }
        if (rtt.state === "absent" && zone.facts.incomplete) {
            report.notChecked(RTT_HIDDEN, zone);
            return;
        }
        if (rtt.state !== "ok") {
            report.notApplicable(
                rtt.state === "absent" ? "no perfguard:rttMs fact on this zone" : "perfguard:rttMs is invalid (perfguard-facts reports it)",
                zone,
            );
            return;
        }
        if (rtt.value < config.maxRttMs) {
            report.applied(`RTT ${num(rtt.value)} ms (${rtt.where}) below maxRttMs ${num(config.maxRttMs)} ms`, zone);
            return;
        }
        report.applied(`RTT ${num(rtt.value)} ms (${rtt.where}) at or above maxRttMs ${num(config.maxRttMs)} ms`, zone);
        report(
            {
                problem: zoneLine(
                    zone,
                    (ref) =>
                        `${ref} is ${num(rtt.value)} ms from the Site database, at or above the ${num(config.maxRttMs)} ms limit: launches time out under load.`,
                ),
                fix: "deploy a separate Site (own database) for this location, or move its Delivery Controllers closer to the Site database",
                basis: [
                    // Where the RTT was read (rtt.where) is in the --explain record above.
                    `${config.maxRttMs === schemaNumber(ZONE_RTT_LIMIT_SCHEMA, "maxRttMs") ? `maxRttMs ${num(config.maxRttMs)} ms (default: Citrix guidance)` : `maxRttMs ${configured(config.maxRttMs, schemaNumber(ZONE_RTT_LIMIT_SCHEMA, "maxRttMs"), " ms")} (Citrix guidance)`}; ${evidenceAtLimit()}`,
                ],
            },
            zone,
        );
    },
});
