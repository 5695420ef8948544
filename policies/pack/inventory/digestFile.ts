/**
 * Reads a version 3 digest (digest.ts) in part: its header line and key table at once, a stack's
 * line only when a preview reaches it (candidates.ts, merge.ts). A preview against a fleet of a
 * thousand stacks parses the few stacks on its shared objects, not the fleet.
 *
 * Never throws. What is wrong with the header, the table or the file's length is an error naming
 * the file before anything of it is used (a cut or grown file: `bytes` no longer matches). A
 * stack's line that cannot be parsed when it is read, or a file changed since its header was read,
 * adds an error then (`lateErrors`): the merge reads the lines before perfguard-facts reports the
 * inventory's errors, so it is still a mandatory error, never a stack silently left out.
 */
import * as fs from "fs";
import { KeyTable, registerTabled } from "./candidates";
import { inventoryResource } from "./stateResource";
import { DIGEST_BODY, DIGEST_KIND, InventoryEntry, InventoryError, InventoryResource } from "./types";

/** The start of a version 3 digest: what tells it from a JSON document read whole. */
export const DIGEST_V3_PREFIX = `{"kind":"${DIGEST_KIND}","version":3,`;
/** A header larger than this is no digest perfguard wrote (about 100 bytes per stack). */
const MAX_HEADER_BYTES = 256 * 1024 * 1024;
const REBUILD = "rebuild it with perfguard inventory";

type Range = [number, number];
type Index = NonNullable<InventoryEntry["index"]>;

function isRecord(v: unknown): v is Record<string, unknown> {
    return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isStringList(v: unknown): v is string[] {
    return Array.isArray(v) && v.every((k) => typeof k === "string");
}

function isRange(v: unknown, bytes: number): v is Range {
    return Array.isArray(v) && v.length === 2 && v.every((n) => Number.isSafeInteger(n) && n >= 0) && (v[0] as number) + (v[1] as number) <= bytes;
}

function isIndex(v: unknown): v is Index {
    return isRecord(v) && isStringList(v.keys) && Array.isArray(v.objects) && v.objects.every(isStringList);
}

/**
 * True when the key table and the stacks' lines, in the header's order, tile the body with the
 * writer's punctuation between them (DIGEST_BODY): a header listing fewer, more or other stacks
 * than the body holds would otherwise drop a stack's load without a word.
 */
function tilesBody(tableAt: Range, stacks: readonly unknown[], body: number): boolean {
    let next = DIGEST_BODY.open.length;
    if (tableAt[0] !== next) {
        return false;
    }
    next += tableAt[1] + DIGEST_BODY.slices.length;
    for (let i = 0; i < stacks.length; i++) {
        const s = stacks[i];
        if (!isRecord(s) || !isRange(s.at, body) || s.at[0] !== next) {
            return false;
        }
        next = s.at[0] + s.at[1] + (i < stacks.length - 1 ? DIGEST_BODY.between : DIGEST_BODY.lastEnd).length;
    }
    return next + DIGEST_BODY.close.length === body;
}

/** The file as opened: what a later read checks it is still reading. */
interface Opened {
    readonly file: string;
    readonly source: string;
    readonly base: number;
    readonly size: number;
    readonly mtimeMs: number;
    readonly ino: number;
}

function errorCode(e: unknown): string {
    return e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.name) : "error";
}

/** Reads `length` bytes at `base + offset` of the file, if it is still the one whose header was read. */
function readRange(o: Opened, [offset, length]: Range): Buffer | string {
    let fd: number | undefined;
    try {
        fd = fs.openSync(o.file, "r");
        const st = fs.fstatSync(fd);
        if (st.size !== o.size || st.mtimeMs !== o.mtimeMs || st.ino !== o.ino) {
            return `changed while it was being read (written again?): read it again, or ${REBUILD}`;
        }
        const buf = Buffer.alloc(length);
        const got = fs.readSync(fd, buf, 0, length, o.base + offset);
        return got === length ? buf : `is cut (a stack's bytes end early): ${REBUILD}`;
    } catch (e) {
        return `cannot be read (${errorCode(e)})`;
    } finally {
        if (fd !== undefined) {
            fs.closeSync(fd);
        }
    }
}

/** The header line (without its newline), read in chunks; a problem when there is none. */
function headerLine(fd: number, size: number): Buffer | string {
    const chunks: Buffer[] = [];
    let read = 0;
    while (read < Math.min(size, MAX_HEADER_BYTES)) {
        const chunk = Buffer.alloc(Math.min(1 << 16, size - read));
        const got = fs.readSync(fd, chunk, 0, chunk.length, read);
        if (got <= 0) {
            break;
        }
        const nl = chunk.subarray(0, got).indexOf(0x0a);
        if (nl >= 0) {
            chunks.push(chunk.subarray(0, nl));
            return Buffer.concat(chunks);
        }
        chunks.push(chunk.subarray(0, got));
        read += got;
    }
    return `is cut or malformed (a version 3 digest with no complete header line): ${REBUILD}`;
}

