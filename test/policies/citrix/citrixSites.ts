/** Two Citrix Sites in one stack (issue 32): each Site's resources on its own `citrix` provider. */
import type { TestResource } from "../../support/policyHarness";
import { siteOf, SiteSpec } from "./citrixSpec";

/** A provider's props: its endpoint fields (hostname, customerId, cvadConfig) as the engine sends them. */
export type ProviderProps = Record<string, unknown>;

/** The resources of `spec`, the Citrix ones on provider `name` with `props` (undefined: the default provider, no reference). */
export function onProvider(spec: SiteSpec, name: string, props: ProviderProps | undefined): TestResource[] {
    return siteOf(spec).map((r) =>
        props !== undefined && r.type.startsWith("citrix:")
            ? { ...r, provider: { urn: `urn:pulumi:test::perfguard-test::pulumi:providers:citrix::${name}`, props } }
            : r,
    );
}

/** A Site of `prefix` zones holding `machines` (one group and catalog per zone). */
export function vdaSite(prefix: string, machines: number[]): SiteSpec {
    return {
        zones: machines.map((_, i) => ({ name: `${prefix}${i + 1}`, rtt: 10 })),
        groups: machines.map((m, i) => ({ name: `${prefix}g${i + 1}`, zone: `${prefix}${i + 1}`, machines: m })),
        controllers: [],
    };
}
