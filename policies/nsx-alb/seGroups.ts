/**
 * NSX ALB (Avi) as a stack declares it: SE groups with their sizing fields parsed like the
 * Terraform provider does (numbers and booleans are strings: Go strconv), SE groups described in
 * policy config (the controller's Default-Group, say), and each virtual service (VS) joined to
 * its SE group. Importing this module registers the typed-field readers perfguard-facts uses.
 */
import { DEFAULT_ALGO, DEFAULT_MAX_VS_PER_SE, HA_MODES, HaMode, PLACEMENT_ALGOS, PlacementAlgo, PROVIDER_RANGES, SE_VCPU_MAX, SE_VCPU_MIN, SeGroupSpec, VsDemand } from "../../model/seCapacity";
import { ResourceView as ResourceViewClass } from "../pack/resources";
import type { ResourceView, StackView } from "../pack/resources";
import { AviRef, canonicalUuid, foldName, looksLikeUuid, parseAviRef } from "./refs";
import { withCertificateKey } from "./certificates";
import { registerTypedFields, TypedFieldProblem } from "../pack/typedFields";
import { currentInventory } from "../pack/inventory/current";
import { INVENTORY_ENV } from "../pack/inventory/types";
import { describeValue, field, isRecord, isUnknown, parseGoBool, parseGoInt, UNKNOWN } from "../pack/values";

export const SE_GROUP_TYPE = "avi:index/serviceenginegroup:Serviceenginegroup";
export const VS_TYPE = "avi:index/virtualservice:Virtualservice";
/** The SE group Avi places a VS on when it names none. */
export const DEFAULT_SE_GROUP = "Default-Group";

/** A field as read: its value and where it came from (a field, a provider default, policy config). */
export type FieldRead<T> =
    | { readonly state: "ok"; readonly value: T; readonly where: string }
    | { readonly state: "unknown"; readonly where: string }
    | { readonly state: "invalid"; readonly where: string; readonly problem: string };

interface IntDef {
    readonly kind: "int";
    readonly min: number;
    readonly max: number;
    readonly default: number;
    /** Why the bounds are what they are (for docs and reviewers). */
    readonly range: string;
    /** The only values the provider documents, when it lists them (num_dispatcher_cores: 0, 1, 2, 4, 8, 16). */
    readonly allowed?: readonly number[];
}
interface EnumDef {
    readonly kind: "enum";
    readonly values: readonly string[];
    readonly default: string;
}
interface BoolDef {
    readonly kind: "bool";
    readonly default: boolean;
    /** The provider has no default (Optional + Computed): unset reads as `default` but says "not set". */
    readonly computed?: true;
}
type FieldDef = IntDef | EnumDef | BoolDef;

// Defaults and ranges: the vmware/avi Terraform provider (avi/resource_avi_serviceenginegroup.go
// schema defaults; website/docs/r/avi_serviceenginegroup.html.markdown "Allowed values"), read
// 2026-12. dedicated_dispatcher_core is Optional + Computed with no default: unset is "not set".
const BIG = Number.MAX_SAFE_INTEGER;
export const SE_GROUP_FIELDS = {
    vcpusPerSe: { kind: "int", min: SE_VCPU_MIN, max: SE_VCPU_MAX, default: 1, range: "the published SE size range" },
    memoryPerSe: { kind: "int", min: PROVIDER_RANGES.memoryPerSeMb.min, max: PROVIDER_RANGES.memoryPerSeMb.max, default: 2048, range: "MB; the provider allows 2048-262144" },
    diskPerSe: { kind: "int", min: 1, max: BIG, default: 15, range: "GB" },
    maxSe: { kind: "int", min: PROVIDER_RANGES.maxSe.min, max: PROVIDER_RANGES.maxSe.max, default: 10, range: "the provider allows 0-1000" },
    minScaleoutPerVs: { kind: "int", min: PROVIDER_RANGES.scaleoutPerVs.min, max: PROVIDER_RANGES.scaleoutPerVs.max, default: 1, range: "the provider allows 1-64" },
    maxScaleoutPerVs: { kind: "int", min: PROVIDER_RANGES.scaleoutPerVs.min, max: PROVIDER_RANGES.scaleoutPerVs.max, default: 4, range: "the provider allows 1-64" },
    bufferSe: { kind: "int", min: 0, max: BIG, default: 1, range: "spare SEs" },
    haMode: { kind: "enum", values: HA_MODES, default: "HA_MODE_SHARED" },
    algo: { kind: "enum", values: PLACEMENT_ALGOS, default: DEFAULT_ALGO },
    maxVsPerSe: { kind: "int", min: PROVIDER_RANGES.maxVsPerSe.min, max: PROVIDER_RANGES.maxVsPerSe.max, default: DEFAULT_MAX_VS_PER_SE, range: "the provider allows 1-1000" },
    distributeLoadActiveStandby: { kind: "bool", default: false },
    dedicatedDispatcherCore: { kind: "bool", default: false, computed: true },
    // num_dispatcher_cores: Optional, Default "0" (resource_avi_serviceenginegroup.go, read 2026-12, commit
    // 0340762b); the docs: "Allowed values are 0,1,2,4,8,16", 0 = the number is deduced automatically.
    numDispatcherCores: { kind: "int", min: 0, max: 16, default: 0, allowed: [0, 1, 2, 4, 8, 16], range: "the provider documents 0, 1, 2, 4, 8 or 16; 0: the Controller deduces it" },
} as const satisfies Record<string, FieldDef>;

/**
 * From this many vCPUs per SE the NSX ALB 20.1.6 per-SE table was measured with a dedicated
 * dispatcher (4 and 6 vCPU rows): nsx-alb-se-dedicated-dispatcher's default minVcpus, and the
 * size from which an SE-size fix sets dedicatedDispatcherCore "true".
 */
export const DISPATCHER_MIN_VCPUS = 4;

export type SeGroupField = keyof typeof SE_GROUP_FIELDS;
export const SE_GROUP_FIELD_NAMES = Object.keys(SE_GROUP_FIELDS) as SeGroupField[];

