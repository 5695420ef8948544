/**
 * The Citrix Site as a stack declares it: zones with their RTT and load facts, the Delivery
 * Controllers that name each zone (in the stack, or listed in citrix-broker-throttle's
 * `externalControllers`), the machine catalogs of each zone, and the Delivery Groups whose
 * catalogs put their machines in one or more zones (the brokering lock is per Delivery Group:
 * citrix-zones-latency-brokering.ja.txt). Everything that cannot be joined is recorded as "not
 * checked" with its reason, never dropped.
 *
 * A catalog's machines (its own count, and the split of a group's counts over catalogs a preview
 * cannot pair) are read in catalogMachines.ts.
 */
import type { FactRead } from "../pack/facts";
import type { NotChecked } from "../pack/definePolicy";
import type { ResourceView, StackView } from "../pack/resources";
import { field, isUnknown, parsePlainDecimal, UNKNOWN } from "../pack/values";
import { currentInventory } from "../pack/inventory/current";
import { holdsStacks } from "../pack/inventory/empty";
import { INVENTORY_ENV } from "../pack/inventory/types";
import { ambiguousWhy, ZoneIndex, ZoneLookup } from "./zoneJoin";
import { machinesOf, unpairedMachines } from "./catalogMachines";
import { ExternalControllers, ExternalKeys, placeExternalControllers } from "./externalControllers";
import type { MachineCount } from "./catalogMachines";

export type { MachineCount } from "./catalogMachines";

/**
 * A zone named by perfguard:citrixZone that this stack does not declare: without an inventory,
 * another stack's zone whose RTT, controllers and load are unknown here; with one, a zone no
 * stack of the inventory declares either.
 */
function zoneNotOwned(remedy: string): NotChecked {
    return holdsStacks(currentInventory())
        ? {
              reason: "its perfguard:citrixZone names a zone in neither this stack nor the inventory",
              remedy: `add the stack that declares the zone to ${INVENTORY_ENV}, or ${remedy}`,
          }
        : {
              reason: "its perfguard:citrixZone names a zone this stack does not declare: other stacks' load on it is unknown",
              remedy: `set ${INVENTORY_ENV} to the stacks' state (docs/shared-capacity.md), or ${remedy}`,
          };
}

export const ZONE_TYPE = "citrix:index/zone:Zone";
export const CATALOG_TYPE = "citrix:index/machineCatalog:MachineCatalog";
export const GROUP_TYPE = "citrix:index/deliveryGroup:DeliveryGroup";

/** Known after apply: the remedy for a value that is unknown in a preview. */
export const AFTER_APPLY = "known after apply: run `pulumi policy analyze` (or `perfguard check`) after the update";

/** A Delivery Controller and its throttle (absent = unlimited). */
export interface Controller {
    /** The resource in this stack, or undefined for one listed in `externalControllers`. */
    readonly resource?: ResourceView;
    /** Its Pulumi name, or the name given in `externalControllers`. */
    readonly name: string;
    readonly throttle: FactRead<number>;
}

/** One Delivery Group's machines in one zone. */
export interface GroupZoneShare {
    readonly group: Group;
    readonly zone: Zone;
    /** Machines of the group in that zone (may be fractional after an even split). */
    readonly machines: number;
}

/** One Delivery Group: its own brokering lock. `implicit` = a zone with no group in the stack. */
export interface Group {
    readonly resource: ResourceView;
    readonly implicit: boolean;
    readonly peakConcurrentLaunches: FactRead<number>;
    readonly users: FactRead<number>;
    readonly shares: GroupZoneShare[];
    /** True when several catalogs' counts were split evenly (preview: which count is whose is unknown). */
    evenSplit: boolean;
    /** Why the group's zones cannot be known (then `shares` is empty or partial). */
    notChecked?: NotChecked;
}

