/**
 * Creates the folder an output goes to (`check --report`, `size --plot`, `diff --plot`), as
 * `mkdir -p` does, and fails fast with the reason. Not fs.mkdirSync's `recursive`: on Node 20 it
 * never returns for a folder that cannot be made under /proc (mkdir says ENOENT while the parent
 * exists, and it retries the parent for ever); here each missing level is made once, from the
 * nearest folder that exists, and the first refusal ends it.
 */
import * as fs from "fs";
import * as path from "path";
import { UsageError } from "./errors";

/** Why a path is not a folder: "missing", "file" (something else is there), or ok. */
function kind(p: string): "folder" | "missing" | "other" {
    try {
        return fs.statSync(p).isDirectory() ? "folder" : "other";
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // ENOTDIR: a file stands where a parent folder should be; the walk up finds it.
        if (code === "ENOENT" || code === "ENOTDIR") {
            return "missing";
        }
        throw err;
    }
}

/**
 * Makes `dir` and its missing parents. Output: nothing, or a sentence saying why not (the folder
 * that could not be made and the system's reason, a file in the way, or no write permission).
 */
export function makeFolder(dir: string): string | undefined {
    const target = path.resolve(dir);
    const missing: string[] = [];
    try {
        let at = target;
        for (let k = kind(at); k !== "folder"; k = kind(at)) {
            if (k === "other") {
                return `${at} is a file, not a folder`;
            }
            missing.push(at);
            const up = path.dirname(at);
            if (up === at) {
                break;
            }
            at = up;
        }
        for (const level of missing.reverse()) {
            fs.mkdirSync(level);
        }
        fs.accessSync(target, fs.constants.W_OK);
        return undefined;
    } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.syscall === "access") {
            return `${target} is not writable`;
        }
        return e.code ? `${e.code}: ${e.syscall ?? "mkdir"} ${e.path ?? target}` : e.message;
    }
}

/**
 * Makes the folder for an output, or throws UsageError (exit 2) in one line:
 * `cannot write <what> <given>: folder <dir> cannot be created (<why>)`.
 * @param what - the output's name in the message ("report", "plot", "plots to").
 */
export function ensureOutputFolder(dir: string, what: string, given: string): void {
    const why = makeFolder(dir);
    if (why !== undefined) {
        throw new UsageError(`cannot write ${what} ${given}: folder ${path.resolve(dir)} cannot be created or is not writable (${why})`);
    }
}