/** Every sizing field of one SE group, read. */
export interface SeGroupFields {
    readonly vcpusPerSe: FieldRead<number>;
    readonly memoryPerSe: FieldRead<number>;
    readonly diskPerSe: FieldRead<number>;
    readonly maxSe: FieldRead<number>;
    readonly minScaleoutPerVs: FieldRead<number>;
    readonly maxScaleoutPerVs: FieldRead<number>;
    readonly bufferSe: FieldRead<number>;
    readonly haMode: FieldRead<HaMode>;
    readonly algo: FieldRead<PlacementAlgo>;
    readonly maxVsPerSe: FieldRead<number>;
    readonly distributeLoadActiveStandby: FieldRead<boolean>;
    readonly dedicatedDispatcherCore: FieldRead<boolean>;
    readonly numDispatcherCores: FieldRead<number>;
}

/** The `where` of a field that is not set. */
export const DEFAULT_WHERE = "not set: provider default";
/** The `where` of a field that is not set and that the provider computes (no default). */
export const NOT_SET_WHERE = "not set; the provider computes it, no default";

/**
 * A computed field that is unknown in a preview although the program never set it: the bridged
 * provider returns a computed, unset attribute as unknown for a resource it creates. Only a value
 * the program set from another resource's output carries a property dependency at its key; without
 * one the field was unset, and the Controller stores what it stores for an unset field.
 */
export const UNSET_IN_PREVIEW_WHERE = "not set (unknown in this preview only because the provider computes it), read as the Controller's default";

/**
 * How a message shows a field read: `vcpusPerSe 4`, `maxSe 10 (not set: provider default)`,
 * `vcpusPerSe 4 (policy config seGroups.Default-Group.vcpusPerSe)`, `memoryPerSe 4096 MB` (with `unit`).
 */
export function fieldText(name: string, value: number | string | boolean, where: string, unit = ""): string {
    const shown = `${name} ${String(value)}${unit ? ` ${unit}` : ""}`;
    return where === name ? shown : `${shown} (${where})`;
}

const GO_BOOLS = "1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False";

function readField(name: SeGroupField, raw: unknown, where: string, setFromOutput?: boolean): FieldRead<number | string | boolean> {
    const def: FieldDef = SE_GROUP_FIELDS[name];
    if (raw === UNKNOWN || isUnknown(raw)) {
        // Unknown and computed, but no property dependency at its key: unset (UNSET_IN_PREVIEW_WHERE).
        return "computed" in def && setFromOutput === false ? { state: "ok", value: def.default, where: UNSET_IN_PREVIEW_WHERE } : { state: "unknown", where };
    }
    if (raw === undefined || raw === null) {
        return { state: "ok", value: def.default, where: "computed" in def ? NOT_SET_WHERE : DEFAULT_WHERE };
    }
    const shown = `${name} ${describeValue(raw)}${where === name ? "" : ` (${where})`}`;
    switch (def.kind) {
        case "int": {
            const n = parseGoInt(raw);
            if (n === undefined) {
                return { state: "invalid", where, problem: `${shown} is not an integer (Go strconv.ParseInt)` };
            }
            if (n < def.min || n > def.max) {
                const bounds = def.max === BIG ? `at least ${def.min}` : `from ${def.min} to ${def.max}`;
                return { state: "invalid", where, problem: `${shown} is out of range: it must be ${bounds} (${def.range})` };
            }
            if (def.allowed && !def.allowed.includes(n)) {
                return { state: "invalid", where, problem: `${shown} is not one of ${def.allowed.join(", ")} (${def.range})` };
            }
            return { state: "ok", value: n, where };
        }
        case "bool": {
            const b = parseGoBool(raw);
            return b === undefined
                ? { state: "invalid", where, problem: `${shown} is not a boolean (Go strconv.ParseBool accepts ${GO_BOOLS})` }
                : { state: "ok", value: b, where };
        }
        case "enum":
            return typeof raw === "string" && def.values.includes(raw)
                ? { state: "ok", value: raw, where }
                : { state: "invalid", where, problem: `${shown} is not one of ${def.values.join(", ")}` };
    }
}

/**
 * Reads a declared SE group's sizing fields, with its property dependencies: a computed field
 * (dedicatedDispatcherCore) unknown in a preview without one was not set (UNSET_IN_PREVIEW_WHERE).
 */
export function readSeGroupFieldsOf(group: ResourceView): SeGroupFields {
    return readSeGroupFields(group.props, undefined, group.propertyDependencies);
}

/**
 * Reads an SE group's sizing fields.
 * @param props - the group's props (a resource's inputs/outputs, or a policy-config entry).
 * @param whereOf - how messages name a set field, e.g. `vcpusPerSe` or a config path.
 * @returns every field with its value and origin; absent fields take the provider defaults.
 */
export function readSeGroupFields(
    props: unknown,
    whereOf: (name: SeGroupField) => string = (n) => n,
    propertyDependencies?: Readonly<Record<string, readonly string[]>>,
): SeGroupFields {
    const setFromOutput = (name: SeGroupField): boolean | undefined =>
        propertyDependencies === undefined ? undefined : (propertyDependencies[name] ?? []).length > 0;
    const read = (name: SeGroupField) => readField(name, field(props, name), whereOf(name), setFromOutput(name));
    return {
        vcpusPerSe: read("vcpusPerSe") as FieldRead<number>,
        memoryPerSe: read("memoryPerSe") as FieldRead<number>,
        diskPerSe: read("diskPerSe") as FieldRead<number>,
        maxSe: read("maxSe") as FieldRead<number>,
        minScaleoutPerVs: read("minScaleoutPerVs") as FieldRead<number>,
        maxScaleoutPerVs: read("maxScaleoutPerVs") as FieldRead<number>,
        bufferSe: read("bufferSe") as FieldRead<number>,
        haMode: read("haMode") as FieldRead<HaMode>,
        algo: read("algo") as FieldRead<PlacementAlgo>,
        maxVsPerSe: read("maxVsPerSe") as FieldRead<number>,
        distributeLoadActiveStandby: read("distributeLoadActiveStandby") as FieldRead<boolean>,
        dedicatedDispatcherCore: read("dedicatedDispatcherCore") as FieldRead<boolean>,
        numDispatcherCores: read("numDispatcherCores") as FieldRead<number>,
    };
}