/** One zone and what belongs to it. */
export interface Zone {
    readonly resource: ResourceView;
    /** The zone's `name` input when known, else its Pulumi resource name. */
    readonly zoneName: string;
    /** The `name` input is unknown in this preview: controllers naming it cannot be matched. */
    readonly nameUnknown: boolean;
    /** A Citrix DaaS resource location (`resourceLocationId` set): no Site database over the WAN. */
    readonly daas: boolean;
    readonly rttMs: FactRead<number>;
    readonly peakConcurrentLaunches: FactRead<number>;
    readonly users: FactRead<number>;
    readonly controllers: Controller[];
    readonly catalogs: Array<{ resource: ResourceView; machines: MachineCount }>;
    /** The Delivery Groups with machines in this zone (an implicit one when the stack has none). */
    readonly groups: GroupZoneShare[];
}

/** The Site: zones and groups in engine order, and what could not be joined. */
export interface Site {
    readonly zones: readonly Zone[];
    readonly groups: readonly Group[];
    /** Resources whose Delivery Controller facts are unknown in this preview (they might belong to any zone). */
    readonly unknownControllers: number;
    /** Controllers and catalogs that could not be placed in a zone, with why. */
    readonly unplaced: ReadonlyArray<Unplaced>;
    /** Resources placed in a zone of another stack (by id or name): the two stacks' zones are one Site (siteIdentity.ts). */
    readonly links: ReadonlyArray<{ readonly resource: ResourceView; readonly zone: Zone }>;
    /** The keys of externalControllers that name no single zone (their controllers are counted nowhere). */
    readonly externalKeys: ExternalKeys;
}

export type { ExternalControllers, ExternalKeys } from "./externalControllers";

/**
 * A Citrix DaaS zone: `resourceLocationId` set (a resource location, no Site database over the
 * WAN). Known: a non-empty string. Unknown in a preview: in inputs (Analyze) it was set from
 * another resource; in outputs (AnalyzeStack) the engine also shows an unset computed output as
 * unknown, which an on-premises zone (set by `name`) has too, so there only a property dependency
 * on another resource makes it DaaS.
 */
export function isDaasZone(zone: ResourceView, props: "inputs" | "outputs" = "outputs"): boolean {
    const location = field(zone.props, "resourceLocationId");
    if (knownString(location) !== undefined) {
        return true;
    }
    const unknown = location === UNKNOWN || isUnknown(location);
    return unknown && (props === "inputs" || (zone.propertyDependencies["resourceLocationId"] ?? []).length > 0);
}

function knownString(value: unknown): string | undefined {
    return typeof value === "string" && !isUnknown(value) && value.trim() ? value.trim() : undefined;
}

/**
 * Builds the Site view in one pass per resource kind (O(resources)); never throws on odd props.
 * @param externals - controllers another stack manages, by zone name (optional).
 */
