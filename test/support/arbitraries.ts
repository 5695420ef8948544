/**
 * fast-check arbitraries for what a stack can hand perfguard: junk values (strings for numbers,
 * huge numbers, nested junk, long lists, unknown-value sentinels anywhere), the props of every
 * resource type perfguard reads, and perfguard facts in all four places, valid or not.
 *
 * Everything generated is what the engine can put on the wire: JSON-like values (no undefined,
 * which google.protobuf.Struct cannot carry), plus NaN/Infinity (a Struct holds doubles).
 */
import fc from "fast-check";
import { FACT_KEYS, FactKeyDef, NumberFactKind } from "../../policies/pack/factKeys";
import type { TestResource } from "./policyHarness";

// ---------------------------------------------------------------------------------------------
// Unknowns and special wire values

// The sentinels of @pulumi/policy 1.21 proxy.js (string first: the engine's wire value). Kept as
// literals so a change in the SDK shows up as a failing test instead of a silently updated list.
export const UNKNOWN_STRING = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const UNKNOWN_SENTINELS: readonly string[] = [
    UNKNOWN_STRING,
    "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // boolean
    "3eeb2bf0-c639-47a8-9e75-3b44932eb421", // number
    "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", // array
    "030794c1-ac77-496b-92df-f27374a8bd58", // asset
    "e48ece36-62e2-4504-bad9-02848725956a", // archive
    "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", // object
];

/** The wire form of a secret (@pulumi/pulumi runtime/rpc specialSigKey / specialSecretSig). */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Wraps a value the way the engine sends a secret; the policy SDK unwraps it before policies run. */
export function asWireSecret(value: unknown): Record<string, unknown> {
    return { [SIG_KEY]: SECRET_SIG, value };
}

export const unknownArb: fc.Arbitrary<string> = fc.constantFrom(...UNKNOWN_SENTINELS);

// ---------------------------------------------------------------------------------------------
// Junk scalars

/** Strings that look like numbers to a human but are not plain decimals (or are out of every range). */
export const NUMBER_LIKE_JUNK: readonly string[] = [
    "160ms",
    "1e3",
    "1E3",
    "NaN",
    "Infinity",
    "-Infinity",
    "",
    " ",
    "\t",
    "0x10",
    "1,5",
    "12.",
    "1_000",
    "99999999999999999999999",
    "1e400",
    "4 4",
    "½",
    "١٢",
    "12 ms",
    "--5",
    "+-5",
    "five",
    "null",
    "true",
];

/** Strings that are plain decimals in some form (perfguard must parse, or range-check, them). */
export const NUMBER_LIKE_VALID_FORMS: readonly string[] = ["4", " 12 ", "-5", "0", "+7", ".5", "12.5", "-0", "160", "250", "0.001"];

export const numberLikeStringArb: fc.Arbitrary<string> = fc.oneof(
    fc.constantFrom(...NUMBER_LIKE_JUNK, ...NUMBER_LIKE_VALID_FORMS),
    fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
    fc.double({ noNaN: false }).map(String),
);

export const hugeNumberArb: fc.Arbitrary<number> = fc.constantFrom(
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    1e300,
    -1e300,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 64,
    Number.MIN_VALUE,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
);

/** Long opaque strings, shaped like tokens, keys and passwords. */
export const secretLikeArb: fc.Arbitrary<string> = fc.oneof(
    fc.string({ minLength: 40, maxLength: 120 }),
    fc.base64String({ minLength: 40, maxLength: 120 }),
    fc.constant("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"),
);

export const scalarJunkArb: fc.Arbitrary<unknown> = fc.oneof(
    { arbitrary: unknownArb, weight: 3 },
    { arbitrary: numberLikeStringArb, weight: 3 },
    { arbitrary: fc.string({ maxLength: 20 }), weight: 2 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.integer(), weight: 1 },
    { arbitrary: fc.double(), weight: 1 },
    { arbitrary: hugeNumberArb, weight: 1 },
    { arbitrary: secretLikeArb, weight: 1 },
);

