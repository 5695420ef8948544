/**
 * `perfguard diff <base> <head>`: what a change to a stack does to performance. Each side is read
 * (cli/diff/sides.ts), judged by the real pack process exactly as `perfguard check` judges a file
 * (Remediate reported, Analyze, AnalyzeStack), and evaluated into figures (cli/diff/figures.ts);
 * the two are compared (cli/diff/compare.ts) and rendered (cli/diff/render.ts).
 *
 * Exit codes (--fail-on): new-mandatory (default) 1 when head has a mandatory (policy, resource)
 * verdict that base does not; any-mandatory 1 when head has any; none always 0. Usage errors 2.
 */
import { analyzeResources, explainTempFile, openPack } from "../../preview/analyzeResources";
import { readExplanation } from "../../preview/explainReport";
import { PolicyConfigError } from "../../preview/policyConfig";
import { displayType } from "../../preview/printViolations";
import { defaultPackDir } from "../../preview/runPreview";
import { RecordedResource, ROOT_STACK_TYPE, Violation } from "../../preview/types";
import type { EntityFigures } from "../../policies/pack/figures";
import type { StackView } from "../../policies/pack/resources";
import { UsageError } from "../errors";
import { SYSTEMS } from "../systems";
import type { SystemSide } from "../systems/types";
import { ensureOutputFolder } from "../outputFolder";
import { judgedStackView } from "../judgedView";
import { DiffResult, diffStates, SystemScales, Verdict } from "./compare";
import { SideConfig, stackFigures } from "./figures";
import { diffInventory, withJoinedStacks } from "./inventory";
import { DiffReport, renderJson, renderMarkdown, renderText } from "./render";
import { headResults, JudgedWhole } from "./results";
import type { Results } from "../results/model";
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
    /**
     * Build head's verdict list for --format/--output sarif, junit, github (cli/diff/results.ts):
     * head is then judged whole, with the pack's explanation for the passes.
     */
    readonly results?: { readonly programRoot?: string };
}

