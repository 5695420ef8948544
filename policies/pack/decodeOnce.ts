/**
 * One decode of a resource's properties per request, shared by every policy of the call.
 *
 * @pulumi/policy 1.21 (server.js) decodes each resource's protobuf Struct again for every policy:
 * AnalyzeStack runs `deserializeProperties(r.getProperties(), false)` for each of the 10,000
 * resources once per stack policy, Analyze once per resource policy. With nine stack policies
 * that decode, and the garbage it leaves, was about 85% of an AnalyzeStack (BENCHMARKS.md,
 * "Where the time goes"); perfguard's own checks were 10%. The Struct is the same object on every
 * pass (google-protobuf caches a message's wrapper fields), and decoding is a pure function of
 * it, so the first pass's result is handed to the later ones.
 *
 * What stays as the SDK does it: each policy still gets its own unknown-checking proxy and its
 * own resource objects (only the decoded value underneath is shared, and neither the SDK nor
 * perfguard writes to it); Remediate (`proxySecrets` true, whose result a remediation may return
 * changed) is never shared. The memo is keyed by the Struct object in a WeakMap, so it goes with
 * the request. If the SDK's module does not have the shape this expects, nothing is changed.
 */

type Deserialize = (struct: unknown, proxySecrets: boolean) => unknown;

/** The SDK module (`@pulumi/policy/deserialize`) as far as this reads it. */
export interface DeserializeModule {
    deserializeProperties?: unknown;
}

const ONCE = Symbol.for("perfguard.decodeOnce");

/**
 * Replaces `mod.deserializeProperties` with a per-Struct memo of its non-remediation calls.
 * Idempotent. Returns false (and changes nothing) when the module has no such function.
 */
export function decodeOnce(mod: DeserializeModule): boolean {
    const original = mod.deserializeProperties;
    if (typeof original !== "function") {
        return false;
    }
    if ((original as { [ONCE]?: true })[ONCE]) {
        return true;
    }
    const decode = original as Deserialize;
    const decoded = new WeakMap<object, unknown>();
    const once: Deserialize = (struct, proxySecrets) => {
        if (proxySecrets || struct === null || typeof struct !== "object") {
            return decode(struct, proxySecrets);
        }
        if (decoded.has(struct)) {
            return decoded.get(struct);
        }
        const value = decode(struct, proxySecrets);
        decoded.set(struct, value);
        return value;
    };
    Object.defineProperty(once, ONCE, { value: true });
    mod.deserializeProperties = once;
    return true;
}
