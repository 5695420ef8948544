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
    /** The invalid fields' paths ("minVcpus", "hosts.xcp-02.linkMBps"), in the order of `errors`. */
    readonly fields: readonly string[];
    /** Keys that the schema does not declare (typos such as `maxRtt`), as written. */
    readonly unknownKeys: readonly string[];
}

const compiled = new Map<string, ValidateFunction>();

/** How many policies' validators ajv has compiled in this process (tests: was the shortcut taken?). */
export function compiledValidators(): number {
    return compiled.size;
}

/**
 * One Ajv for every policy: each new instance compiles the JSON Schema meta-schema again (the
 * profile of a first AnalyzeStack showed that, once per stack policy, as most of the config cost).
 * The schemas are perfguard's own, static ones (the CLI compiles each too, to validate the
 * config it sends), so Ajv does not validate them against the meta-schema at each compile, nor optimise the code of validators that run
 * once per config text (both cut the first call's compile time by about half, measured).
 */
let sharedAjv: import("ajv").default | undefined;

function validatorFor(policyName: string, schema: PolicyConfigSchema): ValidateFunction {
    let validate = compiled.get(policyName);
    if (!validate) {
        if (!sharedAjv) {
            // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: ajv costs start-up time
            const Ajv = require("ajv").default as typeof import("ajv").default;
            sharedAjv = new Ajv({ allErrors: true, useDefaults: true, strict: false, validateSchema: false, code: { optimize: false } });
        }
        validate = sharedAjv.compile({ type: "object", properties: schema.properties, required: schema.required ?? [] });
        compiled.set(policyName, validate);
    }
    return validate;
}

/**
 * Results by policy and config text: Analyze reads a resource policy's config once per resource
 * (the same config each time), and cloning and validating it each time showed in the profile.
 * Keyed by the text, not the object, so a caller that changes its config object gets a fresh read.
 */
const results = new Map<string, ConfigResult<unknown>>();
/** Bounds the memo (a caller cycling through configs must not grow it without end). */
const MAX_RESULTS = 256;

/**
 * The last config object read per policy, with its own keys' values: @pulumi/policy 1.21's
 * getConfig copies the policy's config object on every call (server.js makeGetConfigFun), so a
 * new object holding the same values means the same text, without writing it again. Only for a
 * flat config (no object or list values: a nested one could have been changed in place).
 */
const lastRaw = new Map<string, { readonly values: readonly unknown[]; readonly keys: readonly string[]; readonly result: ConfigResult<unknown> }>();

function flatValues(raw: unknown): { keys: string[]; values: unknown[] } | undefined {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
        return undefined;
    }
    const keys = Object.keys(raw);
    const values: unknown[] = [];
    for (const key of keys) {
        const value = (raw as Record<string, unknown>)[key];
        if (value !== null && typeof value === "object") {
            return undefined;
        }
        values.push(value);
    }
    return { keys, values };
}

function sameFlat(last: { readonly keys: readonly string[]; readonly values: readonly unknown[] }, now: { keys: string[]; values: unknown[] }): boolean {
    return last.keys.length === now.keys.length && last.keys.every((k, i) => k === now.keys[i] && Object.is(last.values[i], now.values[i]));
}

/**
 * Freezes a config and every plain object and list in it: one shared copy is handed to every
 * call. Config is JSON (the CLI sends a protobuf Struct); anything else an in-process caller
 * passes (a Buffer, which cannot be frozen, a Date) is left as it is.
 */
function deepFreeze<T>(value: T): T {
    if (value !== null && typeof value === "object" && !Object.isFrozen(value) && isPlainContainer(value)) {
        Object.freeze(value);
        for (const key of Object.keys(value)) {
            deepFreeze((value as Record<string, unknown>)[key]);
        }
    }
    return value;
}

