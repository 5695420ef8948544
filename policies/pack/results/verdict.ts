/**
 * The verdict model every result format is written from (text aside): one verdict per policy and
 * resource (or the stack), with its outcome. It lives in the framework so that the pack process
 * itself (PERFGUARD_RESULTS, ./packResults.ts) and the CLI (cli/results/model.ts, which adds the
 * passes and the declaring lines) build the same verdicts from the same reported messages.
 */
import * as path from "path";
import { parseMessage } from "../message";

/** What became of one policy on one resource (or the stack). */
export type Outcome = "violation" | "waived" | "not checked" | "passed";

export type ReportedLevel = "advisory" | "mandatory" | "remediate" | "disabled";

/** A file and line, relative to the repository root (forward slashes). */
export interface Location {
    readonly file: string;
    readonly line: number;
    /** True when the line is where the program declares the resource; false: the project file, line 1. */
    readonly declared: boolean;
}

export interface Verdict {
    readonly policy: string;
    readonly pack: string;
    readonly packVersion: string;
    /** The level it was reported at; for a pass, the policy's configured level. */
    readonly level: ReportedLevel;
    readonly outcome: Outcome;
    /** Absent for a stack-wide verdict. */
    readonly urn?: string;
    readonly resourceType?: string;
    readonly resourceName?: string;
    /** The problem line (for a pass: what the policy evaluated). */
    readonly problem: string;
    readonly fix?: string;
    readonly basis: readonly string[];
    /** The waiver line, `waived (...: "reason")`, of a waived verdict. */
    readonly waiver?: string;
    /** The message as the pack reported it ("" for a pass). */
    readonly message: string;
    readonly location: Location;
    /**
     * `perfguard diff` only (its head's verdicts): "new" when base did not have this verdict (the
     * diff's `+` lines), else "unchanged". SARIF's baselineState; absent outside a diff.
     */
    readonly baseline?: "new" | "unchanged";
    /**
     * `perfguard check` of a fleet only: the verdict's stack, `<project>/<stack>`, so that two
     * stacks' verdicts on same-named resources (and their stack-wide verdicts) are told apart.
     */
    readonly stack?: string;
}

export interface RuleInfo {
    readonly id: string;
    readonly description: string;
}

export interface Results {
    readonly tool: { readonly name: string; readonly version: string };
    /** Every policy the pack declares (SARIF rules, JUnit suites), sorted by id. */
    readonly rules: readonly RuleInfo[];
    /** Sorted by policy, resource URN, outcome and problem line. */
    readonly verdicts: readonly Verdict[];
}

/** One violation as the pack reported it to the engine (an AnalyzeDiagnostic). */
export interface ReportedViolation {
    readonly policyName: string;
    readonly policyPackName: string;
    readonly policyPackVersion: string;
    readonly enforcementLevel: ReportedLevel;
    readonly message: string;
    readonly urn?: string;
}

/** The resource type from a URN (the last type of a parent chain). */
export function urnType(urn: string): string {
    const qualified = urn.split("::")[2] ?? "";
    return qualified.split("$").pop() ?? qualified;
}

/** The resource name from a URN (everything after the type). */
export function urnName(urn: string): string {
    return urn.split("::").slice(3).join("::");
}

/**
 * The outcome of a reported violation: the pack prefixes a waived verdict with its `waived (...)`
 * line (policies/pack/definePolicy.ts) and words every "not checked" report with it.
 */
function outcomeOf(message: string, problem: string): { outcome: Outcome; waiver?: string } {
    const waiver = message
        .split("\n")
        .map((l) => l.trim())
        .find((l) => /^waived \(/.test(l));
    if (waiver !== undefined) {
        return { outcome: "waived", waiver };
    }
    return { outcome: /\bnot checked\b/.test(problem) ? "not checked" : "violation" };
}

/** The message without its description line and waiver line, so parseMessage sees problem, Fix, Basis. */
function partsOf(message: string): { problem: string; fix?: string; basis: string[] } {
    const lines = message
        .replace(/\n$/, "")
        .split("\n")
        .filter((l) => !/^\s*waived \(/.test(l));
    const parsed = parseMessage(lines.join("\n"));
    return { problem: parsed.problem, ...(parsed.fix !== undefined ? { fix: parsed.fix } : {}), basis: parsed.basis };
}

/** The verdict of one reported violation, located where the caller says. */
export function verdictOf(v: ReportedViolation, location: Location): Verdict {
    const parts = partsOf(v.message);
    const { outcome, waiver } = outcomeOf(v.message, parts.problem);
    return {
        policy: v.policyName,
        pack: v.policyPackName,
        packVersion: v.policyPackVersion,
        level: v.enforcementLevel,
        outcome,
        ...(v.urn ? { urn: v.urn, resourceType: urnType(v.urn), resourceName: urnName(v.urn) } : {}),
        ...parts,
        ...(waiver !== undefined ? { waiver } : {}),
        message: v.message,
        location,
    };
}

const OUTCOME_RANK: Record<Outcome, number> = { violation: 0, "not checked": 1, waived: 2, passed: 3 };

/** Sort order of verdicts: policy, URN (stack-wide first), outcome, problem line. */
export function compareVerdicts(a: Verdict, b: Verdict): number {
    return (
        a.policy.localeCompare(b.policy) ||
        (a.urn ?? "").localeCompare(b.urn ?? "") ||
        (a.stack ?? "").localeCompare(b.stack ?? "") ||
        OUTCOME_RANK[a.outcome] - OUTCOME_RANK[b.outcome] ||
        a.problem.localeCompare(b.problem)
    );
}

/** `a/b` joined with forward slashes, "." and "" meaning the root. */
export function repoPath(root: string, file: string): string {
    const joined = path.posix.normalize(path.posix.join(root.split(path.sep).join("/") || ".", file));
    return joined.replace(/^\.\//, "");
}

/** Counts per outcome, as every writer and the tests read them. */
export function countOutcomes(verdicts: readonly Verdict[]): Record<Outcome, number> {
    const counts: Record<Outcome, number> = { violation: 0, waived: 0, "not checked": 0, passed: 0 };
    for (const v of verdicts) {
        counts[v.outcome] += 1;
    }
    return counts;
}
