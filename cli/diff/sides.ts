/**
 * Reads one side of `perfguard diff`: a `pulumi stack export` file, a preview's `--record` file
 * (the same shape), or the JSON `pulumi preview --json` prints (`{ steps, diagnostics, ... }`:
 * each step's `newState` is the resource as the deployment would hold it; unknowns are the
 * engine's sentinel string, secrets "[secret]"). A preview's new states become the resources of
 * an export-shaped document, read by the same reader as `check` (cli/stackExport.ts), so both
 * kinds of side reach the pack and the evaluations alike.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { UsageError } from "../errors";
import { jsonErrorWhere, readStackExport, StackExportFile } from "../stackExport";

/** The sentinel a preview prints for a value known only after apply. */
export const UNKNOWN_SENTINEL = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type SideKind = "stack export" | "preview --json";

export interface Side extends StackExportFile {
    readonly file: string;
    readonly kind: SideKind;
    /** Property values unknown in this side (preview: known after apply). */
    readonly unknownValues: number;
}

// Steps whose newState is not part of the new deployment.
const GONE = new Set(["delete", "delete-replaced", "discard", "discard-replaced", "remove-pending-replace", "read-discard"]);

function isObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

function countUnknowns(value: unknown): number {
    if (value === UNKNOWN_SENTINEL) {
        return 1;
    }
    if (Array.isArray(value)) {
        return value.reduce((t: number, v) => t + countUnknowns(v), 0);
    }
    if (isObject(value)) {
        let t = 0;
        for (const v of Object.values(value)) {
            t += countUnknowns(v);
        }
        return t;
    }
    return 0;
}

/**
 * The new deployment a preview describes, in the shape of a stack export: one resource per URN
 * (the last step with a newState wins: a replacement's create-replacement and replace steps carry
 * the same new state), outputs as the preview gives them or, for a create (no outputs), the
 * inputs (a bridged provider's preview result holds the inputs, unknown where computed).
 */
export function previewToExport(doc: { steps: unknown[] }): { version: 3; deployment: { resources: Record<string, unknown>[] } } {
    const byUrn = new Map<string, Record<string, unknown>>();
    const gone = new Set<string>();
    for (const step of doc.steps) {
        if (!isObject(step) || typeof step.urn !== "string") {
            continue;
        }
        const op = typeof step.op === "string" ? step.op : "";
        if (GONE.has(op) || !isObject(step.newState)) {
            if (GONE.has(op) && !byUrn.has(step.urn)) {
                gone.add(step.urn);
            }
            continue;
        }
        const state = step.newState;
        const inputs = isObject(state.inputs) ? state.inputs : {};
        byUrn.delete(step.urn); // keep the order of the last step for this URN
        byUrn.set(step.urn, {
            ...state,
            urn: step.urn,
            type: typeof state.type === "string" ? state.type : "",
            inputs,
            outputs: isObject(state.outputs) && Object.keys(state.outputs).length > 0 ? state.outputs : inputs,
        });
        gone.delete(step.urn);
    }
    return { version: 3, deployment: { resources: [...byUrn.values()] } };
}

/**
 * Reads a side.
 * @param file - the path as given.
 * @returns the resources the pack and the evaluations get, with the side's kind.
 * Throws UsageError (exit 2) for a file that is none of the three shapes, naming which it expected.
 */
export function readSide(file: string): Side {
    let text: string;
    try {
        text = fs.readFileSync(file, "utf8");
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new UsageError(`cannot read ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (err as Error).message}`);
    }
    let doc: unknown;
    try {
        doc = JSON.parse(text);
    } catch (err) {
        throw new UsageError(`${file} is not valid JSON (${jsonErrorWhere(err)}): expected a stack export, a --record file or the output of pulumi preview --json`);
    }
    if (isObject(doc) && Array.isArray(doc.steps)) {
        const exported = previewToExport(doc as { steps: unknown[] });
        // The export reader checks every URN and type; it reads a file, so hand it one.
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-diff-"));
        const tmp = path.join(dir, "preview-export.json");
        try {
            fs.writeFileSync(tmp, JSON.stringify(exported));
            const read = readStackExport(tmp);
            return { ...read, file, kind: "preview --json", unknownValues: read.resources.reduce((t, r) => t + countUnknowns(r.outputs), 0) };
        } catch (err) {
            throw err instanceof UsageError ? new UsageError(err.message.split(tmp).join(`${file} (pulumi preview --json)`)) : err;
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }
    const read = readStackExport(file);
    return { ...read, file, kind: "stack export", unknownValues: read.resources.reduce((t, r) => t + countUnknowns(r.outputs), 0) };
}