/** One side, judged and evaluated. */
export interface EvaluatedSide extends SystemSide {
    readonly side: Side;
    readonly stack: StackView;
    readonly config: SideConfig;
    readonly verdicts: Verdict[];
    readonly figures: EntityFigures[];
    /** With `whole`: the side judged whole (verdicts above stay those of the compared resources). */
    readonly judged?: JudgedWhole;
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

/** What Remediate and Analyze see of a resource: its type, inputs, options, parent and provider's inputs. */
function analyzeKey(r: RecordedResource, byUrn: ReadonlyMap<string, RecordedResource>): string {
    const provider = r.provider ? byUrn.get(r.provider.slice(0, r.provider.lastIndexOf("::"))) : undefined;
    return JSON.stringify([r.type, r.inputs, r.options, r.parent, provider ? [provider.urn, provider.inputs] : null]);
}

/**
 * The URNs each side must Analyze: a resource identical on both sides (same URN and the same
 * Analyze request) gets the same Analyze verdicts on both, so only the others are sent (O(n)).
 * AnalyzeStack always gets every resource: a stack policy's verdict depends on the whole stack.
 */
export function analyzeSets(base: Side, head: Side): { base: Set<string>; head: Set<string> } {
    const keys = (side: Side) => {
        const byUrn = new Map(side.resources.map((r) => [r.urn, r]));
        return new Map(side.resources.map((r) => [r.urn, analyzeKey(r, byUrn)]));
    };
    const b = keys(base);
    const h = keys(head);
    const differ = (mine: Map<string, string>, other: Map<string, string>) =>
        new Set([...mine].filter(([urn, key]) => other.get(urn) !== key).map(([urn]) => urn));
    return { base: differ(b, h), head: differ(h, b) };
}

/**
 * The diff's pack processes get a larger young generation: an AnalyzeStack of 10,000 resources
 * allocates gigabytes of short-lived decode objects, and with V8's default 16 MB semi-space the
 * scavenges were a third of the pack's CPU; 64 MB cut the diff's CPU by about a fifth (BENCHMARKS.md).
 * A NODE_OPTIONS the user set is kept, with this added unless it sets the size itself. Verdicts
 * do not depend on it; only `perfguard diff` starts packs this way (a preview's pack is the CLI's).
 */
export function packEnv(base: string | undefined = process.env.NODE_OPTIONS): Record<string, string> {
    const own = base?.trim() ?? "";
    return { NODE_OPTIONS: /--max-semi-space-size/.test(own) ? own : `${own} --max-semi-space-size=64`.trim() };
}

/**
 * Judges and evaluates one side. An empty side (a stack never deployed) has no verdicts and no figures.
 * @param analyzeOnly - the URNs to Remediate and Analyze (all when absent); AnalyzeStack gets all.
 * @param whole - judge every resource with the pack's explanation (the result formats); `verdicts`
 *   then keep only what the analyzeOnly run would report (AnalyzeStack's, and Analyze's on those
 *   URNs), so the comparison is the same with or without it.
 */
export async function evaluateSide(
    side: Side,
    opts: Pick<DiffOptions, "policyPackConfig" | "packDir" | "log">,
    analyzeOnly?: ReadonlySet<string>,
    stackEncodingCache?: Map<string, Uint8Array>,
    whole = false,
    other?: Side,
): Promise<EvaluatedSide> {
    // With PERFGUARD_INVENTORY set (the pack reads it too), each side's figures include the other
    // stacks that either side's shared objects touch: the same inventory before and after.
    const stack = judgedStackView(side.resources, other?.resources);
    if (side.resources.length === 0 && !whole) {
        return { side, stack, config: {}, verdicts: [], figures: [] };
    }
    const explain = whole ? explainTempFile() : undefined;
    try {
        const opened = await openPack({
            packDir: opts.packDir ?? defaultPackDir(),
            project: side.project,
            stack: side.stack,
            policyPackConfig: opts.policyPackConfig,
            log: opts.log,
            env: packEnv(),
            explainFile: explain?.file,
        }).catch((err: unknown) => {
            throw err instanceof PolicyConfigError ? new UsageError(err.message) : err;
        });
        let violations: Violation[] = [];
        try {
            if (side.resources.length > 0) {
                ({ violations } = await analyzeResources(opened.pack, side.resources, {
                    remediating: opened.remediating,
                    applyRemediations: false,
                    fallbackStackUrn: `urn:pulumi:${side.stack}::${side.project}::${ROOT_STACK_TYPE}::${side.project}-${side.stack}`,
                    ...(analyzeOnly && !whole ? { analyzeOnly: (r: RecordedResource) => analyzeOnly.has(r.urn) } : {}),
                    ...(stackEncodingCache ? { stackEncodingCache } : {}),
                }));
            }
        } finally {
            await opened.pack.close();
        }
        const compared = whole && analyzeOnly ? violations.filter((v) => v.phase === "analyzeStack" || analyzeOnly.has(v.urn ?? "")) : violations;
        return {
            side,
            stack,
            config: side.resources.length > 0 ? opened.config : {},
            verdicts: compared.map(verdictOf),
            figures: side.resources.length > 0 ? stackFigures(stack, opened.config) : [],
            ...(explain
                ? {
                      judged: {
                          violations,
                          explanation: readExplanation(
                              explain.file,
                              side.resources.map((r) => r.urn),
                          ),
                          info: opened.info,
                          config: opened.config,
                      },
                  }
                : {}),
        };
    } finally {
        explain?.cleanup();
    }
}

/**
 * An empty side (a first deploy's base, a destroyed stack's head) is judged by no pack: it has no
 * verdicts. With PERFGUARD_INVENTORY its view still holds the other stacks that the other side's
 * shared objects reach, and their load is that side's figure of each shared object (`shared-web`
 * at 75.9% before team B's first VS, not absent): evaluated with the other side's reconciled config,
 * which is the same (one pack and one --policy-pack-config; the config does not depend on the stack).
 */
export function withInventoryFigures(side: EvaluatedSide, other: EvaluatedSide): EvaluatedSide {
    if (side.side.resources.length > 0 || side.stack.resources.length === 0 || other.side.resources.length === 0) {
        return side;
    }
    return { ...side, config: other.config, figures: stackFigures(side.stack, other.config) };
}

/**
 * Per system with a shared scale (its descriptor's `scaling`: the Citrix Site database's response
 * scale, 1 below the cap), each side's value; NaN where the evaluation fails (its figures then say
 * so, and no figure is marked as moved by the scale).
 */
export function sideScales(base: SystemSide, head: SystemSide): SystemScales {
    const scaleOf = (scaling: NonNullable<(typeof SYSTEMS)[number]["scaling"]>, side: SystemSide): number => {
        try {
            return scaling.scaleOf(side.stack, side.config);
        } catch {
            return Number.NaN;
        }
    };
    return Object.fromEntries(SYSTEMS.flatMap((s) => (s.scaling ? [[s.id, { base: scaleOf(s.scaling, base), head: scaleOf(s.scaling, head) }]] : [])));
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
export async function runDiff(opts: DiffOptions): Promise<{ exitCode: number; output: string; report: DiffReport; results?: Results }> {
    // Read both files first: a bad path fails at once, before any pack starts.
    const baseSide = readSide(opts.base);
    const headSide = readSide(opts.head, baseSide);
    // PERFGUARD_INVENTORY, as both packs will read it: an unreadable source fails here (exit 2).
    const inventory = diffInventory(baseSide, headSide);
    if (opts.plot !== undefined) {
        ensureOutputFolder(opts.plot, "plots to", opts.plot);
    }
    // Only resources that differ are Analyzed (their verdicts are all that can change); with
    // --fail-on any-mandatory head is judged whole, since every mandatory verdict of it counts.
    const sets = analyzeSets(baseSide, headSide);
    // The two packs run at once: each side is independent. A resource both sides hold is encoded
    // for AnalyzeStack once (the same bytes in both requests).
    const encoded = new Map<string, Uint8Array>();
    const [judgedBase, judgedHead] = await Promise.all([
        evaluateSide(baseSide, opts, sets.base, encoded, false, headSide),
        evaluateSide(headSide, opts, opts.failOn === "any-mandatory" ? undefined : sets.head, encoded, opts.results !== undefined, baseSide),
    ]);
    const base = withInventoryFigures(judgedBase, judgedHead);
    const head = withInventoryFigures(judgedHead, judgedBase);
    const result = diffStates(base, head, sideScales(base, head));
    const exitCode = exitCodeOf(result, opts.failOn);
    let plots: string[] = [];
    if (opts.plot !== undefined) {
        const { writeDiffPlots } = await import("./plots");
        plots = await writeDiffPlots(opts.plot, base, head, result);
    }
    const report: DiffReport = {
        base: summaryOf(base),
        head: summaryOf(head),
        result,
        exitCode,
        failOn: opts.failOn,
        plots,
        ...(inventory ? { inventory: withJoinedStacks(inventory, [base.figures, head.figures]) } : {}),
    };
    const output =
        opts.format === "json" ? JSON.stringify(renderJson(report), null, 2) + "\n" : opts.format === "markdown" ? renderMarkdown(report) : renderText(report);
    const results = opts.results && head.judged ? headResults(head.judged, head.side.resources, result, opts.results.programRoot ?? "") : undefined;
    return { exitCode, output, report, ...(results ? { results } : {}) };
}
