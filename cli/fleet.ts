/**
 * `perfguard check` of several stacks as one fleet: stack exports, folders of them and DIY
 * `file://` backends. Each stack is checked as a preview of it would be, with every other stack
 * as its inventory (PERFGUARD_INVENTORY), so each shared object is judged with all its stacks'
 * load and each verdict lands on the stack that adds or changes it (docs/shared-capacity.md).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { digestOf, encodeDigest } from "../policies/pack/inventory/digest";
import { absoluteSources, readInventory } from "../policies/pack/inventory/read";
import { Inventory, InventoryEntry, INVENTORY_ENV } from "../policies/pack/inventory/types";
import { UsageError } from "./errors";
import { explainTempFile } from "../preview/analyzeResources";
import { AnalyzedCheck, analyzeWithPack, CheckOptions, CheckResult, openCheckPack, renderCheck } from "./check";
import { dedupeCauses } from "./fleetCauses";
import { buildFleetReport, fleetStackView } from "./fleetReport";
import { dedupeXenHosts, xenHostCauses } from "./fleetXen";
import { policyProps } from "../policies/pack/system";
import { FleetFiles, fleetFiles } from "./fleetSources";
import { ensureOutputFolder } from "./outputFolder";
import { compareVerdicts, Results } from "./results/model";
import { readStackExport } from "./stackExport";
import { plural } from "../policies/pack/format";
import { escapeControl } from "../policies/pack/message";

/** Project, then stack: the inventory's order. */
function byStack(a: InventoryEntry, b: InventoryEntry): number {
    return a.project === b.project ? (a.stack < b.stack ? -1 : 1) : a.project < b.project ? -1 : 1;
}

/**
 * What each stack's pack reads as its inventory: one digest of the fleet (read and indexed once,
 * not every export by every pack), with the stacks of the digests given that no export of the
 * fleet is (`digestOnly`: load only, cli/fleetSources.ts); the files themselves when one cannot
 * be read or a stack is read twice, so that each pack names the source as PERFGUARD_INVENTORY would.
 */
function fleetInventory(files: FleetFiles, tmp: string): { spec: string; digestOnly: InventoryEntry[] } {
    const exported = readInventory(files.exports.join(","));
    const digested = files.digests.length > 0 ? readInventory(files.digests.join(",")) : undefined;
    const exportedStacks = new Set(exported.entries.map((e) => `${e.project}\u0000${e.stack}`));
    const digestOnly = (digested?.entries ?? []).filter((e) => !exportedStacks.has(`${e.project}\u0000${e.stack}`));
    // Absolute: each stack's pack runs in the pack's folder and reads these paths from there.
    const spec = absoluteSources([...files.exports, ...files.digests].join(","), process.cwd());
    const inventory: Inventory = { spec, entries: [...exported.entries, ...digestOnly].sort(byStack), errors: [], duplicates: [] };
    // A version 3 digest's stacks are parsed as digestOf reads them: their errors are known after it.
    const encoded = encodeDigest(digestOf(inventory, new Date()));
    if ([exported, ...(digested ? [digested] : [])].some((i) => i.errors.length > 0 || i.duplicates.length > 0)) {
        return { spec, digestOnly: [] };
    }
    const digest = path.join(tmp, "fleet-digest.json");
    fs.writeFileSync(digest, encoded);
    return { spec: digest, digestOnly };
}

/**
 * Checks every stack of the fleet, each with the others as its inventory; exit 1 on any mandatory
 * violation. One pack process judges the stacks one after the other, each as its own preview: a
 * ConfigureStack for its project and stack starts it (the pack forgets what it reported once per
 * preview: policies/pack/configuredNames.ts), and the fleet's digest is read once, not per stack.
 */
