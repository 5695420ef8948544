/**
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
import { field, foldCase, isUnknown, UNKNOWN } from "../pack/values";
import { AFTER_APPLY, Zone } from "./site";

/**
 * A zone's Site: `endpoint` (its provider names one), `none` (default provider or an endpoint
 * from environment variables: every such provider of one deployment reads the same ones), or
 * `unknown` (the endpoint is computed in this preview).
 */
export type SiteKey =
    | { readonly kind: "endpoint"; readonly key: string; readonly provider: string }
    | { readonly kind: "none" }
    | { readonly kind: "unknown"; readonly provider: string };

/** The provider's resource name (the last part of its URN), what messages name a Site by. */
function providerName(urn: string): string {
    return urn.split("::").pop() ?? urn;
}

/** `cvadConfig` as an object: given as one, or as the JSON text the engine keeps provider config in. */
function cvadConfig(props: unknown): unknown {
    const value = field(props, "cvadConfig");
    if (typeof value !== "string" || isUnknown(value)) {
        return value;
    }
    try {
        return JSON.parse(value) as unknown;
    } catch {
        return undefined;
    }
}

/** One endpoint field at the top level or under cvadConfig: a known string, UNKNOWN, or undefined. */
function endpointField(props: unknown, camel: string, snake: string): string | typeof UNKNOWN | undefined {
    const nested = cvadConfig(props);
    for (const value of [field(props, camel), field(props, snake), field(nested, camel), field(nested, snake)]) {
        if (value === UNKNOWN || isUnknown(value)) {
            return UNKNOWN;
        }
        if (typeof value === "string" && value.trim() !== "") {
            return value.trim();
        }
    }
    return nested === UNKNOWN ? UNKNOWN : undefined;
}

/** The Site a resource's provider connects to. */
export function siteKeyOf(resource: ResourceView): SiteKey {
    const provider = resource.provider;
    if (!provider) {
        return { kind: "none" };
    }
    const name = providerName(provider.urn);
    if (provider.props === UNKNOWN || isUnknown(provider.props)) {
        return { kind: "unknown", provider: name };
    }
    // A Citrix Cloud customer is one Site whatever API host it is reached through.
    const customer = endpointField(provider.props, "customerId", "customer_id");
    const host = customer === undefined ? endpointField(provider.props, "hostname", "hostname") : undefined;
    const endpoint = customer ?? host;
    if (endpoint === UNKNOWN) {
        return { kind: "unknown", provider: name };
    }
    return endpoint === undefined ? { kind: "none" } : { kind: "endpoint", key: `${customer !== undefined ? "customer" : "host"}:${foldCase(endpoint)}`, provider: name };
}

/** The stack's zones by Site: one part per Site, `name` set only when there are several. */
export interface SiteSplit {
    readonly parts: ReadonlyArray<{ readonly name?: string; readonly zones: readonly Zone[] }>;
    /** Why the zones' Sites cannot be told apart (then one part holds every zone: its sums are an upper bound only). */
    readonly unclear?: NotChecked;
}

/**
 * Splits zones by Site. One key (the usual stack, every zone on one provider or on providers
 * without an endpoint) is one Site, as before. Known, different endpoints are different Sites.
 * Any other mix (an endpoint unknown in this preview, or one provider with an endpoint and
 * another without) cannot be told apart: one part, marked unclear, never merged silently.
 */
export function splitSites(zones: readonly Zone[]): SiteSplit {
    const keys = zones.map((z) => siteKeyOf(z.resource));
    const id = (k: SiteKey) => (k.kind === "endpoint" ? k.key : k.kind === "unknown" ? `unknown:${k.provider}` : "none");
    const distinct = new Set(keys.map(id));
    if (distinct.size <= 1) {
        return { parts: [{ zones }] };
    }
    if (keys.every((k) => k.kind === "endpoint")) {
        const byKey = new Map<string, { providers: Set<string>; zones: Zone[] }>();
        zones.forEach((zone, i) => {
            const k = keys[i];
            const part = byKey.get(k.key) ?? { providers: new Set<string>(), zones: [] };
            part.providers.add(k.provider);
            part.zones.push(zone);
            byKey.set(k.key, part);
        });
        // Named by its providers' resource names (sorted), never by the endpoint value.
        const parts = [...byKey.values()].map((p) => ({ name: [...p.providers].sort().join(", "), zones: p.zones }));
        return { parts: parts.sort((a, b) => a.name.localeCompare(b.name)) };
    }
    const unknown = [...new Set(keys.flatMap((k) => (k.kind === "unknown" ? [k.provider] : [])))].sort();
    const reason = unknown.length > 0
        ? `the Citrix Sites cannot be told apart: the endpoint of provider${unknown.length === 1 ? "" : "s"} ${unknown.map((n) => `"${n}"`).join(", ")} is unknown in this preview`
        : "the Citrix Sites cannot be told apart: some zones' provider declares hostname or customerId, others' none (an endpoint from the environment)";
    return {
        parts: [{ zones }],
        unclear: { reason, remedy: unknown.length > 0 ? AFTER_APPLY : "declare hostname or customerId on every citrix provider of the stack" },
    };
}