// Keys that perfguard's readers look at, so nested junk often lands where it is read.
const INTERESTING_KEYS = [
    "name",
    "value",
    "key",
    "values",
    "tags",
    "metadata",
    "metadatas",
    "markers",
    "machines",
    "enableSsl",
    "numberOfTotalMachines",
    "perfguard:rttMs",
    "perfguard_users",
    "__getSpecialProxyTarget",
    "constructor",
    "length",
];
const keyArb = fc.oneof(fc.constantFrom(...INTERESTING_KEYS), fc.string({ maxLength: 12 }));

/** Objects and arrays of junk nested up to three levels. */
export const junkValueArb: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        { arbitrary: scalarJunkArb, weight: 6 },
        { arbitrary: fc.array(tie("value"), { maxLength: 5 }), weight: 2 },
        { arbitrary: fc.dictionary(keyArb, tie("value"), { maxKeys: 5, noNullPrototype: true }), weight: 2 },
        { arbitrary: tie("value").map(asWireSecret), weight: 1 },
    ),
})).value;

/**
 * A 10,000-element list (of junk scalars, or of objects shaped like list entries). Used by a
 * property of its own: such a list costs about a second in google.protobuf.Struct on the wire
 * path (the SDK decodes the props once per policy), so it cannot sit in every junk slot.
 */
export const bigListArb: fc.Arbitrary<unknown[]> = fc.tuple(scalarJunkArb, fc.constantFrom("scalar", "entry", "machines")).map(([item, shape]) =>
    Array.from({ length: 10_000 }, (_, i) => {
        switch (shape) {
            case "scalar":
                return i % 97 === 0 ? UNKNOWN_STRING : item;
            case "entry":
                return { name: `k${i}`, value: item, key: `k${i}`, values: [item] };
            default:
                return { machines: [`m${i}`] };
        }
    }),
);

/** A well-typed value or junk in its place: most generated props are almost right. */
function orJunk<T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
    return fc.oneof({ arbitrary: good, weight: 3 }, { arbitrary: junkValueArb, weight: 1 });
}

// ---------------------------------------------------------------------------------------------
// Facts

/** Names shared by zones, controllers and Xen hosts, so generated resources join each other. */
export const NAME_POOL = ["emea", "latam", "z1", "EMEA ", "xcp-01", "xcp-02", "web", "Default-Group"];

function prefixed(key: string): fc.Arbitrary<string> {
    return fc.constantFrom(`perfguard:${key}`, `perfguard_${key}`, `PERFGUARD:${key.toLowerCase()}`, `Perfguard_${key.toUpperCase()}`);
}

function formatDecimal(n: number, integer: boolean | undefined): string {
    return integer ? String(Math.round(n)) : String(Math.round(n * 1000) / 1000);
}

function validNumberArb(def: NumberFactKind): fc.Arbitrary<string> {
    const lo = def.min;
    const hi = def.max;
    return fc.oneof(
        fc.constantFrom(lo, hi, def.integer ? Math.ceil((lo + hi) / 2) : (lo + hi) / 2).map((n) => formatDecimal(n, def.integer)),
        fc
            .double({ min: lo, max: Math.min(hi, lo + 500), noNaN: true })
            .map((n) => formatDecimal(n, def.integer))
            .filter((s) => Number(s) >= lo && Number(s) <= hi),
        fc.integer({ min: Math.ceil(lo), max: Math.min(Math.floor(hi), 100_000) }).map((n) => ` ${n} `),
    );
}

/** Independent restatement of the README's rule for a numeric fact (trimmed plain decimal in range). */
export function isValidNumericFact(def: NumberFactKind, value: unknown): boolean {
    if (typeof value === "number") {
        return Number.isFinite(value) && value >= def.min && value <= def.max && (!def.integer || Number.isInteger(value));
    }
    if (typeof value !== "string") {
        return false;
    }
    const text = value.trim();
    if (!/^[+-]?(\d+(\.\d+)?|\.\d+)$/.test(text)) {
        return false;
    }
    const n = Number(text);
    return Number.isFinite(n) && n >= def.min && n <= def.max && (!def.integer || Number.isInteger(n));
}