export async function runFleetCheck(sources: readonly string[], opts: Omit<CheckOptions, "file" | "env">): Promise<CheckResult> {
    // The fleet is its own inventory: another one set beside it would be silently left out.
    if ((process.env[INVENTORY_ENV] ?? "").trim() !== "") {
        throw new UsageError(
            `${INVENTORY_ENV} is set, but a check of several stacks judges them with each other only: put the other stacks' exports or digest beside them (an argument, or the folder), or unset ${INVENTORY_ENV}`,
        );
    }
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-fleet-"));
    try {
        const { exports: files, digests } = fleetFiles(sources, tmp);
        const { spec, digestOnly } = fleetInventory({ exports: files, digests }, tmp);
        const env = { [INVENTORY_ENV]: spec };
        // Each export is read when its turn comes (a fleet's exports need not all be in memory at once).
        // An export with no resource (a stack never deployed, or destroyed: `pulumi stack ls --all`
        // lists it too) has nothing to check and adds no load: said once, below, and passed over.
        const empty: string[] = [];
        let at = 0;
        let first = readStackExport(files[0]);
        while (first.resources.length === 0 && at + 1 < files.length) {
            empty.push(files[at]);
            first = readStackExport(files[++at]);
        }
        if (first.resources.length === 0) {
            throw new UsageError(`no stack of the fleet has a resource (${plural(files.length, "export")} read): nothing to check`);
        }
        const explain = opts.explain || opts.results ? explainTempFile() : undefined;
        const analyzed: AnalyzedCheck[] = [];
        try {
            const opened = await openCheckPack({ ...opts, env }, first, explain?.file);
            try {
                for (const [i, file] of files.entries()) {
                    if (i < at) {
                        continue;
                    }
                    const exported = i === at ? first : readStackExport(file);
                    if (exported.resources.length === 0) {
                        empty.push(file);
                        continue;
                    }
                    if (i > at) {
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
        const stacks = analyzed.map((a) => ({ project: a.exported.project, stack: a.exported.stack, violations: a.violations }));
        // A Xen host's fix once too, each short guest keeping its verdict (fleetXen.ts), read from the fleet's one view.
        const view = fleetStackView(analyzed, digestOnly);
        const xenHosts = xenHostCauses(view, policyProps(analyzed[0].config, "xen-guest-network-share"));
        const kept = dedupeXenHosts(stacks, dedupeCauses(stacks), xenHosts);
        const results = analyzed.map((a, i) => ({ file: a.opts.file, result: renderCheck(a, kept[i]) }));
        const exitCode = results.some((r) => r.result.exitCode !== 0) ? 1 : 0;
        const mandatory = results.reduce((n, r) => n + Number(r.result.json.mandatory ?? 0), 0);
        const advisory = results.reduce((n, r) => n + Number(r.result.json.advisory ?? 0), 0);
        const emptyText =
            empty.length > 0
                ? `\n${empty.map((f) => `perfguard check ${f}: no resources (a stack never deployed, or destroyed): nothing to check or count.`).join("\n")}\n`
                : "";
        let text =
            results.map((r) => r.result.text).join("\n") +
            emptyText +
            `\nperfguard check (fleet of ${plural(analyzed.length, "stack")}, each judged with the others' load${loadOnlyText(digests, digestOnly)}): ${mandatory} mandatory, ${advisory} advisory violation${advisory === 1 ? "" : "s"}.\n`;
        if (opts.report !== undefined) {
            ensureOutputFolder(path.dirname(path.resolve(opts.report)), "report", opts.report);
            fs.writeFileSync(opts.report, buildFleetReport(sources, analyzed, kept, view));
            text += `\nReport written to ${opts.report}.\n`;
        }
        const merged = mergeResults(
            results.map((r, i) => ({ stack: `${analyzed[i].exported.project}/${analyzed[i].exported.stack}`, results: r.result.results })),
        );
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
                ...(digests.length > 0 ? { digests, loadOnly: digestOnly.map((e) => `${e.project}/${e.stack}`) } : {}),
                ...(opts.report !== undefined ? { report: opts.report } : {}),
            },
        };
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

/** The summary's note on the digests given: their stacks that are no export of the fleet count as load, unchecked. */
function loadOnlyText(digests: readonly string[], digestOnly: readonly InventoryEntry[]): string {
    if (digests.length === 0) {
        return "";
    }
    const stacks = digestOnly.map((e) => `${e.project}/${e.stack}`);
    const listed = stacks.length > 5 ? `${stacks.slice(0, 5).join(", ")} and ${stacks.length - 5} more` : stacks.join(", ");
    const named = `; digest ${digests.map((d) => escapeControl(d)).join(", ")}: `;
    return stacks.length === 0
        ? `${named}its stacks are all exports here, read from the exports`
        : `${named}${plural(stacks.length, "more stack")} counted as load, not checked (${escapeControl(listed)})`;
}

/**
 * The fleet's results: every stack's verdicts in one document, each with its stack (`project/stack`:
 * the JUnit, GitHub and Markdown writers name it, so stacks' same-named resources differ).
 */
export function mergeResults(list: ReadonlyArray<{ readonly stack: string; readonly results: Results | undefined }>): Results | undefined {
    const present = list.flatMap((r) => (r.results ? [{ ...r.results, verdicts: r.results.verdicts.map((v) => ({ ...v, stack: r.stack })) }] : []));
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
