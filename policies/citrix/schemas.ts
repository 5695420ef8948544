/**
 * The Citrix policies' configSchemas: every Citrix setting and its default is written here, once.
 * The policies declare these; settings.ts and the evaluation read the defaults from them (schemaNumber),
 * never restating one. A room setting (the targets, measuredSiteBrokeredPerS, satelliteAtRttMs,
 * externalControllers) has one home policy; another policy that accepted it earlier keeps a
 * deprecated copy, same range and default (roomSettings.ts says which value wins).
 */
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import { CITRIX_GUIDANCE } from "../../model/citrixGuidance";
import { MEASURED_MAX_CONCURRENCY } from "../../model/deliveryGroupBrokering";

/** The response-time and error targets a zone's brokering is judged against. */
export interface BrokeringTargets {
    targetResponseS: number;
    errorBudgetPct: number;
}

type Properties = Readonly<Record<string, PolicyConfigJSONSchema>>;

/** Keeps each schema's keys in its type (stackPolicy checks them against the policy's config). */
function properties<K extends string>(p: Record<K, PolicyConfigJSONSchema>): Readonly<Record<K, PolicyConfigJSONSchema>> {
    return p;
}

/** Schema properties of the targets, with the defaults. */
export const TARGET_SCHEMA: Readonly<Record<keyof BrokeringTargets, PolicyConfigJSONSchema>> = {
    targetResponseS: {
        type: "number",
        exclusiveMinimum: 0,
        maximum: 600,
        default: 12,
        description:
            "Highest acceptable predicted mean brokering response, s (default 12: the source's 160 ms / 24 requests cell, 11.4 s, is the guidance's limit).",
    },
    errorBudgetPct: {
        type: "number",
        minimum: 0,
        maximum: 100,
        default: 0.1,
        description: "Highest acceptable predicted share of brokering requests that time out, percent (default 0.1).",
    },
};

/** The targets as citrix-broker-throttle's deprecated copies: their home is citrix-brokering-capacity (roomSettings.ts). */
const DEPRECATED_TARGETS: Readonly<Record<keyof BrokeringTargets, PolicyConfigJSONSchema>> = {
    targetResponseS: {
        ...TARGET_SCHEMA.targetResponseS,
        description: `Deprecated here: set it on citrix-brokering-capacity, its one home (this copy is read there where that sets none). ${String(TARGET_SCHEMA.targetResponseS.description)}`,
    },
    errorBudgetPct: {
        ...TARGET_SCHEMA.errorBudgetPct,
        description: `Deprecated here: set it on citrix-brokering-capacity, its one home (this copy is read there where that sets none). ${String(TARGET_SCHEMA.errorBudgetPct.description)}`,
    },
};

/** measuredSiteBrokeredPerS's range and default (brokered/s; 0: not measured), at its home and its deprecated copy alike. */
const SITE_RATE_RANGE = { type: "number", minimum: 0, maximum: 100000, default: 0 } as const;

/** citrix-broker-throttle's properties. */
export const BROKER_THROTTLE_SCHEMA = properties({
    requireAtRttMs: {
        type: "number",
        minimum: 0,
        maximum: 10000,
        default: 90,
        description: "Zones whose perfguard:rttMs is at or above this (ms) need the throttle (default 90: the source measured no timeouts up to 90 ms).",
    },
    ...DEPRECATED_TARGETS,
    requireControllersInStack: {
        type: "boolean",
        default: false,
        description:
            'Report a zone at or above requireAtRttMs with no Delivery Controller in the stack as a violation (default false: "not checked" at the unverified level).',
    },
    externalControllers: {
        type: "object",
        default: {},
        additionalProperties: {
            type: "array",
            items: {
                type: "object",
                properties: { name: { type: "string", minLength: 1 }, throttle: { type: "integer", minimum: 1, maximum: 4294967295 } },
                required: ["name"],
                additionalProperties: false,
            },
        },
        description: 'Delivery Controllers another stack manages, by zone name: { "<zone name>": [{ name, throttle? }] } (throttle absent = none set).',
    },
});