function invalidNumberArb(def: NumberFactKind): fc.Arbitrary<unknown> {
    const candidates: fc.Arbitrary<unknown>[] = [
        fc.constantFrom(...NUMBER_LIKE_JUNK),
        fc.constantFrom(String(def.min - 1), String(def.max * 10 + 1), `${def.min}ms`, `${def.max}e1`),
        fc.constantFrom(-5, def.max * 2, Number.NaN, true, null),
        fc.constantFrom({}, [], [String(def.min)]),
        secretLikeArb,
    ];
    if (def.integer) {
        candidates.push(fc.constant(`${def.min}.5`));
    }
    return fc.oneof(...candidates).filter((v) => !isValidNumericFact(def, v));
}

/** A valid value for a fact key, as the README defines it. */
export function validFactValueArb(def: FactKeyDef): fc.Arbitrary<string> {
    switch (def.kind) {
        case "number":
            return validNumberArb(def);
        case "enum":
            return fc.constantFrom(...def.values.flatMap((v) => [v, v.toUpperCase(), ` ${v} `]));
        case "text":
            if (def.key === "waive") {
                return fc.constantFrom("citrix-zone-rtt-limit", "nsx-alb-se-capacity, xen-dom0-workload", "perfguard-facts");
            }
            if (def.key === "waiveUntil") {
                return fc.constantFrom("2026-06-30", "2024-02-29", "2099-12-31"); // a date, as its 10 characters allow
            }
            return fc
                .oneof(fc.constantFrom(...NAME_POOL), fc.string({ minLength: 1, maxLength: 30 }))
                .filter((s) => s.trim().length > 0 && s.length <= def.maxLength);
    }
}

/** A value that is not valid for the key (never an unknown sentinel). */
export function invalidFactValueArb(def: FactKeyDef): fc.Arbitrary<unknown> {
    switch (def.kind) {
        case "number":
            return invalidNumberArb(def);
        case "enum":
            return fc
                .oneof(fc.constantFrom("", "  ", "yes", "dom1", "rsa2048", 5, null), secretLikeArb)
                .filter((v) => typeof v !== "string" || !def.values.some((x) => x.toLowerCase() === v.trim().toLowerCase()));
        case "text":
            return fc.oneof(fc.constantFrom("", "   ", 5, true, null), fc.constant("x".repeat(def.maxLength + 1)));
    }
}

/** One fact as a test writes it: the raw key (prefix and case vary) and the raw value. */
export interface FactEntry {
    readonly key: string;
    readonly value: unknown;
}

export type FactKind = "valid" | "invalid" | "unknown";

/** A fact of a key from `defs`, of the given kinds. */
export function factEntryArb(defs: readonly FactKeyDef[] = FACT_KEYS, kinds: readonly FactKind[] = ["valid", "invalid", "unknown"]): fc.Arbitrary<FactEntry> {
    return fc.constantFrom(...defs).chain((def) =>
        fc.record({
            key: prefixed(def.key),
            value: fc
                .constantFrom(...kinds)
                .chain((kind): fc.Arbitrary<unknown> =>
                    kind === "valid" ? validFactValueArb(def) : kind === "invalid" ? invalidFactValueArb(def) : unknownArb,
                ),
        }),
    );
}

/** A `perfguard:` key perfguard does not know (a typo), with any value. */
export const unknownFactKeyEntryArb: fc.Arbitrary<FactEntry> = fc.record({
    key: fc.constantFrom("perfguard:rtt", "perfguard:rttMS2", "perfguard_throttle", "perfguard:networkMbit"),
    value: fc.oneof(fc.string({ maxLength: 10 }), secretLikeArb),
});

export type FactPlace = "tags map" | "tags list" | "metadata" | "metadatas" | "markers" | "extraConfig";
export const FACT_PLACES: readonly FactPlace[] = ["tags map", "tags list", "metadata", "metadatas", "markers", "extraConfig"];

// A tags list carries only strings: a non-string value is written as an empty value, which is
// invalid for every key (its JSON text could be a valid text fact, e.g. 5 -> "5").
function listValue(value: unknown): string {
    return typeof value === "string" ? value : "";
}

