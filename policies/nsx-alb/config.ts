/**
 * The NSX ALB room's settings: headroomPct, assumeScaleOut and seGroups, declared once in
 * nsx-alb-se-capacity's configSchema; every default is the schema's.
 */
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import { SE_GROUP_FIELD_NAMES } from "./seGroupFields";
import type { ConfigSchemaOf } from "../pack/definePolicy";

/** Config of both NSX ALB capacity policies (a stack policy sees only its own config). */
export interface SeCapacityConfig {
    /** Spare capacity to keep, percent: demand <= (1 - headroomPct/100) x capacity. */
    headroomPct: number;
    /** Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs. */
    assumeScaleOut: boolean;
    /** SE groups not declared in the stack: name or uuid -> SE group fields (strings or numbers). */
    seGroups: Record<string, Record<string, string | number | boolean>>;
}

const FIELD_VALUE_SCHEMA: PolicyConfigJSONSchema = { type: ["string", "number", "boolean"] };

/** The config schema both policies publish. */
export const SE_CAPACITY_SCHEMA: ConfigSchemaOf<SeCapacityConfig> = {
    properties: {
        headroomPct: {
            type: "number", minimum: 0, maximum: 95, default: 20,
            description: "Spare capacity to keep, percent: demand <= (1 - headroomPct/100) x capacity (default 20).",
        },
        assumeScaleOut: {
            type: "boolean", default: false,
            description: "Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs (default false: a gate should not count on a scale-out nobody triggered).",
        },
        seGroups: {
            type: "object", default: {},
            additionalProperties: { type: "object", properties: Object.fromEntries(SE_GROUP_FIELD_NAMES.map((f) => [f, FIELD_VALUE_SCHEMA])), additionalProperties: false },
            description: "SE groups not declared in the stack (e.g. the controller's Default-Group), keyed by name or uuid: vcpusPerSe, memoryPerSe (MB), maxSe, minScaleoutPerVs, maxScaleoutPerVs, bufferSe, haMode, algo, maxVsPerSe, as strings or numbers; absent fields take the provider defaults.",
        },
    },
};

/** The config with its schema defaults filled in (a policy's getConfig applies none; the CLI's reconciled config has them). */
export function seCapacityConfigOf(props: Readonly<Record<string, unknown>> | undefined): SeCapacityConfig {
    const p = props ?? {};
    const headroomPct = typeof p.headroomPct === "number" && Number.isFinite(p.headroomPct) ? p.headroomPct : 20;
    const seGroups = p.seGroups !== null && typeof p.seGroups === "object" && !Array.isArray(p.seGroups) ? p.seGroups as SeCapacityConfig["seGroups"] : {};
    return { headroomPct, assumeScaleOut: p.assumeScaleOut === true, seGroups };
}
