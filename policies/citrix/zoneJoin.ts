/**
 * Which zone a name or an id names, across Sites and stacks (PERFGUARD_INVENTORY). A zone name is
 * unique per Site only (Citrix: a Site's zones; siteIdentity.ts: a Site is its provider's
 * endpoint), so a controller's or a catalog's perfguard:citrixZone joins a zone:
 * - of its own Site: both providers declare the same endpoint, or both are of one stack (one
 *   deployment reads one environment), unless their endpoints are known and differ;
 * - else of another stack whose Site cannot be told from its own (a provider without endpoint):
 *   only when it is the one zone of that name (what the stacks share, issue 32);
 * - never one whose provider names another endpoint.
 * Two or more candidates are named ("not checked"), never the first one found.
 */
import type { NotChecked } from "../pack/definePolicy";
import { shortName } from "../pack/message";
import type { ResourceView } from "../pack/resources";
import { siteKeyOf } from "./siteKey";

/** What a join reads of a zone (site.ts's Zone): generic so that this module imports nothing of site.ts. */
export interface JoinableZone {
    readonly resource: ResourceView;
    readonly zoneName: string;
    readonly nameUnknown: boolean;
}

/** A zone name as the index matches it (perfguard:citrixZone, externalControllers keys): locale-independent case folding (issue 11). */
export function fold(name: string): string {
    return name.toLowerCase();
}

function stackOf(r: ResourceView): string {
    return r.origin ? `${r.origin.project}\u0000${r.origin.stack}` : "";
}

/** The endpoint key of a Citrix resource's provider; undefined for any other (a controller VM says nothing of its Site). */
function endpointOf(r: ResourceView): string | undefined {
    if (!r.type.startsWith("citrix:")) {
        return undefined;
    }
    const key = siteKeyOf(r);
    return key.kind === "endpoint" ? key.key : undefined;
}

export type Relation = "same" | "possible" | "different";

/** How the Site of `from` (a controller, a catalog; undefined: this stack's policy config) relates to a zone's. */
export function relation(from: ResourceView | undefined, zone: JoinableZone): Relation {
    const a = from ? endpointOf(from) : undefined;
    const b = endpointOf(zone.resource);
    if (a !== undefined && b !== undefined) {
        return a === b ? "same" : "different";
    }
    return (from ? stackOf(from) : "") === stackOf(zone.resource) ? "same" : "possible";
}

/** What a lookup found: one zone, none, or several it cannot tell apart. */
export type ZoneLookup<Z extends JoinableZone = JoinableZone> = { readonly zone: Z } | { readonly none: true } | { readonly ambiguous: readonly Z[] };

/** `Zone "apac" (stack vdi/prod)`: how an ambiguity names a candidate. */
export function zoneLabel(zone: JoinableZone): string {
    const o = zone.resource.origin;
    return `${zone.resource.label}${o ? ` (stack ${shortName(o.project, 40)}/${shortName(o.stack, 40)})` : ""}`;
}

/** Why a resource naming several zones is not placed: the candidates, sorted, at most 3 listed. */
export function ambiguousWhy(what: string, zones: readonly JoinableZone[]): NotChecked {
    const names = zones.map(zoneLabel).sort();
    const listed = names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
    return {
        reason: `${what} matches ${zones.length} zones of Sites or stacks that cannot be told apart (${listed})`,
        remedy: "declare hostname or customerId on each citrix provider (the Site it connects to), or set a catalog's zone to its zone's id",
    };
}

/**
 * The zones by name and by id; each lookup keeps the old precedence within a Site (a zone's
 * `name` input, then its Pulumi name, then its aliases' old names) and filters by Site.
 */
export class ZoneIndex<Zone extends JoinableZone> {
    private readonly tiers: Array<Map<string, Zone[]>> = [new Map<string, Zone[]>(), new Map<string, Zone[]>(), new Map<string, Zone[]>()];
    private readonly ids = new Map<string, Zone[]>();

    constructor(zones: readonly Zone[], idOf: (zone: Zone) => string | undefined) {
        const push = (map: Map<string, Zone[]>, key: string, zone: Zone) => {
            const list = map.get(key) ?? [];
            if (!list.includes(zone)) {
                list.push(zone);
            }
            map.set(key, list);
        };
        for (const zone of zones) {
            if (!zone.nameUnknown) {
                push(this.tiers[0], fold(zone.zoneName), zone);
            }
            push(this.tiers[1], fold(zone.resource.name), zone);
            for (const old of zone.resource.aliasNames) {
                push(this.tiers[2], fold(old), zone);
            }
            const id = idOf(zone);
            if (id !== undefined) {
                push(this.ids, id, zone);
            }
        }
    }

    /** The zone `name` names for `from`. */
    byName(name: string, from: ResourceView | undefined): ZoneLookup<Zone> {
        for (const tier of this.tiers) {
            const found = pick(tier.get(fold(name)) ?? [], from);
            if (!("none" in found)) {
                return found;
            }
        }
        return { none: true };
    }

    /** The zone a literal id names for `from` (ids are unique; two stacks declaring one zone are named). */
    byId(id: string, from: ResourceView | undefined): ZoneLookup<Zone> {
        return pick(this.ids.get(id) ?? [], from);
    }
}

function pick<Zone extends JoinableZone>(candidates: readonly Zone[], from: ResourceView | undefined): ZoneLookup<Zone> {
    const related = candidates.map((zone) => ({ zone, rel: relation(from, zone) })).filter((c) => c.rel !== "different");
    const same = related.filter((c) => c.rel === "same");
    const chosen = same.length > 0 ? same : related;
    if (chosen.length === 0) {
        return { none: true };
    }
    return chosen.length === 1 ? { zone: chosen[0].zone } : { ambiguous: chosen.map((c) => c.zone) };
}