export function citrixSite(stack: StackView, externals: ExternalControllers = {}): Site {
    const zones: Zone[] = [];
    const byUrn = new Map<string, Zone>();
    const unplaced: Unplaced[] = [];
    const links: Array<{ resource: ResourceView; zone: Zone }> = [];
    const ambiguities: Array<{ resource: ResourceView; as: Unplaced["as"]; zones: readonly Zone[]; why: NotChecked }> = [];
    for (const resource of stack.ofType(ZONE_TYPE)) {
        const nameInput = field(resource.props, "name");
        const name = knownString(nameInput);
        const zone: Zone = {
            resource,
            zoneName: name ?? resource.name,
            nameUnknown: name === undefined && nameInput !== undefined && isUnknown(nameInput),
            daas: isDaasZone(resource),
            rttMs: resource.facts.number("rttMs"),
            peakConcurrentLaunches: resource.facts.number("peakConcurrentLaunches"),
            users: resource.facts.number("users"),
            controllers: [],
            catalogs: [],
            groups: [],
        };
        zones.push(zone);
        byUrn.set(resource.urn, zone);
    }
    // A controller names its zone by the zone's `name` input (what Citrix knows it by), its Pulumi
    // resource name, or a renamed zone's old names (aliases), in that order, within its Site
    // (zoneJoin.ts): a name two Sites or stacks share is named, never first-wins.
    const index = new ZoneIndex(zones, (z) => knownString(field(z.resource.props, "id")));
    // A zone found (linked when of another stack), or why several were (recorded for ambiguityNotices).
    const placed: Placer = (resource, as, what, found) => {
        if ("zone" in found) {
            if (resource.origin?.project !== found.zone.resource.origin?.project || resource.origin?.stack !== found.zone.resource.origin?.stack) {
                links.push({ resource, zone: found.zone });
            }
            return found.zone;
        }
        if ("ambiguous" in found) {
            const why = ambiguousWhy(what, found.ambiguous);
            ambiguities.push({ resource, as, zones: found.ambiguous, why });
            return why;
        }
        return undefined;
    };
    const namesUnknown = zones.filter((z) => z.nameUnknown).length;
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
            unplaced.push({ resource, as: "controller", why: { reason: "its perfguard:citrixZone is unknown in this preview", remedy: AFTER_APPLY } });
            continue;
        }
        if (zoneFact.state !== "ok") {
            unplaced.push({
                resource,
                as: "controller",
                why:
                    zoneFact.state === "absent"
                        ? { reason: "a Delivery Controller without perfguard:citrixZone", remedy: "declare perfguard:citrixZone=<zone name> on the controller" }
                        : { reason: "its perfguard:citrixZone is invalid (perfguard-facts reports it)", remedy: "fix the fact perfguard-facts names" },
            });
            continue;
        }
        const zone = placed(resource, "controller", "its perfguard:citrixZone", index.byName(zoneFact.value, resource));
        if (zone && "resource" in zone) {
            // A throttle not found on a controller whose facts may be hidden is not known to be missing.
            const throttle = resource.facts.number("throttleMaxConcurrentTransactions");
            zone.controllers.push({
                resource,
                name: resource.name,
                throttle: throttle.state === "absent" && resource.facts.incomplete ? { state: "unknown" } : throttle,
            });
        } else {
            unplaced.push({
                resource,
                as: "controller",
                why: zone
                    ? zone
                    : namesUnknown > 0
                      ? { reason: "its perfguard:citrixZone matches no zone, and some zones' names are unknown in this preview", remedy: AFTER_APPLY }
                      : zoneNotOwned("declare the zone in this stack, or correct perfguard:citrixZone to a zone's name input"),
            });
        }
    }
    // A key that names no single zone is kept, to be reported (externalControllers.ts), never dropped.
    const externalKeys = placeExternalControllers(externals, index, zones);
    const catalogZone = new Map<string, Zone>();
    const catalogWhy = new Map<string, NotChecked>();
    for (const catalog of stack.ofType(CATALOG_TYPE)) {
        const zone = resolveCatalogZone(catalog, byUrn, index, placed);
        if (!("zone" in zone)) {
            if (zone.why) {
                unplaced.push({ resource: catalog, as: "catalog", why: zone.why });
                catalogWhy.set(catalog.urn, zone.why);
            }
            continue;
        }
        zone.zone.catalogs.push({ resource: catalog, machines: machinesOf(catalog) });
        catalogZone.set(catalog.urn, zone.zone);
    }
    const groups = stack.ofType(GROUP_TYPE).map((resource) => groupOf(resource, stack, catalogZone, catalogWhy));
    for (const group of groups) {
        for (const share of group.shares) {
            share.zone.groups.push(share);
        }
    }
    // A zone no Delivery Group of the stack uses is judged as one group of its own (one lock).
    const all = [...groups];
    for (const zone of zones) {
        if (zone.groups.length === 0) {
            const group: Group = {
                resource: zone.resource,
                implicit: true,
                peakConcurrentLaunches: { state: "absent" },
                users: { state: "absent" },
                shares: [],
                evenSplit: false,
            };
            const machines = zone.catalogs.reduce((sum, c) => sum + (typeof c.machines === "number" ? c.machines : 0), 0);
            const share = { group, zone, machines };
            group.shares.push(share);
            zone.groups.push(share);
            all.push(group);
        }
    }
    ambiguityNotices(ambiguities, all, unplaced);
    return { zones, groups: all, unknownControllers, unplaced, links, externalKeys };
}