/**
 * Puts facts into props in one place, next to entries that are not perfguard facts.
 */
export function placeFacts(place: FactPlace, entries: readonly FactEntry[], others: readonly unknown[] = []): Record<string, unknown> {
    switch (place) {
        case "tags map":
            return { tags: Object.fromEntries([...others.map((o, i) => [`owner${i}`, o]), ...entries.map((e) => [e.key, e.value])]) };
        case "tags list":
            return { tags: [...others, ...entries.map((e) => `${e.key}=${listValue(e.value)}`)] };
        case "metadata":
        case "metadatas":
            return { [place]: [...others.map((o) => ({ name: "owner", value: o })), ...entries.map((e) => ({ name: e.key, value: e.value }))] };
        case "markers":
            return { markers: [...others.map((o) => ({ key: "team", values: [o] })), ...entries.map((e) => ({ key: e.key, values: [e.value] }))] };
        case "extraConfig":
            // A vSphere VM's advanced settings: guestinfo.perfguard.<key> (the prefix's case varies too).
            return {
                extraConfig: Object.fromEntries([
                    ...others.map((o, i) => [`guestinfo.owner${i}`, o]),
                    ...entries.map((e) => [`${e.key.slice(0, 1) === "P" ? "GuestInfo.PerfGuard." : "guestinfo.perfguard."}${e.key.slice(10)}`, e.value]),
                ]),
            };
    }
}

/** Non-fact entries that sit next to facts: plain tags, junk, unknown list items. */
const otherEntryArb: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom("env:lab", "owner=vdi"), unknownArb, scalarJunkArb);

/** Facts in one or two places, or a fact container that is junk or unknown. */
export function factPropsArb(
    kinds: readonly FactKind[] = ["valid", "invalid", "unknown"],
    defs: readonly FactKeyDef[] = FACT_KEYS,
): fc.Arbitrary<Record<string, unknown>> {
    const onePlace = fc
        .record({
            place: fc.constantFrom(...FACT_PLACES),
            entries: fc.array(fc.oneof({ arbitrary: factEntryArb(defs, kinds), weight: 5 }, { arbitrary: unknownFactKeyEntryArb, weight: 1 }), {
                maxLength: 4,
            }),
            others: fc.array(otherEntryArb, { maxLength: 2 }),
        })
        .map(({ place, entries, others }) => placeFacts(place, entries, others));
    const container = fc
        .record({ key: fc.constantFrom("tags", "metadata", "metadatas", "markers", "extraConfig"), value: junkValueArb })
        .map(({ key, value }) => ({ [key]: value }));
    return fc.oneof(
        { arbitrary: onePlace, weight: 5 },
        { arbitrary: fc.tuple(onePlace, onePlace).map(([a, b]) => ({ ...b, ...a })), weight: 2 },
        { arbitrary: container, weight: 1 },
    );
}

// ---------------------------------------------------------------------------------------------
// Per-type props

export const ZONE_TYPE = "citrix:index/zone:Zone";
export const CATALOG_TYPE = "citrix:index/machineCatalog:MachineCatalog";
export const GROUP_TYPE = "citrix:index/deliveryGroup:DeliveryGroup";
export const CONTROLLER_VM_TYPE = "vsphere:index/virtualMachine:VirtualMachine";
export const SE_GROUP_TYPE = "avi:index/serviceenginegroup:Serviceenginegroup";
export const VS_TYPE = "avi:index/virtualservice:Virtualservice";
export const XEN_VM_TYPE = "xenorchestra:index/vm:Vm";
export const DOM0_SERVICE_TYPE = "perfguard:example:Dom0Service";
export const XEN_BOND_TYPE = "xenorchestra:index/xoaBondedNetwork:XoaBondedNetwork";

/**
 * Avi SE group refs in every form the provider and controller produce (docs/facts.md): by name
 * (with cloud and tenant), by uuid, full controller URLs, the uuid-only URL, an unknown, and
 * refs that resolve to no group of the stack. Names and uuids are from NAME_POOL, so some join.
 */
