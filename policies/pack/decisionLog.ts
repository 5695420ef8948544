/**
 * `--explain` on the pack side: when the process that runs the pack was started with
 * PERFGUARD_EXPLAIN=<file>, every policy records, per resource, whether it applied (and how many
 * violations it reported) or why not, and the facts each resource carried. Records are appended
 * to <file> as JSON lines, because the client kills the pack without a shutdown hook.
 *
 * Off (the variable unset or empty) it costs one boolean test per policy call: nothing else is
 * computed and no file is touched. Records never hold a fact value itself, only what
 * describeValue shows of it, so secrets never reach the file.
 */
import * as fs from "fs";
import type { FactRead } from "./facts";
import { FACT_KEYS } from "./factKeys";
import type { ResourceView } from "./resources";
import { describeValue } from "./values";

/** The environment variable the client sets to a file path to turn explanations on. */
export const EXPLAIN_ENV = "PERFGUARD_EXPLAIN";

/** Read once at load: the pack's environment does not change while it runs. */
const explainFile: string | undefined = process.env[EXPLAIN_ENV] || undefined;

/** Set by observeExplain (tests): receives every record, besides the file. */
let observer: ((record: ExplainRecord) => void) | undefined;

/** True when this pack process records explanations (the file, or a test's observer). */
export let explaining: boolean = explainFile !== undefined;

/**
 * Test hook: hands every explain record to `fn` (undefined stops), so a property test can read
 * the decisions each policy recorded per resource (test/robustness/outcomes.test.ts). The pack
 * never calls it; the file stays the only output of a real preview.
 */
export function observeExplain(fn: ((record: ExplainRecord) => void) | undefined): void {
    observer = fn;
    explaining = explainFile !== undefined || fn !== undefined;
    factsRecorded.clear();
}

/**
 * Why a policy did or did not apply to one resource (or to the stack as a whole), as its `check`
 * recorded it through report.applied / notApplicable / notChecked (definePolicy.ts). `notChecked`
 * lists what could not be checked ("reason (remedy)"): with `applies: false` nothing was.
 */
export type Applicability =
    | { readonly applies: true; readonly detail: string; readonly notChecked?: readonly string[] }
    | { readonly applies: false; readonly reason: string; readonly typeNotRead?: boolean; readonly notChecked?: readonly string[] };

/** The policy never reads resources of this type (listed compactly by the client). */
export function typeNotRead(reason: string): Applicability {
    return { applies: false, reason, typeNotRead: true };
}

/** Where a request came from: Analyze (inputs) or AnalyzeStack (outputs). */
export type ExplainPhase = "analyze" | "analyzeStack";

/** One fact as recorded: key, where it was found, and its value as describeValue shows it. */
export interface ExplainedFact {
    readonly key: string;
    readonly state: "ok" | "unknown" | "invalid";
    readonly where?: string;
    readonly shown?: string;
}

/** One JSON line of the explain file. */
export type ExplainRecord =
    | {
          readonly kind: "facts";
          readonly phase: ExplainPhase;
          readonly urn: string;
          readonly type: string;
          readonly name: string;
          readonly facts: ExplainedFact[];
          readonly problems: number;
          readonly incomplete: boolean;
      }
    | ({ readonly kind: "verdict"; readonly phase: ExplainPhase; readonly policy: string; readonly urn: string; readonly violations: number } & Applicability);

const factsRecorded = new Set<string>();

function write(record: ExplainRecord): void {
    observer?.(record);
    if (explainFile === undefined) {
        return;
    }
    try {
        fs.appendFileSync(explainFile, JSON.stringify(record) + "\n");
    } catch {
        // Explanations are a diagnostic aid: a write failure must never change a verdict.
    }
}

/**
 * The facts of `resource` as explain shows them: numbers and enum values as parsed (they are
 * validated figures or one of a fixed set of words), free text only as describeValue shows it.
 */
export function explainedFacts(resource: ResourceView): ExplainedFact[] {
    const out: ExplainedFact[] = [];
    for (const def of FACT_KEYS) {
        const read = resource.facts.read(def.key);
        const key = `perfguard:${def.key}`;
        if (read.state === "ok") {
            const shown = def.kind === "text" ? describeValue(read.value) : String(read.value);
            out.push({ key, state: "ok", where: read.where, shown });
        } else if (read.state === "unknown" || read.state === "invalid") {
            // An absent key reads "unknown" when a fact container is unknown: list only keys
            // that were actually found, or every key would show up on such a resource.
            if (read.state === "invalid" || !resource.facts.containerIncomplete) {
                out.push({ key, state: read.state });
            }
        }
    }
    return out;
}

/** Records the facts of `resource` once per phase (no-op unless explaining). */
export function recordFacts(phase: ExplainPhase, resource: ResourceView): void {
    if (!explaining) {
        return;
    }
    const key = `${phase}\u0000${resource.urn}`;
    if (factsRecorded.has(key)) {
        return;
    }
    factsRecorded.add(key);
    write({
        kind: "facts",
        phase,
        urn: resource.urn,
        type: resource.type,
        name: resource.name,
        facts: explainedFacts(resource),
        problems: resource.facts.problems.length,
        incomplete: resource.facts.incomplete,
    });
}

/** Records one policy's verdict on one resource ("" = the stack as a whole); no-op unless explaining. */
export function recordVerdict(phase: ExplainPhase, policy: string, urn: string, applicability: Applicability, violations: number): void {
    if (!explaining) {
        return;
    }
    write({ kind: "verdict", phase, policy, urn, violations, ...applicability });
}

/**
 * Why a fact a policy needs cannot be used, or undefined when it can.
 * @param read - the fact as read.
 * @param key - e.g. "perfguard:rttMs".
 * @param onWhat - e.g. "this zone".
 * @returns "no perfguard:rttMs fact on this zone", "... is unknown in this preview",
 *   "... is invalid (perfguard-facts reports it)"; undefined when state is "ok".
 */
export function unusableFact(read: FactRead<unknown>, key: string, onWhat: string): string | undefined {
    switch (read.state) {
        case "absent":
            return `no ${key} fact on ${onWhat}`;
        case "unknown":
            return `${key} on ${onWhat} is unknown in this preview`;
        case "invalid":
            return `${key} on ${onWhat} is invalid (perfguard-facts reports it)`;
        default:
            return undefined;
    }
}