/**
 * A resource naming several zones is not checked; so is what it may add load to in this preview:
 * each candidate zone of this stack, and each Delivery Group of this stack with machines in a
 * candidate zone (a foreign resource gets no verdict of its own, so its ambiguity lands there).
 */
function ambiguityNotices(
    ambiguities: ReadonlyArray<{ resource: ResourceView; as: Unplaced["as"]; zones: readonly Zone[]; why: NotChecked }>,
    groups: readonly Group[],
    unplaced: Unplaced[],
): void {
    for (const a of ambiguities) {
        if (!a.resource.foreign) {
            continue;
        }
        const candidates = new Set(a.zones);
        const label = `${a.resource.label} of stack ${a.resource.origin!.project}/${a.resource.origin!.stack}`;
        const why = { reason: `${label}: ${a.why.reason}`, remedy: a.why.remedy };
        const hit = new Set<ResourceView>();
        for (const zone of a.zones) {
            if (!zone.resource.foreign) {
                hit.add(zone.resource);
            }
        }
        for (const g of groups) {
            if (!g.implicit && !g.resource.foreign && g.shares.some((s) => candidates.has(s.zone))) {
                hit.add(g.resource);
            }
        }
        for (const resource of [...hit].sort((x, y) => (x.urn < y.urn ? -1 : x.urn > y.urn ? 1 : 0))) {
            unplaced.push({ resource, as: a.as, why });
        }
    }
}

/** A Delivery Controller or a catalog that could not be placed in a zone (a catalog may carry controller facts too). */
export interface Unplaced {
    readonly resource: ResourceView;
    readonly as: "controller" | "catalog";
    readonly why: NotChecked;
}

type CatalogZone = { zone: Zone } | { why?: NotChecked };

/** Places a resource by a lookup: the zone, why it names several, or undefined (none). */
type Placer = (resource: ResourceView, as: Unplaced["as"], what: string, found: ZoneLookup<Zone>) => Zone | NotChecked | undefined;

/** A catalog's zone: property dependency, a literal zone id, or a perfguard:citrixZone fact on it. */
function resolveCatalogZone(catalog: ResourceView, byUrn: Map<string, Zone>, index: ZoneIndex<Zone>, placed: Placer): CatalogZone {
    for (const urn of catalog.propertyDependencies["zone"] ?? []) {
        const zone = byUrn.get(urn);
        if (zone) {
            return { zone };
        }
    }
    const value = field(catalog.props, "zone");
    const literal = knownString(value);
    const byLiteral = literal ? index.byId(literal, catalog) : undefined;
    if (byLiteral && !("none" in byLiteral)) {
        const zone = placed(catalog, "catalog", "its zone id", byLiteral);
        return zone && "resource" in zone ? { zone } : { why: zone };
    }
    const fact = catalog.facts.text("citrixZone");
    if (fact.state === "ok") {
        const zone = placed(catalog, "catalog", "its perfguard:citrixZone", index.byName(fact.value, catalog));
        return zone && "resource" in zone ? { zone } : { why: zone ?? zoneNotOwned("correct perfguard:citrixZone to a zone's name input") };
    }
    if (fact.state === "unknown" || value === UNKNOWN || (value !== undefined && isUnknown(value))) {
        return {
            why: {
                reason: "its zone is unknown in this preview and depends on no zone of this stack",
                remedy: "declare perfguard:citrixZone=<zone name> in the catalog's metadatas",
            },
        };
    }
    if (literal) {
        return {
            why: {
                reason: "its zone is an id from a data source or another stack",
                remedy: "declare perfguard:citrixZone=<zone name> in the catalog's metadatas",
            },
        };
    }
    // No zone set, or not a string: its machines are in no zone perfguard can name (fail closed).
    return {
        why: {
            reason: "its zone is not set to a zone id",
            remedy: "set zone to its zone's id, or declare perfguard:citrixZone=<zone name> in the catalog's metadatas",
        },
    };
}