/**
 * The fields' problems, for perfguard-facts and config errors.
 * @param fields - as readSeGroupFields returns them.
 * @returns one sentence per invalid value (Go strconv parse error, out of range, unknown
 *   haMode) and for maxScaleoutPerVs below minScaleoutPerVs; empty when all are usable.
 */
export function seGroupFieldProblems(fields: SeGroupFields): string[] {
    return fieldChecks(fields).map((p) => p.text);
}

/** Each unreadable field, and the pairs that read fine one by one but not together (with their own fix). */
function fieldChecks(fields: SeGroupFields): Array<{ text: string; fix?: string }> {
    const problems: Array<{ text: string; fix?: string }> = [];
    for (const name of SE_GROUP_FIELD_NAMES) {
        const read = fields[name];
        if (read.state === "invalid") {
            problems.push({ text: read.problem });
        }
    }
    const { minScaleoutPerVs: min, maxScaleoutPerVs: max, bufferSe, maxSe } = fields;
    if (min.state === "ok" && max.state === "ok" && max.value < min.value) {
        problems.push({
            text: `${fieldText("maxScaleoutPerVs", max.value, max.where)} is below ${fieldText("minScaleoutPerVs", min.value, min.where)}`,
            fix: `set maxScaleoutPerVs "${min.value}" or more (never below minScaleoutPerVs).`,
        });
    }
    // maxSe "0" with bufferSe not set: the provider's default buffer of 1 is no choice of the user's;
    // the capacity verdict names maxSe 0 as the cause (as with bufferSe "0") and its fix keeps the buffer.
    const defaultBuffer = bufferSe.state === "ok" && bufferSe.where === DEFAULT_WHERE && maxSe.state === "ok" && maxSe.value === 0;
    if (bufferSe.state === "ok" && maxSe.state === "ok" && bufferSe.value > maxSe.value && !defaultBuffer) {
        // maxSe "0" runs no SE: the fix never proposes a maxSe below 1, nor below the buffer.
        problems.push({
            text: `${fieldText("bufferSe", bufferSe.value, bufferSe.where)} is above ${fieldText("maxSe", maxSe.value, maxSe.where)}`,
            fix: `set maxSe to the SEs its VSs need plus bufferSe (at least "${bufferSe.value + 1}"), or lower bufferSe.`,
        });
    }
    return problems;
}

/** seGroupFieldProblems as perfguard-facts reports them: a pair of fields that disagree carries its own fix. */
export function seGroupFieldFindings(fields: SeGroupFields): Array<string | TypedFieldProblem> {
    return fieldChecks(fields).map((p) => (p.fix ? { text: p.text, fix: p.fix } : p.text));
}

/** The SE group as capacity needs it, with where each number came from. */
export interface SeGroupSizing {
    readonly spec: Required<SeGroupSpec>;
    readonly where: Readonly<Record<keyof SeGroupSpec, string>>;
    /**
     * dedicatedDispatcherCore is unknown in this preview or invalid: spec.dedicatedDispatcher is
     * then only one of the two settings, and the evaluation judges the group under both.
     */
    readonly dispatcherUnread?: "unknown" | "invalid";
}

/** The fields capacity needs, in SeGroupSpec's names. */
const SIZING_FIELDS: ReadonlyArray<[keyof SeGroupSpec, SeGroupField]> = [
    ["vcpusPerSe", "vcpusPerSe"], ["memoryPerSeMb", "memoryPerSe"], ["maxSe", "maxSe"], ["minScaleoutPerVs", "minScaleoutPerVs"],
    ["maxScaleoutPerVs", "maxScaleoutPerVs"], ["bufferSe", "bufferSe"], ["haMode", "haMode"], ["algo", "algo"],
    ["maxVsPerSe", "maxVsPerSe"], ["distributeLoadActiveStandby", "distributeLoadActiveStandby"],
];

/** The sizing fields that are unknown in this preview (provider field names). */
export function unknownSizingFields(fields: SeGroupFields): SeGroupField[] {
    return SIZING_FIELDS.map(([, name]) => name).filter((name) => fields[name].state === "unknown");
}

/**
 * The fields capacity needs (all but diskPerSe, dedicatedDispatcherCore and numDispatcherCores),
 * when every one is known and valid; undefined otherwise (unknown in preview, or reported by
 * perfguard-facts). An unknown or invalid dedicatedDispatcherCore does not block: it is marked
 * (dispatcherUnread) and the evaluation judges both settings.
 */
export function seGroupSizing(fields: SeGroupFields): SeGroupSizing | undefined {
    // Only the sizing fields count: a bad diskPerSe or dedicatedDispatcherCore does not block capacity.
    const sizingOnly = {
        ...fields, diskPerSe: { state: "ok", value: 1, where: "" }, dedicatedDispatcherCore: { state: "ok", value: false, where: "" },
        numDispatcherCores: { state: "ok", value: 0, where: "" },
    } as SeGroupFields;
    if (seGroupFieldProblems(sizingOnly).length > 0) {
        return undefined;
    }
    const spec: Record<string, unknown> = {};
    const where: Record<string, string> = {};
    for (const [key, name] of SIZING_FIELDS) {
        const read = fields[name];
        if (read.state !== "ok") {
            return undefined;
        }
        spec[key] = read.value;
        where[key] = read.where;
    }
    // The dispatcher setting moves the proxy figures below 4 vCPUs. Unknown or invalid never becomes
    // a default: the sizing says so and the evaluation judges the group with it true and false.
    const dispatcher = fields.dedicatedDispatcherCore;
    spec.dedicatedDispatcher = dispatcher.state === "ok" && dispatcher.value;
    where.dedicatedDispatcher = dispatcher.where;
    const sizing = { spec: spec as unknown as Required<SeGroupSpec>, where: where as Record<keyof SeGroupSpec, string> };
    return dispatcher.state === "ok" ? sizing : { ...sizing, dispatcherUnread: dispatcher.state };
}

