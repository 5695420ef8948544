/**
 * What perfguard-facts reports, built from the fact reader's problems: per resource (a bad value,
 * a fact on a carrier the provider rejects, an unreadable provider field, a waiver problem, a
 * fact no policy reads on that resource), and per key and preview (a key that was surely meant as
 * a fact). Analyze (inputs) and AnalyzeStack (outputs) both run these; a problem Analyze
 * reported on a resource is not reported again from its outputs.
 */
import type { FactProblem } from "./facts";
import { misplacedFacts, problemLabel } from "./facts";
import { describeReadOn } from "./factKeys";
import { escapeControl, Message, PROBLEM_LINE_MAX } from "./message";
import type { ResourceView } from "./resources";
import { typedFieldProblems, TypedFieldProblem } from "./typedFields";
import { waiverProblems } from "./waivers";
import { plural } from "./format";

/** One violation perfguard-facts sends about a resource; `identity` dedupes inputs and outputs. */
export interface Finding {
    readonly message: Message;
    readonly identity: string;
}

const CONSEQUENCE = "so the checks that need it do not run";

/**
 * The problem line within PROBLEM_LINE_MAX: the first variant that fits after `who(max)`, trying
 * the whole name first, then shorter names; `fitted.full` is false when a shorter variant was used
 * (the caller then gives the full phrase in the basis).
 */
function fit(who: (max: number) => string, variants: readonly string[]): { line: string; full: boolean } {
    for (const max of [40, 24, 12]) {
        for (const [i, variant] of variants.entries()) {
            const line = `${who(max)}: ${variant}`;
            if (line.length <= PROBLEM_LINE_MAX) {
                return { line, full: i === 0 };
            }
        }
    }
    const last = `${who(12)}: ${variants[variants.length - 1]}`;
    return { line: `${last.slice(0, PROBLEM_LINE_MAX - 1)}…`, full: false };
}

function finding(identity: string, who: (max: number) => string, full: string, short: string | undefined, fix: string, basis: readonly string[]): Finding {
    const variants = short ? [`${full}.`, `${short}.`] : [`${full}.`];
    const { line, full: whole } = fit(who, variants);
    return { identity, message: { problem: line, fix, basis: whole ? basis : [`${full}.`, ...basis] } };
}

function fromFactProblem(resource: ResourceView, p: FactProblem): Finding {
    const consequence = p.kind === "carrier" ? "so the apply would fail" : CONSEQUENCE;
    const who = (max: number) => problemLabel(resource.type, resource.name, max);
    return finding(
        `${p.kind}\u0000${p.key}\u0000${p.problem}`,
        who,
        `${p.problem}, ${consequence}`,
        p.short && `${p.short}; its checks do not run`,
        `${p.fix}.`,
        p.basis,
    );
}

function fromTypedField(resource: ResourceView, problem: string | TypedFieldProblem): Finding {
    const text = typeof problem === "string" ? problem : problem.text;
    const fix = typeof problem === "string" ? "write the field in the provider's string form." : problem.fix;
    const open = text.indexOf(" (");
    const head = escapeControl(open > 0 ? text.slice(0, open) : text);
    const rule = open > 0 ? text.slice(open + 2).replace(/\)$/, "") : "";
    const who = (max: number) => problemLabel(resource.type, resource.name, max);
    return finding(
        `field\u0000${text}`,
        who,
        `${head}, ${CONSEQUENCE}`,
        "a provider field cannot be read; its checks do not run",
        fix,
        rule ? [escapeControl(rule)] : [],
    );
}

/**
 * The mandatory findings on one resource: bad fact values and carriers, unreadable provider
 * fields, waiver problems. Key problems are grouped per preview (KeyProblems), misplaced facts are
 * advisory (misplacedFinding).
 */