export const SE_GROUP_REF_FORMS: readonly string[] = [
    "/api/serviceenginegroup?name=web",
    "/api/serviceenginegroup/?name=web&cloud=Default-Cloud",
    "/api/serviceenginegroup/?name=Default-Group&cloud=Default-Cloud&tenant=admin",
    "/api/serviceenginegroup?name=%E0%A4%A",
    "/api/serviceenginegroup/serviceenginegroup-5f0c1d3e-2b7a-4c88-9e1f-0a6b2c3d4e5f",
    "/api/serviceenginegroup/5f0c1d3e-2b7a-4c88-9e1f-0a6b2c3d4e5f",
    "https://avi-ctrl.example.com/api/serviceenginegroup/serviceenginegroup-5f0c1d3e-2b7a-4c88-9e1f-0a6b2c3d4e5f",
    "https://avi-ctrl.example.com/api/serviceenginegroup/?name=web&cloud=Default-Cloud",
    "https://c/api/serviceenginegroup?x=1&name=web",
    "https://avi-ctrl.example.com/api/serviceenginegroup/serviceenginegroup-5f0c1d3e-2b7a-4c88-9e1f-0a6b2c3d4e5f#web",
    UNKNOWN_STRING,
];

const nameInputArb = orJunk(fc.oneof(fc.constantFrom(...NAME_POOL), fc.string({ maxLength: 12 })));
const intStringArb = fc.oneof(fc.integer({ min: -2, max: 70 }).map(String), numberLikeStringArb);
const goBoolArb = fc.constantFrom("true", "false", "1", "0", "True", "yes", " true", "");

function factKeysOf(area: string): FactKeyDef[] {
    return FACT_KEYS.filter((d) => d.area === area || d.area === "any");
}

