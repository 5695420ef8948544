/**
 * Reads a `pulumi stack export` file (or a file written by the preview path's `--record`, which
 * has the same shape) into the resources the engine would hand to analyzers, as the engine's own
 * analysis of existing state does (pkg/resource/deploy/analyze_snapshot.go): every resource not
 * pending deletion, in the file's order, root stack and providers included; Analyze gets the
 * inputs, AnalyzeStack the outputs with parent and dependencies.
 *
 * Secrets: a plaintext secret (`pulumi stack export --show-secrets`, or a preview record) is
 * unwrapped to its value, as the engine sends secrets to analyzers; an encrypted one cannot be
 * decrypted here and becomes the string "[secret]", as `pulumi policy analyze --file` does.
 */
import * as fs from "fs";
import { urnName } from "../preview/printViolations";
import { JsonValue, PropertyBag, RecordedOptions, RecordedResource } from "../preview/types";
import { REDACTED_CIPHERTEXT } from "../preview/wireValues";
import { UsageError } from "./errors";
import { FACT_CARRIERS } from "../policies/pack/facts";
import { DIGEST_KIND, INVENTORY_ENV } from "../policies/pack/inventory/types";

/** The secret signature key and value of Pulumi's property serialisation. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** What stands in for a secret this process cannot decrypt. */
export const REDACTED_SECRET = "[secret]";

/** A read stack export. */
export interface StackExportFile {
    /** Resources to analyze, in the file's order. */
    readonly resources: RecordedResource[];
    /** Stack and project named by the URNs. */
    readonly stack: string;
    readonly project: string;
    /** Resources skipped because they are pending deletion. */
    readonly pendingDeletes: number;
    /** Secrets that were encrypted and are analyzed as "[secret]". */
    readonly redactedSecrets: number;
    /** Of those, the ones a preview's --record redacted (written without --show-secrets). */
    readonly recordRedactedSecrets: number;
    /** Names of resources whose fact containers (tags, metadata, markers) hold encrypted secrets. */
    readonly encryptedFacts: readonly string[];
}

/** The props perfguard reads facts from. */
const FACT_CONTAINERS = FACT_CARRIERS;

/**
 * True when a whole fact container, or a whole entry of a fact list, is an encrypted secret: its
 * facts would silently read as absent. (An encrypted fact VALUE reads as "[secret]", which
 * perfguard-facts reports as unreadable.)
 */
function factsEncrypted(props: PropertyBag): boolean {
    return FACT_CONTAINERS.some((key) => {
        const container = props[key];
        return container === REDACTED_SECRET || (Array.isArray(container) && container.some((entry) => entry === REDACTED_SECRET));
    });
}

function isObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Secrets read as "[secret]": all of them, and those a --record redacted. */
interface SecretCounter {
    redacted: number;
    fromRecord: number;
}

/** Unwraps secrets (see the module comment); counts the redacted ones. */
function unwrapSecrets(value: unknown, counter: SecretCounter): JsonValue {
    if (Array.isArray(value)) {
        return value.map((v) => unwrapSecrets(v, counter));
    }
    if (!isObject(value)) {
        return value as JsonValue;
    }
    if (value[SIG_KEY] === SECRET_SIG) {
        if (typeof value.plaintext === "string") {
            try {
                return unwrapSecrets(JSON.parse(value.plaintext), counter);
            } catch {
                // A plaintext that is not JSON: keep the text itself.
                return value.plaintext;
            }
        }
        if ("value" in value) {
            return unwrapSecrets(value.value, counter);
        }
        counter.redacted += 1;
        if (value.ciphertext === REDACTED_CIPHERTEXT) {
            counter.fromRecord += 1;
        }
        return REDACTED_SECRET;
    }
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) {
        out[k] = unwrapSecrets(v, counter);
    }
    return out;
}

