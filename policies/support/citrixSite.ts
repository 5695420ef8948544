/**
 * The Citrix Site as a stack declares it: zones with their RTT and load facts, the Delivery
 * Controllers that name each zone, and the machine catalogs joined to each zone through
 * property dependencies (a catalog's `zone` input is an unknown id in a preview).
 */
import type { FactRead } from "./facts";
import type { ResourceView, StackView } from "./resources";
import { plural } from "./format";
import { field, isUnknown, parsePlainDecimal, UNKNOWN } from "./values";

export const ZONE_TYPE = "citrix:index/zone:Zone";
export const CATALOG_TYPE = "citrix:index/machineCatalog:MachineCatalog";

/** A Delivery Controller and its throttle (absent = unlimited). */
export interface Controller {
    readonly resource: ResourceView;
    readonly throttle: FactRead<number>;
}

/** A catalog's machine count: a number, unknown (preview), or not declared. */
export type MachineCount = number | "unknown" | "none";

/** One zone and what belongs to it. */
export interface Zone {
    readonly resource: ResourceView;
    /** The zone's `name` input when known, else its Pulumi resource name. */
    readonly zoneName: string;
    readonly rttMs: FactRead<number>;
    readonly peakConcurrentLaunches: FactRead<number>;
    readonly users: FactRead<number>;
    readonly controllers: Controller[];
    readonly catalogs: Array<{ resource: ResourceView; machines: MachineCount }>;
}

/**
 * The Site: zones in engine order, and how many resources could not be placed because their
 * Delivery Controller facts are unknown during a preview (they might belong to any zone).
 */
export interface Site {
    readonly zones: readonly Zone[];
    readonly unknownControllers: number;
}

function machinesOf(catalog: ResourceView): MachineCount {
    const scheme = field(catalog.props, "provisioningScheme");
    if (scheme === UNKNOWN) {
        return "unknown";
    }
    const total = field(scheme, "numberOfTotalMachines");
    if (total === UNKNOWN) {
        return "unknown";
    }
    const n = parsePlainDecimal(total);
    if (n !== undefined && n >= 0) {
        return Math.floor(n);
    }
    // Manual (non-MCS) catalogs list their machines under machineAccounts[].machines[].
    const accounts = field(catalog.props, "machineAccounts");
    if (accounts === UNKNOWN) {
        return "unknown";
    }
    if (!Array.isArray(accounts)) {
        return "none";
    }
    let count = 0;
    for (const account of accounts) {
        const machines = field(account, "machines");
        if (machines === UNKNOWN || isUnknown(account)) {
            return "unknown";
        }
        count += Array.isArray(machines) ? machines.length : 0;
    }
    return count;
}

/**
 * Builds the Site view in one pass over the stack (O(resources)).
 * @param stack - the stack's resources (AnalyzeStack outputs).
 * @returns zones with their controllers and catalogs; never throws on odd props.
 */
export function citrixSite(stack: StackView): Site {
    const zones: Zone[] = [];
    const byName = new Map<string, Zone>();
    const byUrn = new Map<string, Zone>();
    for (const resource of stack.ofType(ZONE_TYPE)) {
        const nameInput = field(resource.props, "name");
        const zone: Zone = {
            resource,
            zoneName: typeof nameInput === "string" && !isUnknown(nameInput) && nameInput.trim() ? nameInput.trim() : resource.name,
            rttMs: resource.facts.number("rttMs"),
            peakConcurrentLaunches: resource.facts.number("peakConcurrentLaunches"),
            users: resource.facts.number("users"),
            controllers: [],
            catalogs: [],
        };
        zones.push(zone);
        byUrn.set(resource.urn, zone);
    }
    // A controller names its zone by the zone's `name` input (what Citrix knows it by) or its
    // Pulumi resource name; when the two collide across zones, the `name` input wins.
    for (const zone of zones) {
        byName.set(zone.zoneName.toLowerCase(), byName.get(zone.zoneName.toLowerCase()) ?? zone);
    }
    for (const zone of zones) {
        const key = zone.resource.name.toLowerCase();
        if (!byName.has(key)) {
            byName.set(key, zone);
        }
    }
    let unknownControllers = 0;
    for (const resource of stack.resources) {
        const role = resource.facts.text("citrixRole");
        if (role.state === "unknown") {
            unknownControllers += 1;
            continue;
        }
        if (role.state !== "ok") {
            continue;
        }
        const zoneFact = resource.facts.text("citrixZone");
        if (zoneFact.state === "unknown") {
            unknownControllers += 1;
            continue;
        }
        if (zoneFact.state !== "ok") {
            continue;
        }
        byName.get(zoneFact.value.toLowerCase())?.controllers.push({ resource, throttle: resource.facts.number("throttleMaxConcurrentTransactions") });
    }
    for (const catalog of stack.ofType(CATALOG_TYPE)) {
        const zoneUrns = catalog.propertyDependencies["zone"] ?? [];
        for (const urn of zoneUrns) {
            byUrn.get(urn)?.catalogs.push({ resource: catalog, machines: machinesOf(catalog) });
        }
    }
    return { zones, unknownControllers };
}

/** " (N resources whose Delivery Controller facts are unknown in this preview were not counted)" */
export function unknownNote(unknownControllers: number): string {
    return unknownControllers > 0
        ? ` (${plural(unknownControllers, "resource")} whose Delivery Controller facts are unknown in this preview could not be counted)`
        : "";
}