/** Props of one resource type, facts of the given kinds included. */
export function propsArb(type: string, kinds: readonly FactKind[] = ["valid", "invalid", "unknown"]): fc.Arbitrary<Record<string, unknown>> {
    const facts = (area: string) => factPropsArb(kinds, factKeysOf(area));
    const merge = (a: fc.Arbitrary<Record<string, unknown>>, b: fc.Arbitrary<Record<string, unknown>>) => fc.tuple(a, b).map(([x, y]) => ({ ...x, ...y }));
    switch (type) {
        case ZONE_TYPE:
            return merge(fc.record({ name: nameInputArb, description: orJunk(secretLikeArb) }, { requiredKeys: [] }), facts("citrix"));
        case CATALOG_TYPE:
            return merge(
                fc.record(
                    {
                        name: nameInputArb,
                        zone: orJunk(unknownArb),
                        provisioningScheme: orJunk(
                            fc.record({ numberOfTotalMachines: orJunk(fc.oneof(fc.integer({ min: -5, max: 20_000 }), intStringArb)) }, { requiredKeys: [] }),
                        ),
                        machineAccounts: orJunk(
                            fc.array(fc.record({ machines: orJunk(fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 })) }, { requiredKeys: [] }), {
                                maxLength: 3,
                            }),
                        ),
                    },
                    { requiredKeys: [] },
                ),
                facts("citrix"),
            );
        case GROUP_TYPE:
            return merge(
                fc.record(
                    {
                        name: nameInputArb,
                        associatedMachineCatalogs: orJunk(
                            fc.array(
                                fc.record(
                                    {
                                        machineCatalog: orJunk(fc.oneof(unknownArb, fc.constantFrom(...NAME_POOL))),
                                        machineCount: orJunk(fc.oneof(fc.integer({ min: 0, max: 20_000 }), intStringArb)),
                                    },
                                    { requiredKeys: [] },
                                ),
                                { maxLength: 3 },
                            ),
                        ),
                        makeResourcesAvailableInLhc: orJunk(fc.boolean()),
                    },
                    { requiredKeys: [] },
                ),
                facts("citrix"),
            );
        case CONTROLLER_VM_TYPE:
            return merge(
                fc.record(
                    {
                        name: nameInputArb,
                        numCpus: orJunk(fc.integer({ min: 1, max: 8 })),
                        customAttributes: orJunk(fc.dictionary(fc.string({ maxLength: 5 }), secretLikeArb, { maxKeys: 2 })),
                    },
                    { requiredKeys: [] },
                ),
                facts("citrix"),
            );
        case SE_GROUP_TYPE:
            return merge(
                fc.record(
                    {
                        name: nameInputArb,
                        vcpusPerSe: orJunk(intStringArb),
                        memoryPerSe: orJunk(intStringArb),
                        diskPerSe: orJunk(intStringArb),
                        maxSe: orJunk(intStringArb),
                        minScaleoutPerVs: orJunk(intStringArb),
                        maxScaleoutPerVs: orJunk(intStringArb),
                        bufferSe: orJunk(intStringArb),
                        haMode: orJunk(fc.constantFrom("HA_MODE_SHARED", "HA_MODE_SHARED_PAIR", "HA_MODE_LEGACY_ACTIVE_STANDBY", "HA_MODE_N_PLUS_M")),
                        dedicatedDispatcherCore: orJunk(goBoolArb),
                        tenantRef: orJunk(fc.constant("/api/tenant?name=admin")),
                    },
                    { requiredKeys: [] },
                ),
                facts("nsx-alb"),
            );
        case VS_TYPE:
            return merge(
                fc.record(
                    {
                        name: nameInputArb,
                        seGroupRef: orJunk(fc.oneof(unknownArb, fc.constantFrom(...SE_GROUP_REF_FORMS))),
                        services: orJunk(
                            fc.array(
                                fc.record({ port: orJunk(fc.integer({ min: 1, max: 65535 }).map(String)), enableSsl: orJunk(goBoolArb) }, { requiredKeys: [] }),
                                { maxLength: 3 },
                            ),
                        ),
                        sslKeyAndCertificateRefs: orJunk(fc.array(fc.oneof(unknownArb, fc.constant("/api/sslkeyandcertificate?name=c")), { maxLength: 2 })),
                    },
                    { requiredKeys: [] },
                ),
                facts("nsx-alb"),
            );
        case XEN_VM_TYPE:
            return merge(
                fc.record(
                    {
                        nameLabel: nameInputArb,
                        affinityHost: orJunk(fc.constantFrom(...NAME_POOL)),
                        cpus: orJunk(fc.integer({ min: 1, max: 8 })),
                        cloudConfig: orJunk(secretLikeArb),
                        // VIFs, some on a bonded network of the stack (by id, or unknown and joined by dependency).
                        networks: orJunk(
                            fc.array(fc.record({ networkId: orJunk(fc.oneof(unknownArb, fc.constantFrom("bond-1", "net-lan"))) }, { requiredKeys: [] }), {
                                maxLength: 3,
                            }),
                        ),
                    },
                    { requiredKeys: [] },
                ),
                facts("xen"),
            );
        case XEN_BOND_TYPE:
            return merge(
                fc.record(
                    {
                        id: orJunk(fc.constantFrom("bond-1", "bond-2")),
                        nameLabel: nameInputArb,
                        bondMode: orJunk(fc.oneof(unknownArb, fc.constantFrom("balance-slb", "active-backup", "lacp", "LACP", "balance-tcp"))),
                        pifIds: orJunk(fc.array(fc.oneof(unknownArb, fc.constantFrom("pif-1", "pif-2")), { maxLength: 4 })),
                    },
                    { requiredKeys: [] },
                ),
                facts("xen"),
            );
        case DOM0_SERVICE_TYPE:
            // A dom0 service is any resource with perfguard:xenDomain=dom0: give it that fact often.
            return merge(fc.record({ command: orJunk(secretLikeArb) }, { requiredKeys: [] }), facts("xen")).chain((props) =>
                fc.boolean().map((dom0) => (dom0 && kinds.includes("valid") ? addTag(props, "perfguard:xenDomain=dom0") : props)),
            );
        default:
            return merge(fc.dictionary(fc.string({ maxLength: 8 }), junkValueArb, { maxKeys: 4, noNullPrototype: true }), factPropsArb(kinds));
    }
}