function strings(value: unknown): string[] {
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function bag(value: unknown, counter: SecretCounter): PropertyBag {
    const unwrapped = isObject(value) ? unwrapSecrets(value, counter) : {};
    return isObject(unwrapped) ? unwrapped : {};
}

function optionsOf(r: Record<string, unknown>): RecordedOptions {
    const timeouts = isObject(r.customTimeouts) ? r.customTimeouts : {};
    const seconds = (key: string) => (typeof timeouts[key] === "number" ? timeouts[key] : 0);
    return {
        protect: r.protect === true,
        ignoreChanges: strings(r.ignoreChanges),
        additionalSecretOutputs: strings(r.additionalSecretOutputs),
        // Aliases are URNs in apitype (older files) or objects (newer): only URNs travel here.
        aliases: strings(r.aliases),
        customTimeouts: { create: seconds("create"), update: seconds("update"), delete: seconds("delete"), read: seconds("read") },
        ...(r.deleteBeforeReplace === true ? { deleteBeforeReplace: true } : {}),
    };
}

/**
 * Reads and checks a stack export.
 * Input: the path. Accepted shapes: `{ version, deployment: { resources: [...] } }` (what
 * `pulumi stack export` and `--record` write) and a bare `{ resources: [...] }`.
 * Output: StackExportFile.
 * Throws UsageError (exit 2) naming the path and the problem: the file cannot be read, is not
 * JSON, is not a stack export, has no resources, or a resource lacks a string `urn`/`type` or
 * has a URN that is not `urn:pulumi:<stack>::<project>::<type>::<name>`.
 */
/** What to do with a digest given where a stack export is expected (one line, naming the file). */
export function digestNotExport(file: string): string {
    return `${file} is a perfguard inventory digest (other stacks' load), not a stack export: check the stacks' exports, with the digest in ${INVENTORY_ENV} or beside them (a folder, or another argument of check)`;
}

/** Where JSON.parse failed, without the file's text (Node quotes the start of it: it may be secret). */
export function jsonErrorWhere(err: unknown): string {
    const position = /position (\d+)/.exec(err instanceof Error ? err.message : "");
    return position ? `syntax error at character ${position[1]}` : "syntax error";
}

export function readStackExport(file: string): StackExportFile {
    let text: string;
    try {
        text = fs.readFileSync(file, "utf8");
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (err as Error).message;
        throw new UsageError(`cannot read stack export ${file}: ${why}`);
    }
    let doc: unknown;
    try {
        doc = JSON.parse(text);
    } catch (err) {
        throw new UsageError(`stack export ${file} is not valid JSON (${jsonErrorWhere(err)})`);
    }
    const shape = 'expected the output of `pulumi stack export` ({ "version": 3, "deployment": { "resources": [...] } }) or a file written by --record';
    if (!isObject(doc)) {
        throw new UsageError(`${file} is not a stack export: the top level is not a JSON object; ${shape}`);
    }
    if (doc.kind === DIGEST_KIND) {
        throw new UsageError(digestNotExport(file));
    }
    const deployment = isObject(doc.deployment) ? doc.deployment : doc;
    const list = deployment.resources;
    // `pulumi stack export` of a stack that never deployed anything has no resources key: an
    // empty stack is checked (no violations), so a new stack does not fail CI.
    const resourceList = list === undefined && isObject(doc.deployment) ? [] : list;
    if (!Array.isArray(resourceList)) {
        throw new UsageError(`${file} is not a stack export: no deployment.resources list; ${shape}`);
    }
    if (doc.version !== undefined && (typeof doc.version !== "number" || doc.version < 1 || doc.version > 3)) {
        throw new UsageError(`${file}: unsupported stack export version ${JSON.stringify(doc.version)} (perfguard reads versions 1 to 3)`);
    }
    const counter: SecretCounter = { redacted: 0, fromRecord: 0 };
    const resources: RecordedResource[] = [];
    const encryptedFacts: string[] = [];
    let pendingDeletes = 0;
    let stack = "";
    let project = "";
    resourceList.forEach((item, i) => {
        if (!isObject(item) || typeof item.urn !== "string" || typeof item.type !== "string") {
            throw new UsageError(`${file} is not a stack export: deployment.resources[${i}] has no string "urn" and "type"`);
        }
        const match = /^urn:pulumi:([^:]*)::([^:]*)::/.exec(item.urn);
        if (!match) {
            throw new UsageError(`${file}: deployment.resources[${i}].urn is not a Pulumi URN (urn:pulumi:<stack>::<project>::<type>::<name>)`);
        }
        if (item.delete === true) {
            pendingDeletes += 1; // pending deletion: the engine does not analyze it
            return;
        }
        stack ||= match[1];
        project ||= match[2];
        const inputs = bag(item.inputs, counter);
        const outputs = bag(item.outputs, counter);
        if (factsEncrypted(inputs) || factsEncrypted(outputs)) {
            encryptedFacts.push(urnName(item.urn));
        }
        resources.push({
            urn: item.urn,
            type: item.type,
            name: urnName(item.urn),
            custom: item.custom === true,
            parent: typeof item.parent === "string" ? item.parent : "",
            inputs,
            outputs,
            dependencies: strings(item.dependencies),
            propertyDependencies: Object.fromEntries(
                Object.entries(isObject(item.propertyDependencies) ? item.propertyDependencies : {}).map(([k, v]) => [k, strings(v)]),
            ),
            ...(typeof item.provider === "string" && item.provider ? { provider: item.provider } : {}),
            options: optionsOf(item),
            ...(typeof item.sourcePosition === "string" && item.sourcePosition ? { sourcePosition: item.sourcePosition } : {}),
        });
    });
    return { resources, stack, project, pendingDeletes, redactedSecrets: counter.redacted, recordRedactedSecrets: counter.fromRecord, encryptedFacts };
}
