/**
 * Reads the inventory's sources: a `pulumi stack export` file, a folder of them (its `*.json`
 * files), a DIY backend's `file://` URL (its stack checkpoints, read-only), or a digest written by
 * `perfguard inventory`. O(size of the sources); never throws: what cannot be read is an error
 * naming its source. Secrets are never kept (SECRET_MARK), whatever the export holds.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";
import { entriesOfDigestFile, isDigestV3 } from "./digestFile";
import { inventoryResource } from "./stateResource";
export { inventoryResource, withoutSecrets } from "./stateResource";
import { DIGEST_KIND, Inventory, InventoryDuplicate, InventoryEntry, InventoryError, InventoryResource } from "./types";

/** The deployment (checkpoint) versions Pulumi has written: 1 to 3. */
const KNOWN_VERSIONS = [1, 2, 3];
/** The stack and project a URN (`urn:pulumi:<stack>::<project>::<type>::<name>`) names, or undefined for a string that is no Pulumi URN. */
export function urnStack(urn: string): { stack: string; project: string } | undefined {
    if (!urn.startsWith("urn:pulumi:")) {
        return undefined;
    }
    const parts = urn.slice("urn:pulumi:".length).split("::");
    return parts.length >= 3 && parts[0] && parts[1] ? { stack: parts[0], project: parts[1] } : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
    return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * The entry of one deployment (`deployment` of an export, `checkpoint.latest` of a backend file);
 * undefined for a deployment with no resources that names no stack (`pulumi stack export` of a
 * stack never deployed or destroyed, which `pulumi stack ls --all` lists too): it adds no load.
 */
function entryOf(deployment: unknown, source: string, stackName: string | undefined): InventoryEntry | InventoryError | undefined {
    if (!isRecord(deployment)) {
        return { source, problem: "no deployment in it (not a stack export or checkpoint)" };
    }
    const list = deployment.resources ?? [];
    if (!Array.isArray(list)) {
        return { source, problem: "its deployment's resources are not a list" };
    }
    const resources: InventoryResource[] = [];
    for (const raw of list) {
        const r = inventoryResource(raw);
        if (r) {
            resources.push(r);
        }
    }
    const named = resources.map((r) => urnStack(r.urn)).find((s) => s !== undefined);
    // Without resources, the checkpoint's stack name (`org/project/stack` or `stack`) is all there is.
    const parts = stackName?.split("/") ?? [];
    const project = named?.project ?? (parts.length === 3 ? parts[1] : undefined);
    const stack = named?.stack ?? parts[parts.length - 1];
    if (!project || !stack) {
        return resources.length === 0 ? undefined : { source, problem: "neither its resources' URNs nor its checkpoint name the project and stack" };
    }
    const manifest = deployment.manifest;
    const time = isRecord(manifest) && typeof manifest.time === "string" && !Number.isNaN(Date.parse(manifest.time)) ? manifest.time : undefined;
    // A URN of another stack in the same deployment is no state Pulumi writes: keep only the stack's own.
    const own = resources.filter((r) => {
        const s = urnStack(r.urn);
        return s === undefined || (s.project === project && s.stack === stack);
    });
    return { project, stack, source, resources: own, ...(time ? { time } : {}) };
}

function versionProblem(version: unknown): string | undefined {
    return typeof version === "number" && KNOWN_VERSIONS.includes(version)
        ? undefined
        : `its version ${JSON.stringify(version)?.slice(0, 20) ?? "(none)"} is not one perfguard reads (${KNOWN_VERSIONS.join(", ")})`;
}

function isStringList(v: unknown): v is string[] {
    return Array.isArray(v) && v.every((k) => typeof k === "string");
}

/** A digest stack's index, when it is well formed (else the entry's resources are indexed afresh). */
function digestIndex(v: unknown): InventoryEntry["index"] {
    return isRecord(v) && isStringList(v.keys) && Array.isArray(v.objects) && v.objects.every(isStringList) ? { keys: v.keys, objects: v.objects } : undefined;
}

/**
 * A digest read whole: version 1 or 2 (each stack with its resources), or a version 3 parsed as
 * one document (gzipped, so not readable in part: its `slices` hold each stack's index and resources).
 */
function entriesOfDigest(doc: Record<string, unknown>, source: string): Array<InventoryEntry | InventoryError> {
    const v3 = doc.version === 3;
    if ((doc.version !== 1 && doc.version !== 2 && !v3) || !Array.isArray(doc.stacks) || (v3 && !Array.isArray(doc.slices))) {
        return [{ source, problem: `a digest of an unknown version ${JSON.stringify(doc.version)?.slice(0, 20)} (perfguard reads versions 1 to 3)` }];
    }
    const slices = v3 ? (doc.slices as unknown[]) : [];
    return doc.stacks.map((s, i): InventoryEntry | InventoryError => {
        const slice: unknown = v3 ? slices[i] : s;
        if (!isRecord(s) || typeof s.project !== "string" || typeof s.stack !== "string" || !isRecord(slice) || !Array.isArray(slice.resources)) {
            return { source, problem: `stack ${i} of the digest has no project, stack or resources` };
        }
        const time = typeof s.time === "string" && !Number.isNaN(Date.parse(s.time)) ? s.time : undefined;
        const index = digestIndex(slice.index);
        const raw = slice.resources;
        // With its index, a stack's resources are copied (secrets made opaque) only when a preview touches it.
        let resources: InventoryResource[] | undefined;
        const entry = { project: s.project, stack: s.stack, source, ...(time ? { time } : {}), ...(index ? { index } : {}) };
        return Object.defineProperty(entry, "resources", {
            enumerable: true,
            get: () => (resources ??= raw.map(inventoryResource).filter((r): r is InventoryResource => r !== undefined)),
        }) as InventoryEntry;
    });
}

/** Reads one parsed document: an export, a backend checkpoint, or a digest. */
export function entriesOfDocument(doc: unknown, source: string): Array<InventoryEntry | InventoryError> {
    if (!isRecord(doc)) {
        return [{ source, problem: "not a JSON object" }];
    }
    if (doc.kind === DIGEST_KIND) {
        return entriesOfDigest(doc, source);
    }
    if ("checkpoint" in doc) {
        const problem = versionProblem(doc.version);
        const checkpoint = doc.checkpoint;
        if (problem) {
            return [{ source, problem }];
        }
        if (!isRecord(checkpoint)) {
            return [{ source, problem: "its checkpoint is not an object" }];
        }
        if ((checkpoint.latest === undefined || checkpoint.latest === null) && typeof checkpoint.stack === "string") {
            return []; // a stack never deployed: nothing of it is deployed
        }
        const entry = entryOf(checkpoint.latest, source, typeof checkpoint.stack === "string" ? checkpoint.stack : undefined);
        return entry ? [entry] : [];
    }
    if ("deployment" in doc) {
        const problem = versionProblem(doc.version);
        const entry = problem ? { source, problem } : entryOf(doc.deployment, source, undefined);
        return entry ? [entry] : [];
    }
    return [{ source, problem: "not a stack export (no deployment), a backend checkpoint or a perfguard inventory digest" }];
}

/** The first bytes of a file (to tell a version 3 digest, read in part, from a document read whole). */
function headOf(file: string): Buffer {
    const fd = fs.openSync(file, "r");
    try {
        const head = Buffer.alloc(64);
        return head.subarray(0, fs.readSync(fd, head, 0, head.length, 0));
    } finally {
        fs.closeSync(fd);
    }
}

/**
 * Reads and parses one file (gzipped or not, by its magic bytes); a version 3 digest in part
 * (digestFile.ts), its later read errors going to `late`.
 */
export function entriesOfFile(file: string, source = file, late: InventoryError[] = []): Array<InventoryEntry | InventoryError> {
    let text: string;
    try {
        if (isDigestV3(headOf(file))) {
            return entriesOfDigestFile(file, source, late);
        }
        let bytes = fs.readFileSync(file);
        if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
            bytes = zlib.gunzipSync(bytes);
        }
        text = bytes.toString("utf8");
    } catch (e) {
        return [{ source, problem: `cannot be read (${e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.name) : "error"})` }];
    }
    let doc: unknown;
    try {
        doc = JSON.parse(text);
    } catch (e) {
        // The parser's message names a position, never the text around it: nothing of a secret.
        return [{ source, problem: `is not valid JSON (${e instanceof Error ? e.message.replace(/"[^"]*"/g, "…").slice(0, 80) : "parse error"})` }];
    }
    return entriesOfDocument(doc, source);
}

