/**
 * Words a JSON Schema validation error as the Pulumi CLI prints it: the CLI validates policy
 * config with gojsonschema (v1.2.0, pkg/resource/analyzer/config.go) and prints each error as
 * `<field>: <description>` (locales.go's default templates), the root prefix trimmed. perfguard
 * validates with ajv; this maps ajv's error objects onto those descriptions.
 */

/** The fields of an ajv ErrorObject this needs. */
export interface SchemaError {
    readonly instancePath: string;
    readonly keyword: string;
    readonly params: Record<string, unknown>;
    readonly schema?: unknown;
}

/** gojsonschema's name for a JSON value's type (integral numbers are "integer"). */
function givenType(value: unknown): string {
    if (value === null) {
        return "null";
    }
    if (Array.isArray(value)) {
        return "array";
    }
    if (typeof value === "number") {
        return Number.isInteger(value) ? "integer" : "number";
    }
    return typeof value === "object" ? "object" : typeof value;
}

/** Go's big.Float default text ('g', 10 significant digits), as the templates print limits. */
function goNumber(value: unknown): string {
    const n = Number(value);
    if (!Number.isFinite(n)) {
        return String(value);
    }
    const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
    if (exp < -4 || exp >= 10) {
        const [mantissa, e] = n.toExponential(9).split("e");
        const m = mantissa.replace(/\.?0+$/, "");
        const sign = e.startsWith("-") ? "-" : "+";
        const digits = e.replace(/^[+-]/, "").padStart(2, "0");
        return `${m}e${sign}${digits}`;
    }
    return String(Number(n.toPrecision(10)));
}

function valueAt(root: unknown, pointer: string): unknown {
    let node = root;
    for (const part of pointer.split("/").filter((p) => p !== "")) {
        node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    }
    return node;
}

/**
 * One error as the CLI prints it after the policy name: `maxRttMs: Must be greater than 0`,
 * `(root): maxRttMs is required` trimmed to `maxRttMs is required`.
 * @param error - an ajv error (compiled with allErrors, draft-07).
 * @param data - the validated config object (for the given value's type).
 */
export function gojsonschemaMessage(error: SchemaError, data: unknown): string {
    const pointer = error.instancePath;
    const field = pointer === "" ? "(root)" : pointer.replace(/^\//, "").split("/").join(".");
    const p = error.params;
    let description: string;
    switch (error.keyword) {
        case "type": {
            const expected = Array.isArray(p.type) ? `[${(p.type as string[]).join(",")}]` : String(p.type);
            description = `Invalid type. Expected: ${expected}, given: ${givenType(valueAt(data, pointer))}`;
            break;
        }
        case "enum": {
            const allowed = ((p.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)).join(", ");
            // gojsonschema's EnumError names the whole field path (the real CLI prints
            // "hosts.h1.bond.mode: hosts.h1.bond.mode must be one of the following: ...").
            description = `${field} must be one of the following: ${allowed}`;
            break;
        }
        case "const":
            description = `${field} does not match: ${JSON.stringify(p.allowedValue)}`;
            break;
        case "minimum":
            description = `Must be greater than or equal to ${goNumber(p.limit)}`;
            break;
        case "exclusiveMinimum":
            description = `Must be greater than ${goNumber(p.limit)}`;
            break;
        case "maximum":
            description = `Must be less than or equal to ${goNumber(p.limit)}`;
            break;
        case "exclusiveMaximum":
            description = `Must be less than ${goNumber(p.limit)}`;
            break;
        case "multipleOf":
            description = `Must be a multiple of ${goNumber(p.multipleOf)}`;
            break;
        case "required":
            description = `${String(p.missingProperty)} is required`;
            break;
        case "additionalProperties":
            description = `Additional property ${String(p.additionalProperty)} is not allowed`;
            break;
        case "minLength":
            description = `String length must be greater than or equal to ${String(p.limit)}`;
            break;
        case "maxLength":
            description = `String length must be less than or equal to ${String(p.limit)}`;
            break;
        case "pattern":
            description = `Does not match pattern '${String(p.pattern)}'`;
            break;
        case "minItems":
            description = `Array must have at least ${String(p.limit)} items`;
            break;
        case "maxItems":
            description = `Array must have at most ${String(p.limit)} items`;
            break;
        case "minProperties":
            description = `Must have at least ${String(p.limit)} properties`;
            break;
        case "maxProperties":
            description = `Must have at most ${String(p.limit)} properties`;
            break;
        default:
            description = `Does not match the schema (${error.keyword})`;
    }
    const line = `${field}: ${description}`;
    return line.startsWith("(root): ") ? line.slice("(root): ".length) : line;
}