export function resourceFindings(resource: ResourceView): Finding[] {
    const found: Finding[] = [];
    for (const p of resource.facts.problems) {
        if (p.kind !== "key") {
            found.push(fromFactProblem(resource, p));
        }
    }
    for (const text of typedFieldProblems(resource)) {
        found.push(fromTypedField(resource, text));
    }
    const who = (max: number) => problemLabel(resource.type, resource.name, max);
    for (const w of waiverProblems(resource)) {
        found.push(finding(`waiver\u0000${w.problem}`, who, w.problem, w.short, `${w.fix}.`, []));
    }
    return found;
}

/** The advisory finding for facts that no policy reads on this resource (`perfguard:rttMs` on a VM). */
export function misplacedFinding(resource: ResourceView): Finding | undefined {
    const misplaced = misplacedFacts(resource.facts, resource.type);
    if (misplaced.length === 0) {
        return undefined;
    }
    const keys = misplaced.map((m) => m.key);
    const one = keys.length === 1;
    const shown = keys.length <= 2 ? keys.join(" and ") : `${keys.slice(0, 2).join(", ")} and ${plural(keys.length - 2, "more fact")}`;
    const who = (max: number) => problemLabel(resource.type, resource.name, max);
    return finding(
        `misplaced\u0000${keys.join(",")}`,
        who,
        `${shown} ${one ? "has" : "have"} no effect here: no policy reads ${one ? "it" : "them"} on this resource`,
        `${plural(keys.length, "fact")} with no effect here: no policy reads ${one ? "it" : "them"} on this resource`,
        `declare ${one ? "it" : "each"} on the resource that policies read it on, or remove ${one ? "it" : "them"}.`,
        misplaced.map((m) => `${m.key} is read on ${describeReadOn(m.def)}`),
    );
}

/** How many resources a grouped key problem names. */
const FIRST_NAMES = 3;

interface KeyGroup {
    readonly problem: FactProblem;
    /** URN -> label, of every resource that carries the key. */
    readonly resources: Map<string, string>;
}

/**
 * Keys that were surely meant as facts (near misses, unknown `perfguard:` keys), collected over
 * one preview (Analyze and AnalyzeStack of one pack process) and reported once per key, on the
 * first resource by URN (verdicts must not depend on the engine's order), naming the first few.
 */
export class KeyProblems {
    private readonly groups = new Map<string, KeyGroup>();

    /** Records the key problems of `resource`. */
    note(resource: ResourceView): void {
        for (const p of resource.facts.problems) {
            if (p.kind !== "key") {
                continue;
            }
            const id = `${p.key}\u0000${p.problem}`;
            let group = this.groups.get(id);
            if (!group) {
                group = { problem: p, resources: new Map() };
                this.groups.set(id, group);
            }
            group.resources.set(resource.urn, problemLabel(resource.type, resource.name));
        }
    }

    /** The grouped findings, with the URN each goes on, and forgets them (one preview). */
    flush(): Array<{ urn: string; message: Message }> {
        const out: Array<{ urn: string; message: Message }> = [];
        for (const { problem, resources } of this.groups.values()) {
            const urns = [...resources.keys()].sort();
            const names = urns.slice(0, FIRST_NAMES).map((u) => resources.get(u) as string);
            const more = urns.length > FIRST_NAMES ? ` and ${urns.length - FIRST_NAMES} more` : "";
            const on = urns.length === 1 ? names[0] : plural(urns.length, "resource");
            const basis = [...problem.basis, ...(urns.length === 1 ? [] : [`on ${names.join(", ")}${more}`])];
            const f = finding(
                "",
                (max) => (urns.length === 1 ? names[0] : on).replace(/"(.*)"$/, (_, n: string) => `"${n.length <= max ? n : `${n.slice(0, max - 1)}…`}"`),
                `${problem.problem}, so the check that needs it does not run`,
                problem.short && `${problem.short}; its check does not run`,
                `${problem.fix}.`,
                basis,
            );
            out.push({ urn: urns[0], message: f.message });
        }
        this.groups.clear();
        return out;
    }
}
