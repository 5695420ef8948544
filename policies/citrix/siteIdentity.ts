/**
 * Which Citrix Sites a stack's zones form (splitSites), from each zone's provider endpoint (siteKey.ts).
 * Which Citrix Site a zone belongs to: its provider's endpoint. The Citrix provider
 * (citrix/terraform-provider-citrix, provider.tf examples) connects to one Site: on premises by
 * `hostname` (a Delivery Controller), in Citrix Cloud by `customer_id` (the hostname is then the
 * API host, shared by every customer); older releases set them at the top level, newer ones under
 * `cvad_config`. Pulumi names them `hostname`, `customerId`, `cvadConfig` (an object, or its JSON
 * text as the engine stores provider config). Only these fields are read: the provider's props
 * carry its secrets, which no message echoes.
 */
import type { NotChecked } from "../pack/definePolicy";
import type { ResourceView } from "../pack/resources";
import { AFTER_APPLY, Zone } from "./site";
import { siteKeyOf } from "./siteKey";
import type { SiteKey } from "./siteKey";

/** The stack's zones by Site: one part per Site, `name` set only when there are several. */
export interface SiteSplit {
    readonly parts: ReadonlyArray<{ readonly name?: string; readonly zones: readonly Zone[] }>;
    /** Why the zones' Sites cannot be told apart (then one part holds every zone: its sums are an upper bound only). */
    readonly unclear?: NotChecked;
}

/** `project/stack` of a resource of another stack, "" for the previewed one. */
function stackId(r: ResourceView): string {
    return r.origin ? `${r.origin.project}/${r.origin.stack}` : "";
}

/** A zone's Site as a join id: its endpoint, else its stack's environment (one per stack), else unknown. */
function siteId(k: SiteKey, r: ResourceView): string {
    return k.kind === "endpoint" ? k.key : k.kind === "unknown" ? `unknown:${stackId(r)}:${k.provider}` : `none:${stackId(r)}`;
}

/** True when the previewed stack has something in these zones: a zone, a catalog, a Delivery Group. */
function involved(zones: readonly Zone[]): boolean {
    return zones.some((z) => !z.resource.foreign || z.catalogs.some((c) => !c.resource.foreign) || z.groups.some((s) => !s.group.resource.foreign));
}

/**
 * Splits zones by Site. One key (the usual stack, every zone on one provider or on providers
 * without an endpoint) is one Site, as before. Known, different endpoints are different Sites.
 * Across stacks (PERFGUARD_INVENTORY), a stack's providers without an endpoint are one Site with
 * the zones its resources join (`links`: a catalog in another stack's zone), and another Site
 * only where both endpoints are known. Any other mix (an endpoint unknown in this preview, one
 * provider with an endpoint and another without, two stacks without one that share no zone)
 * cannot be told apart: one part, marked unclear, never merged silently. A Site the previewed
 * stack has nothing in is left out (its verdicts belong to its own stacks' previews).
 */
export function splitSites(zones: readonly Zone[], links: ReadonlyArray<{ readonly resource: ResourceView; readonly zone: Zone }> = []): SiteSplit {
    const keys = zones.map((z) => siteKeyOf(z.resource));
    const ids = zones.map((z, i) => siteId(keys[i], z.resource));
    const parent = new Map<string, string>(ids.map((id) => [id, id]));
    const root = (id: string): string => {
        let r = id;
        while (parent.get(r) !== r && parent.get(r) !== undefined) {
            r = parent.get(r)!;
        }
        return r;
    };
    for (const { resource, zone } of links) {
        const from = resource.type.startsWith("citrix:") ? siteKeyOf(resource) : undefined;
        const to = siteKeyOf(zone.resource);
        if (from && from.kind !== "unknown" && to.kind !== "unknown") {
            const a = siteId(from, resource);
            parent.set(a, parent.get(a) ?? a);
            const [ra, rb] = [root(a), root(siteId(to, zone.resource))];
            if (ra !== rb) {
                parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
            }
        }
    }
    const roots = ids.map(root);
    if (new Set(roots).size <= 1) {
        return { parts: [{ zones }] };
    }
    // Each Site one known endpoint (its providers' ids merged in by links): Sites told apart.
    const endpoints = new Map<string, Set<string>>();
    roots.forEach((r, i) => {
        const set = endpoints.get(r) ?? new Set<string>();
        if (keys[i].kind === "endpoint") {
            set.add(ids[i]);
        }
        endpoints.set(r, set);
    });
    const clear = [...endpoints.values()].every((set) => set.size === 1) && !keys.some((k) => k.kind === "unknown");
    if (clear) {
        const byRoot = new Map<string, { providers: Set<string>; zones: Zone[] }>();
        zones.forEach((zone, i) => {
            const k = keys[i] as Extract<SiteKey, { kind: "endpoint" }>;
            const part = byRoot.get(roots[i]) ?? { providers: new Set<string>(), zones: [] };
            const stack = stackId(zone.resource);
            part.providers.add(stack ? `${k.provider} (stack ${stack})` : k.provider);
            part.zones.push(zone);
            byRoot.set(roots[i], part);
        });
        // Named by its providers' resource names (sorted), never by the endpoint value.
        const parts = [...byRoot.values()].filter((p) => involved(p.zones)).map((p) => ({ name: [...p.providers].sort().join(", "), zones: p.zones }));
        return { parts: parts.sort((a, b) => a.name.localeCompare(b.name)) };
    }
    const unknown = [...new Set(keys.flatMap((k) => (k.kind === "unknown" ? [k.provider] : [])))].sort();
    const stacks = [...new Set(zones.map((z) => stackId(z.resource) || "this stack"))].sort();
    const listed = stacks.length <= 3 ? stacks.join(", ") : `${stacks.slice(0, 3).join(", ")} and ${stacks.length - 3} more`;
    const reason =
        unknown.length > 0
            ? `the Citrix Sites cannot be told apart: the endpoint of provider${unknown.length === 1 ? "" : "s"} ${unknown.map((n) => `"${n}"`).join(", ")} is unknown in this preview`
            : stacks.length === 1
              ? "the Citrix Sites cannot be told apart: some zones' provider declares hostname or customerId, others' none (an endpoint from the environment)"
              : `the Citrix Sites of stacks ${listed} cannot be told apart: a provider declares no hostname or customerId, and the stacks share no zone`;
    return {
        parts: [{ zones }],
        unclear: { reason, remedy: unknown.length > 0 ? AFTER_APPLY : "declare hostname or customerId on every citrix provider of the stacks" },
    };
}
