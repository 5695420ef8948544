/**
 * citrix-site-limits: Citrix's published per-Site and per-zone limits (zones per Site; VDAs per
 * zone and per Site under Local Host Cache).
 */
import { CITRIX_GUIDANCE } from "../../model/citrixGuidance";
import { AFTER_APPLY, CATALOG_TYPE, Zone, ZONE_TYPE } from "./site";
import { packEvaluation } from "./settings";
import { fitted, zoneRef } from "./names";
import { shortName } from "../pack/message";
import { configured } from "./targets";
import { field } from "../pack/values";
import { isolate, NotChecked, Report, stackPolicy } from "../pack/definePolicy";
import { plural } from "../pack/format";

export interface SiteLimitsConfig {
    maxZonesPerSite: number;
    maxVdasPerZone: number;
    maxVdasPerSite: number;
}

/** Where the per-Site figure comes from (model/data/citrix-brokering.json, its source note). */
const PER_SITE_SOURCE =
    "XenApp and XenDesktop 7.14 Local Host Cache, as reported by dabcc.com (2017); not in Citrix's current Tech Zone article, not confirmed for current releases";

/**
 * What the zone's Delivery Groups say about Local Host Cache (`makeResourcesAvailableInLhc`, a
 * Delivery Group argument of the Citrix provider): the per-zone limit matters for the groups that
 * keep their resources available in outage mode.
 */
function lhcNote(zone: Zone): string[] {
    let on = 0;
    let off = 0;
    for (const share of zone.groups) {
        const value = share.group.implicit ? undefined : field(share.group.resource.props, "makeResourcesAvailableInLhc");
        if (value === true || value === "true") {
            on += 1;
        } else if (value === false || value === "false") {
            off += 1;
        }
    }
    return on + off === 0 ? [] : [`Delivery Groups with machines here: ${on} set makeResourcesAvailableInLhc true, ${off} false`];
}

/** How a Site-wide problem line opens: "This stack declares " for the stack's one Site, else the Site by its provider. */
function sitePrefix(name: string | undefined): string {
    return name === undefined ? "This stack declares " : `The Site of citrix provider "${shortName(name)}" declares `;
}

/** One Site's VDAs against maxVdasPerSite (zones of several Sites that cannot be told apart: a verdict is not checked). */
function siteVdas(
    name: string | undefined,
    zones: readonly Zone[],
    counts: ReadonlyMap<Zone, { total: number; unknown: number }>,
    config: SiteLimitsConfig,
    unclear: NotChecked | undefined,
    report: Report,
): void {
    const siteTotal = zones.reduce((sum, z) => sum + (counts.get(z)?.total ?? 0), 0);
    const siteUnknown = zones.reduce((sum, z) => sum + (counts.get(z)?.unknown ?? 0), 0);
    const whose = name === undefined ? "" : ` of the Site of citrix provider "${shortName(name)}"`;
    // As per zone: above the limit the known counts decide; within it, unknown ones could cross it.
    if (zones.length > 1 && siteTotal <= config.maxVdasPerSite && siteUnknown > 0) {
        report.notChecked({
            reason: `the Site's ${siteTotal} known machines${whose} and ${plural(siteUnknown, "catalog")} whose size is unknown in this preview could cross maxVdasPerSite ${config.maxVdasPerSite}`,
            remedy: AFTER_APPLY,
        });
    } else {
        report.applied(
            `${plural(zones.length, "Citrix zone")}${whose} against maxZonesPerSite ${config.maxZonesPerSite}; ${siteTotal} machines in them${siteUnknown > 0 ? ` (+ ${siteUnknown} catalogs not known yet)` : ""} against maxVdasPerSite ${config.maxVdasPerSite}`,
        );
    }
    if (zones.length <= 1 || siteTotal <= config.maxVdasPerSite) {
        return;
    }
    if (unclear) {
        // The sum is over every zone of the stack: above the limit, it may be over several Sites.
        report.notChecked({
            reason: `${siteTotal} machines in ${plural(zones.length, "Citrix zone")} against maxVdasPerSite ${config.maxVdasPerSite}: ${unclear.reason}`,
            remedy: unclear.remedy,
        });
        return;
    }
    report({
        problem:
            name === undefined
                ? `This stack's ${plural(zones.length, "Citrix zone")} hold ${siteTotal} machines, more than the ${config.maxVdasPerSite} VDAs per Site Local Host Cache was sized for.`
                : `The ${plural(zones.length, "Citrix zone")} of the Site of citrix provider "${shortName(name)}" hold ${siteTotal} machines, more than the ${config.maxVdasPerSite} VDAs per Site Local Host Cache was sized for.`,
        fix: "split the zones across Sites, or keep the Site within the limit if it relies on Local Host Cache",
        basis: [`maxVdasPerSite ${configured(config.maxVdasPerSite, CITRIX_GUIDANCE.maxVdasPerSite)}: ${PER_SITE_SOURCE}`],
    });
}

