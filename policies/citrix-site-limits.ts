/**
 * citrix-site-limits: Citrix's published per-Site and per-zone limits (zones per Site; VDAs per
 * zone under Local Host Cache).
 */
import { CITRIX_GUIDANCE } from "../model/citrixGuidance";
import { citrixSite } from "./support/citrixSite";
import { isolate, stackPolicy } from "./support/definePolicy";
import { listLabels, plural } from "./support/format";

export interface SiteLimitsConfig {
    maxZonesPerSite: number;
    maxVdasPerZone: number;
}

export const citrixSiteLimits = stackPolicy<SiteLimitsConfig>({
    name: "citrix-site-limits",
    description: "A Citrix Site should stay within the published zone count and per-zone VDA limits.",
    enforcementLevel: "advisory",
    configSchema: {
        properties: {
            maxZonesPerSite: {
                type: "integer",
                minimum: 1,
                maximum: 100000,
                default: CITRIX_GUIDANCE.maxZonesPerSite,
                description: "Most zones one Site should have (default 50: Citrix's published limit).",
            },
            maxVdasPerZone: {
                type: "integer",
                minimum: 1,
                maximum: 10000000,
                default: CITRIX_GUIDANCE.maxVdasPerZone,
                description: "Most VDAs (machines of the zone's catalogs) one zone should have (default 10000: Local Host Cache's published limit per zone).",
            },
        },
    },
    check(stack, config, report) {
        const site = citrixSite(stack);
        if (site.zones.length > config.maxZonesPerSite) {
            report(
                `This stack declares ${plural(site.zones.length, "Citrix zone")} (citrix:index/zone:Zone resources), more than the ${config.maxZonesPerSite} one Site supports ` +
                `(maxZonesPerSite; default ${CITRIX_GUIDANCE.maxZonesPerSite} from Citrix's published limits). Fix: split the zones across Sites.`,
            );
        }
        for (const zone of site.zones) {
            isolate(zone.resource, report, () => {
                let total = 0;
                let unknown = 0;
                const parts: string[] = [];
                for (const catalog of zone.catalogs) {
                    if (catalog.machines === "unknown") {
                        unknown += 1;
                    } else if (catalog.machines !== "none") {
                        total += catalog.machines;
                        parts.push(`${catalog.resource.label}: ${catalog.machines}`);
                    }
                }
                // Unknown counts can only add machines: report when the known ones already exceed.
                if (total <= config.maxVdasPerZone) {
                    return;
                }
                report(
                    `${zone.resource.label} (zone "${zone.zoneName}") has ${total} machines in its catalogs (${listLabels(parts)}, from provisioningScheme.numberOfTotalMachines or machineAccounts)` +
                    `${unknown > 0 ? ` plus ${plural(unknown, "catalog")} whose count is not known yet` : ""}, more than the ${config.maxVdasPerZone} VDAs per zone ` +
                    `(maxVdasPerZone; default ${CITRIX_GUIDANCE.maxVdasPerZone}: Local Host Cache's published limit). Fix: spread the machines over more zones, or keep the zone within the limit if it relies on Local Host Cache.`,
                    zone.resource,
                );
            });
        }
    },
});
