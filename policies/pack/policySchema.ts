/**
 * What a policy declares and the schema it is published with: its own config keys, typed by its
 * config type C (a key missing on either side is a compile error), plus the `unverified` key every
 * judging policy accepts (the level of its "not checked" reports).
 */
import type { EnforcementLevel, PolicyConfigSchema } from "@pulumi/policy";

/** What every perfguard policy declares. */
export interface PolicyMeta {
    /** The policy id: also the file name in policies/ and docs/policies/. */
    readonly name: string;
    /** One sentence; the CLI prints it above each message. */
    readonly description: string;
    readonly enforcementLevel: EnforcementLevel;
    /** JSON Schema of the config, with a `default` on every property (`unverified` is added). */
    readonly configSchema?: PolicyConfigSchema;
    /** False for a policy that judges nothing itself (perfguard-facts): no `unverified` key. */
    readonly reportsUnverified?: boolean;
}

/** The config keys a policy declares itself (`unverified` is added by definePolicy). */
export type OwnConfigKey<C> = Exclude<keyof C, keyof UnverifiedConfig> & string;

/**
 * The config schema of a policy whose config type is C: exactly one property per key of C (a key
 * of C missing from the schema, or a schema property C does not declare, is a compile error), each
 * with a `default` and a `description` (test/registry.test.ts).
 */
export interface ConfigSchemaOf<C> extends Omit<PolicyConfigSchema, "properties" | "required"> {
    readonly properties: { readonly [K in OwnConfigKey<C>]-?: PolicyConfigSchema["properties"][string] };
    readonly required?: Array<OwnConfigKey<C>>;
}

/** What a policy of config type C declares: PolicyMeta with its schema typed by C. */
export interface TypedPolicyMeta<C> extends Omit<PolicyMeta, "configSchema"> {
    /** JSON Schema of the config, one property per key of C, with a `default` on each (`unverified` is added). */
    readonly configSchema?: ConfigSchemaOf<C>;
}

/** The schema of a policy that declares no config. */
export const EMPTY_SCHEMA: PolicyConfigSchema = { properties: {} };

/** The levels a policy's `unverified` config key takes: the level of its "not checked" reports. */
export const UNVERIFIED_LEVELS = ["advisory", "mandatory"] as const;

/** Config every judging policy accepts besides its own keys. */
export interface UnverifiedConfig {
    /** Level of "not checked" reports (default advisory; "mandatory" blocks on blind spots). */
    readonly unverified?: (typeof UNVERIFIED_LEVELS)[number];
}

const UNVERIFIED_PROPERTY: PolicyConfigSchema["properties"][string] = {
    type: "string",
    enum: [...UNVERIFIED_LEVELS],
    default: "advisory",
    description:
        'Level of this policy\'s "not checked" reports (a fact unknown in the preview, an unresolved reference): advisory (default) or mandatory, to block on blind spots.',
};

/** The schema a policy is published with: its own properties plus `unverified` (unless it opts out). */
export function publishedSchema(spec: PolicyMeta): PolicyConfigSchema | undefined {
    if (spec.reportsUnverified === false) {
        return spec.configSchema;
    }
    const own = spec.configSchema ?? EMPTY_SCHEMA;
    return { ...own, properties: { ...own.properties, unverified: UNVERIFIED_PROPERTY } };
}

/** The level of a policy's "not checked" reports, from its validated config. */
export function unverifiedLevel(config: unknown): EnforcementLevel {
    const level = (config as UnverifiedConfig | undefined)?.unverified;
    return level === "mandatory" ? "mandatory" : "advisory";
}
