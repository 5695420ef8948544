/**
 * `perfguard check <file>`: every policy, run by the real pack process over gRPC exactly as the
 * preview path runs it, on a stack export (existing state) or a preview's --record file.
 * Remediations are reported, not applied: the state is what it is (as the engine does for
 * existing state). Exit 1 on a mandatory violation.
 */
import * as fs from "fs";
import * as path from "path";
import { analyzeResources, explainTempFile, OpenedPack, openPack } from "../preview/analyzeResources";
import { Explanation, formatExplanation, readExplanation } from "../preview/explainReport";
import { PolicyConfigError } from "../preview/policyConfig";
import { formatPoliciesSection, formatRemediation, formatViolation } from "../preview/printViolations";
import { defaultPackDir } from "../preview/runPreview";
import { AppliedRemediation, ROOT_STACK_TYPE, Violation } from "../preview/types";
import type { AnalyzerInfo } from "../preview/packClient";
import { UsageError } from "./errors";
import { ensureOutputFolder } from "./outputFolder";
import { judgedStackView } from "./judgedView";
import { buildReport } from "./report";
import { readStackExport, StackExportFile } from "./stackExport";
import { escapeControl } from "../policies/pack/message";
import { buildResults, levelsOf, Results } from "./results/model";

export interface CheckOptions {
    /** The stack export or --record file. */
    file: string;
    /** --policy-pack-config file. */
    policyPackConfig?: string;
    /** Policy pack folder; default: this repository (the perfguard pack). */
    packDir?: string;
    explain: boolean;
    /** --report: Markdown file to write. */
    report?: string;
    /** Receives the pack's own log output (stderr). */
    log: (chunk: string) => void;
    /** Extra environment for the pack process (the fleet's PERFGUARD_INVENTORY). */
    env?: Record<string, string>;
    /** Build the results model (--format/--output other than text): passes need the pack's explanation. */
    results?: boolean;
    /** The program's folder relative to the repository root (an export's sourcePosition is relative to the project). */
    programRoot?: string;
}

export interface CheckResult {
    /** 1 on a mandatory violation, else 0. */
    exitCode: number;
    /** What `check` prints without --json. */
    text: string;
    /** What `check --json` prints. */
    json: Record<string, unknown>;
    /** With `results`: the verdicts every other format is written from. */
    results?: Results;
}

/**
 * Runs the check.
 * Input: CheckOptions. Output: CheckResult.
 * Throws UsageError (exit 2) for a missing or malformed file and for a bad
 * policy config, (exit 1) when the pack does not start or a policy fails.
 */
export async function runCheck(opts: CheckOptions): Promise<CheckResult> {
    const analyzed = await analyzeCheck(opts);
    return renderCheck(analyzed, analyzed.violations);
}

/** What the pack reported on one export, before it is rendered (a fleet check renders each stack after deduplicating causes). */
export interface AnalyzedCheck {
    readonly opts: CheckOptions;
    readonly exported: ReturnType<typeof readStackExport>;
    readonly violations: Violation[];
    readonly remediations: AppliedRemediation[];
    readonly explanation: Explanation | undefined;
    readonly info: AnalyzerInfo;
    readonly config: Awaited<ReturnType<typeof openPack>>["config"];
}

/** Runs the pack on one export (see runCheck). */
export async function analyzeCheck(opts: CheckOptions): Promise<AnalyzedCheck> {
    // Read the file first: a bad path fails at once, before the pack starts.
    const exported = readStackExport(opts.file);
    if (opts.report !== undefined) {
        // The folder is created (mkdir -p), as --plot's is: a report path names where it goes.
        ensureOutputFolder(path.dirname(path.resolve(opts.report)), "report", opts.report);
    }
    const explain = opts.explain || opts.results ? explainTempFile() : undefined;
    try {
        const opened = await openCheckPack(opts, exported, explain?.file);
        try {
            return await analyzeWithPack(opened, exported, opts, explain?.file);
        } finally {
            await opened.pack.close();
        }
    } finally {
        explain?.cleanup();
    }
}

/** The pack `check` runs, started and configured for `exported`'s project and stack. */
export async function openCheckPack(opts: Omit<CheckOptions, "file">, exported: StackExportFile, explainFile: string | undefined): Promise<OpenedPack> {
    return openPack({
        packDir: opts.packDir ?? defaultPackDir(),
        project: exported.project,
        stack: exported.stack,
        policyPackConfig: opts.policyPackConfig,
        log: opts.log,
        explainFile,
        ...(opts.env ? { env: opts.env } : {}),
    }).catch((err: unknown) => {
        // A config the CLI would refuse is a bad input file here: exit 2, as docs/cli.md says.
        throw err instanceof PolicyConfigError ? new UsageError(err.message) : err;
    });
}

/**
 * Analyzes one export with an opened pack (a fleet check reuses one pack for every stack:
 * cli/fleet.ts). `explainFile` is the pack's explain file, read (and emptied) for this stack.
 */
