/**
 * `perfguard check` of several stacks as one fleet: stack exports, folders of them and DIY
 * `file://` backends. Each stack is checked as a preview of it would be, with every other stack
 * as its inventory (PERFGUARD_INVENTORY), so each shared object is judged with all its stacks'
 * load and each verdict lands on the stack that adds or changes it (docs/shared-capacity.md).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";
import { digestOf, encodeDigest } from "../policies/pack/inventory/digest";
import { checkpointFiles, readInventory } from "../policies/pack/inventory/read";
import { INVENTORY_ENV } from "../policies/pack/inventory/types";
import { explainTempFile } from "../preview/analyzeResources";
import { AnalyzedCheck, analyzeWithPack, CheckOptions, CheckResult, openCheckPack, renderCheck } from "./check";
import { UsageError } from "./errors";
import { dedupeCauses } from "./fleetCauses";
import { buildFleetReport } from "./fleetReport";
import { ensureOutputFolder } from "./outputFolder";
import { compareVerdicts, Results } from "./results/model";
import { readStackExport } from "./stackExport";

/**
 * The export files of `sources`: a file as it is, a folder's `*.json` files, a backend's
 * checkpoints written as exports into `tmp` (read-only: the backend is never written).
 */
export function fleetFiles(sources: readonly string[], tmp: string): string[] {
    const files: string[] = [];
    for (const source of sources) {
        if (source.startsWith("file://")) {
            const checkpoints = checkpointFiles(source);
            if (!checkpoints) {
                throw new UsageError(`${source} has no .pulumi/stacks folder (not a DIY backend, or no stack in it)`);
            }
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
                    const out = path.join(tmp, `${String(i).padStart(5, "0")}-${path.basename(file).replace(/\.gz$/, "")}`);
                    fs.writeFileSync(out, JSON.stringify({ version: doc.version ?? 3, deployment: doc.checkpoint.latest }));
                    files.push(out);
                }
            }
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
    if (files.length === 0) {
        throw new UsageError(`no stack export in ${sources.join(", ")}`);
    }
    return files;
}

/**
 * What each stack's pack reads as its inventory: one digest of the fleet (read and indexed once,
 * not every export by every pack); the files themselves when one cannot be read, so that each
 * pack names the unreadable source as PERFGUARD_INVENTORY would.
 */
function fleetInventory(files: readonly string[], tmp: string): string {
    const inventory = readInventory(files.join(","));
    if (inventory.errors.length > 0 || inventory.duplicates.length > 0) {
        return files.join(",");
    }
    const digest = path.join(tmp, "fleet-digest.json");
    fs.writeFileSync(digest, encodeDigest(digestOf(inventory, new Date())));
    return digest;
}

/**
 * Checks every stack of the fleet, each with the others as its inventory; exit 1 on any mandatory
 * violation. One pack process judges the stacks one after the other, each as its own preview: a
 * ConfigureStack for its project and stack starts it (the pack forgets what it reported once per
 * preview: policies/pack/configuredNames.ts), and the fleet's digest is read once, not per stack.
 */
export async function runFleetCheck(sources: readonly string[], opts: Omit<CheckOptions, "file" | "env">): Promise<CheckResult> {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-fleet-"));
    try {
        const files = fleetFiles(sources, tmp);
        const env = { [INVENTORY_ENV]: fleetInventory(files, tmp) };
        // Each export is read when its turn comes (a fleet's exports need not all be in memory at once).
        const first = readStackExport(files[0]);
        const explain = opts.explain || opts.results ? explainTempFile() : undefined;
        const analyzed: AnalyzedCheck[] = [];
        try {
            const opened = await openCheckPack({ ...opts, env }, first, explain?.file);
            try {
                for (const [i, file] of files.entries()) {
                    const exported = i === 0 ? first : readStackExport(file);
                    if (i > 0) {
                        await opened.pack.configureStack({ project: exported.project, stack: exported.stack, dryRun: true, config: {}, tags: {} });
                    }
                    // The fleet's report is written once, below, from every stack.
                    analyzed.push(await analyzeWithPack(opened, exported, { ...opts, report: undefined, file, env }, explain?.file));
                }
            } finally {
                await opened.pack.close();
            }
        } finally {
            explain?.cleanup();
        }
        // One cause, one verdict: a shared object's verdict is kept once across the stacks (fleetCauses.ts).
        const kept = dedupeCauses(analyzed.map((a) => ({ project: a.exported.project, stack: a.exported.stack, violations: a.violations })));
        const results = analyzed.map((a, i) => ({ file: a.opts.file, result: renderCheck(a, kept[i]) }));
        const exitCode = results.some((r) => r.result.exitCode !== 0) ? 1 : 0;
        const mandatory = results.reduce((n, r) => n + Number(r.result.json.mandatory ?? 0), 0);
        const advisory = results.reduce((n, r) => n + Number(r.result.json.advisory ?? 0), 0);
        let text =
            results.map((r) => r.result.text).join("\n") +
            `\nperfguard check (fleet of ${files.length} stacks, each judged with the others' load): ${mandatory} mandatory, ${advisory} advisory violation${advisory === 1 ? "" : "s"}.\n`;
        if (opts.report !== undefined) {
            ensureOutputFolder(path.dirname(path.resolve(opts.report)), "report", opts.report);
            fs.writeFileSync(opts.report, buildFleetReport(sources, analyzed, kept));
            text += `\nReport written to ${opts.report}.\n`;
        }
        const merged = mergeResults(results.map((r) => r.result.results));
        return {
            exitCode,
            text,
            ...(merged ? { results: merged } : {}),
            json: {
                command: "check",
                fleet: results.map((r) => r.result.json),
                exitCode,
                mandatory,
                advisory,
                ...(opts.report !== undefined ? { report: opts.report } : {}),
            },
        };
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

/** The fleet's results: every stack's verdicts in one document (each verdict's URN names its stack). */
function mergeResults(list: ReadonlyArray<Results | undefined>): Results | undefined {
    const present = list.filter((r): r is Results => r !== undefined);
    if (present.length === 0) {
        return undefined;
    }
    const rules = new Map(present.flatMap((r) => r.rules.map((rule) => [rule.id, rule] as const)));
    return {
        tool: present[0].tool,
        rules: [...rules.values()].sort((a, b) => a.id.localeCompare(b.id)),
        verdicts: present.flatMap((r) => r.verdicts).sort(compareVerdicts),
    };
}
