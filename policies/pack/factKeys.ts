/**
 * Every fact key perfguard reads: its kind, valid range, what it means and which resources a
 * policy reads it on. docs/facts.md's key table is checked against this list
 * (test/registry.test.ts), and the key unions below make a misspelt key in a policy a compile
 * error (`facts.number("rtMs")` does not type-check).
 */
import { foldCase } from "./values";

/** A numeric fact: a plain decimal within [min, max]; `integer` facts also reject fractions. */
export interface NumberFactKind {
    readonly kind: "number";
    readonly min: number;
    readonly max: number;
    readonly integer?: boolean;
    readonly unit: string;
}

/** A fact with a fixed set of values, matched with locale-independent case folding. */
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

/** A role a resource takes through a fact: a Delivery Controller (citrixRole), a dom0 service (xenDomain). */
export type FactRole = "deliveryController" | "dom0";

/**
 * Which resources some policy reads a key on: "any", or type tokens and/or roles. A fact on any
 * other resource has no effect, and perfguard-facts says so (at advisory).
 */
export type FactReadOn = "any" | { readonly types?: readonly string[]; readonly roles?: readonly FactRole[] };

/** One fact key: `key` is the canonical spelling after the `perfguard:` prefix. */
export type FactKeyDef = FactKind & {
    readonly key: string;
    readonly area: FactArea;
    readonly on: string;
    readonly readOn: FactReadOn;
    readonly meaning: string;
};

const ANY = "any";
// Type tokens as the policies read them (support modules define the same strings; a test checks them).
const ZONE = "citrix:index/zone:Zone";
const GROUP = "citrix:index/deliveryGroup:DeliveryGroup";
const CATALOG = "citrix:index/machineCatalog:MachineCatalog";
const VS = "avi:index/virtualservice:Virtualservice";
const XEN_VM = "xenorchestra:index/vm:Vm";

