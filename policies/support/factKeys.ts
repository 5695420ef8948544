/**
 * Every fact key perfguard reads: its kind, valid range and what it means. The README's fact
 * table is checked against this list (test/docs.test.ts).
 */

/** A numeric fact: a plain decimal within [min, max]; `integer` facts also reject fractions. */
export interface NumberFactKind {
    readonly kind: "number";
    readonly min: number;
    readonly max: number;
    readonly integer?: boolean;
    readonly unit: string;
}

/** A fact with a fixed set of values, matched case-insensitively. */
export interface EnumFactKind {
    readonly kind: "enum";
    readonly values: readonly string[];
}

/** A free-text fact (a name or an id), trimmed, 1..maxLength characters. */
export interface TextFactKind {
    readonly kind: "text";
    readonly maxLength: number;
}

export type FactKind = NumberFactKind | EnumFactKind | TextFactKind;

export type FactArea = "any" | "citrix" | "nsx-alb" | "xen";

/** One fact key: `key` is the canonical spelling after the `perfguard:` prefix. */
export type FactKeyDef = FactKind & {
    readonly key: string;
    readonly area: FactArea;
    readonly on: string;
    readonly meaning: string;
};

export const FACT_KEYS: readonly FactKeyDef[] = [
    // Waivers: a verdict someone accepted, with the reason, stays visible at advisory level.
    { key: "waive", area: "any", on: "any resource", kind: "text", maxLength: 1000,
        meaning: "policy ids, separated by commas, whose violations on this resource are waived: reported at advisory, prefixed \"waived\", with the reason" },
    { key: "waiveReason", area: "any", on: "a resource with perfguard:waive", kind: "text", maxLength: 500,
        meaning: "why the waiver was granted (required with perfguard:waive)" },
    // Citrix (issue: perfguard v0). Ranges: RTT up to 10 s covers any WAN; counts are sanity bounds.
    { key: "rttMs", area: "citrix", on: "citrix:index/zone:Zone", kind: "number", min: 0, max: 10000, unit: "ms",
        meaning: "RTT between the zone's Delivery Controllers and the Site database" },
    { key: "peakConcurrentLaunches", area: "citrix", on: "citrix:index/zone:Zone, or citrix:index/deliveryGroup:DeliveryGroup (its own launches)", kind: "number", min: 0, max: 1000000, integer: true, unit: "requests",
        meaning: "concurrent brokering requests at peak" },
    { key: "users", area: "citrix", on: "citrix:index/zone:Zone, or citrix:index/deliveryGroup:DeliveryGroup (its own users)", kind: "number", min: 0, max: 10000000, integer: true, unit: "users",
        meaning: "users launched in a logon storm" },
    { key: "citrixRole", area: "citrix", on: "any resource (a VM or config resource)", kind: "enum", values: ["deliveryController"],
        meaning: "marks the resource as a Delivery Controller" },
    { key: "citrixZone", area: "citrix", on: "a Delivery Controller, or citrix:index/machineCatalog:MachineCatalog", kind: "text", maxLength: 256,
        meaning: "the zone's `name` input (or its Pulumi resource name) the controller (or the catalog, when its `zone` is an id from elsewhere) belongs to" },
    // A DWORD: 32-bit unsigned; 0 is not a documented setting, so the range starts at 1.
    { key: "throttleMaxConcurrentTransactions", area: "citrix", on: "a Delivery Controller", kind: "number", min: 1, max: 4294967295, integer: true, unit: "requests",
        meaning: "the DWORD ThrottledRequestAddressMaxConcurrentTransactions set on the controller; absent = no throttle" },
    // NSX ALB virtual service demand.
    { key: "sslTps", area: "nsx-alb", on: "avi:index/virtualservice:Virtualservice", kind: "number", min: 0, max: 1e9, unit: "TPS",
        meaning: "new SSL/TLS handshakes per second at peak" },
    { key: "sslKeyType", area: "nsx-alb", on: "avi:index/virtualservice:Virtualservice", kind: "enum", values: ["ecc", "rsa"],
        meaning: "certificate key type for the SSL TPS figure (default rsa, the conservative one)" },
    { key: "l7Rps", area: "nsx-alb", on: "avi:index/virtualservice:Virtualservice", kind: "number", min: 0, max: 1e10, unit: "RPS",
        meaning: "HTTP requests per second at peak" },
    { key: "l4Cps", area: "nsx-alb", on: "avi:index/virtualservice:Virtualservice", kind: "number", min: 0, max: 1e10, unit: "CPS",
        meaning: "new TCP connections per second at peak" },
    { key: "l4OpenConnections", area: "nsx-alb", on: "avi:index/virtualservice:Virtualservice", kind: "number", min: 0, max: 1e11, integer: true, unit: "connections",
        meaning: "concurrent open connections at peak" },
    { key: "throughputGbps", area: "nsx-alb", on: "avi:index/virtualservice:Virtualservice", kind: "number", min: 0, max: 100000, unit: "Gbps",
        meaning: "client-side throughput at peak" },
    // Xen guests and dom0 services.
    { key: "networkMBps", area: "xen", on: "xenorchestra:index/vm:Vm, or a dom0 resource", kind: "number", min: 0, max: 1e6, unit: "MB/s",
        meaning: "network bandwidth the guest (or dom0 service) needs, transmit direction" },
    { key: "vifCapMBps", area: "xen", on: "xenorchestra:index/vm:Vm", kind: "number", min: 0.001, max: 1e6, unit: "MB/s",
        meaning: "the guest's VIF rate limit (transmit)" },
    { key: "xenHost", area: "xen", on: "xenorchestra:index/vm:Vm, or a dom0 resource", kind: "text", maxLength: 256,
        meaning: "the Xen host (UUID or name) the resource runs on" },
    { key: "xenDomain", area: "xen", on: "any resource", kind: "enum", values: ["dom0", "domU"],
        meaning: "`dom0` for a service that runs in the host's control domain" },
    { key: "xenDom0Role", area: "xen", on: "a dom0 resource", kind: "text", maxLength: 64,
        meaning: "`management` for the management tools the source allows in dom0; anything else is a workload" },
];

const BY_LOWER_KEY: ReadonlyMap<string, FactKeyDef> = new Map(FACT_KEYS.map((d) => [d.key.toLowerCase(), d]));

/** Looks a key up case-insensitively (without its prefix). */
export function factKeyDef(keyWithoutPrefix: string): FactKeyDef | undefined {
    return BY_LOWER_KEY.get(keyWithoutPrefix.toLowerCase());
}

/** Human text of a key's valid values, for messages and docs: e.g. "a plain decimal in ms from 0 to 10000". */
export function describeFactRange(def: FactKeyDef): string {
    switch (def.kind) {
        case "number":
            return `${def.integer ? "a whole number" : "a plain decimal"} of ${def.unit} from ${def.min} to ${def.max}`;
        case "enum":
            return `one of ${def.values.join(", ")}`;
        case "text":
            return `a non-empty text of at most ${def.maxLength} characters`;
    }
}