/**
 * Whether SSL is on for a VS: any `services[].enableSsl` true (Go strconv.ParseBool) or a
 * non-empty `sslKeyAndCertificateRefs`.
 * @returns ok true/false with the field that decided, unknown (preview), or invalid with the
 *   problem sentence; never throws.
 */
export function vsSsl(vs: ResourceView): FieldRead<boolean> {
    const certs = field(vs.props, "sslKeyAndCertificateRefs");
    // A list with unknown elements (certificates created in this stack) is still non-empty.
    if (Array.isArray(certs) && certs.length > 0) {
        return { state: "ok", value: true, where: "sslKeyAndCertificateRefs" };
    }
    const services = field(vs.props, "services");
    if (services === UNKNOWN || certs === UNKNOWN) {
        return { state: "unknown", where: "services" };
    }
    let unknown = false;
    let invalid: string | undefined;
    if (Array.isArray(services)) {
        for (const [i, service] of services.entries()) {
            const raw = field(service, "enableSsl");
            if (raw === UNKNOWN) {
                unknown = true;
                continue;
            }
            if (raw === undefined || raw === null) {
                continue;
            }
            const on = parseGoBool(raw);
            if (on === true) {
                return { state: "ok", value: true, where: `services[${i}].enableSsl` };
            }
            if (on === undefined) {
                invalid ??= `services[${i}].enableSsl ${describeValue(raw)} is not a boolean (Go strconv.ParseBool accepts ${GO_BOOLS})`;
            }
        }
    }
    if (invalid) {
        return { state: "invalid", where: "services", problem: invalid };
    }
    return unknown ? { state: "unknown", where: "services" } : { state: "ok", value: false, where: "no services[].enableSsl true and no sslKeyAndCertificateRefs" };
}

registerTypedFields(SE_GROUP_TYPE, (resource) => seGroupFieldFindings(readSeGroupFieldsOf(resource)));
registerTypedFields(VS_TYPE, (resource) => {
    const ssl = vsSsl(resource);
    return ssl.state === "invalid" ? [ssl.problem] : [];
});

/** One SE group: declared in the stack, or described in policy config. */
export interface SeGroupView {
    /** The stack resource; undefined for a group described in policy config. */
    readonly resource: ResourceView | undefined;
    /** The Avi name (`name` input; the Pulumi name when unset; the config key). */
    readonly name: string;
    /** How messages name the group. */
    readonly label: string;
    readonly fields: SeGroupFields;
}

/**
 * The demand a VS's known facts give when some others are unknown in a preview. Demand only
 * adds, so a verdict that this demand does not fit holds whatever the unknown facts turn out to be.
 */
export interface KnownDemand {
    readonly demand: VsDemand;
    readonly where: Readonly<Partial<Record<keyof VsDemand, string>>>;
    /** perfguard:ingressPct is unknown in this preview or invalid (counted as all ingress; judged both ways). */
    readonly ingressPctUnread?: "unknown" | "invalid";
    /** applicationProfileRef is unknown in this preview and picks the throughput row (judged on the L4 and the L7 row). */
    readonly profileUnread?: true;
    /** What is unknown in this preview and not counted, e.g. "perfguard:l7Rps". */
    readonly unknown: readonly string[];
}

/**
 * The demand facts of a VS: none, not usable (unknown or invalid), or read. An "unusable" VS
 * whose only problem is facts unknown in a preview carries `known`: the demand of its known
 * facts (a lower bound of the real demand).
 */
export type VsDemandRead =
    | { readonly state: "none" }
    | { readonly state: "unusable"; readonly known?: KnownDemand }
    | { readonly state: "ok"; readonly demand: VsDemand; readonly where: Readonly<Partial<Record<keyof VsDemand, string>>>; readonly ingressPctUnread?: "unknown" | "invalid"; readonly profileUnread?: true };

/** Why a VS could not be joined to an SE group, and what would make it joinable. */
export interface Unresolved {
    readonly reason: string;
    readonly remedy: string;
    /** For an ambiguous ref: the groups it may be on (each counts it, conservatively, in its busiest SE). */
    readonly candidates?: readonly SeGroupView[];
}

/** A VS and the SE group it is placed on. */
export interface VsPlacement {
    readonly vs: ResourceView;
    /** The group, or undefined when it cannot be known (see `unresolved`). */
    readonly group: SeGroupView | undefined;
    /** How the group was found, e.g. "seGroupRef property dependency", "perfguard:seGroup in markers". */
    readonly via?: string;
    /** Why the group is not known: "not checked", never skipped. */
    readonly unresolved?: Unresolved;
    /** For an SNI child (type VS_TYPE_VH_CHILD): its parent VS, whose SEs it runs on. */
    readonly parent?: ResourceView;
    readonly demand: VsDemandRead;
    /**
     * The VS's `scaleoutEcmp` is "true" (Go strconv.ParseBool): BGP/ECMP scale-out, ingress spread
     * by the upstream router. Unknown or invalid is not a default: scaleoutEcmpUnread says so, and
     * the evaluation judges the group with native and with BGP/ECMP scale-out.
     */
    readonly scaleoutEcmp?: boolean;
    /** `scaleoutEcmp` is unknown in this preview, or not a Go boolean. */
    readonly scaleoutEcmpUnread?: "unknown" | "invalid";
}

/** The NSX ALB objects of a stack. */
export interface AviStack {
    /** Groups declared in the stack (sorted by URN), then groups described in config (by key). */
    readonly groups: readonly SeGroupView[];
    /** Every VS (sorted by URN, so that no verdict depends on the engine's order). */
    readonly placements: readonly VsPlacement[];
}

const DEMAND_KEYS = ["sslTps", "l7Rps", "l4Cps", "l4OpenConnections", "throughputGbps"] as const;