export async function analyzeWithPack(
    opened: OpenedPack,
    exported: StackExportFile,
    opts: CheckOptions,
    explainFile: string | undefined,
): Promise<AnalyzedCheck> {
    const { info, config } = opened;
    const { violations, remediations } = await analyzeResources(opened.pack, exported.resources, {
        remediating: opened.remediating,
        applyRemediations: false,
        fallbackStackUrn: `urn:pulumi:${exported.stack}::${exported.project}::${ROOT_STACK_TYPE}::${exported.project}-${exported.stack}`,
    });
    let explanation: Explanation | undefined;
    if (explainFile !== undefined) {
        explanation = readExplanation(
            explainFile,
            exported.resources.map((r) => r.urn),
        );
        fs.writeFileSync(explainFile, "");
    }
    return { opts, exported, violations, remediations, explanation, info, config };
}

/** Renders one analyzed export with `violations` (its own, or what is left of them after a fleet's deduplication). */
export function renderCheck(analyzed: AnalyzedCheck, violations: Violation[]): CheckResult {
    const { opts, exported, remediations, explanation, info, config } = analyzed;
    const mandatory = violations.filter((v) => v.enforcementLevel === "mandatory").length;
    const advisory = violations.filter((v) => v.enforcementLevel === "advisory").length;
    const exitCode = mandatory > 0 ? 1 : 0;

    let text = "";
    for (const r of remediations) {
        text += formatRemediation(r);
    }
    for (const v of violations) {
        text += formatViolation(v);
    }
    if (text !== "") {
        text += "\n";
    }
    // As the CLI shows `--policy-pack`: as given (pulumi preview --policy-pack ../pack prints
    // `(local: ../pack)`); the default pack, which the user named nowhere, by its absolute folder,
    // as the emulated preview names it.
    const localPath = opts.packDir ?? defaultPackDir();
    text += formatPoliciesSection([{ name: info.name, version: info.version, localPath }], violations, remediations);
    text +=
        `perfguard check ${opts.file}: ${exported.resources.length} resources (stack ${exported.stack}, project ${exported.project}): ` +
        `${mandatory} mandatory, ${advisory} advisory violation${advisory === 1 ? "" : "s"}` +
        `${remediations.length > 0 ? `, ${remediations.length} remediation${remediations.length === 1 ? "" : "s"} reported (not applied: this is existing state)` : ""}.\n`;
    if (exported.pendingDeletes > 0) {
        text += `${exported.pendingDeletes} resource(s) pending deletion were not checked, as the engine does not analyze them.\n`;
    }
    if (exported.redactedSecrets > 0) {
        // A preview's --record redacts secrets itself (no key to decrypt with); say which it was.
        const fromRecord = exported.recordRedactedSecrets === exported.redactedSecrets;
        text += fromRecord
            ? `${exported.redactedSecrets} secret value(s), redacted by the preview's --record, were checked as "[secret]"`
            : `${exported.redactedSecrets} encrypted secret value(s) were checked as "[secret]", as \`pulumi policy analyze\` does without the stack's secrets provider`;
        const remedy = fromRecord ? "record with --show-secrets to check them" : "export with --show-secrets to check them";
        const facts = exported.encryptedFacts;
        text +=
            facts.length > 0
                ? `; the perfguard facts of ${facts.length} resource(s) (${facts
                      .slice(0, 3)
                      .map((n) => `"${escapeControl(n)}"`)
                      .join(", ")}${facts.length > 3 ? ", ..." : ""}) are among them and count as not checked: ${remedy}.\n`
                : `: ${remedy}.\n`;
    }
    if (explanation && opts.explain) {
        text += "\n" + formatExplanation(explanation);
    }
    if (opts.report !== undefined) {
        fs.writeFileSync(
            opts.report,
            buildReport({
                file: opts.file,
                packName: info.name,
                packVersion: info.version,
                resources: exported.resources,
                violations,
                config,
                // The shared objects' figures with the other stacks the pack read (PERFGUARD_INVENTORY).
                stack: judgedStackView(exported.resources),
            }),
        );
        text += `\nReport written to ${opts.report}.\n`;
    }
    const results = opts.results
        ? buildResults({
              pack: info,
              levels: levelsOf(config),
              violations,
              resources: exported.resources,
              explanation,
              programRoot: opts.programRoot ?? "",
          })
        : undefined;
    return {
        exitCode,
        text,
        ...(results ? { results } : {}),
        json: {
            command: "check",
            file: opts.file,
            stack: exported.stack,
            project: exported.project,
            resources: exported.resources.length,
            pendingDeletes: exported.pendingDeletes,
            redactedSecrets: exported.redactedSecrets,
            exitCode,
            mandatory,
            advisory,
            violations,
            remediations,
            ...(explanation && opts.explain ? { explanation } : {}),
            ...(opts.report !== undefined ? { report: opts.report } : {}),
        },
    };
}
