/**
 * The SE group fields as the Avi Terraform provider parses them (numbers and booleans are
 * strings: Go strconv): the field table with its ranges and defaults, each field read with where
 * it came from, the problems perfguard-facts reports, and the sizing capacity needs. Importing
 * this module registers the SE group's typed-field reader perfguard-facts uses.
 */
import { DEFAULT_ALGO, DEFAULT_MAX_VS_PER_SE, HA_MODES, HaMode, PLACEMENT_ALGOS, PlacementAlgo, PROVIDER_RANGES, SeGroupSpec } from "../../model/seCapacity";
import { SE_VCPU_MAX, SE_VCPU_MIN } from "../../model/seTable";
import type { ResourceView } from "../pack/resources";
import { registerTypedFields, TypedFieldProblem } from "../pack/typedFields";
import { describeValue, field, isUnknown, parseGoBool, parseGoInt, UNKNOWN } from "../pack/values";

export const SE_GROUP_TYPE = "avi:index/serviceenginegroup:Serviceenginegroup";
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
    memoryPerSe: {
        kind: "int",
        min: PROVIDER_RANGES.memoryPerSeMb.min,
        max: PROVIDER_RANGES.memoryPerSeMb.max,
        default: 2048,
        range: "MB; the provider allows 2048-262144",
    },
    diskPerSe: { kind: "int", min: 1, max: BIG, default: 15, range: "GB" },
    maxSe: { kind: "int", min: PROVIDER_RANGES.maxSe.min, max: PROVIDER_RANGES.maxSe.max, default: 10, range: "the provider allows 0-1000" },
    minScaleoutPerVs: {
        kind: "int",
        min: PROVIDER_RANGES.scaleoutPerVs.min,
        max: PROVIDER_RANGES.scaleoutPerVs.max,
        default: 1,
        range: "the provider allows 1-64",
    },
    maxScaleoutPerVs: {
        kind: "int",
        min: PROVIDER_RANGES.scaleoutPerVs.min,
        max: PROVIDER_RANGES.scaleoutPerVs.max,
        default: 4,
        range: "the provider allows 1-64",
    },
    bufferSe: { kind: "int", min: 0, max: BIG, default: 1, range: "spare SEs" },
    haMode: { kind: "enum", values: HA_MODES, default: "HA_MODE_SHARED" },
    algo: { kind: "enum", values: PLACEMENT_ALGOS, default: DEFAULT_ALGO },
    maxVsPerSe: {
        kind: "int",
        min: PROVIDER_RANGES.maxVsPerSe.min,
        max: PROVIDER_RANGES.maxVsPerSe.max,
        default: DEFAULT_MAX_VS_PER_SE,
        range: "the provider allows 1-1000",
    },
    distributeLoadActiveStandby: { kind: "bool", default: false },
    dedicatedDispatcherCore: { kind: "bool", default: false, computed: true },
    // num_dispatcher_cores: Optional, Default "0" (resource_avi_serviceenginegroup.go, read 2026-12, commit
    // 0340762b); the docs: "Allowed values are 0,1,2,4,8,16", 0 = the number is deduced automatically.
    numDispatcherCores: {
        kind: "int",
        min: 0,
        max: 16,
        default: 0,
        allowed: [0, 1, 2, 4, 8, 16],
        range: "the provider documents 0, 1, 2, 4, 8 or 16; 0: the Controller deduces it",
    },
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

export const GO_BOOLS = "1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False";

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
    ["vcpusPerSe", "vcpusPerSe"],
    ["memoryPerSeMb", "memoryPerSe"],
    ["maxSe", "maxSe"],
    ["minScaleoutPerVs", "minScaleoutPerVs"],
    ["maxScaleoutPerVs", "maxScaleoutPerVs"],
    ["bufferSe", "bufferSe"],
    ["haMode", "haMode"],
    ["algo", "algo"],
    ["maxVsPerSe", "maxVsPerSe"],
    ["distributeLoadActiveStandby", "distributeLoadActiveStandby"],
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
        ...fields,
        diskPerSe: { state: "ok", value: 1, where: "" },
        dedicatedDispatcherCore: { state: "ok", value: false, where: "" },
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

registerTypedFields(SE_GROUP_TYPE, (resource) => seGroupFieldFindings(readSeGroupFieldsOf(resource)));