/**
 * Reads the demand facts of a VS (perfguard:sslTps, sslKeyType, l7Rps, l4Cps, l4OpenConnections,
 * throughputGbps). A VS with no demand fact is not applicable ("none"); an invalid demand fact
 * or SSL setting makes it "unusable" (perfguard-facts reports it). A fact unknown in a preview
 * also makes it "unusable", with `known` set to the demand of the facts that are known (the
 * lower bound: an unknown sslKeyType counts the SSL TPS as ECC, the cheaper handshake, and a
 * throughput whose row depends on an unknown SSL setting is left out).
 */
export function readVsDemand(vs: ResourceView): VsDemandRead {
    const demand: { -readonly [K in keyof VsDemand]: VsDemand[K] } = {};
    const where: Partial<Record<keyof VsDemand, string>> = {};
    const unknown: string[] = [];
    let any = false;
    for (const key of DEMAND_KEYS) {
        const read = vs.facts.number(key);
        if (read.state === "invalid") {
            return { state: "unusable" };
        }
        if (read.state === "unknown" || (read.state === "absent" && vs.facts.incomplete)) {
            unknown.push(`perfguard:${key}`); // absent, but an unknown entry of its markers may be it
        } else if (read.state === "ok") {
            any = true;
            demand[key] = read.value;
            where[key] = read.where;
        }
    }
    if (!any) {
        return vs.facts.incomplete || unknown.length > 0 ? { state: "unusable" } : { state: "none" };
    }
    const keyType = vs.facts.text("sslKeyType");
    if (keyType.state === "unknown" && demand.sslTps !== undefined) {
        unknown.push("perfguard:sslKeyType");
        demand.sslKeyType = "ecc";
        where.sslKeyType = "perfguard:sslKeyType unknown in this preview: counted as ECC, the cheaper handshake";
    } else {
        demand.sslKeyType = keyType.state === "ok" && keyType.value === "ecc" ? "ecc" : "rsa";
        where.sslKeyType = keyType.state === "ok" ? keyType.where
            : keyType.state === "invalid" ? "perfguard:sslKeyType invalid (perfguard-facts reports it): rsa, the conservative one"
                : "perfguard:sslKeyType not set: default rsa, the conservative one";
    }
    // The direction of the throughput: optional. Unknown or invalid is counted as all ingress (the
    // conservative case) and marked, so the evaluation also judges it as all egress.
    const ingress = vs.facts.number("ingressPct");
    let ingressPctUnread: "unknown" | "invalid" | undefined;
    if (ingress.state === "ok" && demand.throughputGbps !== undefined) {
        demand.ingressPct = ingress.value;
        where.ingressPct = ingress.where;
    } else if ((ingress.state === "unknown" || ingress.state === "invalid") && demand.throughputGbps !== undefined) {
        ingressPctUnread = ingress.state;
    }
    const profile = applicationProfileLayer(vs);
    if (profile) {
        demand.profile = profile.layer;
        where.profile = profile.where;
    }
    const ssl = vsSsl(vs);
    if (ssl.state === "ok") {
        demand.ssl = ssl.value;
        where.ssl = ssl.where;
    } else if (demand.throughputGbps !== undefined && demand.sslTps === undefined) {
        if (ssl.state === "invalid") {
            return { state: "unusable" }; // the throughput row (SSL or not) cannot be chosen
        }
        // The row depends on an SSL setting unknown in this preview: leave the throughput out.
        unknown.push("perfguard:throughputGbps (its row depends on the SSL setting)");
        delete demand.throughputGbps;
        delete where.throughputGbps;
        if (!DEMAND_KEYS.some((k) => demand[k] !== undefined)) {
            return { state: "unusable" };
        }
    }
    // An applicationProfileRef unknown in this preview picks the throughput row of a VS whose SSL
    // and RPS do not: marked, so the evaluation judges it on the L4 and on the L7 row.
    const profileRef = field(vs.props, "applicationProfileRef");
    const profileUnread = (profileRef === UNKNOWN || isUnknown(profileRef)) && demand.throughputGbps !== undefined && demand.ssl !== true && demand.sslTps === undefined && demand.l7Rps === undefined;
    const unread = {
        ...(ingressPctUnread && demand.throughputGbps !== undefined ? { ingressPctUnread } : {}),
        ...(profileUnread ? { profileUnread: true as const } : {}),
    };
    if (unknown.length > 0) {
        return { state: "unusable", known: { demand, where, unknown, ...unread } };
    }
    return { state: "ok", demand, where, ...unread };
}

/** The layer of the well-known System application profiles (others are not known without the Controller). */
const PROFILE_LAYERS: Readonly<Record<string, "l4" | "l7">> = {
    "system-l4-application": "l4",
    "system-ssl-application": "l4",
    "system-http": "l7",
    "system-secure-http": "l7",
    "system-http-vdi": "l7",
    "system-secure-http-vdi": "l7",
};

/** The VS's application profile layer when its `applicationProfileRef` names a System profile. */
function applicationProfileLayer(vs: ResourceView): { layer: "l4" | "l7"; where: string } | undefined {
    const ref = field(vs.props, "applicationProfileRef");
    if (typeof ref !== "string" || isUnknown(ref)) {
        return undefined;
    }
    const parsed = parseAviRef(ref, "applicationprofile");
    const name = parsed?.name;
    const layer = name ? PROFILE_LAYERS[foldName(name)] : undefined;
    return layer && name ? { layer, where: `applicationProfileRef ${name}` } : undefined;
}

/**
 * The SE group name a literal reference names (`/api/serviceenginegroup/?name=NAME`, also after a
 * controller URL and among other query parameters, URL-decoded).
 * @returns the name, or undefined for other references (a UUID ref, another object type).
 */
export function seGroupNameOfRef(ref: string): string | undefined {
    const parsed = parseAviRef(ref, "serviceenginegroup");
    return parsed?.by === "name" ? parsed.name : undefined;
}

