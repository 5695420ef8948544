/**
 * Policy config as the pack receives it: the CLI applies schema defaults and validates only the
 * schema's `properties` and `required`; other callers (old CLIs, `perfguard check`, tests) may
 * send nothing or anything. So the pack applies the defaults itself, validates with ajv (loaded
 * lazily: only policies with config need it), and reports unknown keys (typos) itself.
 */
import type { PolicyConfigSchema } from "@pulumi/policy";
import type { ErrorObject, ValidateFunction } from "ajv";

/** The outcome of reading one policy's config. */
export interface ConfigResult<C> {
    /** The config with schema defaults applied (valid only when `errors` is empty). */
    readonly config: C;
    /** One sentence per invalid field, naming the policy and field. */
    readonly errors: readonly string[];
    /** Keys that the schema does not declare (typos such as `maxRtt`), as written. */
    readonly unknownKeys: readonly string[];
}

const compiled = new Map<string, ValidateFunction>();

function validatorFor(policyName: string, schema: PolicyConfigSchema): ValidateFunction {
    let validate = compiled.get(policyName);
    if (!validate) {
        // eslint-disable-next-line @typescript-eslint/no-var-requires -- lazy: ajv costs start-up time
        const Ajv = require("ajv").default as typeof import("ajv").default;
        const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
        validate = ajv.compile({ type: "object", properties: schema.properties, required: schema.required ?? [] });
        compiled.set(policyName, validate);
    }
    return validate;
}

function fieldOf(error: ErrorObject): string {
    const path = error.instancePath.split("/").filter((p) => p.length > 0);
    if (error.keyword === "required") {
        path.push(String((error.params as { missingProperty?: string }).missingProperty));
    }
    if (error.keyword === "additionalProperties") {
        // Name the misspelt key itself (ajv puts it in params, not in the path).
        path.push(String((error.params as { additionalProperty?: string }).additionalProperty));
        return path.join(".");
    }
    return path.length > 0 ? path.join(".") : "(the config object)";
}

function shownValue(value: unknown): string {
    if (typeof value === "number" || typeof value === "boolean") {
        return ` (got ${value})`;
    }
    if (typeof value === "string") {
        return value.length <= 16 && /^[A-Za-z0-9.+\- ]*$/.test(value) ? ` (got "${value}")` : ` (got a string)`;
    }
    return value === null ? " (got null)" : ` (got ${Array.isArray(value) ? "a list" : "an object"})`;
}

function valueAt(root: unknown, error: ErrorObject): unknown {
    let node = root;
    for (const part of error.instancePath.split("/").filter((p) => p.length > 0)) {
        node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
    }
    return node;
}

/**
 * Applies defaults to and validates one policy's config.
 * @param policyName - the policy id, named in every error.
 * @param schema - the policy's `configSchema` (JSON Schema draft-07 subset the CLI accepts).
 * @param raw - what `args.getConfig()` returned (never mutated).
 * @returns the config with defaults, field errors and unknown keys; never throws.
 */
export function readPolicyConfig<C>(policyName: string, schema: PolicyConfigSchema, raw: unknown): ConfigResult<C> {
    const input: Record<string, unknown> = raw !== null && typeof raw === "object" && !Array.isArray(raw)
        ? structuredClone(raw as Record<string, unknown>)
        : {};
    const known = new Set(Object.keys(schema.properties ?? {}));
    const unknownKeys = Object.keys(input).filter((k) => !known.has(k));
    for (const key of unknownKeys) {
        delete input[key];
    }
    const validate = validatorFor(policyName, schema);
    const errors: string[] = [];
    if (!validate(input)) {
        for (const error of validate.errors ?? []) {
            if (error.keyword === "additionalProperties") {
                errors.push(`invalid config for policy ${policyName}: field ${fieldOf(error)} is not a known key (misspelt?)`);
                continue;
            }
            const shown = error.keyword === "required" ? "" : shownValue(valueAt(input, error));
            errors.push(`invalid config for policy ${policyName}: field ${fieldOf(error)} ${error.message ?? "is invalid"}${shown}`);
        }
    }
    return { config: input as C, errors, unknownKeys };
}

/** The sentence that reports unknown config keys of a policy. */
export function unknownKeysMessage(policyName: string, schema: PolicyConfigSchema, unknownKeys: readonly string[]): string {
    const shown = unknownKeys.map((k) => (k.length <= 40 ? `"${k}"` : `a key of ${k.length} characters`)).join(", ");
    const accepted = Object.keys(schema.properties ?? {});
    return `unknown config key${unknownKeys.length > 1 ? "s" : ""} ${shown} for policy ${policyName} (ignored; the checks ran with the other settings): accepted keys are ${accepted.length > 0 ? accepted.join(", ") : "none (this policy takes no config)"}, plus enforcementLevel`;
}
