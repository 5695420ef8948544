/**
 * Which Citrix Site a zone belongs to: its provider's endpoint. The Citrix provider
 * (citrix/terraform-provider-citrix, provider.tf examples) connects to one Site: on premises by
 * `hostname` (a Delivery Controller), in Citrix Cloud by `customer_id` (the hostname is then the
 * API host, shared by every customer); older releases set them at the top level, newer ones under
 * `cvad_config`. Pulumi names them `hostname`, `customerId`, `cvadConfig` (an object, or its JSON
 * text as the engine stores provider config). Only these fields are read: the provider's props
 * carry its secrets, which no message echoes.
 */
import type { ResourceView } from "../pack/resources";
import { field, foldCase, isUnknown, UNKNOWN } from "../pack/values";

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
    return endpoint === undefined
        ? { kind: "none" }
        : { kind: "endpoint", key: `${customer !== undefined ? "customer" : "host"}:${foldCase(endpoint)}`, provider: name };
}
