/**
 * `perfguard diff` in the result formats (sarif, junit, github): head's verdict list, the "after"
 * side judged whole as `perfguard check` judges it, each verdict marked "new" when it is one of the
 * diff's appeared verdicts (its `+` lines) and "unchanged" otherwise. Verdicts that disappeared are
 * in no such document (head does not have them; code scanning closes an alert whose fingerprint is
 * gone); the diff's own text, markdown and json list them.
 */
import type { Explanation } from "../../preview/explainReport";
import type { AnalyzerInfo, PolicyConfigEntry } from "../../preview/packClient";
import { ROOT_STACK_TYPE, RecordedResource, Violation } from "../../preview/types";
import { render, RenderInput, writeOutputs } from "../results/emit";
import { buildResults, levelsOf, Results, Verdict } from "../results/model";
import { ResultOptions } from "../results/options";
import { docsBase } from "../../policies/pack/results/docsUrl";
import type { DiffResult } from "./compare";

/** A side judged whole, for the result formats: every violation, the explanation, the pack and its config. */
export interface JudgedWhole {
    readonly violations: readonly Violation[];
    readonly explanation: Explanation;
    readonly info: AnalyzerInfo;
    readonly config: Readonly<Record<string, PolicyConfigEntry>>;
}

/** The key the diff pairs verdicts by: policy, resource ("" for the stack) and the whole message. */
function changeKey(policy: string, urn: string, message: string): string {
    return `${policy}\u0000${urn}\u0000${message.trim()}`;
}

function verdictKey(v: Verdict): string {
    const urn = v.urn === undefined || v.resourceType === ROOT_STACK_TYPE ? "" : v.urn;
    return changeKey(v.policy, urn, v.message);
}

/**
 * Head's results with each verdict that is not a pass marked by baseline. As many verdicts of one
 * key are "new" as the diff lists as appeared (a policy may give a resource the same message twice).
 */
export function headResults(judged: JudgedWhole, resources: readonly RecordedResource[], diff: DiffResult, programRoot: string): Results {
    const results = buildResults({
        pack: judged.info,
        levels: levelsOf(judged.config),
        violations: [...judged.violations],
        resources: [...resources],
        explanation: judged.explanation,
        programRoot,
    });
    const appeared = new Map<string, number>();
    for (const c of diff.verdicts.filter((x) => x.change === "appeared")) {
        const key = changeKey(c.verdict.policy, c.verdict.urn, c.verdict.message);
        appeared.set(key, (appeared.get(key) ?? 0) + 1);
    }
    const verdicts = results.verdicts.map((v): Verdict => {
        if (v.outcome === "passed") {
            return v;
        }
        const key = verdictKey(v);
        const left = appeared.get(key) ?? 0;
        if (left > 0) {
            appeared.set(key, left - 1);
        }
        return { ...v, baseline: left > 0 ? "new" : "unchanged" };
    });
    return { ...results, verdicts };
}

/** The formats that are the diff's own documents; the others are written from head's verdict list. */
const DIFF_DOCUMENTS = new Set(["text", "markdown", "json"]);

/** True when a --format or --output needs head's verdict list. */
export function needsHeadResults(o: ResultOptions): boolean {
    return [o.format, ...o.outputs.map((t) => t.format)].some((f) => !DIFF_DOCUMENTS.has(f));
}

export interface DiffDocuments {
    readonly text: string;
    readonly markdown: string;
    readonly json: string;
    readonly results?: Results;
}

/**
 * Prints and writes a diff: text, markdown and json are the diff's own documents (as before); sarif,
 * junit and github head's verdicts. With one of those on stdout, the text goes to stderr (as `check`).
 */
export function deliverDiff(o: ResultOptions, docs: DiffDocuments, io: { out(t: string): void; err(t: string): void }): void {
    const input: RenderInput = { results: docs.results as Results, text: docs.text, docsBase: docsBase(o.docsUrl) };
    const one = (format: ResultFormatName): string =>
        format === "text" ? docs.text : format === "markdown" ? docs.markdown : format === "json" ? docs.json : render(format, input);
    if (!DIFF_DOCUMENTS.has(o.format)) {
        io.err(docs.text);
    }
    io.out(one(o.format));
    for (const note of writeOutputs(o.outputs, input, one)) {
        io.err(`${note}\n`);
    }
}

type ResultFormatName = ResultOptions["format"];