/** A JSON object or list (what deepFreeze freezes). */
function isPlainContainer(value: object): boolean {
    if (Array.isArray(value)) {
        return true;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
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
 * @returns the config with defaults, field errors and unknown keys, frozen (one copy shared by
 *   every call with the same config); never throws.
 */
export function readPolicyConfig<C>(policyName: string, schema: PolicyConfigSchema, raw: unknown): ConfigResult<C> {
    const flat = flatValues(raw);
    const last = flat ? lastRaw.get(policyName) : undefined;
    if (flat && last && sameFlat(last, flat)) {
        return last.result as ConfigResult<C>;
    }
    let text: string | undefined;
    try {
        text = JSON.stringify(raw);
    } catch {
        text = undefined; // a cycle or a BigInt: read it without the memo
    }
    const key = text === undefined ? undefined : `${policyName}\u0000${text}`;
    if (key === undefined) {
        return readUncached<C>(policyName, schema, raw);
    }
    let known = results.get(key);
    if (!known) {
        // Frozen, and then shared by every call with this config: a check that tried to change
        // it would throw (reported as an internal error: per resource by isolate, per policy
        // around a stack policy's check), never change the next call's.
        // readUncached works on a copy of `raw` and of each default, so this freezes nothing of
        // the caller's or of the schema's.
        known = deepFreeze(readUncached<unknown>(policyName, schema, raw));
        if (results.size >= MAX_RESULTS) {
            results.clear();
        }
        results.set(key, known);
    }
    if (flat) {
        lastRaw.set(policyName, { keys: flat.keys, values: flat.values, result: known });
    }
    return known as ConfigResult<C>;
}

function readUncached<C>(policyName: string, schema: PolicyConfigSchema, raw: unknown): ConfigResult<C> {
    const input: Record<string, unknown> =
        raw !== null && typeof raw === "object" && !Array.isArray(raw) ? structuredClone(raw as Record<string, unknown>) : {};
    const known = new Set(Object.keys(schema.properties ?? {}));
    const unknownKeys = Object.keys(input).filter((k) => !known.has(k));
    for (const key of unknownKeys) {
        delete input[key];
    }
    const defaults = defaultsOnly(schema, input);
    if (defaults !== undefined) {
        return { config: defaults as C, errors: [], fields: [], unknownKeys };
    }
    return validated<C>(policyName, schema, input, unknownKeys);
}

/**
 * The config when `input` holds nothing but the schema's own defaults (what the CLI sends for a
 * policy the user did not configure: it applies the top-level defaults first): those defaults,
 * with any missing one filled in. Undefined, so that ajv decides, when any key differs from its
 * default or has none, a required key is absent, or a default is one ajv could add to (a non-empty
 * object or list, or an empty object whose schema has properties). This skips loading ajv and
 * compiling a validator per policy on a preview without config (configFor went from 223 to 57 ms
 * of a 1,000-resource preview). It does not check the defaults against their own schema: that
 * they are valid is a property of perfguard's schemas, which
 * test/policies/pack/configDefaults.test.ts checks for every registered policy against ajv.
 */
function defaultsOnly(schema: PolicyConfigSchema, input: Record<string, unknown>): Record<string, unknown> | undefined {
    const properties = (schema.properties ?? {}) as Record<string, { default?: unknown; properties?: unknown }>;
    for (const property of Object.values(properties)) {
        if (property !== null && typeof property === "object" && !plainDefault(property)) {
            return undefined;
        }
    }
    for (const key of Object.keys(input)) {
        const property = properties[key];
        if (property === null || typeof property !== "object" || !("default" in property) || !sameJson(input[key], property.default)) {
            return undefined;
        }
    }
    for (const key of schema.required ?? []) {
        if (!(key in input)) {
            return undefined;
        }
    }
    const out: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(properties)) {
        if (property !== null && typeof property === "object" && "default" in property && property.default !== undefined) {
            out[key] = structuredClone(property.default);
        }
    }
    return out;
}

/** A default ajv would not add to: none, a primitive or null, an empty list, or an empty object without properties of its own. */
function plainDefault(property: { default?: unknown; properties?: unknown }): boolean {
    const value = property.default;
    if (value === null || typeof value !== "object") {
        return true;
    }
    return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0 && property.properties === undefined;
}

/** Deep equality of JSON values (config as the CLI sends it). */
function sameJson(a: unknown, b: unknown): boolean {
    if (a === b) {
        return true;
    }
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) !== Array.isArray(b)) {
        return false;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
        return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
    }
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length && keys.every((k) => Object.prototype.hasOwnProperty.call(y, k) && sameJson(x[k], y[k]));
}

