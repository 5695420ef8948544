/**
 * Converts property values from the Node SDK's wire form (what a RegisterResourceRequest
 * carries) into the form the engine sends to analyzers.
 */
import { JsonValue, PropertyBag, UNKNOWN_STRING } from "./types";

// Signatures from @pulumi/pulumi/runtime/rpc.js.
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
const OUTPUT_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4";

/**
 * Maps one wire value to what analyzers receive: secrets kept marked, as the engine sends them to
 * Analyze, AnalyzeStack and Remediate (analyzer_plugin.go marshals with KeepSecrets; the policy SDK
 * unwraps them for policies, and a remediation must keep the marker),
 * resource references replaced by the custom resource's id (unknown in a preview when empty) or
 * a component's URN, output values by their value or the unknown sentinel.
 * Input: any JSON value from Struct.toJavaScript(). Output: a JSON value. Throws nothing.
 */
export function toAnalyzerValue(value: JsonValue): JsonValue {
    if (Array.isArray(value)) {
        return value.map(toAnalyzerValue);
    }
    if (value === null || typeof value !== "object") {
        return value;
    }
    const sig = value[SIG_KEY];
    if (sig === SECRET_SIG) {
        return { [SIG_KEY]: SECRET_SIG, value: value.value === undefined ? null : toAnalyzerValue(value.value) };
    }
    if (sig === RESOURCE_SIG) {
        // The engine marshals references without KeepResources: custom -> id, component -> URN.
        if ("id" in value) {
            return typeof value.id === "string" && value.id !== "" ? value.id : UNKNOWN_STRING;
        }
        return value.urn ?? UNKNOWN_STRING;
    }
    if (sig === OUTPUT_SIG) {
        return "value" in value ? toAnalyzerValue(value.value) : UNKNOWN_STRING;
    }
    const out: PropertyBag = {};
    for (const [k, v] of Object.entries(value)) {
        out[k] = toAnalyzerValue(v);
    }
    return out;
}

/**
 * Maps a top-level property bag, dropping keys starting with "__" as the engine does
 * (MarshalOptions.SkipInternalKeys). Input/output: property bags. Throws nothing.
 */
export function toAnalyzerProperties(props: PropertyBag): PropertyBag {
    const out: PropertyBag = {};
    for (const [k, v] of Object.entries(props)) {
        if (!k.startsWith("__")) {
            out[k] = toAnalyzerValue(v);
        }
    }
    return out;
}

/** True for a secret-marked value in the engine's wire form. */
export function isSecretValue(value: JsonValue): boolean {
    return value !== null && typeof value === "object" && !Array.isArray(value) && value[SIG_KEY] === SECRET_SIG;
}

/** What a redacted secret's `ciphertext` holds in a --record file: says why, decrypts to nothing. */
export const REDACTED_CIPHERTEXT = "[redacted by perfguard preview --record; --show-secrets writes the plaintext]";

/**
 * A value as `pulumi stack export` writes it. By default a secret is `{sig, ciphertext}`, as the
 * CLI writes it without --show-secrets, except that nothing is encrypted: the ciphertext is
 * REDACTED_CIPHERTEXT, so no secret reaches the file (a record is a CI artifact; secrets arrive
 * here as plain text). With `showSecrets`, as `--show-secrets` writes it: `{sig, plaintext}` with
 * the JSON of the value.
 */
export function toExportValue(value: JsonValue, showSecrets = false): JsonValue {
    if (Array.isArray(value)) {
        return value.map((v) => toExportValue(v, showSecrets));
    }
    if (value === null || typeof value !== "object") {
        return value;
    }
    if (isSecretValue(value)) {
        return showSecrets
            ? { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(value.value ?? null) }
            : { [SIG_KEY]: SECRET_SIG, ciphertext: REDACTED_CIPHERTEXT };
    }
    const out: PropertyBag = {};
    for (const [k, v] of Object.entries(value)) {
        out[k] = toExportValue(v, showSecrets);
    }
    return out;
}
