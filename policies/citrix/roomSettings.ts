/**
 * The Citrix room's settings: the ones every Citrix figure depends on (the evaluation's config),
 * each declared in exactly one policy's configSchema, its home, and read from there by the whole
 * room, so that one stack under one pack config has one evaluation (settings.ts).
 *
 * Homes:
 * - targetResponseS, errorBudgetPct: citrix-brokering-capacity. The targets define that policy's
 *   verdict (a lock's predicted response and timeouts against them); citrix-broker-throttle and
 *   citrix-site-database-load only derive from them what a lock sustains. citrix-broker-throttle
 *   declared them too in earlier releases: its copy is deprecated.
 * - externalControllers: citrix-broker-throttle (the Delivery Controllers whose throttles it judges).
 * - measuredSiteBrokeredPerS, satelliteAtRttMs: citrix-site-database-load (the Site database's
 *   policy). citrix-brokering-capacity's copy of measuredSiteBrokeredPerS is deprecated.
 *
 * A deprecated copy keeps an old config working: it is read where the home is not set, and
 * `perfguard config check` names the one home. The engine hands every policy its properties with
 * the schema's defaults filled in, so "not set" is "at its schema default" (the home's default is
 * the copy's: same range and default, schemas.ts). Where both are set and differ, the home wins.
 */
import type { ExternalControllers } from "./site";
import { BROKER_THROTTLE_SCHEMA, BROKERING_CAPACITY_SCHEMA, SITE_DATABASE_SCHEMA } from "./schemas";
import type { CitrixEvaluationConfig } from "./evaluationTypes";

export const CAPACITY = "citrix-brokering-capacity";
export const THROTTLE = "citrix-broker-throttle";
export const DATABASE = "citrix-site-database-load";

/** One room setting: its home policy, and the policy that still accepts a deprecated copy of it. */
export interface RoomSetting {
    readonly key: keyof CitrixEvaluationConfig;
    readonly home: string;
    readonly deprecatedIn?: string;
    /** The schema default (home and copy alike). */
    readonly fallback: unknown;
}

export const ROOM_SETTINGS: readonly RoomSetting[] = [
    { key: "targetResponseS", home: CAPACITY, deprecatedIn: THROTTLE, fallback: BROKERING_CAPACITY_SCHEMA.targetResponseS.default },
    { key: "errorBudgetPct", home: CAPACITY, deprecatedIn: THROTTLE, fallback: BROKERING_CAPACITY_SCHEMA.errorBudgetPct.default },
    { key: "externalControllers", home: THROTTLE, fallback: BROKER_THROTTLE_SCHEMA.externalControllers.default },
    { key: "measuredSiteBrokeredPerS", home: DATABASE, deprecatedIn: CAPACITY, fallback: SITE_DATABASE_SCHEMA.measuredSiteBrokeredPerS.default },
    { key: "satelliteAtRttMs", home: DATABASE, fallback: SITE_DATABASE_SCHEMA.satelliteAtRttMs.default },
];

/** Settings a config may still set in a policy that is no longer their home (for `perfguard config check`). */
export const MOVED_SETTINGS: readonly { readonly policy: string; readonly key: string; readonly home: string }[] = ROOM_SETTINGS.flatMap((s) =>
    s.deprecatedIn === undefined ? [] : [{ policy: s.deprecatedIn, key: s.key, home: s.home }],
);

/** A value of the setting's type (a number, or an object for externalControllers); undefined otherwise. */
function usable(setting: RoomSetting, value: unknown): unknown {
    if (typeof setting.fallback === "number") {
        return typeof value === "number" && Number.isFinite(value) ? value : undefined;
    }
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
}

/** Set: a usable value other than the schema's default (a number compared by value, an object by content). */
function isSet(setting: RoomSetting, value: unknown): boolean {
    return usable(setting, value) !== undefined && JSON.stringify(value) !== JSON.stringify(setting.fallback);
}

/**
 * Which policy's value of `setting` applies: the home's where it is set, else the deprecated
 * copy's where that is set, else the home (its value, or the schema's default).
 */
export function appliedFrom(setting: RoomSetting, home: unknown, copy: unknown): "home" | "copy" {
    return !isSet(setting, home) && setting.deprecatedIn !== undefined && isSet(setting, copy) ? "copy" : "home";
}

/** A policy's properties, or undefined where there are none to read. */
export type PropertiesOf = (policy: string) => Readonly<Record<string, unknown>> | undefined;

/** The evaluation's config from the policies' properties: each setting from its home, else its deprecated copy, else its default. */
export function roomConfig(propertiesOf: PropertiesOf): CitrixEvaluationConfig {
    const values = ROOM_SETTINGS.map((s) => {
        const home = propertiesOf(s.home)?.[s.key];
        const copy = s.deprecatedIn === undefined ? undefined : propertiesOf(s.deprecatedIn)?.[s.key];
        const value = appliedFrom(s, home, copy) === "copy" ? copy : home;
        return [s.key, usable(s, value) ?? s.fallback] as const;
    });
    const config = Object.fromEntries(values) as Record<keyof CitrixEvaluationConfig, unknown>;
    return {
        targetResponseS: config.targetResponseS as number,
        errorBudgetPct: config.errorBudgetPct as number,
        externalControllers: config.externalControllers as ExternalControllers,
        measuredSiteBrokeredPerS: config.measuredSiteBrokeredPerS as number,
        satelliteAtRttMs: config.satelliteAtRttMs as number,
    };
}