export const citrixSiteLimits = stackPolicy<SiteLimitsConfig>({
    name: "citrix-site-limits",
    description: "A Citrix Site should stay within the published zone and VDA limits.",
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
            maxVdasPerSite: {
                type: "integer",
                minimum: 1,
                maximum: 100000000,
                default: CITRIX_GUIDANCE.maxVdasPerSite,
                description:
                    "Most VDAs all zones of the Site (this stack) should have together (default 40000: Local Host Cache in a multi-zone Site, XenApp and XenDesktop 7.14; not confirmed for current releases).",
            },
        },
    },
    types: [ZONE_TYPE, CATALOG_TYPE],
    check(stack, config, report) {
        const evaluation = packEvaluation(stack);
        const site = evaluation.site;
        const unclear = evaluation.sitesUnclear;
        // Per Site (its provider's endpoint): a stack may declare several, each within its own limits.
        for (const part of evaluation.sites) {
            if (part.zones.length <= config.maxZonesPerSite) {
                continue;
            }
            if (unclear) {
                report.notChecked({
                    reason: `${plural(part.zones.length, "Citrix zone")} against maxZonesPerSite ${config.maxZonesPerSite}: ${unclear.reason}`,
                    remedy: unclear.remedy,
                });
                continue;
            }
            report({
                problem: `${sitePrefix(part.name)}${plural(part.zones.length, "Citrix zone")}, more than the ${config.maxZonesPerSite} one Site supports.`,
                fix: "split the zones across Sites",
                basis: [`maxZonesPerSite ${configured(config.maxZonesPerSite, CITRIX_GUIDANCE.maxZonesPerSite)}: Citrix's published limit`],
            });
        }
        for (const { resource, as, why } of site.unplaced) {
            if (as === "catalog") {
                report.notChecked(why, resource);
            }
        }
        const counts = new Map<Zone, { total: number; unknown: number }>();
        for (const zone of site.zones) {
            isolate(zone.resource, report, () => {
                if (zone.catalogs.length === 0) {
                    report.notApplicable("no machine catalog of this stack is in this zone", zone.resource);
                    return;
                }
                let total = 0;
                let unknown = 0;
                for (const catalog of zone.catalogs) {
                    if (catalog.machines === "unknown") {
                        unknown += 1;
                    } else if (catalog.machines !== "none") {
                        total += catalog.machines;
                    }
                    report.applied(`counted with its zone ${zone.resource.label}`, catalog.resource);
                }
                counts.set(zone, { total, unknown });
                // Unknown counts can only add machines: above the limit the known ones decide;
                // within it, an unknown count could still cross it (fail closed: not checked).
                if (total <= config.maxVdasPerZone && unknown > 0) {
                    report.notChecked(
                        {
                            reason: `${total} known machines and ${plural(unknown, "catalog")} whose size is unknown in this preview could cross maxVdasPerZone ${config.maxVdasPerZone}`,
                            remedy: AFTER_APPLY,
                        },
                        zone.resource,
                    );
                    return;
                }
                report.applied(
                    `${total} machines${unknown > 0 ? ` (+ ${unknown} catalogs not known yet)` : ""} against maxVdasPerZone ${config.maxVdasPerZone}`,
                    zone.resource,
                );
                if (total <= config.maxVdasPerZone) {
                    return;
                }
                report(
                    {
                        problem: fitted(
                            (ref) =>
                                `${ref} has ${total} machines in its catalogs, more than the ${config.maxVdasPerZone} VDAs per zone Local Host Cache supports.`,
                            zoneRef(zone, true),
                            (n) => `Zone "${shortName(zone.resource.name, n)}"`,
                        ),
                        fix: "spread the machines over more zones, or keep the zone within the limit if it relies on Local Host Cache",
                        basis: [
                            `machines from provisioningScheme.numberOfTotalMachines or machineAccounts of ${plural(zone.catalogs.length, "catalog")}${unknown > 0 ? `, ${unknown} not known yet` : ""}`,
                            `maxVdasPerZone ${configured(config.maxVdasPerZone, CITRIX_GUIDANCE.maxVdasPerZone)}: "There is a limit of 10,000 VDAs per zone", Citrix Tech Zone, Local Host Cache sizing and scaling, Citrix Virtual Apps and Desktops`,
                            ...lhcNote(zone),
                        ],
                    },
                    zone.resource,
                );
            });
        }
        for (const part of evaluation.sites) {
            siteVdas(
                part.name,
                part.zones.map((z) => z.zone),
                counts,
                config,
                unclear,
                report,
            );
        }
    },
});