function addTag(props: Record<string, unknown>, tag: string): Record<string, unknown> {
    const tags = props.tags;
    if (Array.isArray(tags)) {
        return { ...props, tags: [...tags, tag] };
    }
    if (tags === undefined) {
        return { ...props, tags: [tag] };
    }
    return { ...props, metadatas: [{ name: tag.split("=")[0], value: tag.split("=")[1] }] };
}

export const TYPES: readonly string[] = [
    ZONE_TYPE,
    CATALOG_TYPE,
    GROUP_TYPE,
    CONTROLLER_VM_TYPE,
    SE_GROUP_TYPE,
    VS_TYPE,
    XEN_VM_TYPE,
    XEN_BOND_TYPE,
    DOM0_SERVICE_TYPE,
    "junk:index/thing:Thing",
];

const nameSuffixArb = fc.oneof(
    { arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), weight: 5 },
    { arbitrary: fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !s.includes("::")), weight: 1 },
);

/**
 * A stack of 1..maxResources resources of any type perfguard reads, with unique names (the
 * index is part of the name) and property dependencies between them (the preview's joins).
 */
export function stackArb(
    options: { maxResources?: number; kinds?: readonly FactKind[]; namePrefix?: string; dependOn?: readonly string[] } = {},
): fc.Arbitrary<TestResource[]> {
    const prefix = options.namePrefix ?? "r";
    const resourceArb = fc
        .constantFrom(...TYPES)
        .chain((type) => fc.record({ type: fc.constant(type), suffix: nameSuffixArb, props: propsArb(type, options.kinds) }));
    return fc.array(resourceArb, { minLength: 1, maxLength: options.maxResources ?? 6 }).chain((drafts) => {
        const names = drafts.map((d, i) => `${prefix}${i}-${d.suffix}`);
        const targets = [...names, ...(options.dependOn ?? [])];
        return fc.tuple(...drafts.map(() => fc.array(fc.constantFrom(...targets), { maxLength: 2 }))).map((deps) =>
            drafts.map((d, i): TestResource => ({
                type: d.type,
                name: names[i],
                props: d.props,
                propertyDependencies:
                    deps[i].length === 0
                        ? {}
                        : {
                              [d.type === CATALOG_TYPE
                                  ? "zone"
                                  : d.type === VS_TYPE
                                    ? "seGroupRef"
                                    : d.type === GROUP_TYPE
                                      ? "associatedMachineCatalogs"
                                      : "networks"]: deps[i],
                          },
            })),
        );
    });
}

// ---------------------------------------------------------------------------------------------
// Junk resources: what may be added to a stack without changing what its clean part declares

function unwrapWireSecret(value: unknown): unknown {
    let v = value;
    while (v !== null && typeof v === "object" && !Array.isArray(v) && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG) {
        v = (v as Record<string, unknown>).value;
    }
    return v;
}

function isValidFactValue(def: FactKeyDef, value: unknown): boolean {
    switch (def.kind) {
        case "number":
            return isValidNumericFact(def, value);
        case "enum":
            return typeof value === "string" && def.values.some((v) => v.toLowerCase() === value.trim().toLowerCase());
        case "text":
            return typeof value === "string" && value.trim().length > 0 && value.trim().length <= def.maxLength;
    }
}

function defOfRawKey(rawKey: unknown): FactKeyDef | undefined {
    if (typeof rawKey !== "string" || !/^perfguard[:_]/i.test(rawKey)) {
        return undefined;
    }
    const bare = rawKey.slice("perfguard:".length).toLowerCase();
    return FACT_KEYS.find((d) => d.key.toLowerCase() === bare);
}

/**
 * Independent restatement of the README's fact places: true when `props` carries any valid
 * perfguard fact (after the SDK unwraps wire secrets). Used to keep valid facts out of junk.
 */
