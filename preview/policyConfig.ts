/**
 * Policy config as the CLI handles it (pkg/resource/analyzer/config.go): parse the
 * --policy-pack-config file, reconcile schema defaults < the pack's initial config < the file,
 * validate each policy's properties against its configSchema, and produce what Configure sends.
 */
import * as fs from "fs";
import Ajv from "ajv";
import { didYouMean } from "../policies/pack/config";
import { CONFIG_ERROR_EXIT, PreviewError } from "./errors";
import { gojsonschemaMessage } from "./gojsonschemaWording";
import { AnalyzerInfo, PolicyConfigEntry, PolicyConfigSchema } from "./packClient";
import { ENFORCEMENT_LEVELS, EnforcementLevel, JsonValue, PropertyBag } from "./types";

/**
 * A --policy-pack-config the CLI would refuse (unreadable, not JSON, a bad level, a schema
 * violation): the preview path exits as the Pulumi CLI does (CONFIG_ERROR_EXIT); `perfguard check`
 * reports it as a usage error (exit 2, docs/cli.md).
 */
export class PolicyConfigError extends PreviewError {
    constructor(message: string) {
        super(message, CONFIG_ERROR_EXIT);
        this.name = "PolicyConfigError";
    }
}

/** Config as the user writes it: policy name (or "all") -> level string or object. */
export type PolicyConfigInput = Record<string, unknown>;

function isLevel(value: unknown): value is EnforcementLevel {
    return typeof value === "string" && (ENFORCEMENT_LEVELS as readonly string[]).includes(value);
}

/**
 * Parses config in the file's shape. Input: an object, or a path to a JSON file (empty file = no
 * config). Output: policy name -> { enforcementLevel?, properties? }; entries with neither are
 * dropped, as the CLI does. Throws PolicyConfigError (CONFIG_ERROR_EXIT) on unreadable/invalid JSON, a value
 * that is neither string nor object, or an invalid enforcement level.
 */
export function parsePolicyConfig(input: PolicyConfigInput | string): Record<string, PolicyConfigEntry> {
    let raw: unknown = input;
    if (typeof input === "string") {
        let text: string;
        try {
            text = fs.readFileSync(input, "utf8");
        } catch (err) {
            const code = (err as NodeJS.ErrnoException).code;
            const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (err as Error).message;
            throw new PolicyConfigError(`cannot read policy pack config ${input}: ${why}`);
        }
        if (text.trim() === "") {
            return {};
        }
        try {
            raw = JSON.parse(text);
        } catch (err) {
            // Node's message quotes the start of the file: name only where it failed.
            const position = /position (\d+)/.exec((err as Error).message);
            throw new PolicyConfigError(`policy pack config ${input} is not JSON (syntax error${position ? ` at character ${position[1]}` : ""})`);
        }
    }
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
        throw new PolicyConfigError("policy pack config must be a JSON object keyed by policy name");
    }
    const result: Record<string, PolicyConfigEntry> = {};
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
        if (key === "environments") {
            throw new PolicyConfigError('policy pack config: ESC "environments" need the Pulumi CLI and are not supported here');
        }
        const entry: PolicyConfigEntry = {};
        if (typeof value === "string") {
            if (!isLevel(value)) {
                throw new PolicyConfigError(`parsing enforcement level for "${key}": "${value}" is not a valid enforcement level`);
            }
            entry.enforcementLevel = value;
        } else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
            const { enforcementLevel, ...properties } = value as Record<string, JsonValue>;
            if (enforcementLevel !== undefined) {
                if (!isLevel(enforcementLevel)) {
                    throw new PolicyConfigError(
                        `parsing enforcement level for "${key}": ${JSON.stringify(enforcementLevel)} ` + "is not a valid enforcement level",
                    );
                }
                entry.enforcementLevel = enforcementLevel;
            }
            if (Object.keys(properties).length > 0) {
                entry.properties = properties;
            }
        } else {
            throw new PolicyConfigError(`parsing "${key}": ${JSON.stringify(value)} is not a valid value; must be a string or object`);
        }
        if (entry.enforcementLevel || entry.properties) {
            result[key] = entry;
        }
    }
    return result;
}

function applyConfig(result: Record<string, PolicyConfigEntry>, toApply: Record<string, PolicyConfigEntry>): void {
    // "all" sets every policy's level first (its properties are not spread to the policies).
    const all = toApply.all;
    if (all?.enforcementLevel) {
        for (const name of Object.keys(result)) {
            result[name] = { ...result[name], enforcementLevel: all.enforcementLevel };
        }
    }
    // Then each key, "all" and unknown names included, as the CLI does.
    for (const [name, given] of Object.entries(toApply)) {
        const current = result[name] ?? {};
        const merged: PolicyConfigEntry = { ...current };
        if (given.enforcementLevel) {
            merged.enforcementLevel = given.enforcementLevel;
        }
        if (given.properties && Object.keys(given.properties).length > 0) {
            merged.properties = { ...(current.properties ?? {}), ...given.properties };
        }
        result[name] = merged;
    }
}

// One Ajv, and each schema compiled once per process: a new Ajv compiles the JSON Schema
// meta-schema again (about 0.1 s a policy), and `perfguard diff` reconciles two sides' configs.
let sharedAjv: Ajv | undefined;
const validators = new Map<string, ReturnType<Ajv["compile"]>>();

