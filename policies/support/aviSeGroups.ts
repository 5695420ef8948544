/**
 * NSX ALB (Avi) as a stack declares it: SE groups with their sizing fields parsed like the
 * Terraform provider does (numbers and booleans are strings: Go strconv), SE groups described in
 * policy config (the controller's Default-Group, say), and each virtual service (VS) joined to
 * its SE group. Importing this module registers the typed-field readers perfguard-facts uses.
 */
import { HA_MODES, HaMode, SE_VCPU_MAX, SE_VCPU_MIN, SeGroupSpec, VsDemand } from "../../model/seCapacity";
import type { ResourceView, StackView } from "./resources";
import { registerTypedFields } from "./typedFields";
import { describeValue, field, isRecord, isUnknown, parseGoBool, parseGoInt, UNKNOWN } from "./values";

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
}
interface EnumDef {
    readonly kind: "enum";
    readonly values: readonly string[];
    readonly default: string;
}
interface BoolDef {
    readonly kind: "bool";
    readonly default: boolean;
}
type FieldDef = IntDef | EnumDef | BoolDef;

// Defaults: the vmware/avi Terraform provider (nsx-alb-se-20.1.6.json otherPublishedFacts).
const BIG = Number.MAX_SAFE_INTEGER;
export const SE_GROUP_FIELDS = {
    vcpusPerSe: { kind: "int", min: SE_VCPU_MIN, max: SE_VCPU_MAX, default: 1, range: "the published SE size range" },
    memoryPerSe: { kind: "int", min: 1, max: 256 * 1024, default: 2048, range: "MB; the published SE size range ends at 256 GB" },
    diskPerSe: { kind: "int", min: 1, max: BIG, default: 15, range: "GB" },
    maxSe: { kind: "int", min: 1, max: BIG, default: 10, range: "a group needs an SE" },
    minScaleoutPerVs: { kind: "int", min: 1, max: BIG, default: 1, range: "a VS runs on at least one SE" },
    maxScaleoutPerVs: { kind: "int", min: 1, max: BIG, default: 4, range: "a VS runs on at least one SE" },
    bufferSe: { kind: "int", min: 0, max: BIG, default: 1, range: "spare SEs" },
    haMode: { kind: "enum", values: HA_MODES, default: "HA_MODE_SHARED" },
    dedicatedDispatcherCore: { kind: "bool", default: false },
} as const satisfies Record<string, FieldDef>;

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
    readonly dedicatedDispatcherCore: FieldRead<boolean>;
}

/** The `where` of a field that is not set. */
export const DEFAULT_WHERE = "not set: provider default";

/**
 * How a message shows a field read: `vcpusPerSe 4`, `maxSe 10 (not set: provider default)`,
 * `vcpusPerSe 4 (policy config seGroups.Default-Group.vcpusPerSe)`, `memoryPerSe 4096 MB` (with `unit`).
 */
export function fieldText(name: string, value: number | string | boolean, where: string, unit = ""): string {
    const shown = `${name} ${String(value)}${unit ? ` ${unit}` : ""}`;
    return where === name ? shown : `${shown} (${where})`;
}

const GO_BOOLS = "1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False";