const DEFS = [
    // Waivers: a verdict someone accepted, with the reason, stays visible at advisory level.
    {
        key: "waive",
        readOn: ANY,
        area: "any",
        on: "any resource",
        kind: "text",
        maxLength: 1000,
        meaning: 'policy ids, separated by commas, whose violations on this resource are waived: reported at advisory, prefixed "waived", with the reason',
    },
    {
        key: "waiveReason",
        readOn: ANY,
        area: "any",
        on: "a resource with perfguard:waive",
        kind: "text",
        maxLength: 500,
        meaning: "why the waiver was granted (required with perfguard:waive)",
    },
    {
        key: "waiveUntil",
        readOn: ANY,
        area: "any",
        on: "a resource with perfguard:waive",
        kind: "text",
        maxLength: 10,
        meaning: "the last day (YYYY-MM-DD, UTC) the waiver holds; after it the verdicts return at their level, naming the expired waiver",
    },
    {
        key: "waiveOwner",
        readOn: ANY,
        area: "any",
        on: "a resource with perfguard:waive",
        kind: "text",
        maxLength: 200,
        meaning: "who granted the waiver or renews it (shown with an expired waiver)",
    },
    // Citrix (issue: perfguard v0). Ranges: RTT up to 10 s covers any WAN; counts are sanity bounds.
    {
        key: "rttMs",
        readOn: { types: [ZONE] },
        area: "citrix",
        on: "citrix:index/zone:Zone",
        kind: "number",
        min: 0,
        max: 10000,
        unit: "ms",
        meaning: "RTT between the zone's Delivery Controllers and the Site database",
    },
    {
        key: "peakConcurrentLaunches",
        readOn: { types: [ZONE, GROUP] },
        area: "citrix",
        on: "citrix:index/zone:Zone, or citrix:index/deliveryGroup:DeliveryGroup (its own launches)",
        kind: "number",
        min: 0,
        max: 1000000,
        integer: true,
        unit: "requests",
        meaning:
            "concurrent brokering requests at peak; on a zone, those of its Delivery Groups that declare none of their own (a group's own peak comes on top)",
    },
    {
        key: "users",
        readOn: { types: [ZONE, GROUP] },
        area: "citrix",
        on: "citrix:index/zone:Zone, or citrix:index/deliveryGroup:DeliveryGroup (its own users)",
        kind: "number",
        min: 0,
        max: 10000000,
        integer: true,
        unit: "users",
        meaning: "users launched in a logon storm",
    },
    {
        key: "citrixRole",
        readOn: ANY,
        area: "citrix",
        on: "any resource (a VM or config resource)",
        kind: "enum",
        values: ["deliveryController"],
        meaning: "marks the resource as a Delivery Controller",
    },
    {
        key: "citrixZone",
        readOn: { types: [CATALOG], roles: ["deliveryController"] },
        area: "citrix",
        on: "a Delivery Controller, or citrix:index/machineCatalog:MachineCatalog",
        kind: "text",
        maxLength: 256,
        meaning: "the zone's `name` input (or its Pulumi resource name) the controller (or the catalog, when its `zone` is an id from elsewhere) belongs to",
    },
    // A DWORD: 32-bit unsigned; 0 is not a documented setting, so the range starts at 1.
    {
        key: "throttleMaxConcurrentTransactions",
        readOn: { roles: ["deliveryController"] },
        area: "citrix",
        on: "a Delivery Controller",
        kind: "number",
        min: 1,
        max: 4294967295,
        integer: true,
        unit: "requests",
        meaning: "the DWORD ThrottledRequestAddressMaxConcurrentTransactions set on the controller; absent = no throttle",
    },
    // NSX ALB virtual service demand.
    {
        key: "sslTps",
        readOn: { types: [VS] },
        area: "nsx-alb",
        on: "avi:index/virtualservice:Virtualservice",
        kind: "number",
        min: 0,
        max: 1e9,
        unit: "TPS",
        meaning: "new SSL/TLS handshakes per second at peak",
    },
    {
        key: "sslKeyType",
        readOn: { types: [VS] },
        area: "nsx-alb",
        on: "avi:index/virtualservice:Virtualservice",
        kind: "enum",
        values: ["ecc", "rsa"],
        meaning: "certificate key type for the SSL TPS figure (default rsa, the conservative one)",
    },
    {
        key: "l7Rps",
        readOn: { types: [VS] },
        area: "nsx-alb",
        on: "avi:index/virtualservice:Virtualservice",
        kind: "number",
        min: 0,
        max: 1e10,
        unit: "RPS",
        meaning: "HTTP requests per second at peak",
    },
    {
        key: "l4Cps",
        readOn: { types: [VS] },
        area: "nsx-alb",
        on: "avi:index/virtualservice:Virtualservice",
        kind: "number",
        min: 0,
        max: 1e10,
        unit: "CPS",
        meaning: "new TCP connections per second at peak",
    },
    {
        key: "l4OpenConnections",
        readOn: { types: [VS] },
        area: "nsx-alb",
        on: "avi:index/virtualservice:Virtualservice",
        kind: "number",
        min: 0,
        max: 1e11,
        integer: true,
        unit: "connections",
        meaning: "concurrent open connections at peak",
    },
    {
        key: "throughputGbps",
        readOn: { types: [VS] },
        area: "nsx-alb",
        on: "avi:index/virtualservice:Virtualservice",
        kind: "number",
        min: 0,
        max: 100000,
        unit: "Gbps",
        meaning: "client-side throughput at peak",
    },
    {
        key: "ingressPct",
        readOn: { types: [VS] },
        area: "nsx-alb",
        on: "avi:index/virtualservice:Virtualservice",
        kind: "number",
        min: 0,
        max: 100,
        unit: "%",
        meaning:
            "percent of perfguard:throughputGbps that is ingress (client to virtual service: uploads, requests); absent = all of it where direction matters (native scale-out: the primary SE receives every ingress packet)",
    },
    {
        key: "seGroup",
        readOn: { types: [VS] },
        area: "nsx-alb",
        on: "avi:index/virtualservice:Virtualservice",
        kind: "text",
        maxLength: 512,
        meaning:
            "the SE group (name, uuid or ref) the virtual service is placed on, when its seGroupRef cannot be resolved in the stack (a URL from a data source, unknown in a preview)",
    },
    // Xen guests and dom0 services.
    {
        key: "networkMBps",
        readOn: { types: [XEN_VM], roles: ["dom0"] },
        area: "xen",
        on: "xenorchestra:index/vm:Vm, or a dom0 resource",
        kind: "number",
        min: 0,
        max: 1e6,
        unit: "MB/s",
        meaning: "network bandwidth the guest (or dom0 service) needs at peak, in its main direction (the share rule was measured on downloads)",
    },
    {
        key: "vifCapMBps",
        readOn: { types: [XEN_VM] },
        area: "xen",
        on: "xenorchestra:index/vm:Vm",
        kind: "number",
        min: 0.001,
        max: 1e6,
        unit: "MB/s",
        meaning: "the guest's VIF rate limit (it caps what the guest transmits; XenServer qos_algorithm_params:kbps, unit not verified: converted by you)",
    },
    {
        key: "xenHost",
        readOn: { types: [XEN_VM], roles: ["dom0"] },
        area: "xen",
        on: "xenorchestra:index/vm:Vm, or a dom0 resource",
        kind: "text",
        maxLength: 256,
        meaning: "the Xen host (UUID or name) the resource runs on",
    },
    {
        key: "xenDomain",
        readOn: ANY,
        area: "xen",
        on: "any resource",
        kind: "enum",
        values: ["dom0", "domU"],
        meaning: "`dom0` for a service that runs in the host's control domain",
    },
    {
        key: "xenDom0Role",
        readOn: { roles: ["dom0"] },
        area: "xen",
        on: "a dom0 resource",
        kind: "text",
        maxLength: 64,
        meaning: "`management` for the management tools the source allows in dom0; anything else is a workload",
    },
] as const satisfies readonly FactKeyDef[];

