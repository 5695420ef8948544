/**
 * One results model for every output format (text, json, sarif, junit, github, markdown): the
 * verdicts of one run, built once from what the pack reported (violations), what it explained
 * (passes), and where the program declares each resource. Writers only read it, so the formats
 * cannot disagree.
 */
import type { Explanation } from "../../preview/explainReport";
import type { PolicyInfo } from "../../preview/packClient";
import { parseProjectPosition } from "../../preview/sourcePosition";
import type { EnforcementLevel, RecordedResource, Violation } from "../../preview/types";
import { compareVerdicts, Location, repoPath, Results, urnName, urnType, Verdict, verdictOf } from "../../policies/pack/results/verdict";

// The verdict model lives beneath the pack (policies/pack/results/verdict.ts), so that the pack
// process can write the same verdicts itself (PERFGUARD_RESULTS).
export { compareVerdicts, countOutcomes } from "../../policies/pack/results/verdict";
export type { Location, Outcome, Results, RuleInfo, Verdict } from "../../policies/pack/results/verdict";

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
 * The policies that judge some resource of this stack: a resource's explanation names them other
 * than "not read" (a resource of their types or roles), or they reported on it. A stack-wide pass
 * of any other policy is not a pass: a Citrix Site policy on a stack with no Citrix resource judged
 * nothing ("0 Citrix zones against maxZonesPerSite 50"), and JUnit would list it as a passed test.
 * It is left out rather than skipped: in CI test tabs "skipped" is what perfguard could not check
 * (a blind spot to act on), and a policy with nothing to judge is not one.
 */
function policiesJudgingAResource(explanation: Explanation | undefined): Set<string> {
    const judging = new Set<string>();
    for (const r of explanation?.resources ?? []) {
        for (const v of r.verdicts) {
            if (!v.typeNotRead || v.violations > 0) {
                judging.add(v.policy);
            }
        }
    }
    return judging;
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
        reported.add(`${v.policyName}\u0000${v.urn ?? ""}`);
        verdicts.push(verdictOf(v, locate(v.urn)));
    }
    // A pass: the policy applied to the resource, recorded no violation and nothing unchecked.
    const stackUrn = input.resources.find((r) => r.parent === "" && r.type === "pulumi:pulumi:Stack")?.urn;
    const judging = policiesJudgingAResource(input.explanation);
    const passes = [
        ...(input.explanation?.resources ?? []).flatMap((r) => r.verdicts.map((v) => ({ urn: r.urn, v }))),
        ...(input.explanation?.stack ?? []).filter((v) => judging.has(v.policy)).map((v) => ({ urn: undefined as string | undefined, v })),
    ];
    for (const { urn, v } of passes) {
        if (!v.applies || v.violations > 0 || v.notChecked.length > 0 || reported.has(`${v.policy}\u0000${urn ?? ""}`)) {
            continue;
        }
        reported.add(`${v.policy}\u0000${urn ?? ""}`);
        const policy = input.pack.policies.find((p) => p.name === v.policy);
        verdicts.push({
            policy: v.policy,
            pack: input.pack.name,
            packVersion: input.pack.version,
            level: input.levels[v.policy] ?? policy?.enforcementLevel ?? "advisory",
            outcome: "passed",
            ...(urn ? { urn, resourceType: urnType(urn), resourceName: urnName(urn) } : {}),
            problem: v.text,
            basis: [],
            message: "",
            location: locate(urn ?? stackUrn),
        });
    }
    const rules = input.pack.policies.map((p) => ({ id: p.name, description: p.description })).sort((a, b) => a.id.localeCompare(b.id));
    return { tool: { name: input.pack.name, version: input.pack.version }, rules, verdicts: verdicts.sort(compareVerdicts) };
}

/**
 * How the writers name a verdict's resource: `<type> <name>` (`short`: the name), "(stack)" for a
 * stack-wide verdict; in a fleet led by its stack (`team-b/prod: <type> <name>`, `team-b/prod (stack)`,
 * short `stack team-b/prod`), so two stacks' verdicts on same-named resources differ.
 */
export function resourceText(v: Verdict, short = false): string {
    const own = v.urn !== undefined ? (short ? (v.resourceName ?? v.urn) : `${v.resourceType ?? ""} ${v.resourceName ?? v.urn}`.trim()) : undefined;
    if (v.stack === undefined) {
        return own ?? "(stack)";
    }
    return own !== undefined ? `${v.stack}: ${own}` : short ? `stack ${v.stack}` : `${v.stack} (stack)`;
}

/** Each policy's level as Configure sent it. */
export function levelsOf(config: Readonly<Record<string, { enforcementLevel?: EnforcementLevel }>>): Record<string, EnforcementLevel | undefined> {
    return Object.fromEntries(Object.entries(config).map(([id, entry]) => [id, entry.enforcementLevel]));
}
