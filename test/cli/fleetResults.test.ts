/**
 * `perfguard check` of a fleet in the result formats (cli/fleet.ts mergeResults, cli/results/*):
 * every verdict names its stack, so two stacks' verdicts on same-named resources, and their
 * stack-wide verdicts, are told apart in JUnit test names, GitHub annotation titles, Markdown
 * rows and SARIF fingerprints. One stack alone is written as before (no stack named).
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { mergeResults } from "../../cli/fleet";
import { writeGithub } from "../../cli/results/github";
import { writeJunit } from "../../cli/results/junit";
import { writeMarkdown } from "../../cli/results/markdown";
import type { Results, Verdict } from "../../cli/results/model";
import { toSarif } from "../../policies/pack/results/sarif";
import { fixture } from "../support/inventoryStacks";
import { perfguard, tempDir } from "./cliHarness";

const VS = "avi:index/virtualservice:Virtualservice";

function verdict(project: string, over: Partial<Verdict>): Verdict {
    return {
        policy: "nsx-alb-se-capacity",
        pack: "perfguard",
        packVersion: "0.1.0",
        level: "mandatory",
        outcome: "violation",
        urn: `urn:pulumi:prod::${project}::${VS}::web`,
        resourceType: VS,
        resourceName: "web",
        problem: `Serviceenginegroup "shared-web": its busiest SE needs 123.8% (limit 80%).`,
        basis: [],
        message: "",
        location: { file: "Pulumi.yaml", line: 1, declared: false },
        ...over,
    };
}

/** One stack's results: a violation on its VS "web" and a stack-wide "not checked". */
function stackResults(project: string): Results {
    return {
        tool: { name: "perfguard", version: "0.1.0" },
        rules: [
            { id: "nsx-alb-se-capacity", description: "NSX ALB virtual services must fit their Service Engines, with headroom." },
            { id: "perfguard-facts", description: "perfguard facts must be readable." },
        ],
        verdicts: [
            verdict(project, {}),
            verdict(project, {
                policy: "perfguard-facts",
                level: "advisory",
                outcome: "not checked",
                urn: undefined,
                resourceType: undefined,
                resourceName: undefined,
                problem: "1 stack is stale",
            }),
        ],
    };
}

const fleet = mergeResults([
    { stack: "team-b/prod", results: stackResults("team-b") },
    { stack: "team-a/prod", results: stackResults("team-a") },
]) as Results;
const single = stackResults("team-a");

describe("fleet results name each verdict's stack", () => {
    it.each([
        {
            format: "junit test names",
            write: (r: Results) => [...writeJunit(r).matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map((m) => `${m[1]} | ${m[2]}`),
            fleet: [
                `nsx-alb-se-capacity | team-a/prod: ${VS} web`,
                `nsx-alb-se-capacity | team-b/prod: ${VS} web`,
                "perfguard-facts | team-a/prod (stack)",
                "perfguard-facts | team-b/prod (stack)",
            ],
            single: [`nsx-alb-se-capacity | ${VS} web`, "perfguard-facts | (stack)"],
        },
        {
            format: "GitHub annotation titles",
            write: (r: Results) => [...writeGithub(r).matchAll(/title=([^:]+)::/g)].map((m) => m[1]),
            fleet: [
                "nsx-alb-se-capacity (team-a/prod%3A web)",
                "nsx-alb-se-capacity (team-b/prod%3A web)",
                "perfguard-facts (stack team-a/prod)",
                "perfguard-facts (stack team-b/prod)",
            ],
            single: ["nsx-alb-se-capacity (web)", "perfguard-facts"],
        },
        {
            format: "Markdown resource cells",
            write: (r: Results) => [...writeMarkdown(r).matchAll(/^\| (?:mandatory|advisory) \| [\w ]+ \| [\w-]+ \| ([^|]+) \|/gm)].map((m) => m[1].trim()),
            fleet: [`team-a/prod: ${VS} web`, `team-b/prod: ${VS} web`, "team-a/prod (stack)", "team-b/prod (stack)"],
            single: [`${VS} web`, "(stack)"],
        },
    ])("$format", (c) => {
        expect(c.write(fleet)).toEqual(c.fleet);
        expect(c.write(single)).toEqual(c.single);
    });

    it("SARIF: each stack's stack-wide verdict is its own series (distinct fingerprints), the stack a property", () => {
        const results = (
            toSarif(fleet).runs as Array<{ results: Array<{ ruleId: string; partialFingerprints: Record<string, string>; properties: { stack?: string } }> }>
        )[0].results;
        const facts = results.filter((r) => r.ruleId === "perfguard-facts");
        expect(facts.map((r) => r.properties.stack)).toEqual(["team-a/prod", "team-b/prod"]);
        const prints = facts.map((r) => Object.values(r.partialFingerprints)[0]);
        expect(prints[0]).not.toBe(prints[1]);
        expect(prints.every((p) => !p.includes(":"))).toBe(true); // not told apart by rank only
    });
});

describe("perfguard check of a fleet: JUnit and GitHub name the stack (built binary)", () => {
    it("the network, team A and team B stacks: the one cause on shared-web, named with network/prod", async () => {
        const dir = tempDir();
        const junit = path.join(dir, "fleet.xml");
        const run = await perfguard(
            ["check", fixture("network.json"), fixture("team-a.json"), fixture("team-b.json"), "--format", "github", "--output", `junit=${junit}`],
            dir,
            {
                PERFGUARD_INVENTORY: undefined,
                PERFGUARD_INVENTORY_MAX_AGE_HOURS: "100000",
            },
        );
        expect(run.code).toBe(1);
        expect(
            run.stdout
                .split("\n")
                .filter((l) => l.startsWith("::error"))
                .map((l) => /title=([^:]+)::/.exec(l)?.[1]),
        ).toEqual(["nsx-alb-se-capacity (network/prod%3A shared-web)"]);
        const names = [...fs.readFileSync(junit, "utf8").matchAll(/<testcase classname="nsx-alb-se-capacity" name="([^"]+)"/g)].map((m) => m[1]);
        expect(names).toContain("network/prod: avi:index/serviceenginegroup:Serviceenginegroup shared-web");
        expect(names.every((n) => /^(network|team-a|team-b)\/prod[: ]/.test(n))).toBe(true);
    });
});