export function containsValidFact(rawProps: unknown): boolean {
    const props = unwrapWireSecret(rawProps);
    if (props === null || typeof props !== "object" || Array.isArray(props)) {
        return false;
    }
    const p = props as Record<string, unknown>;
    const valid = (key: unknown, value: unknown) => {
        const def = defOfRawKey(typeof key === "string" ? key.trim() : key);
        return def !== undefined && isValidFactValue(def, unwrapWireSecret(value));
    };
    const tags = unwrapWireSecret(p.tags);
    if (Array.isArray(tags)) {
        for (const raw of tags) {
            const item = unwrapWireSecret(raw);
            if (typeof item === "string" && item.includes("=") && valid(item.slice(0, item.indexOf("=")), item.slice(item.indexOf("=") + 1))) {
                return true;
            }
        }
    } else if (tags !== null && typeof tags === "object") {
        for (const [k, v] of Object.entries(tags)) {
            if (valid(k, v)) {
                return true;
            }
        }
    }
    for (const place of ["metadata", "metadatas"]) {
        const list = unwrapWireSecret(p[place]);
        if (
            Array.isArray(list) &&
            list.some((raw) => {
                const e = unwrapWireSecret(raw) as Record<string, unknown> | null;
                return e !== null && typeof e === "object" && valid(unwrapWireSecret(e.name), e.value);
            })
        ) {
            return true;
        }
    }
    const markers = unwrapWireSecret(p.markers);
    if (
        Array.isArray(markers) &&
        markers.some((raw) => {
            const e = unwrapWireSecret(raw) as Record<string, unknown> | null;
            const values = e !== null && typeof e === "object" ? unwrapWireSecret(e.values) : undefined;
            return Array.isArray(values) && values.some((v) => valid(unwrapWireSecret((e as Record<string, unknown>).key), v));
        })
    ) {
        return true;
    }
    const extraConfig = unwrapWireSecret(p.extraConfig);
    if (extraConfig !== null && typeof extraConfig === "object" && !Array.isArray(extraConfig)) {
        for (const [k, v] of Object.entries(extraConfig)) {
            if (/^guestinfo\.perfguard\./i.test(k.trim()) && valid(`perfguard:${k.trim().slice("guestinfo.perfguard.".length)}`, v)) {
                return true;
            }
        }
    }
    return false;
}

/**
 * Junk resources to append to a clean stack: fresh names, props of any type perfguard reads
 * made of malformed values and unknowns, facts only invalid or unknown (never a valid one,
 * checked by containsValidFact), property dependencies possibly on the clean resources (but no
 * Delivery Group of clean catalogs).
 */
export function junkResourcesArb(cleanNames: readonly string[], maxResources = 4): fc.Arbitrary<TestResource[]> {
    return (
        stackArb({ maxResources, kinds: ["invalid", "unknown"], namePrefix: "junk", dependOn: cleanNames })
            // A Delivery Group of the clean catalogs is no junk: it makes its own lock, and a zone's
            // verdict may rightly move onto it (citrix-brokering-capacity judges per Delivery Group).
            .map((resources) =>
                resources.filter(
                    (r) =>
                        !containsValidFact(r.props) &&
                        !(
                            r.type === GROUP_TYPE &&
                            Object.values(r.propertyDependencies ?? {})
                                .flat()
                                .some((n) => cleanNames.includes(n))
                        ),
                ),
            )
    );
}

/** Fields perfguard reads as lists, per type (every type has the four fact places). */
const LIST_FIELDS: Readonly<Record<string, readonly string[]>> = {
    [CATALOG_TYPE]: ["machineAccounts"],
    [VS_TYPE]: ["services", "sslKeyAndCertificateRefs"],
};

/** A resource of any type with one list field perfguard reads replaced by a 10,000-element list. */
export const bigListResourceArb: fc.Arbitrary<TestResource> = fc.constantFrom(...TYPES).chain((type) =>
    fc.record({
        type: fc.constant(type),
        name: fc.constant("big"),
        props: fc
            .tuple(propsArb(type), fc.constantFrom("tags", "metadata", "metadatas", "markers", ...(LIST_FIELDS[type] ?? [])), bigListArb)
            .map(([props, key, list]) => ({ ...props, [key]: list })),
    }),
);
