/**
 * What `perfguard check` of a fleet reads from its arguments, as PERFGUARD_INVENTORY reads a
 * source (policies/pack/inventory/read.ts): a file as it is, a folder's `*.json` files, a DIY
 * `file://` backend's checkpoints. A digest written by `perfguard inventory` among them (say
 * `exports/digest.json` beside the exports it was built from, or the organisation's digest given
 * with a team's exports) holds other stacks' load in compact form, not a stack to check: its
 * stacks join the fleet's inventory (their load counts on every shared object), are never
 * judged themselves, and a stack that is also an export of the fleet is read from the export.
 */
import * as fs from "fs";
import * as path from "path";
import * as zlib from "zlib";
import { checkpointFiles } from "../policies/pack/inventory/read";
import { DIGEST_KIND } from "../policies/pack/inventory/types";
import { UsageError } from "./errors";
import { digestNotExport } from "./stackExport";

/** The fleet's files: the exports to check, and the digests whose stacks only add load. */
export interface FleetFiles {
    readonly exports: string[];
    readonly digests: string[];
}

// A digest starts with its kind: every version perfguard wrote (JSON.stringify puts `kind` first).
const DIGEST_HEAD = new RegExp(`^\\s*\\{\\s*"kind"\\s*:\\s*"${DIGEST_KIND}"`);

/** True when `file` is a digest: its first bytes (gunzipped as far as they go) start one. */
export function isDigestFile(file: string): boolean {
    let head: Buffer;
    try {
        const fd = fs.openSync(file, "r");
        try {
            const buf = Buffer.alloc(512);
            head = buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0));
        } finally {
            fs.closeSync(fd);
        }
        if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
            head = zlib.gunzipSync(head, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
        }
    } catch {
        return false; // unreadable here: the export reader names the problem
    }
    return DIGEST_HEAD.test(head.toString("utf8"));
}

/** The backend's checkpoints, each written as an export into `tmp` (read-only: the backend is never written). */
function backendExports(source: string, tmp: string, first: number): string[] {
    const checkpoints = checkpointFiles(source);
    if (!checkpoints) {
        throw new UsageError(`${source} has no .pulumi/stacks folder (not a DIY backend, or no stack in it)`);
    }
    const out: string[] = [];
    for (const [i, file] of checkpoints.entries()) {
        let bytes = fs.readFileSync(file);
        if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
            bytes = zlib.gunzipSync(bytes);
        }
        let doc: { version?: unknown; checkpoint?: { latest?: unknown } };
        try {
            doc = JSON.parse(bytes.toString("utf8")) as typeof doc;
        } catch {
            throw new UsageError(`${source}: ${file} is not valid JSON`);
        }
        if (doc.checkpoint?.latest) {
            const name = path.join(tmp, `${String(first + i).padStart(5, "0")}-${path.basename(file).replace(/\.gz$/, "")}`);
            fs.writeFileSync(name, JSON.stringify({ version: doc.version ?? 3, deployment: doc.checkpoint.latest }));
            out.push(name);
        }
    }
    return out;
}

/**
 * The files of `sources`, exports and digests apart.
 * Throws UsageError (exit 2) when no export is left to check, naming a digest given alone.
 */
export function fleetFiles(sources: readonly string[], tmp: string): FleetFiles {
    const files: string[] = [];
    for (const source of sources) {
        if (source.startsWith("file://")) {
            files.push(...backendExports(source, tmp, files.length));
        } else if (fs.existsSync(source) && fs.statSync(source).isDirectory()) {
            files.push(
                ...fs
                    .readdirSync(source)
                    .filter((n) => n.endsWith(".json"))
                    .sort()
                    .map((n) => path.join(source, n)),
            );
        } else {
            files.push(source);
        }
    }
    // The same file given twice (a folder and a file in it, or a path twice) is one stack, read once.
    const seen = new Set<string>();
    const unique = files.filter((f) => {
        const key = path.resolve(f);
        return seen.has(key) ? false : (seen.add(key), true);
    });
    const digests = unique.filter(isDigestFile);
    const isDigest = new Set(digests);
    const exports = unique.filter((f) => !isDigest.has(f));
    if (exports.length === 0) {
        throw new UsageError(digests.length > 0 ? digestNotExport(digests[0]) : `no stack export in ${sources.join(", ")}`);
    }
    return { exports, digests };
}
