/**
 * `--explain` on the client side: reads the JSON lines the pack wrote (policies/pack/decisionLog.ts)
 * and renders, per resource, the facts it carried and why each policy applied or not.
 */
import * as fs from "fs";
import type { ExplainedFact, ExplainPhase, ExplainRecord } from "../policies/pack/decisionLog";
import { urnName, urnType } from "./printViolations";

/** One policy's verdict on one resource (or the stack). */
export interface ExplainedVerdict {
    policy: string;
    phase: ExplainPhase;
    applies: boolean;
    /** What the policy evaluated (applies) or why it did not apply. */
    text: string;
    /** The policy never reads this resource type. */
    typeNotRead: boolean;
    /** Violations the policy reported on this resource ("not checked" reports included). */
    violations: number;
    /** What the policy could not check here, "reason (remedy)" (empty when everything was checked). */
    notChecked: string[];
}

/** How --explain classifies one verdict: the three decisions a policy records, and not read. */
export type VerdictStatus = "applied" | "not applicable" | "not checked" | "not read";

/** The status of a verdict: applied (even if part was not checked), not checked, not applicable, not read. */
export function verdictStatus(v: ExplainedVerdict): VerdictStatus {
    if (v.applies) {
        return "applied";
    }
    if (v.notChecked.length > 0) {
        return "not checked";
    }
    if (v.violations > 0) {
        return "applied"; // a verdict without a recorded decision still judged the resource
    }
    return v.typeNotRead ? "not read" : "not applicable";
}

/** Everything explained about one resource. */
export interface ResourceExplanation {
    urn: string;
    type: string;
    name: string;
    /** Facts as Analyze (inputs) and AnalyzeStack (outputs) saw them; absent = not sent there. */
    facts: Partial<Record<ExplainPhase, ExplainedFact[]>>;
    /** A fact container was unknown (preview): an absent fact may exist. */
    incomplete: boolean;
    /** Unreadable facts (perfguard-facts reports them). */
    problems: number;
    verdicts: ExplainedVerdict[];
}

export interface Explanation {
    resources: ResourceExplanation[];
    /** Stack-wide verdicts (no resource). */
    stack: ExplainedVerdict[];
}

/**
 * Reads the pack's explain file.
 * Input: the file, and the URNs in the order resources were sent (sections follow it; URNs the
 * file names that are not in the list come last). A missing file yields an empty explanation.
 * Output: Explanation. Lines that are not JSON (a write cut short) are skipped.
 */
export function readExplanation(file: string, order: readonly string[]): Explanation {
    let text: string;
    try {
        text = fs.readFileSync(file, "utf8");
    } catch {
        return { resources: [], stack: [] };
    }
    const byUrn = new Map<string, ResourceExplanation>();
    const entry = (urn: string): ResourceExplanation => {
        let e = byUrn.get(urn);
        if (!e) {
            e = { urn, type: urnType(urn), name: urnName(urn), facts: {}, incomplete: false, problems: 0, verdicts: [] };
            byUrn.set(urn, e);
        }
        return e;
    };
    const stack: ExplainedVerdict[] = [];
    for (const line of text.split("\n")) {
        if (line.trim() === "") {
            continue;
        }
        let record: ExplainRecord;
        try {
            record = JSON.parse(line) as ExplainRecord;
        } catch {
            continue;
        }
        if (record.kind === "facts") {
            const e = entry(record.urn);
            e.type = record.type || e.type;
            e.name = record.name || e.name;
            e.facts[record.phase] = record.facts;
            e.incomplete ||= record.incomplete;
            e.problems = Math.max(e.problems, record.problems);
        } else if (record.kind === "verdict") {
            const verdict: ExplainedVerdict = {
                policy: record.policy,
                phase: record.phase,
                applies: record.applies,
                text: record.applies ? record.detail : record.reason,
                typeNotRead: !record.applies && record.typeNotRead === true,
                violations: record.violations,
                notChecked: [...(record.notChecked ?? [])],
            };
            if (record.urn === "") {
                stack.push(verdict);
            } else {
                entry(record.urn).verdicts.push(verdict);
            }
        }
    }
    const rank = new Map(order.map((urn, i) => [urn, i]));
    const resources = [...byUrn.values()].sort((a, b) => (rank.get(a.urn) ?? Infinity) - (rank.get(b.urn) ?? Infinity));
    return { resources, stack };
}

const PHASE_NAME: Record<ExplainPhase, string> = { analyze: "Analyze", analyzeStack: "AnalyzeStack" };