function compiled(jsonSchema: Record<string, unknown>): ReturnType<Ajv["compile"]> {
    const key = JSON.stringify(jsonSchema);
    let validate = validators.get(key);
    if (!validate) {
        sharedAjv ??= new Ajv({ allErrors: true, strict: false });
        validate = sharedAjv.compile(jsonSchema);
        validators.set(key, validate);
    }
    return validate;
}

/**
 * Validates `properties` against a policy's config schema as the CLI does: only the schema's
 * `properties` and `required`, wrapped in {type: "object"}, with draft-07 semantics.
 * Output: one message per problem in the CLI's words ("maxRttMs: Invalid type. Expected: number, given: string",
 * "maxRttMs is required"); [] if valid.
 */
export function validatePolicyProperties(schema: PolicyConfigSchema, properties: PropertyBag): string[] {
    const jsonSchema: Record<string, unknown> = { type: "object" };
    if (Object.keys(schema.properties).length > 0) {
        jsonSchema.properties = schema.properties;
    }
    if (schema.required.length > 0) {
        jsonSchema.required = schema.required;
    }
    const validate = compiled(jsonSchema);
    if (validate(properties)) {
        return [];
    }
    return (validate.errors ?? []).map((e) => gojsonschemaMessage(e, properties));
}

export interface ReconciledConfig {
    /** What Configure sends: every policy with a level, plus the file's other keys as the CLI forwards them. */
    config: Record<string, PolicyConfigEntry>;
    /** File keys that name no policy of the pack (forwarded like the CLI does; the pack reports them). */
    unknownPolicies: string[];
    /** Unknown policy name -> the pack's policy it is probably a typo of (edit distance), when one is close. */
    suggestions: Record<string, string>;
}

/** Prefix of the lines the emulation adds to the CLI's own (never part of a line the CLI prints). */
export const PERFGUARD_LINE_PREFIX = "perfguard: ";

function shownName(name: string): string {
    return name.length <= 64 ? JSON.stringify(name) : `a name of ${name.length} characters`;
}

/**
 * perfguard's line under the CLI's `invalid enforcement level ""` (which names no key): which keys
 * ended without a level and why. Input: those keys (sorted), the pack's policy names.
 */
export function missingLevelLine(names: readonly string[], pack: string, policyNames: readonly string[]): string {
    const parts = names.map((name) => {
        if (name === "all") {
            return '"all" has settings but no enforcementLevel ("all" takes only a level)';
        }
        const near = didYouMean(name, policyNames);
        return `${shownName(name)} has no enforcementLevel and is not a policy of ${pack}${near ? `: did you mean "${near}"?` : ""}`;
    });
    return `${PERFGUARD_LINE_PREFIX}${parts.join("; ")}`;
}

/** Go's %q of a plain string (the CLI quotes the pack path so). */
function goQuote(text: string): string {
    return JSON.stringify(text);
}

/**
 * Reconciles config for one pack: schema defaults, then the pack's initial config, then `given`.
 * Output: ReconciledConfig. Throws PolicyConfigError (CONFIG_ERROR_EXIT) listing every validation problem as
 * `validating policy config: <pack> <version>  <policy>: <field> <problem>` (sorted), or, when a
 * key ends up without an enforcement level, the CLI's Configure error (`configuring policy pack
 * "<pack>" at "<packPath>": invalid enforcement level ""`, without ` at ...` when packPath is not
 * given, as `pulumi policy analyze` words it) and a second line, perfguard's, naming the keys.
 */
export function reconcilePolicyConfig(info: AnalyzerInfo, given: Record<string, PolicyConfigEntry>, packPath?: string): ReconciledConfig {
    const result: Record<string, PolicyConfigEntry> = {};
    for (const policy of info.policies) {
        const entry: PolicyConfigEntry = { enforcementLevel: policy.enforcementLevel };
        for (const [key, schema] of Object.entries(policy.configSchema?.properties ?? {})) {
            if (schema !== null && typeof schema === "object" && !Array.isArray(schema) && "default" in schema) {
                entry.properties = { ...(entry.properties ?? {}), [key]: schema.default };
            }
        }
        result[policy.name] = entry;
    }
    applyConfig(result, info.initialConfig);
    applyConfig(result, given);

    const errors: string[] = [];
    for (const policy of info.policies) {
        if (!policy.configSchema) {
            continue;
        }
        for (const problem of validatePolicyProperties(policy.configSchema, result[policy.name].properties ?? {})) {
            errors.push(`validating policy config: ${info.name} ${info.version}  ${policy.name}: ${problem}`);
        }
    }
    if (errors.length > 0) {
        throw new PolicyConfigError(errors.sort().join("\n"));
    }
    const names = info.policies.map((p) => p.name);
    const withoutLevel = Object.keys(result)
        .filter((name) => !result[name].enforcementLevel)
        .sort();
    if (withoutLevel.length > 0) {
        // The CLI's Configure names no key; perfguard's own line does.
        const where = packPath === undefined ? "" : ` at ${goQuote(packPath)}`;
        throw new PolicyConfigError(
            `configuring policy pack ${goQuote(info.name)}${where}: invalid enforcement level ""\n` + missingLevelLine(withoutLevel, info.name, names),
        );
    }
    const known = new Set(names);
    const unknownPolicies = Object.keys(given).filter((k) => k !== "all" && !known.has(k));
    const suggestions: Record<string, string> = {};
    for (const name of unknownPolicies) {
        const near = didYouMean(name, names);
        if (near) {
            suggestions[name] = near;
        }
    }
    return { config: result, unknownPolicies, suggestions };
}
