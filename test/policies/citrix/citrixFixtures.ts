/** A compliant Citrix stack for table-driven policy tests: each failing case changes one thing. */
import type { TestResource } from "../../support/policyHarness";
import { UNKNOWN_VALUE } from "../../support/policyHarness";

export const ZONE = "citrix:index/zone:Zone";
export const CATALOG = "citrix:index/machineCatalog:MachineCatalog";
export const VM = "vsphere:index/virtualMachine:VirtualMachine";

export interface CitrixStackOptions {
    rttMs?: string;
    peak?: string;
    users?: string;
    throttles?: Array<string | undefined>;
    machines?: unknown;
    zoneName?: string;
    extra?: TestResource[];
}

/** Zone "emea" at 160 ms, peak 20, 1000 users; two controllers throttled at 12; 500 machines. */
export function citrixStack(o: CitrixStackOptions = {}): TestResource[] {
    const metadata = [
        { name: "owner", value: "vdi-team" },
        { name: "perfguard:rttMs", value: o.rttMs ?? "160" },
        { name: "perfguard:peakConcurrentLaunches", value: o.peak ?? "20" },
        { name: "perfguard:users", value: o.users ?? "1000" },
    ];
    const zoneName = o.zoneName ?? "emea";
    const controllers = (o.throttles ?? ["12", "12"]).map((throttle, i): TestResource => ({
        type: VM,
        name: `ddc-${i + 1}`,
        props: {
            name: `ddc-${i + 1}`,
            numCpus: 4,
            // vSphere `tags` hold tag ids: facts go in extraConfig (docs/facts.md#vsphere).
            extraConfig: {
                "guestinfo.perfguard.citrixRole": "deliveryController",
                "guestinfo.perfguard.citrixZone": zoneName,
                ...(throttle === undefined ? {} : { "guestinfo.perfguard.throttleMaxConcurrentTransactions": throttle }),
            },
        },
    }));
    return [
        { type: ZONE, name: "emea-zone", props: { name: zoneName, metadatas: metadata } },
        {
            type: CATALOG,
            name: "emea-catalog",
            props: { name: "emea-catalog", zone: UNKNOWN_VALUE, provisioningScheme: { numberOfTotalMachines: o.machines ?? 500 } },
            propertyDependencies: { zone: ["emea-zone"] },
        },
        ...controllers,
        ...(o.extra ?? []),
    ];
}