function factLine(f: ExplainedFact): string {
    if (f.state !== "ok") {
        return `${f.key}: ${f.state === "unknown" ? "unknown in this preview" : "invalid (see perfguard-facts)"}`;
    }
    // `where` reads "perfguard:rttMs in metadata": show only the place after the key.
    const place = f.where?.startsWith(f.key) ? f.where.slice(f.key.length).trim() : f.where;
    return `${f.key} = ${f.shown ?? "?"}${place ? ` (${place})` : ""}`;
}

function sameFacts(a: ExplainedFact[] | undefined, b: ExplainedFact[] | undefined): boolean {
    return JSON.stringify(a) === JSON.stringify(b);
}

function verdictLine(v: ExplainedVerdict): string {
    const count = `${v.violations} violation${v.violations === 1 ? "" : "s"}`;
    const head = `${v.policy} [${PHASE_NAME[v.phase]}]`;
    switch (verdictStatus(v)) {
        case "applied":
            return `${head}: applied, ${count}: ${v.text}${v.notChecked.length > 0 ? `; not checked: ${v.notChecked.join("; ")}` : ""}`;
        case "not checked":
            return `${head}: not checked, ${count}: ${v.notChecked.join("; ")}`;
        default:
            return `${head}: not applicable: ${v.text}`;
    }
}

/**
 * The policies that have something of their kind in the stack: a resource they read (applied, not
 * applicable or not checked on a resource of a type they judge), or a violation anywhere. The
 * others (Citrix policies on an Avi-only stack) have nothing to say about it.
 */
export function policiesInStack(e: Explanation): Set<string> {
    const present = new Set<string>();
    for (const r of e.resources) {
        for (const v of r.verdicts) {
            if (!v.typeNotRead || v.violations > 0) {
                present.add(v.policy);
            }
        }
    }
    for (const v of e.stack) {
        if (v.violations > 0 || v.notChecked.length > 0) {
            present.add(v.policy);
        }
    }
    return present;
}

/**
 * Renders an explanation as text: per resource its facts (inputs, and outputs when they differ),
 * the policies that applied (with their violation counts), those that did not check it and why
 * (with the remedy), those that do not apply and why, and on one line the policies of this stack
 * that never read its type. A resource no policy reads and that carries no fact is one line.
 * Policies with nothing of their kind in the stack are named once, at the top, and nowhere else.
 * Output ends with "\n".
 */
export function formatExplanation(e: Explanation): string {
    let out = "Explain: facts read and, per policy, applied / not checked / not applicable and why\n";
    const present = policiesInStack(e);
    const all = new Set([...e.stack.map((v) => v.policy), ...e.resources.flatMap((r) => r.verdicts.map((v) => v.policy))]);
    const absent = [...all].filter((p) => !present.has(p)).sort();
    if (absent.length > 0) {
        out += `    not shown: ${absent.join(", ")} (nothing of their kind in this stack)\n`;
    }
    const stack = e.stack.filter((v) => present.has(v.policy));
    if (stack.length > 0) {
        out += "\n    the stack as a whole\n";
        for (const v of stack) {
            out += `        ${verdictLine(v)}\n`;
        }
    }
    let quietRun = false;
    for (const r of e.resources) {
        const noFacts = (r.facts.analyze ?? []).length === 0 && (r.facts.analyzeStack ?? []).length === 0 && !r.incomplete;
        if (noFacts && r.verdicts.every((v) => !v.applies && v.violations === 0 && v.notChecked.length === 0)) {
            // The common case in a real stack: one line, and consecutive ones together.
            out += `${quietRun ? "" : "\n"}    ${r.type}: ${r.name}: no perfguard: facts; no policy applies\n`;
            quietRun = true;
            continue;
        }
        quietRun = false;
        out += `\n    ${r.type}: ${r.name}\n`;
        const inputs = r.facts.analyze;
        const outputs = r.facts.analyzeStack;
        const shown = (label: string, facts: ExplainedFact[]) => {
            out += `        facts (${label}):${facts.length === 0 ? " none" : ""}\n`;
            for (const f of facts) {
                out += `            ${factLine(f)}\n`;
            }
        };
        if (inputs) {
            shown("inputs, Analyze", inputs);
        }
        if (outputs && !sameFacts(inputs, outputs)) {
            shown("outputs, AnalyzeStack", outputs);
        }
        if (r.incomplete) {
            out += "        (a fact container is unknown in this preview: a fact not listed may still be set)\n";
        }
        const relevant = r.verdicts.filter((v) => !v.typeNotRead || v.violations > 0);
        for (const v of relevant) {
            out += `        ${verdictLine(v)}\n`;
        }
        const skipped = [...new Set(r.verdicts.filter((v) => v.typeNotRead && v.violations === 0 && present.has(v.policy)).map((v) => v.policy))].sort();
        if (skipped.length > 0) {
            out += `        not read by: ${skipped.join(", ")} (other resource types)\n`;
        }
    }
    return out;
}