function readField(name: SeGroupField, raw: unknown, where: string): FieldRead<number | string | boolean> {
    const def: FieldDef = SE_GROUP_FIELDS[name];
    if (raw === UNKNOWN || isUnknown(raw)) {
        return { state: "unknown", where };
    }
    if (raw === undefined || raw === null) {
        return { state: "ok", value: def.default, where: DEFAULT_WHERE };
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
 * Reads an SE group's sizing fields.
 * @param props - the group's props (a resource's inputs/outputs, or a policy-config entry).
 * @param whereOf - how messages name a set field, e.g. `vcpusPerSe` or a config path.
 * @returns every field with its value and origin; absent fields take the provider defaults.
 */
export function readSeGroupFields(props: unknown, whereOf: (name: SeGroupField) => string = (n) => n): SeGroupFields {
    const read = (name: SeGroupField) => readField(name, field(props, name), whereOf(name));
    return {
        vcpusPerSe: read("vcpusPerSe") as FieldRead<number>,
        memoryPerSe: read("memoryPerSe") as FieldRead<number>,
        diskPerSe: read("diskPerSe") as FieldRead<number>,
        maxSe: read("maxSe") as FieldRead<number>,
        minScaleoutPerVs: read("minScaleoutPerVs") as FieldRead<number>,
        maxScaleoutPerVs: read("maxScaleoutPerVs") as FieldRead<number>,
        bufferSe: read("bufferSe") as FieldRead<number>,
        haMode: read("haMode") as FieldRead<HaMode>,
        dedicatedDispatcherCore: read("dedicatedDispatcherCore") as FieldRead<boolean>,
    };
}

/**
 * The fields' problems, for perfguard-facts and config errors.
 * @param fields - as readSeGroupFields returns them.
 * @returns one sentence per invalid value (Go strconv parse error, out of range, unknown
 *   haMode) and for maxScaleoutPerVs below minScaleoutPerVs; empty when all are usable.
 */
export function seGroupFieldProblems(fields: SeGroupFields): string[] {
    const problems: string[] = [];
    for (const name of SE_GROUP_FIELD_NAMES) {
        const read = fields[name];
        if (read.state === "invalid") {
            problems.push(read.problem);
        }
    }
    const { minScaleoutPerVs: min, maxScaleoutPerVs: max } = fields;
    if (min.state === "ok" && max.state === "ok" && max.value < min.value) {
        problems.push(`${fieldText("maxScaleoutPerVs", max.value, max.where)} is below ${fieldText("minScaleoutPerVs", min.value, min.where)}`);
    }
    return problems;
}

/** The SE group as capacity needs it, with where each number came from. */
export interface SeGroupSizing {
    readonly spec: SeGroupSpec;
    readonly where: Readonly<Record<keyof SeGroupSpec, string>>;
}

/**
 * The fields capacity needs (all but diskPerSe and dedicatedDispatcherCore), when every one is
 * known and valid; undefined otherwise (unknown in preview, or reported by perfguard-facts).
 */
export function seGroupSizing(fields: SeGroupFields): SeGroupSizing | undefined {
    const f = fields;
    if (seGroupFieldProblems(f).length > 0) {
        return undefined;
    }
    if (f.vcpusPerSe.state !== "ok" || f.memoryPerSe.state !== "ok" || f.maxSe.state !== "ok" || f.minScaleoutPerVs.state !== "ok" ||
        f.maxScaleoutPerVs.state !== "ok" || f.bufferSe.state !== "ok" || f.haMode.state !== "ok") {
        return undefined;
    }
    return {
        spec: {
            vcpusPerSe: f.vcpusPerSe.value,
            memoryPerSeMb: f.memoryPerSe.value,
            maxSe: f.maxSe.value,
            minScaleoutPerVs: f.minScaleoutPerVs.value,
            maxScaleoutPerVs: f.maxScaleoutPerVs.value,
            bufferSe: f.bufferSe.value,
            haMode: f.haMode.value,
        },
        where: {
            vcpusPerSe: f.vcpusPerSe.where,
            memoryPerSeMb: f.memoryPerSe.where,
            maxSe: f.maxSe.where,
            minScaleoutPerVs: f.minScaleoutPerVs.where,
            maxScaleoutPerVs: f.maxScaleoutPerVs.where,
            bufferSe: f.bufferSe.where,
            haMode: f.haMode.where,
        },
    };
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

registerTypedFields(SE_GROUP_TYPE, (resource) => seGroupFieldProblems(readSeGroupFields(resource.props)));
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
    | { readonly state: "ok"; readonly demand: VsDemand; readonly where: Readonly<Partial<Record<keyof VsDemand, string>>> };

/** A VS and the SE group it is placed on (undefined when that cannot be known or is not described). */
export interface VsPlacement {
    readonly vs: ResourceView;
    readonly group: SeGroupView | undefined;
    readonly demand: VsDemandRead;
}

/** The NSX ALB objects of a stack. */
export interface AviStack {
    /** Groups declared in the stack, then groups described in config, in that order. */
    readonly groups: readonly SeGroupView[];
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
        if (read.state === "unknown") {
            unknown.push(`perfguard:${key}`);
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
    if (unknown.length > 0) {
        return { state: "unusable", known: { demand, where, unknown } };
    }
    return { state: "ok", demand, where };
}

/**
 * The SE group name a literal reference names: `/api/serviceenginegroup?name=NAME` or
 * `/api/serviceenginegroup/?name=NAME`, optionally after a controller URL and among other query
 * parameters (URL-decoded).
 * @returns the name, or undefined for other references (a UUID ref, another object type).
 */
export function seGroupNameOfRef(ref: string): string | undefined {
    const match = /\/api\/serviceenginegroup\/?\?(?:[^#]*&)?name=([^&#]*)/.exec(ref);
    if (!match) {
        return undefined;
    }
    try {
        return decodeURIComponent(match[1].replace(/\+/g, " ")) || undefined;
    } catch {
        return undefined;
    }
}

function nameOf(resource: ResourceView): string {
    const name = field(resource.props, "name");
    return typeof name === "string" && !isUnknown(name) && name.trim() ? name.trim() : resource.name;
}

/**
 * Builds the NSX ALB view of a stack in one pass.
 * @param stack - all resources (AnalyzeStack outputs, with property dependencies).
 * @param configGroups - policy config `seGroups`: name -> SE group fields (strings or numbers).
 * @returns groups and each VS's placement and demand; never throws on odd props.
 */
export function aviStack(stack: StackView, configGroups: Readonly<Record<string, unknown>> = {}): AviStack {
    const groups: SeGroupView[] = [];
    const byName = new Map<string, SeGroupView>();
    const byUrn = new Map<string, SeGroupView>();
    for (const resource of stack.ofType(SE_GROUP_TYPE)) {
        const group: SeGroupView = { resource, name: nameOf(resource), label: resource.label, fields: readSeGroupFields(resource.props) };
        groups.push(group);
        byUrn.set(resource.urn, group);
        if (!byName.has(group.name)) {
            byName.set(group.name, group);
        }
    }
    for (const [name, entry] of Object.entries(configGroups)) {
        if (byName.has(name)) {
            continue; // the stack's own declaration wins
        }
        const group: SeGroupView = {
            resource: undefined,
            name,
            label: `SE group "${name}" (policy config seGroups)`,
            fields: readSeGroupFields(isRecord(entry) ? entry : {}, (f) => `policy config seGroups.${name}.${f}`),
        };
        groups.push(group);
        byName.set(name, group);
    }
    const placements: VsPlacement[] = [];
    for (const vs of stack.ofType(VS_TYPE)) {
        placements.push({ vs, group: placementOf(stack, vs, byName, byUrn), demand: readVsDemand(vs) });
    }
    return { groups, placements };
}

function placementOf(stack: StackView, vs: ResourceView, byName: Map<string, SeGroupView>, byUrn: Map<string, SeGroupView>): SeGroupView | undefined {
    // In a preview the reference is unknown: the engine's property dependency is the join.
    const deps = stack.dependencyOf(vs, "seGroupRef", SE_GROUP_TYPE);
    if (deps.length === 1) {
        return byUrn.get(deps[0].urn);
    }
    if (deps.length > 1) {
        return undefined;
    }
    const ref = field(vs.props, "seGroupRef");
    if (ref === UNKNOWN) {
        return undefined;
    }
    if (ref === undefined || ref === null || (typeof ref === "string" && ref.trim() === "")) {
        return byName.get(DEFAULT_SE_GROUP);
    }
    const name = typeof ref === "string" ? seGroupNameOfRef(ref) : undefined;
    return name === undefined ? undefined : byName.get(name);
}
