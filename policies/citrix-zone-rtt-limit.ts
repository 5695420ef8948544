/**
 * citrix-zone-rtt-limit: a satellite zone whose Delivery Controllers are too far from the Site
 * database must become a separate Site.
 */
import { CITRIX_GUIDANCE, measuredAt } from "../model/citrixGuidance";
import { resourcePolicy } from "./support/definePolicy";
import { applied, Applicability, notApplicable, unusableFact } from "./support/explain";
import type { ResourceView } from "./support/resources";
import { ZONE_TYPE } from "./support/citrixSite";
import { num, pct } from "./support/format";

export interface ZoneRttLimitConfig {
    /** Zones at or above this RTT are reported (ms). */
    maxRttMs: number;
}

/** The measured error rates at the guidance limit, quoted as evidence (citrix-brokering.json, 250 ms rows). */
function evidenceAtLimit(): string {
    const failing = measuredAt(CITRIX_GUIDANCE.maxZoneRttMs).filter((c) => (c.errorPct ?? 0) > 0);
    if (failing.length === 0) {
        return "";
    }
    const cells = failing.map((c) => `${pct((c.errorPct as number) / 100)} at ${c.concurrentRequests}`).join(", ");
    return ` At ${CITRIX_GUIDANCE.maxZoneRttMs} ms the XenApp/XenDesktop 7.7 tests measured launch errors of ${cells} concurrent brokering requests.`;
}

/** --explain: the zone's RTT against maxRttMs, or why it cannot be read. */
function explainZone(zone: ResourceView, config: ZoneRttLimitConfig): Applicability {
    const rtt = zone.facts.number("rttMs");
    const missing = unusableFact(rtt, "perfguard:rttMs", "this zone");
    if (missing !== undefined || rtt.state !== "ok") {
        return notApplicable(missing ?? "perfguard:rttMs cannot be read");
    }
    const against = rtt.value >= config.maxRttMs ? "at or above" : "below";
    return applied(`RTT ${num(rtt.value)} ms (${rtt.where}) ${against} maxRttMs ${num(config.maxRttMs)} ms`);
}

export const citrixZoneRttLimit = resourcePolicy<ZoneRttLimitConfig>({
    name: "citrix-zone-rtt-limit",
    description: "Citrix zones must stay below the RTT limit to the Site database; farther locations need their own Site.",
    enforcementLevel: "mandatory",
    configSchema: {
        properties: {
            maxRttMs: {
                type: "number",
                exclusiveMinimum: 0,
                maximum: 10000,
                default: CITRIX_GUIDANCE.maxZoneRttMs,
                description: "Zones whose perfguard:rttMs is at or above this (ms) are reported. Default 250: Citrix guidance (keep zone RTT under 250 ms).",
            },
        },
    },
    types: [ZONE_TYPE],
    explain: explainZone,
    check(zone, config, report) {
        const rtt = zone.facts.number("rttMs");
        if (rtt.state !== "ok" || rtt.value < config.maxRttMs) {
            return;
        }
        report(
            `${zone.label} has an RTT of ${num(rtt.value)} ms to the Site database (${rtt.where}), at or above the limit of ${num(config.maxRttMs)} ms ` +
            `(policy config maxRttMs; default ${CITRIX_GUIDANCE.maxZoneRttMs} ms from Citrix guidance: keep zone RTT under 250 ms).${evidenceAtLimit()} ` +
            `Fix: deploy a separate Site (with its own database) for this location instead of a satellite zone, or move the zone's Delivery Controllers closer to the Site database.`,
            zone,
        );
    },
});