function listDir(dir: string): fs.Dirent[] {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A checkpoint file of a DIY backend: `<stack>.json` or `<stack>.json.gz` (no .bak, no .attrs). */
function isCheckpoint(name: string): boolean {
    return name.endsWith(".json") || name.endsWith(".json.gz");
}

/** The folder a `file://` backend URL names (`~` is the home folder; a query string is ignored). */
export function backendRoot(url: string): string {
    const root = decodeURIComponent(url.slice("file://".length).split("?")[0]);
    return root === "~" || root.startsWith("~/") ? path.join(os.homedir(), root.slice(1)) : root;
}

/**
 * The stack checkpoint files of a DIY backend: `.pulumi/stacks/<project>/<stack>.json[.gz]`, and
 * the older layout `.pulumi/stacks/<stack>.json[.gz]` (one stack written both ways: the newer
 * file). History, backups, locks, `.attrs` and `.bak` are not read. Throws on an unreadable folder.
 * @returns the files, sorted; undefined when the folder has no `.pulumi/stacks`.
 */
export function checkpointFiles(url: string): string[] | undefined {
    const stacks = path.join(backendRoot(url), ".pulumi", "stacks");
    if (!fs.existsSync(stacks) || !fs.statSync(stacks).isDirectory()) {
        return undefined;
    }
    const files: string[] = [];
    const readIn = (dir: string) => {
        const byStack = new Map<string, string>();
        for (const e of listDir(dir)) {
            if (!e.isFile() || !isCheckpoint(e.name)) {
                continue;
            }
            const stack = e.name.replace(/\.json(\.gz)?$/, "");
            const file = path.join(dir, e.name);
            const other = byStack.get(stack);
            if (!other || fs.statSync(file).mtimeMs > fs.statSync(other).mtimeMs) {
                byStack.set(stack, file);
            }
        }
        files.push(...byStack.values());
    };
    readIn(stacks);
    for (const e of listDir(stacks)) {
        if (e.isDirectory()) {
            readIn(path.join(stacks, e.name));
        }
    }
    return files.sort();
}

/** Reads a DIY backend's stacks (checkpointFiles), read-only. */
function entriesOfBackend(url: string, late: InventoryError[]): Array<InventoryEntry | InventoryError> {
    try {
        const files = checkpointFiles(url);
        if (!files) {
            return [
                {
                    source: url,
                    problem: path.isAbsolute(backendRoot(url))
                        ? "has no .pulumi/stacks folder (not a DIY backend, or no stack in it)"
                        : "has no .pulumi/stacks folder in the policy pack's folder, where a relative file:// URL is read: give an absolute path",
                },
            ];
        }
        const root = backendRoot(url);
        return files.flatMap((file) => entriesOfFile(file, `${url} (${path.relative(root, file)})`, late));
    } catch (e) {
        return [{ source: url, problem: `cannot be read (${e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.name) : "error"})` }];
    }
}

/**
 * `spec` with each relative path made absolute against `cwd`. The pack runs in its own folder (the
 * CLI starts it there), so a relative source would be read from the pack's folder, not the user's:
 * `perfguard check` and `diff` hand the pack absolute paths.
 */
export function absoluteSources(spec: string, cwd: string): string {
    return spec
        .split(",")
        .map((s) => s.trim())
        .map((s) => (s.startsWith("file://") ? absoluteBackend(s, cwd) : s === "" || path.isAbsolute(s) ? s : path.resolve(cwd, s)))
        .join(",");
}

/** A `file://` backend URL whose path is relative (`file://./state`, as Pulumi accepts) made absolute against `cwd`; others kept. */
function absoluteBackend(url: string, cwd: string): string {
    const root = backendRoot(url);
    if (path.isAbsolute(root)) {
        return url;
    }
    const query = url.indexOf("?");
    return `file://${path.resolve(cwd, root)}${query >= 0 ? url.slice(query) : ""}`;
}

/** Why a source cannot be read; for a relative path that does not exist, where the pack looked. */
function unreadable(source: string, e: unknown): string {
    const code = e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.name) : "error";
    return code === "ENOENT" && !path.isAbsolute(source)
        ? "cannot be read (ENOENT; read from the policy pack's folder: give an absolute path)"
        : `cannot be read (${code})`;
}