/** Every fact key, in documentation order. */
export const FACT_KEYS: readonly (FactKeyDef & { readonly key: FactKey })[] = DEFS;

type Def = (typeof DEFS)[number];

/** Every fact key perfguard reads (canonical spelling, without the prefix). */
export type FactKey = Def["key"];
/** Keys of numeric facts: `facts.number(key)`. */
export type NumberFactKey = Extract<Def, { kind: "number" }>["key"];
/** Keys of free-text facts: `facts.text(key)`. */
export type TextFactKey = Extract<Def, { kind: "text" }>["key"];
/** Keys of enum facts: `facts.enum(key)` (or `facts.text(key)`, the older form). */
export type EnumFactKey = Extract<Def, { kind: "enum" }>["key"];
/** The values of one enum key, as a union: `EnumValue<"sslKeyType">` is "ecc" | "rsa". */
export type EnumValue<K extends EnumFactKey> = Extract<Def, { key: K }> extends { values: readonly (infer V)[] } ? V : never;

const BY_FOLDED_KEY: ReadonlyMap<string, FactKeyDef> = new Map(FACT_KEYS.map((d) => [foldCase(d.key), d]));

/** Looks a key up with case folding (without its prefix). */
export function factKeyDef(keyWithoutPrefix: string): FactKeyDef | undefined {
    return BY_FOLDED_KEY.get(foldCase(keyWithoutPrefix));
}

/** Human text of a key's valid values, for messages and docs: e.g. "a plain decimal of ms from 0 to 10000". */
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

/** Where a key is read, for messages and docs: "citrix:index/zone:Zone", "a Delivery Controller", ... */
export function describeReadOn(def: FactKeyDef): string {
    if (def.readOn === "any") {
        return "any resource";
    }
    const roles = (def.readOn.roles ?? []).map((r) =>
        r === "deliveryController" ? "a Delivery Controller (perfguard:citrixRole=deliveryController)" : "a dom0 resource (perfguard:xenDomain=dom0)",
    );
    return [...(def.readOn.types ?? []), ...roles].join(" or ");
}

const AREA_NAMES: Readonly<Record<FactArea, string>> = { any: "any", citrix: "Citrix", "nsx-alb": "NSX ALB", xen: "Xen" };

/** The key's row of the table in docs/facts.md (a test checks the doc holds every row as built here). */
export function factTableRow(def: FactKeyDef): string {
    return `| \`perfguard:${def.key}\` | ${AREA_NAMES[def.area]} | ${describeReadOn(def)} | ${describeFactRange(def)} | ${def.meaning} |`;
}
