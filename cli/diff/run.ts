/**
 * `perfguard diff <base> <head>`: what a change to a stack does to performance. Each side is read
 * (cli/diff/sides.ts), judged by the real pack process exactly as `perfguard check` judges a file
 * (Remediate reported, Analyze, AnalyzeStack), and evaluated into figures (cli/diff/figures.ts);
 * the two are compared (cli/diff/compare.ts) and rendered (cli/diff/render.ts).
 *
 * Exit codes (--fail-on): new-mandatory (default) 1 when head has a mandatory (policy, resource)
 * verdict that base does not; any-mandatory 1 when head has any; none always 0. Usage errors 2.
 */
import * as fs from "fs";
import * as path from "path";
import { analyzeResources, openPack } from "../../preview/analyzeResources";
import { PolicyConfigError } from "../../preview/policyConfig";
import { displayType } from "../../preview/printViolations";
import { defaultPackDir } from "../../preview/runPreview";
import { ROOT_STACK_TYPE, Violation } from "../../preview/types";
import type { EntityFigures } from "../../policies/pack/figures";
import type { StackView } from "../../policies/pack/resources";
import { UsageError } from "../errors";
import { stackViewOf } from "../report";
import { DiffResult, diffStates, Verdict } from "./compare";
import { SideConfig, stackFigures } from "./figures";
import { DiffReport, renderJson, renderMarkdown, renderText } from "./render";
import { readSide, Side } from "./sides";

export type DiffFormat = "text" | "markdown" | "json";
export type FailOn = "none" | "new-mandatory" | "any-mandatory";
export const FAIL_ON: readonly FailOn[] = ["none", "new-mandatory", "any-mandatory"];
export const FORMATS: readonly DiffFormat[] = ["text", "markdown", "json"];

export interface DiffOptions {
    readonly base: string;
    readonly head: string;
    readonly policyPackConfig?: string;
    readonly packDir?: string;
    readonly format: DiffFormat;
    readonly failOn: FailOn;
    /** --plot: a folder for the before/after SVGs. */
    readonly plot?: string;
    readonly log: (chunk: string) => void;
}

/** One side, judged and evaluated. */
export interface EvaluatedSide {
    readonly side: Side;
    readonly stack: StackView;
    readonly config: SideConfig;
    readonly verdicts: Verdict[];
    readonly figures: EntityFigures[];
}

/** The problem line of a violation message: the line after the policy's description. */
function problemOf(message: string): string {
    const lines = message.trim().split("\n");
    return (lines.length > 1 ? lines[1] : lines[0]).trim();
}

export function verdictOf(v: Violation): Verdict {
    const urn = v.urn ?? "";
    const stack = urn === "" || v.resourceType === ROOT_STACK_TYPE;
    return {
        policy: v.policyName,
        urn: stack ? "" : urn,
        entity: stack ? "the stack" : `${displayType(v.resourceType ?? "")}: ${v.resourceName ?? urn}`,
        level: v.enforcementLevel === "mandatory" ? "mandatory" : "advisory",
        problem: problemOf(v.message),
        message: v.message.trim(),
    };
}

/** Judges and evaluates one side. An empty side (a stack never deployed) has no verdicts and no figures. */
export async function evaluateSide(side: Side, opts: Pick<DiffOptions, "policyPackConfig" | "packDir" | "log">): Promise<EvaluatedSide> {
    const stack = stackViewOf(side.resources);
    if (side.resources.length === 0) {
        return { side, stack, config: {}, verdicts: [], figures: [] };
    }
    const opened = await openPack({
        packDir: opts.packDir ?? defaultPackDir(), project: side.project, stack: side.stack,
        policyPackConfig: opts.policyPackConfig, log: opts.log,
    }).catch((err: unknown) => {
        throw err instanceof PolicyConfigError ? new UsageError(err.message) : err;
    });
    try {
        const { violations } = await analyzeResources(opened.pack, side.resources, {
            remediating: opened.remediating,
            applyRemediations: false,
            fallbackStackUrn: `urn:pulumi:${side.stack}::${side.project}::${ROOT_STACK_TYPE}::${side.project}-${side.stack}`,
        });
        return { side, stack, config: opened.config, verdicts: violations.map(verdictOf), figures: stackFigures(stack, opened.config) };
    } finally {
        await opened.pack.close();
    }
}

export function exitCodeOf(result: DiffResult, failOn: FailOn): number {
    return failOn === "none" ? 0 : failOn === "any-mandatory" ? (result.counts.headMandatory > 0 ? 1 : 0) : result.counts.newMandatory > 0 ? 1 : 0;
}

function summaryOf(e: EvaluatedSide): DiffReport["base"] {
    return { file: e.side.file, kind: e.side.kind, resources: e.side.resources.length, unknownValues: e.side.unknownValues };
}

/**
 * Runs the diff.
 * @returns the exit code and what to print (text, Markdown or one JSON document).
 * Throws UsageError (exit 2) for an unreadable side, a bad config or an unwritable --plot folder.
 */
export async function runDiff(opts: DiffOptions): Promise<{ exitCode: number; output: string; report: DiffReport }> {
    // Read both files first: a bad path fails at once, before any pack starts.
    const baseSide = readSide(opts.base);
    const headSide = readSide(opts.head);
    if (opts.plot !== undefined) {
        const dir = path.resolve(opts.plot);
        try {
            fs.mkdirSync(dir, { recursive: true });
            fs.accessSync(dir, fs.constants.W_OK);
        } catch {
            throw new UsageError(`cannot write plots to ${opts.plot}: the folder cannot be created or is not writable`);
        }
    }
    // The two packs run at once: each side is independent, and each pack is mostly waiting on gRPC.
    const [base, head] = await Promise.all([evaluateSide(baseSide, opts), evaluateSide(headSide, opts)]);
    const result = diffStates(base, head);
    const exitCode = exitCodeOf(result, opts.failOn);
    let plots: string[] = [];
    if (opts.plot !== undefined) {
        const { writeDiffPlots } = await import("./plots");
        plots = await writeDiffPlots(opts.plot, base, head, result);
    }
    const report: DiffReport = { base: summaryOf(base), head: summaryOf(head), result, exitCode, failOn: opts.failOn, plots };
    const output = opts.format === "json" ? JSON.stringify(renderJson(report), null, 2) + "\n" : opts.format === "markdown" ? renderMarkdown(report) : renderText(report);
    return { exitCode, output, report };
}