/** A text prop as known, "unknown" in a preview, or undefined when absent or not a text. */
function textProp(props: unknown, key: string): string | undefined {
    const value = field(props, key);
    if (value === UNKNOWN || isUnknown(value)) {
        return "unknown";
    }
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The name a ref to a cloud or tenant gives (or its uuid), "unknown", or undefined when not set. */
function refKey(props: unknown, key: string, objectType: string): string | undefined {
    const text = textProp(props, key);
    if (text === undefined || text === "unknown") {
        return text;
    }
    const parsed = parseAviRef(text, objectType);
    return parsed === undefined ? "unknown" : parsed.by === "name" ? foldName(parsed.name) : `uuid:${parsed.uuid}`;
}

/** A group with what a join compares: folded name, uuid, cloud and tenant ("unknown" when not known). */
interface IndexedGroup {
    readonly group: SeGroupView;
    /** Folded name; null when unknown in this preview, undefined for a config entry keyed by uuid. */
    readonly name: string | null | undefined;
    readonly uuid: string | undefined;
    readonly cloud: string | undefined;
    readonly tenant: string | undefined;
    /** The Avi Controller of its provider (`aviController`), folded; undefined when not known. */
    readonly controller?: string;
}

const SEG = "serviceenginegroup";

/**
 * The Controller a resource's provider names (`aviController`, folded), when the engine sent the
 * provider and the endpoint is a literal: an SE group's name is unique per Controller only.
 */
export function controllerOf(resource: ResourceView): string | undefined {
    const endpoint = resource.provider ? field(resource.provider.props, "aviController") : undefined;
    return typeof endpoint === "string" && endpoint.trim() !== "" && !isUnknown(endpoint) ? foldName(endpoint) : undefined;
}

/** Every SE group of the stack and the config, indexed for joins; no first-wins anywhere. */
class GroupIndex {
    readonly groups: SeGroupView[] = [];
    // O(1) lookups per VS (a stack policy must stay O(n) per stack).
    private readonly urns = new Map<string, SeGroupView>();
    private readonly names = new Map<string, IndexedGroup[]>();
    private readonly uuids = new Map<string, IndexedGroup[]>();
    private unknownName = false;

    private index(g: IndexedGroup): void {
        if (g.group.resource) {
            this.urns.set(g.group.resource.urn, g.group);
            // A renamed group (aliases): what still names it by its old URN finds it.
            for (const urn of g.group.resource.aliases) {
                if (!this.urns.has(urn)) {
                    this.urns.set(urn, g.group);
                }
            }
        }
        if (g.name === null) {
            this.unknownName = true;
        } else if (g.name !== undefined) {
            push(this.names, g.name, g);
        }
        if (g.uuid !== undefined) {
            push(this.uuids, g.uuid, g);
        }
    }

    constructor(stack: StackView, configGroups: Readonly<Record<string, unknown>>) {
        const declared = [...stack.ofType(SE_GROUP_TYPE)].sort((a, b) => compare(a.urn, b.urn));
        for (const resource of declared) {
            const name = textProp(resource.props, "name");
            const uuid = textProp(resource.props, "uuid");
            // Another stack's group (the inventory) is named with its stack: two stacks may declare the same name.
            const label = resource.origin ? `${resource.label} (stack ${resource.origin.project}/${resource.origin.stack})` : resource.label;
            const group: SeGroupView = { resource, name: name === undefined || name === "unknown" ? resource.name : name, label, fields: readSeGroupFieldsOf(resource) };
            this.groups.push(group);
            // Without a `name` input the Avi name is the Pulumi name, and a renamed group's old
            // names (its aliases) are what existing references still say.
            for (const old of name === undefined ? resource.aliasNames.filter((n) => foldName(n) !== foldName(resource.name)) : []) {
                this.index({ group, name: foldName(old), uuid: undefined, cloud: refKey(resource.props, "cloudRef", "cloud"), tenant: refKey(resource.props, "tenantRef", "tenant") });
            }
            this.index({
                controller: controllerOf(resource),
                group, name: name === "unknown" ? null : foldName(group.name),
                uuid: uuid !== undefined && uuid !== "unknown" ? canonicalUuid(uuid, SEG) : undefined,
                cloud: refKey(resource.props, "cloudRef", "cloud"), tenant: refKey(resource.props, "tenantRef", "tenant"),
            });
        }
        for (const key of Object.keys(configGroups).sort(compare)) {
            const entry = configGroups[key];
            const byUuid = looksLikeUuid(key, SEG);
            const group: SeGroupView = {
                resource: undefined, name: key, label: `SE group "${key}" (policy config seGroups)`,
                fields: readSeGroupFields(isRecord(entry) ? entry : {}, (f) => `policy config seGroups.${key}.${f}`),
            };
            this.groups.push(group);
            this.index({ group, name: byUuid ? undefined : foldName(key), uuid: byUuid ? canonicalUuid(key, SEG) : undefined, cloud: undefined, tenant: undefined });
        }
    }

    byUrn(urn: string): SeGroupView | undefined {
        return this.urns.get(urn);
    }

    /** Groups a uuid names (stack groups' `uuid`, config keys that are uuids). */
    byUuid(uuid: string): IndexedGroup[] {
        return this.uuids.get(uuid) ?? [];
    }

    /**
     * Groups a name names, filtered by cloud and tenant where both sides are known; a stack
     * declaration wins over a config entry of the same name. `unknownNames` tells whether a stack
     * group whose name is unknown in this preview could also be it.
     */
    byName(name: string, cloud: string | undefined, tenant: string | undefined, controller?: string): { found: IndexedGroup[]; unknownNames: boolean } {
        const folded = foldName(name);
        const matches = (want: string | undefined, have: string | undefined) =>
            want === undefined || have === undefined || have === "unknown" || have === want;
        const named = (this.names.get(folded) ?? []).filter((g) => matches(cloud, g.cloud) && matches(tenant, g.tenant) && matches(controller, g.controller));
        const declared = named.filter((g) => g.group.resource);
        return { found: declared.length > 0 ? declared : named, unknownNames: this.unknownName };
    }
}

function compare(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

type Resolution = { readonly group: SeGroupView; readonly via: string } | { readonly unresolved: Unresolved };

const DECLARE = "declare perfguard:seGroup=<SE group name or uuid> on the virtual service, or describe the group in policy config seGroups (keyed by name or uuid)";

/**
 * A ref to a group this stack does not declare: without an inventory, another stack's group
 * whose load is unknown (judging this stack's VSs alone would be a silent pass); with one, a
 * group no stack of the inventory declares either.
 */
function notOwned(what: string): Unresolved {
    return currentInventory()
        ? { reason: `${what} not in this stack, the inventory or config seGroups`, remedy: `add the stack that declares it to ${INVENTORY_ENV}, or ${DECLARE}` }
        : { reason: `${what} this stack does not declare: other stacks' load on it is unknown`, remedy: `set ${INVENTORY_ENV} to the stacks' state (docs/shared-capacity.md), or ${DECLARE}` };
}

function ambiguous(what: string, found: readonly IndexedGroup[]): Resolution {
    const names = found.map((g) => g.group.label).sort(compare).slice(0, 3).join(", ");
    return { unresolved: { reason: `${what} matches ${found.length} SE groups (${names}) that the join cannot tell apart`, remedy: "name the cloud and tenant in the ref (?name=...&cloud=...&tenant=...), or declare perfguard:seGroup=<uuid> on the virtual service", candidates: found.map((g) => g.group) } };
}

/** Resolves a parsed ref (or a fact's text) to exactly one group, or says why not. */
function resolveRef(index: GroupIndex, ref: AviRef, what: string, vsCloud: string | undefined, vsTenant: string | undefined, vsController?: string): Resolution {
    if (ref.by === "uuid") {
        const found = index.byUuid(ref.uuid);
        if (found.length === 1) {
            return { group: found[0].group, via: what };
        }
        if (found.length > 1) {
            return ambiguous(what, found);
        }
        if (ref.name === undefined) {
            return { unresolved: notOwned(`${what} names an SE group by uuid`) };
        }
        return resolveRef(index, { by: "name", name: ref.name }, what, vsCloud, vsTenant, vsController);
    }
    const { found, unknownNames } = index.byName(ref.name, ref.cloud !== undefined ? foldName(ref.cloud) : vsCloud, ref.tenant !== undefined ? foldName(ref.tenant) : vsTenant, vsController);
    if (found.length === 1) {
        return { group: found[0].group, via: what };
    }
    if (found.length > 1) {
        return ambiguous(what, found);
    }
    return {
        unresolved: {
            ...(unknownNames ? {
                reason: `${what} names an SE group not found, and an SE group's name is unknown in this preview`,
                remedy: "known after apply: run `pulumi policy analyze` after the update, or " + DECLARE,
            } : notOwned(`${what} names an SE group`)),
        },
    };
}

/** Reads a `perfguard:seGroup` fact: a name, a uuid or a ref. */
function factRef(text: string): AviRef {
    return parseAviRef(text, SEG) ?? (looksLikeUuid(text, SEG) ? { by: "uuid", uuid: canonicalUuid(text, SEG) } : { by: "name", name: text });
}

/**
 * The VS's own SE group: the seGroupRef property dependency (the only join a preview allows),
 * else the ref itself in any of its forms, else (no ref) the Controller's Default-Group; a
 * perfguard:seGroup fact names it when the ref cannot, and must agree with it when both do.
 */
function ownGroup(stack: StackView, index: GroupIndex, vs: ResourceView): Resolution {
    const cloud = refKey(vs.props, "cloudRef", "cloud");
    const tenant = refKey(vs.props, "tenantRef", "tenant");
    const vsCloud = cloud === "unknown" || cloud?.startsWith("uuid:") ? undefined : cloud;
    const vsTenant = tenant === "unknown" || tenant?.startsWith("uuid:") ? undefined : tenant;
    // Another Controller's group of the same name is another group (stacks may share names).
    const vsController = controllerOf(vs);
    let fromRef: Resolution;
    const deps = stack.dependencyOf(vs, "seGroupRef", SE_GROUP_TYPE);
    const raw = field(vs.props, "seGroupRef");
    if (deps.length === 1) {
        const group = index.byUrn(deps[0].urn);
        fromRef = group ? { group, via: "seGroupRef property dependency" } : { unresolved: { reason: "seGroupRef depends on an SE group perfguard cannot read", remedy: DECLARE } };
    } else if (deps.length > 1) {
        fromRef = { unresolved: { reason: "seGroupRef depends on several SE groups", remedy: DECLARE } };
    } else if (raw === UNKNOWN || isUnknown(raw)) {
        // Optional + Computed in the provider: unset in the program is unknown in a preview too.
        fromRef = { unresolved: { reason: "seGroupRef is unknown in this preview (the provider computes it when unset)", remedy: "set seGroupRef to /api/serviceenginegroup/?name=<name>, or " + DECLARE } };
    } else if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) {
        fromRef = resolveRef(index, { by: "name", name: DEFAULT_SE_GROUP }, `no seGroupRef (the Controller's ${DEFAULT_SE_GROUP})`, vsCloud, vsTenant, vsController);
    } else {
        const parsed = typeof raw === "string" ? parseAviRef(raw, SEG) : undefined;
        fromRef = parsed ? resolveRef(index, parsed, "seGroupRef", vsCloud, vsTenant, vsController)
            : { unresolved: { reason: "seGroupRef is not a serviceenginegroup reference perfguard can read", remedy: DECLARE } };
    }
    const fact = vs.facts.text("seGroup");
    if (fact.state === "absent") {
        return fromRef;
    }
    if (fact.state === "unknown" || fact.state === "invalid") {
        return { unresolved: { reason: `perfguard:seGroup is ${fact.state === "unknown" ? "unknown in this preview" : "invalid (perfguard-facts reports it)"}`, remedy: "declare perfguard:seGroup as a literal SE group name or uuid" } };
    }
    const fromFact = resolveRef(index, factRef(fact.value), fact.where, vsCloud, vsTenant, vsController);
    if ("group" in fromRef && "group" in fromFact && fromRef.group !== fromFact.group) {
        return { unresolved: { reason: `${fact.where} names ${fromFact.group.label} but seGroupRef names ${fromRef.group.label}`, remedy: "make perfguard:seGroup name the SE group seGroupRef points to, or remove it" } };
    }
    return "group" in fromRef ? fromRef : fromFact;
}

/** The parent of an SNI child VS (vhParentVsRef: property dependency, then ref by name or uuid). */
function parentOf(stack: StackView, vs: ResourceView, byName: Map<string, ResourceView[]>, byUuid: Map<string, ResourceView[]>): ResourceView | Unresolved {
    const deps = stack.dependencyOf(vs, "vhParentVsRef", VS_TYPE);
    if (deps.length === 1) {
        return deps[0];
    }
    const remedy = "declare perfguard:seGroup=<the parent's SE group> on the SNI child, or set vhParentVsRef to /api/virtualservice/?name=<parent>";
    if (deps.length > 1) {
        return { reason: "vhParentVsRef depends on several virtual services", remedy };
    }
    const raw = field(vs.props, "vhParentVsRef");
    if (raw === UNKNOWN || isUnknown(raw)) {
        return { reason: "vhParentVsRef is unknown in this preview", remedy };
    }
    const parsed = typeof raw === "string" ? parseAviRef(raw, "virtualservice") : undefined;
    if (!parsed) {
        return { reason: raw === undefined || raw === null ? "an SNI child (type VS_TYPE_VH_CHILD) without vhParentVsRef" : "vhParentVsRef is not a virtualservice reference perfguard can read", remedy };
    }
    const found = parsed.by === "uuid" ? byUuid.get(parsed.uuid) ?? (parsed.name ? byName.get(foldName(parsed.name)) : undefined) : byName.get(foldName(parsed.name));
    if (!found || found.length === 0) {
        return { reason: "vhParentVsRef names a virtual service that is not in this stack", remedy };
    }
    return found.length === 1 ? found[0] : { reason: `vhParentVsRef matches ${found.length} virtual services the join cannot tell apart`, remedy };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
    const list = map.get(key);
    if (list) {
        list.push(value);
    } else {
        map.set(key, [value]);
    }
}

/**
 * Builds the NSX ALB view of a stack in one pass (O(resources), plus sorting): groups, and each
 * VS joined to its group, or with the reason it cannot be. Verdicts built on it do not depend on
 * the order the engine sends resources in (everything is sorted by URN or key; no first-wins).
 * @param stack - all resources (AnalyzeStack outputs, with property dependencies).
 * @param configGroups - policy config `seGroups`: name or uuid -> SE group fields.
 * @returns groups and placements; never throws on odd props.
 */
export function aviStack(stack: StackView, configGroups: Readonly<Record<string, unknown>> = {}): AviStack {
    const index = new GroupIndex(stack, configGroups);
    const vss = [...stack.ofType(VS_TYPE)].sort((a, b) => compare(a.urn, b.urn));
    const byName = new Map<string, ResourceView[]>();
    const byUuid = new Map<string, ResourceView[]>();
    for (const vs of vss) {
        const name = textProp(vs.props, "name");
        push(byName, foldName(name === undefined || name === "unknown" ? vs.name : name), vs);
        const uuid = textProp(vs.props, "uuid");
        if (uuid !== undefined && uuid !== "unknown") {
            push(byUuid, canonicalUuid(uuid, "virtualservice"), vs);
        }
    }
    const own = new Map<ResourceView, Resolution>(vss.map((vs) => [vs, ownGroup(stack, index, vs)]));
    const placements: VsPlacement[] = vss.map((vs) => withEcmp(vs, placementOf(vs)));
    return { groups: index.groups, placements };

    function placementOf(vs: ResourceView): VsPlacement {
        // The key type of the certificates it names, read from the stack before any fact (certificates.ts).
        const demand = withCertificateKey(stack, vs, readVsDemand(vs));
        const type = field(vs.props, "type");
        if (type === UNKNOWN || isUnknown(type)) {
            return { vs, group: undefined, demand, unresolved: { reason: "type is unknown in this preview (an SNI child runs on its parent's SE group)", remedy: "set type literally, or declare perfguard:seGroup=<name> on the virtual service" } };
        }
        if (type !== "VS_TYPE_VH_CHILD") {
            const r = own.get(vs) as Resolution;
            return "group" in r ? { vs, group: r.group, via: r.via, demand } : { vs, group: undefined, demand, unresolved: r.unresolved };
        }
        // An SNI child runs on its parent's SEs: its own seGroupRef is not what places it.
        const parent = parentOf(stack, vs, byName, byUuid);
        const fact = vs.facts.text("seGroup");
        if (!(parent instanceof ResourceViewClass)) {
            const r = fact.state === "ok" ? own.get(vs) as Resolution : undefined;
            return r && "group" in r ? { vs, group: r.group, via: r.via, demand } : { vs, group: undefined, demand, unresolved: r && "unresolved" in r ? r.unresolved : parent };
        }
        const parentType = field(parent.props, "type");
        const r = own.get(parent);
        if (parentType === "VS_TYPE_VH_CHILD" || !r) {
            return { vs, group: undefined, demand, parent, unresolved: { reason: "vhParentVsRef names another SNI child", remedy: "point vhParentVsRef at the SNI parent (type VS_TYPE_VH_PARENT)" } };
        }
        return "group" in r
            ? { vs, group: r.group, via: `its SNI parent ${parent.label} (${r.via})`, parent, demand }
            : { vs, group: undefined, demand, parent, unresolved: { reason: `its SNI parent's SE group is not known: ${r.unresolved.reason}`, remedy: r.unresolved.remedy } };
    }
}

/** The placement with the VS's own scaleoutEcmp (set only when true; marked when unknown or not a Go boolean). */
function withEcmp(vs: ResourceView, placement: VsPlacement): VsPlacement {
    const raw = field(vs.props, "scaleoutEcmp");
    if (raw === UNKNOWN || isUnknown(raw)) {
        return { ...placement, scaleoutEcmpUnread: "unknown" };
    }
    if (raw === undefined || raw === null) {
        return placement;
    }
    const on = parseGoBool(raw);
    return on === true ? { ...placement, scaleoutEcmp: true } : on === undefined ? { ...placement, scaleoutEcmpUnread: "invalid" } : placement;
}
