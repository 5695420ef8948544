/**
 * citrix-site-limits: Citrix's published per-Site and per-zone limits (zones per Site; VDAs per
 * zone under Local Host Cache).
 */
import { CITRIX_GUIDANCE } from "../model/citrixGuidance";
import { CATALOG_TYPE, citrixSite } from "./support/citrixSite";
import { isolate, stackPolicy } from "./support/definePolicy";
import { Applicability, applied, notApplicable, StackApplicability } from "./support/explain";
import type { StackView } from "./support/resources";
import { listLabels, plural } from "./support/format";

export interface SiteLimitsConfig {
    maxZonesPerSite: number;
    maxVdasPerZone: number;
}

/** --explain: the zone count against maxZonesPerSite, and each zone's machines against maxVdasPerZone. */
function explainLimits(stack: StackView, config: SiteLimitsConfig): StackApplicability {
    const out = new Map<string, Applicability>();
    const site = citrixSite(stack);
    for (const zone of site.zones) {
        if (zone.catalogs.length === 0) {
            out.set(zone.resource.urn, notApplicable("no machine catalog is joined to this zone (through a catalog's zone input property dependency)"));
            continue;
        }
        const known = zone.catalogs.filter((c) => typeof c.machines === "number");
        const total = known.reduce((t, c) => t + (typeof c.machines === "number" ? c.machines : 0), 0);
        const unknown = zone.catalogs.filter((c) => c.machines === "unknown").length;
        out.set(zone.resource.urn, applied(`${total} machines in ${plural(known.length, "catalog")}${unknown > 0 ? ` (+ ${unknown} not known yet)` : ""} against maxVdasPerZone ${config.maxVdasPerZone}`));
        for (const catalog of zone.catalogs) {
            out.set(catalog.resource.urn, applied(`counted with its zone ${zone.resource.label}: ${catalog.machines === "none" ? "no machine count declared" : catalog.machines === "unknown" ? "machine count not known yet" : `${catalog.machines} machines`}`));
        }
    }
    for (const catalog of stack.ofType(CATALOG_TYPE)) {
        if (!out.has(catalog.urn)) {
            out.set(catalog.urn, notApplicable("its zone input depends on no zone of this stack, so its machines are not counted"));
        }
    }
    return {
        resources: out,
        others: "not a Citrix zone or machine catalog",
        stack: applied(`${plural(site.zones.length, "Citrix zone")} against maxZonesPerSite ${config.maxZonesPerSite}`),
    };
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
    explain: explainLimits,
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
