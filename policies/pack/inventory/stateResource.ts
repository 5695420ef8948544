/**
 * One resource of a deployment as the inventory keeps it: its URN, type, id, outputs with every
 * secret replaced, provider and property dependencies. Apart from read.ts so that the digest's
 * reader (digestFile.ts), which read.ts calls, imports no cycle.
 */
import { InventoryResource, SECRET_MARK } from "./types";

/** The signature key of a secret in Pulumi's state (sdk/go/common/resource/sig). */
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
/** Deeper nesting than this is no provider's schema: cut, never recursed into without bound. */
const MAX_DEPTH = 64;
function isRecord(v: unknown): v is Record<string, unknown> {
    return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A copy of a state value with every secret replaced by SECRET_MARK (ciphertext and plaintext alike). */
export function withoutSecrets(value: unknown, depth = 0): unknown {
    if (depth > MAX_DEPTH) {
        return undefined;
    }
    if (Array.isArray(value)) {
        return value.map((v) => withoutSecrets(v, depth + 1));
    }
    if (isRecord(value)) {
        if (SECRET_SIG_KEY in value) {
            return SECRET_MARK; // a secret, an asset or an archive: nothing a verdict may read
        }
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value)) {
            out[key] = withoutSecrets(value[key], depth + 1);
        }
        return out;
    }
    return value;
}

function dependencies(raw: unknown): Record<string, string[]> | undefined {
    if (!isRecord(raw)) {
        return undefined;
    }
    let out: Record<string, string[]> | undefined;
    for (const key of Object.keys(raw)) {
        const list = raw[key];
        if (Array.isArray(list)) {
            out ??= {};
            out[key] = list.filter((u): u is string => typeof u === "string");
        }
    }
    return out;
}

/** One state resource as the inventory keeps it; undefined for a pending delete or no URN. */
export function inventoryResource(raw: unknown): InventoryResource | undefined {
    if (!isRecord(raw) || typeof raw.urn !== "string" || typeof raw.type !== "string" || raw.delete === true) {
        return undefined;
    }
    const outputs = withoutSecrets(raw.outputs);
    const deps = dependencies(raw.propertyDependencies);
    return {
        urn: raw.urn,
        type: raw.type,
        ...(typeof raw.id === "string" && raw.id !== "" ? { id: raw.id } : {}),
        outputs: isRecord(outputs) ? outputs : {},
        ...(typeof raw.provider === "string" && raw.provider !== "" ? { provider: raw.provider } : {}),
        ...(deps ? { propertyDependencies: deps } : {}),
    };
}
