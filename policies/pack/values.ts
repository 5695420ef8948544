/**
 * Reading raw property values the way perfguard needs them: without ever tripping the SDK's
 * unknown-value proxy, and with strict number parsing (no `Number("")`-style surprises).
 */

/**
 * The sentinel strings the engine and the policy SDK use for values that are unknown during a
 * preview (source: @pulumi/policy 1.21 proxy.js; the engine sends the string one on the wire).
 */
export const UNKNOWN_SENTINELS: ReadonlySet<string> = new Set([
    "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // boolean
    "3eeb2bf0-c639-47a8-9e75-3b44932eb421", // number
    "04da6b54-80e4-46f7-96ec-b56ff0331ba9", // string (the engine's wire value)
    "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", // array
    "030794c1-ac77-496b-92df-f27374a8bd58", // asset
    "e48ece36-62e2-4504-bad9-02848725956a", // archive
    "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", // object
]);

/** Marker returned by readers for a value that is unknown during preview. */
export const UNKNOWN: unique symbol = Symbol("perfguard.unknown");
export type Unknown = typeof UNKNOWN;

// The policy SDK wraps props in a Proxy that throws on unknowns; this key returns its target.
const PROXY_TARGET_KEY = "__getSpecialProxyTarget";

/**
 * Returns the plain object behind the SDK's unknown-checking proxy, so that reads never throw
 * (an unknown in one resource must not abort the verdicts on others).
 * @param props - `args.props` or `resource.props` as the SDK hands them (a proxy or a plain value).
 * @returns the underlying plain value; non-objects are returned as they are.
 */
export function unwrapProps(props: unknown): unknown {
    if (props === null || typeof props !== "object") {
        return props;
    }
    try {
        const target = (props as Record<string, unknown>)[PROXY_TARGET_KEY];
        return target !== undefined && target !== null && typeof target === "object" ? target : props;
    } catch {
        // A proxy whose own field of that name is unknown: treat the whole object as unknown.
        return UNKNOWN;
    }
}

const PROXY_MARK_KEY = "__isSpecialProxy";

/**
 * The plain value behind every layer of the SDK's proxies. In Remediate the SDK wraps the inputs
 * twice (@pulumi/policy 1.21 server.js makeRemediateRpcFun: unknownCheckingProxy over
 * deserializeProperties(..., true), whose secretsPreservingProxy hands reads the plain value of a
 * secret): the innermost target still holds each secret as a `Secret` object, which
 * serializeProperties sends back as a secret. unwrapProps stops above that layer, so that reads
 * see plain values; this goes to the bottom.
 * @returns the innermost target, or `value` itself when it is not a proxy; never throws.
 */
export function rawTarget(value: unknown): unknown {
    let current = value;
    for (let depth = 0; depth < 8 && current !== null && typeof current === "object"; depth++) {
        try {
            const obj = current as Record<string, unknown>;
            if (obj[PROXY_MARK_KEY] !== true) {
                return current;
            }
            const target = obj[PROXY_TARGET_KEY];
            if (target === null || typeof target !== "object" || target === current) {
                return current;
            }
            current = target;
        } catch {
            return current;
        }
    }
    return current;
}

/** True when `value` is an unknown sentinel (string form) or the UNKNOWN marker. */
export function isUnknown(value: unknown): boolean {
    return value === UNKNOWN || (typeof value === "string" && UNKNOWN_SENTINELS.has(value));
}

/**
 * Locale-independent case folding for names, keys and enum values: full folding as Unicode
 * defines it for the common cases ("ß" and "SS", final sigma), never the host's locale
 * (toLocaleLowerCase would fold "I" to a dotless i under a Turkish locale).
 */
export function foldCase(text: string): string {
    return text.toUpperCase().toLowerCase();
}

/** Plain-object test that excludes arrays and null. */
export function isRecord(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Reads `obj[key]` from a plain object, mapping unknown sentinels to UNKNOWN.
 * @returns the value, UNKNOWN, or undefined when `obj` is not an object or lacks the key.
 */
export function field(obj: unknown, key: string): unknown {
    if (isUnknown(obj)) {
        return UNKNOWN;
    }
    if (!isRecord(obj) || !Object.prototype.hasOwnProperty.call(obj, key)) {
        return undefined;
    }
    const value = obj[key];
    return isUnknown(value) ? UNKNOWN : value;
}

const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)$/;

/**
 * Parses a plain decimal such as `12`, `12.5` or ` 12 ` (trimmed). Rejects exponents (`1e3`),
 * units (`160ms`), hex, `NaN`, `Infinity` and the empty string.
 * @param value - a string, or a finite JS number (accepted as it is).
 * @returns the number, or undefined when the value is not a plain decimal.
 */
export function parsePlainDecimal(value: unknown): number | undefined {
    if (typeof value === "number") {
        return Number.isFinite(value) ? value : undefined;
    }
    if (typeof value !== "string") {
        return undefined;
    }
    const text = value.trim();
    if (!PLAIN_DECIMAL.test(text)) {
        return undefined;
    }
    const parsed = Number(text);
    return Number.isFinite(parsed) ? parsed : undefined;
}

const GO_INT = /^[+-]?\d+$/;
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/**
 * Parses an integer like Go's `strconv.ParseInt(s, 10, 64)`: optional sign, decimal digits, no
 * spaces, within int64. JS integers are accepted as they are (an SDK may pass numbers).
 * @returns the number, or undefined when Go would return an error.
 */
export function parseGoInt(value: unknown): number | undefined {
    if (typeof value === "number") {
        return Number.isSafeInteger(value) ? value : undefined;
    }
    if (typeof value !== "string" || !GO_INT.test(value)) {
        return undefined;
    }
    const big = BigInt(value);
    if (big > INT64_MAX || big < INT64_MIN) {
        return undefined;
    }
    return Number(big);
}

const GO_TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const GO_FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/**
 * Parses a boolean like Go's `strconv.ParseBool`: 1, t, T, TRUE, true, True, 0, f, F, FALSE,
 * false, False. JS booleans are accepted as they are.
 * @returns the boolean, or undefined when Go would return an error.
 */
export function parseGoBool(value: unknown): boolean | undefined {
    if (typeof value === "boolean") {
        return value;
    }
    if (typeof value !== "string") {
        return undefined;
    }
    if (GO_TRUE.has(value)) {
        return true;
    }
    return GO_FALSE.has(value) ? false : undefined;
}

const PLAIN_TOKEN = /^[A-Za-z0-9.+\- ]{1,16}$/;

/**
 * How a message may show a value that could be a secret: quoted when it is a short plain token
 * (up to 16 letters, digits, '.', '+', '-', ' '), else only by its length or kind.
 * @returns e.g. `"160ms"`, `a value of 42 characters`, `a value of type object`.
 */
export function describeValue(value: unknown): string {
    if (typeof value === "string") {
        return PLAIN_TOKEN.test(value) ? `"${value}"` : `a value of ${value.length} characters`;
    }
    if (typeof value === "number" || typeof value === "boolean") {
        return PLAIN_TOKEN.test(String(value)) ? String(value) : `a ${typeof value}`;
    }
    if (value === null) {
        return "null";
    }
    if (Array.isArray(value)) {
        return `a list of ${value.length} items`;
    }
    return `a value of type ${typeof value}`;
}