/**
 * Applies defaults to and validates `input` (unknown keys already removed) with ajv. Exported for
 * the test that checks the defaults-only shortcut against it.
 */
export function validated<C>(
    policyName: string,
    schema: PolicyConfigSchema,
    input: Record<string, unknown>,
    unknownKeys: readonly string[] = [],
): ConfigResult<C> {
    const validate = validatorFor(policyName, schema);
    const errors: string[] = [];
    const fields: string[] = [];
    if (!validate(input)) {
        for (const error of validate.errors ?? []) {
            const field = fieldOf(error);
            fields.push(field);
            if (error.keyword === "additionalProperties") {
                errors.push(`invalid config for policy ${policyName}: field ${field} is not a known key (misspelt?)`);
                continue;
            }
            const shown = error.keyword === "required" ? "" : shownValue(valueAt(input, error));
            errors.push(`invalid config for policy ${policyName}: field ${field} ${error.message ?? "is invalid"}${shown}`);
        }
    }
    return { config: input as C, errors, fields, unknownKeys };
}

/**
 * Levenshtein distance between two strings, compared case-insensitively (`maxrttms` is a typo of
 * `maxRttMs`). O(a x b) on names of a few dozen characters.
 */
export function editDistance(a: string, b: string): number {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
    for (let i = 1; i <= x.length; i++) {
        const current = [i];
        for (let j = 1; j <= y.length; j++) {
            current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
        }
        previous = current;
    }
    return previous[y.length];
}

/**
 * The known name closest to `given`, when it is close enough to be a typo: at most a third of
 * the longer name's characters differ (at least 2 allowed), or one name contains the other
 * (`maxRtt` for `maxRttMs`). Ties go to the first candidate. Undefined when nothing is close.
 */
export function didYouMean(given: string, candidates: readonly string[]): string | undefined {
    if (given.length > 64) {
        return undefined; // not a typo of a name: do not echo or compare it
    }
    let best: { name: string; distance: number } | undefined;
    for (const name of candidates) {
        const distance = editDistance(given, name);
        const contains = given.length >= 3 && (name.toLowerCase().includes(given.toLowerCase()) || given.toLowerCase().includes(name.toLowerCase()));
        const close = distance <= Math.max(2, Math.floor(Math.max(given.length, name.length) / 3)) || contains;
        if (close && (!best || distance < best.distance)) {
            best = { name, distance };
        }
    }
    return best?.name;
}

function shownKey(key: string): string {
    return key.length <= 40 ? `"${key}"` : `a key of ${key.length} characters`;
}

/**
 * The problem and fix that report unknown config keys of a policy: the problem names the first
 * key (and how many more), the fix suggests the closest accepted key for each ("did you mean")
 * and lists the accepted keys.
 */
export function unknownKeysMessage(policyName: string, schema: PolicyConfigSchema, unknownKeys: readonly string[]): { problem: string; fix: string } {
    const accepted = Object.keys(schema.properties ?? {});
    const more = unknownKeys.length > 1 ? ` and ${unknownKeys.length - 1} more` : "";
    const problem = `unknown config key${unknownKeys.length > 1 ? "s" : ""} ${shownKey(unknownKeys[0] ?? "")}${more} for policy ${policyName}: ignored, the checks ran with the other settings.`;
    const steps = unknownKeys.map((key) => {
        const near = didYouMean(key, accepted);
        return near ? `${shownKey(key)}: did you mean "${near}"?` : `remove ${shownKey(key)}`;
    });
    const list = `accepted keys are ${accepted.length > 0 ? accepted.join(", ") : "none (this policy takes no config)"}, plus enforcementLevel`;
    return { problem, fix: `${steps.join("; ")} (${list})` };
}
