/**
 * The NSX ALB room's settings: headroomPct, assumeScaleOut and seGroups. Each is declared once,
 * in nsx-alb-se-capacity's configSchema (its one home), and every default is that schema's: the
 * settings are built from it and never restated. nsx-alb-se-capacity-advisory reads them from
 * the home (policyConfigs.ts); a config that still sets one on the advisory (where an earlier
 * release declared a second copy) keeps working for the advisory, and `perfguard config check`
 * names the one home.
 */
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import { SE_GROUP_FIELD_NAMES } from "./seGroupFields";
import type { ConfigSchemaOf } from "../pack/definePolicy";
import { configOf } from "../pack/policyConfigs";
import type { StackView } from "../pack/resources";

/** The room's settings (nsx-alb-se-capacity's config). */
export interface SeCapacityConfig {
    /** Spare capacity to keep, percent: demand <= (1 - headroomPct/100) x capacity. */
    headroomPct: number;
    /** Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs. */
    assumeScaleOut: boolean;
    /** SE groups not declared in the stack: name or uuid -> SE group fields (strings or numbers). */
    seGroups: Record<string, Record<string, string | number | boolean>>;
}

/** The policy whose configSchema declares the room's settings. */
export const SETTINGS_HOME = "nsx-alb-se-capacity";
/** The policy that declared a second copy in an earlier release: still accepted there, for itself. */
export const SETTINGS_DEPRECATED_IN = "nsx-alb-se-capacity-advisory";

const FIELD_VALUE_SCHEMA: PolicyConfigJSONSchema = { type: ["string", "number", "boolean"] };
const SE_GROUPS_ENTRY: PolicyConfigJSONSchema = {
    type: "object",
    properties: Object.fromEntries(SE_GROUP_FIELD_NAMES.map((f) => [f, FIELD_VALUE_SCHEMA])),
    additionalProperties: false,
};

/** nsx-alb-se-capacity's config schema: the one declaration of the room's settings and their defaults. */
export const SE_CAPACITY_SCHEMA: ConfigSchemaOf<SeCapacityConfig> = {
    properties: {
        headroomPct: {
            type: "number",
            minimum: 0,
            maximum: 95,
            default: 20,
            description:
                "Spare capacity to keep, percent: demand <= (1 - headroomPct/100) x capacity (default 20). nsx-alb-se-capacity-advisory reads it here.",
        },
        assumeScaleOut: {
            type: "boolean",
            default: false,
            description:
                "Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs (default false: a gate should not count on a scale-out nobody triggered). nsx-alb-se-capacity-advisory reads it here.",
        },
        seGroups: {
            type: "object",
            default: {},
            additionalProperties: SE_GROUPS_ENTRY,
            description:
                "SE groups not declared in the stack (e.g. the controller's Default-Group), keyed by name or uuid: vcpusPerSe, memoryPerSe (MB), maxSe, minScaleoutPerVs, maxScaleoutPerVs, bufferSe, haMode, algo, maxVsPerSe, as strings or numbers; absent fields take the provider defaults. nsx-alb-se-capacity-advisory reads it here.",
        },
    },
};

/** The room's settings at their defaults, read from SE_CAPACITY_SCHEMA. */
export const SE_CAPACITY_DEFAULTS: Readonly<SeCapacityConfig> = Object.freeze({
    headroomPct: SE_CAPACITY_SCHEMA.properties.headroomPct.default as number,
    assumeScaleOut: SE_CAPACITY_SCHEMA.properties.assumeScaleOut.default as boolean,
    seGroups: SE_CAPACITY_SCHEMA.properties.seGroups.default as SeCapacityConfig["seGroups"],
});

/** A setting still set on the advisory: the copy for this policy only (null: not set, the home's value applies). */
export type DeprecatedCopies = { [K in keyof SeCapacityConfig]: SeCapacityConfig[K] | null };

const DEPRECATED =
    "Deprecated here: set it on nsx-alb-se-capacity, its one home (this policy reads it there). A value set here still applies to this policy alone, over the home's (default null: not set).";

/** nsx-alb-se-capacity-advisory's config schema: the room's settings as deprecated copies, unset by default. */
export const ADVISORY_SCHEMA: ConfigSchemaOf<DeprecatedCopies> = {
    properties: {
        headroomPct: { type: ["number", "null"], minimum: 0, maximum: 95, default: null, description: `headroomPct. ${DEPRECATED}` },
        assumeScaleOut: { type: ["boolean", "null"], default: null, description: `assumeScaleOut. ${DEPRECATED}` },
        seGroups: { type: ["object", "null"], default: null, additionalProperties: SE_GROUPS_ENTRY, description: `seGroups. ${DEPRECATED}` },
    },
};

/** Settings a config may still set on a policy that is not their home (for `perfguard config check`). */
export const MOVED_SETTINGS: readonly { readonly policy: string; readonly key: string; readonly home: string; readonly note: string }[] = (
    Object.keys(SE_CAPACITY_SCHEMA.properties) as Array<keyof SeCapacityConfig>
).map((key) => ({
    policy: SETTINGS_DEPRECATED_IN,
    key,
    home: SETTINGS_HOME,
    note: `${key} is deprecated here: its one home is ${SETTINGS_HOME} (set it there; this copy still applies, to ${SETTINGS_DEPRECATED_IN} alone)`,
}));

function isObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The settings with the schema's defaults filled in for what `props` does not set (a config
 * validated by the pack or reconciled by the CLI has them all; a partial one from a caller may not).
 */
export function seCapacityConfigOf(props: Readonly<Record<string, unknown>> | undefined): SeCapacityConfig {
    const p = props ?? {};
    return {
        headroomPct: typeof p.headroomPct === "number" && Number.isFinite(p.headroomPct) ? p.headroomPct : SE_CAPACITY_DEFAULTS.headroomPct,
        assumeScaleOut: typeof p.assumeScaleOut === "boolean" ? p.assumeScaleOut : SE_CAPACITY_DEFAULTS.assumeScaleOut,
        seGroups: isObject(p.seGroups) ? (p.seGroups as SeCapacityConfig["seGroups"]) : SE_CAPACITY_DEFAULTS.seGroups,
    };
}

/**
 * The settings nsx-alb-se-capacity-advisory judges with: a deprecated copy set in its own config,
 * else the home's value on this stack (when the home has run here: it runs first), else the
 * schema's default.
 */
export function advisorySettings(stack: StackView, own: Readonly<Partial<DeprecatedCopies>>): SeCapacityConfig {
    const home = seCapacityConfigOf(configOf(stack, SETTINGS_HOME));
    return seCapacityConfigOf({
        headroomPct: own.headroomPct ?? home.headroomPct,
        assumeScaleOut: own.assumeScaleOut ?? home.assumeScaleOut,
        seGroups: own.seGroups ?? home.seGroups,
    });
}
