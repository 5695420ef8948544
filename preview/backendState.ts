/**
 * Reads stack state the way the Pulumi CLI's file ("diy") backend stores it
 * (pkg/backend/diy/store.go): the backend is PULUMI_BACKEND_URL, else the `current` backend of
 * `pulumi login` (<PULUMI_HOME>/credentials.json); a `file://<dir>` backend keeps each stack's
 * checkpoint in `<dir>/.pulumi/stacks/<project>/<stack>.json` (`.json.gz` when gzipped; the
 * legacy layout without projects: `<dir>/.pulumi/stacks/<stack>.json`). Also reads a
 * `pulumi stack export` file. Used for stack references and for the old URNs aliases match.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";
import { JsonValue, PropertyBag, ROOT_STACK_TYPE } from "./types";

/** The engine's signature key for secrets, and its value for a secret. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** One resource of a checkpoint or export. */
export interface StateResource {
    urn: string;
    type: string;
    outputs: PropertyBag;
}

/** A stack's state: found, not there (a stack never deployed), or not readable (with why). */
export type StackState = { kind: "found"; resources: StateResource[]; where: string } | { kind: "absent"; where: string } | { kind: "unreadable"; why: string };

/** The backend a `pulumi` command would use, from the environment: a file folder or why not. */
export function fileBackendDir(env: NodeJS.ProcessEnv = process.env): { dir: string } | { why: string } {
    let url = env.PULUMI_BACKEND_URL;
    if (!url) {
        const home = env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
        try {
            const credentials = JSON.parse(fs.readFileSync(path.join(home, "credentials.json"), "utf8")) as { current?: unknown };
            url = typeof credentials.current === "string" ? credentials.current : undefined;
        } catch {
            url = undefined;
        }
    }
    if (!url) {
        return { why: "no backend is set (PULUMI_BACKEND_URL or pulumi login)" };
    }
    if (!url.startsWith("file://")) {
        return { why: `the backend ${url.replace(/\?.*$/, "")} is not a file:// backend` };
    }
    // file://~ is the home folder; query parameters (e.g. ?no_tmp_dir) do not change the folder.
    let dir = decodeURIComponent(url.slice("file://".length).replace(/\?.*$/, ""));
    if (dir === "~" || dir.startsWith("~/")) {
        dir = path.join(os.homedir(), dir.slice(1));
    }
    return { dir: dir || "/" };
}

/**
 * Parses a stack name as the file backend does: `stack`, `organization/stack` or
 * `organization/project/stack` (the organization must be "organization"), the project defaulting
 * to `currentProject`. Output: { project, stack } or the reason it is not a file-backend name.
 */
export function parseStackName(name: string, currentProject: string): { project: string; stack: string } | { why: string } {
    const parts = name.split("/");
    if (parts.some((p) => p === "") || parts.length > 3) {
        return { why: `"${name}" is not a stack name` };
    }
    if (parts.length > 1 && parts[0] !== "organization") {
        return { why: `"${name}" names organization "${parts[0]}", and a file backend has only "organization"` };
    }
    return parts.length === 3 ? { project: parts[1], stack: parts[2] } : { project: currentProject, stack: parts[parts.length - 1] };
}

function readMaybeGzip(file: string): string {
    const bytes = fs.readFileSync(file);
    return (file.endsWith(".gz") ? zlib.gunzipSync(bytes) : bytes).toString("utf8");
}

/**
 * The resources of a checkpoint (`{ checkpoint: { latest: { resources } } }`) or of an export
 * (`{ deployment: { resources } }`). Throws when the text is neither.
 */
export function resourcesOfState(text: string): StateResource[] {
    const doc = JSON.parse(text) as { checkpoint?: { latest?: { resources?: unknown } }; deployment?: { resources?: unknown } };
    const list = doc.checkpoint ? (doc.checkpoint.latest?.resources ?? []) : doc.deployment?.resources;
    if (!Array.isArray(list)) {
        throw new Error("neither a checkpoint nor a stack export");
    }
    return list.flatMap((r: { urn?: unknown; type?: unknown; outputs?: unknown }) =>
        typeof r?.urn === "string" && typeof r.type === "string"
            ? [{ urn: r.urn, type: r.type, outputs: (r.outputs && typeof r.outputs === "object" ? r.outputs : {}) as PropertyBag }]
            : [],
    );
}

/** Reads a stack's checkpoint from the file backend, as `pulumi` would find it. */
export function readBackendStack(project: string, stack: string, env: NodeJS.ProcessEnv = process.env): StackState {
    const backend = fileBackendDir(env);
    if ("why" in backend) {
        return { kind: "unreadable", why: backend.why };
    }
    const stacks = path.join(backend.dir, ".pulumi", "stacks");
    const candidates = [path.join(stacks, project, stack), path.join(stacks, stack)].flatMap((base) => [`${base}.json`, `${base}.json.gz`, `${base}.json.zst`]);
    const file = candidates.find((f) => fs.existsSync(f));
    if (!file) {
        return { kind: "absent", where: path.join(stacks, project, `${stack}.json`) };
    }
    if (file.endsWith(".zst")) {
        return { kind: "unreadable", why: `${file} is zstd-compressed` };
    }
    try {
        return { kind: "found", resources: resourcesOfState(readMaybeGzip(file)), where: file };
    } catch (err) {
        return { kind: "unreadable", why: `${file}: ${(err as Error).message}` };
    }
}

/** Reads a `pulumi stack export` (or checkpoint) file given on the command line. */
export function readExportFile(file: string): StackState {
    try {
        return { kind: "found", resources: resourcesOfState(readMaybeGzip(file)), where: file };
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return { kind: "unreadable", why: `${file}: ${code === "ENOENT" ? "no such file" : (err as Error).message}` };
    }
}

function isSecret(value: JsonValue): value is { [key: string]: JsonValue } {
    return value !== null && typeof value === "object" && !Array.isArray(value) && value[SIG_KEY] === SECRET_SIG;
}

/**
 * A stack's outputs (its root stack resource's outputs) as a StackReference reads them.
 * Output: the values, the names of secret outputs, and the names whose values are encrypted
 * (state secrets stay ciphertext here: their outputs are left out, so they are unknown).
 */
export function stackOutputs(resources: readonly StateResource[]): { outputs: PropertyBag; secretNames: string[]; encrypted: string[] } {
    const root = resources.find((r) => r.type === ROOT_STACK_TYPE);
    const outputs: PropertyBag = {};
    const secretNames: string[] = [];
    const encrypted: string[] = [];
    for (const [key, value] of Object.entries(root?.outputs ?? {})) {
        if (isSecret(value)) {
            secretNames.push(key);
            if (typeof value.plaintext === "string") {
                outputs[key] = JSON.parse(value.plaintext) as JsonValue;
            } else {
                encrypted.push(key);
            }
        } else {
            outputs[key] = value;
        }
    }
    return { outputs, secretNames: secretNames.sort(), encrypted: encrypted.sort() };
}