/** citrix-brokering-capacity's properties: the home of the targets. */
export const BROKERING_CAPACITY_SCHEMA = properties({
    ...TARGET_SCHEMA,
    launchWindowMinutes: {
        type: "number",
        exclusiveMinimum: 0,
        maximum: 10080,
        default: 60,
        description: "A logon storm of perfguard:users users should be brokered within this many minutes (default 60).",
    },
    measuredSiteBrokeredPerS: {
        ...SITE_RATE_RANGE,
        description:
            "Deprecated here: set it on citrix-site-database-load, its one home (this copy is read there as a fallback). Launches per second measured on this Site's database with all its Delivery Groups at once (default 0: not measured).",
    },
});

/** citrix-site-database-load's properties: the home of measuredSiteBrokeredPerS and satelliteAtRttMs. */
export const SITE_DATABASE_SCHEMA = properties({
    maxSiteConcurrentRequests: {
        type: "integer",
        minimum: 1,
        maximum: 1000000,
        default: MEASURED_MAX_CONCURRENCY,
        description:
            "Most concurrent brokering requests all satellite zones' throttles (or peaks) may allow against the Site database (default 60: the most the source measured against one database).",
    },
    satelliteAtRttMs: {
        type: "number",
        minimum: 0,
        maximum: 10000,
        default: 90,
        description: "Zones whose perfguard:rttMs is at or above this (ms) count as satellite zones (default 90, as citrix-broker-throttle's requireAtRttMs).",
    },
    measuredSiteBrokeredPerS: {
        ...SITE_RATE_RANGE,
        description:
            "Launches per second measured on this Site's database with all its Delivery Groups at once; the Citrix policies' one setting of it (default 0: not measured, so nothing gates on the Site's sum: the source measured one Delivery Group, whose plateau is its own lock's).",
    },
});

/** citrix-zone-rtt-limit's properties. */
export const ZONE_RTT_LIMIT_SCHEMA = properties({
    maxRttMs: {
        type: "number",
        exclusiveMinimum: 0,
        maximum: 10000,
        default: CITRIX_GUIDANCE.maxZoneRttMs,
        description: "Zones whose perfguard:rttMs is at or above this (ms) are reported. Default 250: Citrix guidance (keep zone RTT under 250 ms).",
    },
});

/** citrix-zone-rtt-warning's properties. */
export const ZONE_RTT_WARNING_SCHEMA = properties({
    warnAtRttMs: {
        type: "number",
        exclusiveMinimum: 0,
        maximum: 10000,
        default: 225,
        description:
            "Zones whose perfguard:rttMs is at or above this (ms), and below belowRttMs, are reported (default 225: 90 % of the 250 ms limit, perfguard's choice, not a figure of the source).",
    },
    belowRttMs: {
        type: "number",
        exclusiveMinimum: 0,
        maximum: 10000,
        default: CITRIX_GUIDANCE.maxZoneRttMs,
        description:
            "Upper end of the band (ms; default 250). The band never reaches citrix-zone-rtt-limit's configured maxRttMs: when that policy runs, the band ends at the lower of the two, so a zone gets one verdict.",
    },
});

/** A numeric setting's default, as its schema declares it (throws at load when a schema lacks one: a programming error). */
export function schemaNumber(schema: Properties, key: string): number {
    const value = schema[key]?.default;
    if (typeof value !== "number") {
        throw new Error(`Citrix schema: ${key} has no numeric default`);
    }
    return value;
}

/** The targets' defaults (the schema's): what a consumer without a config judges with. */
export const TARGET_DEFAULTS: BrokeringTargets = {
    targetResponseS: schemaNumber(TARGET_SCHEMA, "targetResponseS"),
    errorBudgetPct: schemaNumber(TARGET_SCHEMA, "errorBudgetPct"),
};