/** One stack's line, parsed once: its index and resources (secrets opaque), or a problem. */
function stackLine(o: Opened, at: Range, ordinal: number): { index: Index; resources: InventoryResource[] } | string {
    const bytes = readRange(o, at);
    if (typeof bytes === "string") {
        return bytes;
    }
    let doc: unknown;
    try {
        doc = JSON.parse(bytes.toString("utf8"));
    } catch {
        return `has a stack (${ordinal}) that is not valid JSON: ${REBUILD}`;
    }
    if (!isRecord(doc) || !isIndex(doc.index) || !Array.isArray(doc.resources)) {
        return `has a stack (${ordinal}) with no index or resources: ${REBUILD}`;
    }
    const resources = doc.resources.map(inventoryResource).filter((r): r is InventoryResource => r !== undefined);
    return { index: { keys: doc.index.keys, objects: doc.index.objects }, resources };
}

/** Reads pairs of the key table at `at` (16 hex digits each) on demand; undefined when they cannot be read. */
function pairReader(o: Opened, at: Range): (first: number, count: number) => string | undefined {
    return (first, count) => {
        if (first < 0 || (first + count) * 16 > at[1]) {
            return undefined;
        }
        const bytes = readRange(o, [at[0] + first * 16, count * 16]);
        const text = typeof bytes === "string" ? undefined : bytes.toString("latin1");
        return text !== undefined && /^[0-9a-f]*$/.test(text) ? text : undefined;
    };
}

/**
 * The entries of a version 3 digest at `file`, each stack's resources and index read on first
 * use; `lateErrors` receives what a later read finds wrong (see the module comment).
 */
export function entriesOfDigestFile(file: string, source: string, lateErrors: InventoryError[]): Array<InventoryEntry | InventoryError> {
    let fd: number | undefined;
    let opened: Opened;
    let header: unknown;
    try {
        fd = fs.openSync(file, "r");
        const st = fs.fstatSync(fd);
        const line = headerLine(fd, st.size);
        if (typeof line === "string") {
            return [{ source, problem: line }];
        }
        const text = line.toString("utf8");
        try {
            header = text.endsWith(",") ? JSON.parse(`${text.slice(0, -1)}}`) : undefined;
        } catch {
            header = undefined;
        }
        opened = { file, source, base: line.length + 1, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
    } catch (e) {
        return [{ source, problem: `cannot be read (${errorCode(e)})` }];
    } finally {
        if (fd !== undefined) {
            fs.closeSync(fd);
        }
    }
    const body = opened.size - opened.base;
    if (!isRecord(header) || header.kind !== DIGEST_KIND || header.version !== 3 || !Array.isArray(header.stacks)) {
        return [{ source, problem: `has a malformed version 3 header: ${REBUILD}` }];
    }
    if (header.bytes !== body) {
        return [
            {
                source,
                problem: `is cut or was changed after it was written (${Math.max(body, 0)} bytes after its header, ${JSON.stringify(header.bytes)?.slice(0, 20)} written): ${REBUILD}`,
            },
        ];
    }
    if (!isRange(header.tableAt, body) || header.tableAt[1] % 16 !== 0) {
        return [{ source, problem: `has a malformed key table: ${REBUILD}` }];
    }
    if (!tilesBody(header.tableAt, header.stacks, body)) {
        return [{ source, problem: `has a header whose stacks do not match its body: ${REBUILD}` }];
    }
    const entries: InventoryEntry[] = [];
    const out: Array<InventoryEntry | InventoryError> = [];
    const table = new KeyTable(pairReader(opened, header.tableAt), header.tableAt[1] / 16, entries, () =>
        lateErrors.push({ source, problem: `has a key table that cannot be read (cut, or changed since it was opened): ${REBUILD}` }),
    );
    const o = opened;
    header.stacks.forEach((s: unknown, i: number) => {
        if (
            !isRecord(s) ||
            typeof s.project !== "string" ||
            typeof s.stack !== "string" ||
            !isRange(s.at, body) ||
            !Array.isArray(s.objects) ||
            !s.objects.every(isStringList)
        ) {
            out.push({ source, problem: `stack ${i} of the digest has no project, stack, objects or byte range` });
            return;
        }
        const time = typeof s.time === "string" && !Number.isNaN(Date.parse(s.time)) ? s.time : undefined;
        const at = s.at;
        // Held weakly: `perfguard check` of a fleet reads every stack in turn in one process, and
        // need not keep the fleet in memory (a stack read again is parsed again).
        let parsed: WeakRef<{ index: Index; resources: InventoryResource[] }> | undefined;
        let failed = false;
        const load = (): { index: Index; resources: InventoryResource[] } => {
            const have = failed ? undefined : parsed?.deref();
            if (have) {
                return have;
            }
            const line = failed ? "" : stackLine(o, at, i);
            if (typeof line === "string") {
                if (!failed) {
                    failed = true;
                    lateErrors.push({ source, problem: line });
                }
                return { index: { keys: [], objects: [] }, resources: [] };
            }
            parsed = new WeakRef(line);
            return line;
        };
        const entry = Object.defineProperties(
            { project: s.project, stack: s.stack, source, ...(time ? { time } : {}) },
            {
                resources: { enumerable: true, get: () => load().resources },
                index: { enumerable: true, get: () => load().index },
            },
        ) as InventoryEntry;
        entries[i] = entry;
        registerTabled(entry, table, s.objects);
        out.push(entry);
    });
    return out;
}

/** True when `head` (the file's first bytes) starts a version 3 digest. */
export function isDigestV3(head: Buffer): boolean {
    return head.subarray(0, DIGEST_V3_PREFIX.length).toString("utf8") === DIGEST_V3_PREFIX;
}