/** Reads one source: a `file://` backend, a folder of `*.json` files, or a file (later read errors of a digest go to `late`). */
export function entriesOfSource(source: string, late: InventoryError[] = []): Array<InventoryEntry | InventoryError> {
    if (source.startsWith("file://")) {
        return entriesOfBackend(source, late);
    }
    let stat: fs.Stats;
    try {
        stat = fs.statSync(source);
    } catch (e) {
        return [{ source, problem: unreadable(source, e) }];
    }
    if (!stat.isDirectory()) {
        return entriesOfFile(source, source, late);
    }
    try {
        return listDir(source)
            .filter((e) => e.isFile() && e.name.endsWith(".json"))
            .flatMap((e) => entriesOfFile(path.join(source, e.name), path.join(source, e.name), late));
    } catch (e) {
        return [{ source, problem: `cannot be read (${e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.name) : "error"})` }];
    }
}

function newer(a: InventoryEntry, b: InventoryEntry): boolean {
    return (a.time ? Date.parse(a.time) : -Infinity) > (b.time ? Date.parse(b.time) : -Infinity);
}

/**
 * Reads every source of a comma-separated list. One project and stack read from two sources
 * keeps the newer deployment and names the other (never both: their loads would count twice).
 */
export function readInventory(spec: string): Inventory {
    const sources = spec
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
    const errors: InventoryError[] = [];
    const byStack = new Map<string, InventoryEntry>();
    const duplicates: InventoryDuplicate[] = [];
    // A version 3 digest's stacks are read on first use: what is wrong then is an error from then on.
    const late: InventoryError[] = [];
    for (const source of sources) {
        for (const item of entriesOfSource(source, late)) {
            if (!("resources" in item)) {
                errors.push(item);
                continue;
            }
            const key = `${item.project}\u0000${item.stack}`;
            const have = byStack.get(key);
            if (!have) {
                byStack.set(key, item);
                continue;
            }
            const keep = newer(item, have) ? item : have;
            const drop = keep === item ? have : item;
            byStack.set(key, keep);
            duplicates.push({ project: item.project, stack: item.stack, kept: keep.source, dropped: drop.source });
        }
    }
    if (sources.length === 0) {
        errors.push({ source: JSON.stringify(spec).slice(0, 80), problem: "names no source" });
    }
    const entries = [...byStack.values()].sort((a, b) => (a.project === b.project ? (a.stack < b.stack ? -1 : 1) : a.project < b.project ? -1 : 1));
    // `errors` is read when asked: a digest's stack line found bad while the merge reads it adds its error late.
    return {
        spec,
        entries,
        duplicates,
        get errors() {
            return late.length === 0 ? errors : [...errors, ...late];
        },
    };
}
