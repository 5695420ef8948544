/**
 * A Citrix Site from a compact spec (zones, catalogs, Delivery Groups, Delivery Controllers), as
 * the review programs declare them: for table-driven tests that change one thing per case.
 */
import type { TestResource } from "../../support/policyHarness";
import { UNKNOWN_VALUE } from "../../support/policyHarness";
import { CATALOG, VM, ZONE } from "./citrixFixtures";

export const GROUP = "citrix:index/deliveryGroup:DeliveryGroup";

export interface SpecZone {
    name: string;
    rtt?: number;
    peak?: number;
    users?: number;
}
export interface SpecGroup {
    name: string;
    zone: string;
    machines?: number;
    peak?: number;
    users?: number;
    zones?: string[];
}
export interface SpecController {
    name: string;
    zone: string;
    throttle?: number;
}
export interface SiteSpec {
    zones: SpecZone[];
    groups: SpecGroup[];
    controllers: SpecController[];
}

function meta(f: Record<string, number | undefined>): Array<{ name: string; value: string }> {
    return Object.entries(f)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => ({ name: `perfguard:${k}`, value: String(v) }));
}

/** One catalog per (group, zone) of `machines` (default 10) machines; controllers as vSphere VMs. */
export function siteOf(spec: SiteSpec): TestResource[] {
    const out: TestResource[] = spec.zones.map((z) => ({
        type: ZONE,
        name: `${z.name}-zone`,
        props: { name: z.name, metadatas: meta({ rttMs: z.rtt, peakConcurrentLaunches: z.peak, users: z.users }) },
    }));
    for (const g of spec.groups) {
        const zones = g.zones ?? [g.zone];
        const machines = g.machines ?? 10;
        const cats = zones.map((z) => `${g.name}-${z}-cat`);
        zones.forEach((z, i) =>
            out.push({
                type: CATALOG,
                name: cats[i],
                props: { zone: UNKNOWN_VALUE, provisioningScheme: { numberOfTotalMachines: machines } },
                propertyDependencies: { zone: [`${z}-zone`] },
            }),
        );
        out.push({
            type: GROUP,
            name: `${g.name}-group`,
            props: {
                name: g.name,
                associatedMachineCatalogs: cats.map(() => ({ machineCatalog: UNKNOWN_VALUE, machineCount: machines })),
                metadatas: meta({ peakConcurrentLaunches: g.peak, users: g.users }),
            },
            propertyDependencies: { associatedMachineCatalogs: cats },
        });
    }
    for (const d of spec.controllers) {
        out.push({
            type: VM,
            name: d.name,
            props: {
                name: d.name,
                extraConfig: {
                    "guestinfo.perfguard.citrixRole": "deliveryController",
                    "guestinfo.perfguard.citrixZone": d.zone,
                    ...(d.throttle === undefined ? {} : { "guestinfo.perfguard.throttleMaxConcurrentTransactions": String(d.throttle) }),
                },
            },
        });
    }
    return out;
}

/** A deep copy of `spec` changed by `change` (one change per table case). */
export function changed(spec: SiteSpec, change: (s: SiteSpec) => void): SiteSpec {
    const copy = structuredClone(spec);
    change(copy);
    return copy;
}