/** One Delivery Group's zones and machines, from associatedMachineCatalogs. */
function groupOf(resource: ResourceView, stack: StackView, catalogZone: Map<string, Zone>, catalogWhy: ReadonlyMap<string, NotChecked>): Group {
    const group: Group = {
        resource,
        implicit: false,
        peakConcurrentLaunches: resource.facts.number("peakConcurrentLaunches"),
        users: resource.facts.number("users"),
        shares: [],
        evenSplit: false,
    };
    const list = field(resource.props, "associatedMachineCatalogs");
    if (list === UNKNOWN || (list !== undefined && !Array.isArray(list))) {
        group.notChecked = { reason: "its associatedMachineCatalogs is unknown in this preview", remedy: AFTER_APPLY };
        return group;
    }
    const entries = Array.isArray(list) ? list : [];
    // By id (state): each entry's catalog and count. By property dependency (preview): the
    // catalogs, but not which count is whose (dependencies are per top-level property).
    const byId = new Map<string, ResourceView>();
    for (const catalog of stack.ofType(CATALOG_TYPE)) {
        const id = knownString(field(catalog.props, "id"));
        if (id) {
            byId.set(id, catalog);
        }
    }
    const counted: Array<{ catalog: ResourceView; machines: number }> = [];
    const unpaired: Array<number | undefined> = [];
    for (const entry of entries) {
        const parsed = parsePlainDecimal(field(entry, "machineCount"));
        const count = parsed !== undefined && parsed >= 0 ? parsed : undefined;
        const id = knownString(field(entry, "machineCatalog"));
        const catalog = id ? byId.get(id) : undefined;
        if (catalog && count !== undefined) {
            counted.push({ catalog, machines: count }); // the pairing is known: the group's count
        } else {
            unpaired.push(count);
        }
    }
    if (unpaired.length > 0) {
        const catalogs = stack.dependencyOf(resource, "associatedMachineCatalogs", CATALOG_TYPE);
        if (catalogs.length === 0) {
            if (entries.length > 0) {
                group.notChecked = {
                    reason: "its machine catalogs are not in this stack (or unresolved)",
                    remedy: "declare perfguard:peakConcurrentLaunches on the zones, or manage the catalogs in this stack",
                };
            }
            return group;
        }
        const pairedUrns = new Set(counted.map((c) => c.catalog.urn));
        const rest = catalogs.filter((c) => !pairedUrns.has(c.urn));
        const split = unpairedMachines(rest, unpaired);
        group.evenSplit = split.even;
        counted.push(...split.machines);
    }
    const perZone = new Map<Zone, number>();
    for (const { catalog, machines } of counted) {
        const zone = catalogZone.get(catalog.urn);
        if (!zone) {
            // The catalog's own reason says what to do (a zone of another stack: the inventory), not a fact it may already declare.
            const why = catalogWhy.get(catalog.urn);
            group.notChecked = {
                reason: `its catalog "${catalog.name}" has a zone that cannot be resolved`,
                remedy: why?.remedy ?? "declare perfguard:citrixZone=<zone name> in the catalog's metadatas",
            };
            continue;
        }
        perZone.set(zone, (perZone.get(zone) ?? 0) + machines);
    }
    for (const [zone, machines] of perZone) {
        group.shares.push({ group, zone, machines });
    }
    return group;
}
