/**
 * One results model for every output format (text, json, sarif, junit, github, markdown): the
 * verdicts of one run, built once from what the pack reported (violations), what it explained
 * (passes), and where the program declares each resource. Writers only read it, so the formats
 * cannot disagree.
 */
import * as path from "path";
import type { Explanation } from "../../preview/explainReport";
import type { PolicyInfo } from "../../preview/packClient";
import { urnName, urnType } from "../../preview/printViolations";
import { parseProjectPosition } from "../../preview/sourcePosition";
import type { EnforcementLevel, RecordedResource, Violation } from "../../preview/types";
import { parseMessage } from "../../policies/pack/message";

/** What became of one policy on one resource (or the stack). */
export type Outcome = "violation" | "waived" | "not checked" | "passed";

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
    readonly level: EnforcementLevel;
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

export interface BuildInput {
    readonly pack: { readonly name: string; readonly version: string; readonly policies: readonly PolicyInfo[] };
    /** Each policy's configured level (Configure), for passes. */
    readonly levels: Readonly<Record<string, EnforcementLevel | undefined>>;
    readonly violations: readonly Violation[];
    readonly resources: readonly RecordedResource[];
    /** What the pack explained (passes come from it); absent: no passes are listed. */
    readonly explanation?: Explanation;
    /** The program's folder relative to the repository root ("" or "." for the root). */
    readonly programRoot: string;
}

/**
 * The outcome of a reported violation: the pack prefixes a waived verdict with its `waived (...)`
 * line (policies/pack/definePolicy.ts) and words every "not checked" report with it.
 */
function outcomeOf(v: Violation, problem: string): { outcome: Outcome; waiver?: string } {
    const waiver = v.message.split("\n").map((l) => l.trim()).find((l) => /^waived \(/.test(l));
    if (waiver !== undefined) {
        return { outcome: "waived", waiver };
    }
    return { outcome: /\bnot checked\b/.test(problem) ? "not checked" : "violation" };
}

/** The message without its description line and waiver line, so parseMessage sees problem, Fix, Basis. */
function partsOf(message: string): { problem: string; fix?: string; basis: string[] } {
    const lines = message.replace(/\n$/, "").split("\n").filter((l) => !/^\s*waived \(/.test(l));
    const parsed = parseMessage(lines.join("\n"));
    return { problem: parsed.problem, ...(parsed.fix !== undefined ? { fix: parsed.fix } : {}), basis: parsed.basis };
}

const OUTCOME_RANK: Record<Outcome, number> = { violation: 0, "not checked": 1, waived: 2, passed: 3 };

/** Sort order of verdicts: policy, URN (stack-wide first), outcome, problem line. */
export function compareVerdicts(a: Verdict, b: Verdict): number {
    return a.policy.localeCompare(b.policy)
        || (a.urn ?? "").localeCompare(b.urn ?? "")
        || OUTCOME_RANK[a.outcome] - OUTCOME_RANK[b.outcome]
        || a.problem.localeCompare(b.problem);
}

/** `a/b` joined with forward slashes, "." and "" meaning the root. */
function repoPath(root: string, file: string): string {
    const joined = path.posix.normalize(path.posix.join(root.split(path.sep).join("/") || ".", file));
    return joined.replace(/^\.\//, "");
}

/** Builds the results. Input: BuildInput. Output: Results (deterministic, sorted). */
export function buildResults(input: BuildInput): Results {
    const positions = new Map<string, string | undefined>(input.resources.map((r) => [r.urn, r.sourcePosition]));
    const projectFile: Location = { file: repoPath(input.programRoot, "Pulumi.yaml"), line: 1, declared: false };
    const locate = (urn: string | undefined): Location => {
        const pos = urn ? parseProjectPosition(positions.get(urn)) : undefined;
        return pos ? { file: repoPath(input.programRoot, pos.file), line: pos.line, declared: true } : projectFile;
    };
    const verdicts: Verdict[] = [];
    const reported = new Set<string>();
    for (const v of input.violations) {
        const parts = partsOf(v.message);
        const { outcome, waiver } = outcomeOf(v, parts.problem);
        reported.add(`${v.policyName}\u0000${v.urn ?? ""}`);
        verdicts.push({
            policy: v.policyName, pack: v.policyPackName, packVersion: v.policyPackVersion,
            level: v.enforcementLevel, outcome,
            ...(v.urn ? { urn: v.urn, resourceType: urnType(v.urn), resourceName: urnName(v.urn) } : {}),
            ...parts, ...(waiver !== undefined ? { waiver } : {}),
            message: v.message, location: locate(v.urn),
        });
    }
    // A pass: the policy applied to the resource, recorded no violation and nothing unchecked.
    const stackUrn = input.resources.find((r) => r.parent === "" && r.type === "pulumi:pulumi:Stack")?.urn;
    const passes = [
        ...(input.explanation?.resources ?? []).flatMap((r) => r.verdicts.map((v) => ({ urn: r.urn as string | undefined, v }))),
        ...(input.explanation?.stack ?? []).map((v) => ({ urn: undefined as string | undefined, v })),
    ];
    for (const { urn, v } of passes) {
        if (!v.applies || v.violations > 0 || v.notChecked.length > 0 || reported.has(`${v.policy}\u0000${urn ?? ""}`)) {
            continue;
        }
        reported.add(`${v.policy}\u0000${urn ?? ""}`);
        const policy = input.pack.policies.find((p) => p.name === v.policy);
        verdicts.push({
            policy: v.policy, pack: input.pack.name, packVersion: input.pack.version,
            level: input.levels[v.policy] ?? policy?.enforcementLevel ?? "advisory", outcome: "passed",
            ...(urn ? { urn, resourceType: urnType(urn), resourceName: urnName(urn) } : {}),
            problem: v.text, basis: [], message: "", location: locate(urn ?? stackUrn),
        });
    }
    const rules = input.pack.policies.map((p) => ({ id: p.name, description: p.description }))
        .sort((a, b) => a.id.localeCompare(b.id));
    return { tool: { name: input.pack.name, version: input.pack.version }, rules, verdicts: verdicts.sort(compareVerdicts) };
}

/** Each policy's level as Configure sent it. */
export function levelsOf(config: Readonly<Record<string, { enforcementLevel?: EnforcementLevel }>>): Record<string, EnforcementLevel | undefined> {
    return Object.fromEntries(Object.entries(config).map(([id, entry]) => [id, entry.enforcementLevel]));
}

/** Counts per outcome, as every writer and the tests read them. */
export function countOutcomes(verdicts: readonly Verdict[]): Record<Outcome, number> {
    const counts: Record<Outcome, number> = { violation: 0, waived: 0, "not checked": 0, passed: 0 };
    for (const v of verdicts) {
        counts[v.outcome] += 1;
    }
    return counts;
}
