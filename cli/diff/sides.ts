/**
 * Reads one side of `perfguard diff`: a `pulumi stack export` file, a preview's `--record` file
 * (the same shape), or the JSON `pulumi preview --json` prints (`{ steps, diagnostics, ... }`:
 * each changing step's `newState` is the resource as the deployment would hold it; unknowns are
 * the engine's sentinel string, secrets "[secret]"). A preview is applied over the base side and
 * the result read by the same reader as `check` (cli/stackExport.ts), so every side reaches the
 * pack and the evaluations alike.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { UsageError } from "../errors";
import type { RecordedResource } from "../../preview/types";
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

// Steps about the old copy of a replaced resource or a read: the new state keeps the resource.
const KEEPS = new Set(["delete-replaced", "discard-replaced", "remove-pending-replace", "read-discard", "discard"]);

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

/** A read resource back in the export shape (its values already unwrapped: secrets stay as read). */
function exported(r: RecordedResource): Record<string, unknown> {
    return {
        urn: r.urn,
        custom: r.custom,
        type: r.type,
        inputs: r.inputs,
        outputs: r.outputs,
        parent: r.parent,
        dependencies: r.dependencies,
        propertyDependencies: r.propertyDependencies,
        ...(r.provider ? { provider: r.provider } : {}),
        protect: r.options.protect,
        ignoreChanges: r.options.ignoreChanges,
        additionalSecretOutputs: r.options.additionalSecretOutputs,
    };
}

/**
 * The new deployment a preview describes, in the shape of a stack export. `pulumi preview --json`
 * lists only the steps that change something (CLI 3.274: its changeSummary counts the unchanged
 * resources, its steps omit them), so the new state is the deployed state `over` with each step
 * applied: a create, update or replacement sets the resource's new state, a delete removes it.
 * Outputs: an update keeps the deployed outputs under its new inputs (what a bridged provider's
 * preview returns: inputs, with computed values as they were); a create has no outputs in a
 * preview, so its inputs stand for them (unknown where computed).
 */
export function previewToExport(
    doc: { steps: unknown[] },
    over: readonly RecordedResource[],
): { version: 3; deployment: { resources: Record<string, unknown>[] } } {
    const byUrn = new Map<string, Record<string, unknown>>(over.map((r) => [r.urn, exported(r)]));
    for (const step of doc.steps) {
        if (!isObject(step) || typeof step.urn !== "string") {
            continue;
        }
        const op = typeof step.op === "string" ? step.op : "";
        if (op === "delete") {
            byUrn.delete(step.urn);
            continue;
        }
        if (KEEPS.has(op) || !isObject(step.newState)) {
            continue;
        }
        const state = step.newState;
        const inputs = isObject(state.inputs) ? state.inputs : {};
        const before = byUrn.get(step.urn);
        const previous = before && isObject(before.outputs) ? before.outputs : {};
        const outputs =
            isObject(state.outputs) && Object.keys(state.outputs).length > 0
                ? state.outputs
                : op === "create" || op === "create-replacement" || op === "replace"
                  ? inputs
                  : { ...previous, ...inputs };
        byUrn.set(step.urn, { ...state, urn: step.urn, type: typeof state.type === "string" ? state.type : "", inputs, outputs });
    }
    return { version: 3, deployment: { resources: [...byUrn.values()] } };
}

/**
 * Reads a side.
 * @param file - the path as given.
 * @param over - the other side (base), which a `pulumi preview --json` side is applied over.
 * @returns the resources the pack and the evaluations get, with the side's kind.
 * Throws UsageError (exit 2) for a file that is none of the three shapes, naming which it expected.
 */
export function readSide(file: string, over?: Side): Side {
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
        throw new UsageError(
            `${file} is not valid JSON (${jsonErrorWhere(err)}): expected a stack export, a --record file or the output of pulumi preview --json`,
        );
    }
    if (isObject(doc) && Array.isArray(doc.steps)) {
        if (!over) {
            throw new UsageError(
                `${file} is the output of pulumi preview --json, which lists only the resources it changes: give it as head, with the deployed stack's export (or a --record file) as base`,
            );
        }
        const exported = previewToExport(doc as { steps: unknown[] }, over.resources);
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
