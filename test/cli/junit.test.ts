/**
 * JUnit XML: parsed with a real XML parser (fast-xml-parser, validated first); a testsuite per
 * policy, a testcase per judged resource; failures and skipped count the verdicts the text
 * output prints, for each bundled TypeScript example; escaping survives markup in messages.
 */
import * as fs from "fs";
import * as path from "path";
import { spawnSync } from "child_process";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { buildResults, countOutcomes } from "../../cli/results/model";
import { writeJunit } from "../../cli/results/junit";
import { previewResults } from "../../preview/resultArgs";
import { bundledExamples, EXAMPLES, examplePreview, ROOT } from "../support/examplePreviews";

type Case = {
    "@_classname": string;
    "@_name": string;
    "@_file": string;
    "@_line": string;
    failure?: { "@_message": string; "@_type": string; "#text": string };
    skipped?: { "@_message": string };
};
type Suite = { "@_name": string; "@_tests": string; "@_failures": string; "@_skipped": string; testcase: Case[] };

function parse(xml: string): { suites: Suite[]; root: Record<string, string> } {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- fast-xml-parser's validator, as the issue asks; fast-xml-validator is a separate package
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "testsuite" || name === "testcase" }).parse(xml) as {
        testsuites: Record<string, string> & { testsuite?: Suite[] };
    };
    return { suites: doc.testsuites.testsuite ?? [], root: doc.testsuites };
}

const typescriptExamples = bundledExamples().filter((name) => fs.existsSync(path.join(EXAMPLES, name, "index.ts")));

describe("JUnit of each bundled TypeScript example", () => {
    for (const name of typescriptExamples) {
        it(`${name}: failures and skipped are the text output's verdicts`, async () => {
            const { result } = await examplePreview(name);
            const results = previewResults(result, `examples/${name}`);
            const { suites, root } = parse(writeJunit(results));
            const cases = suites.flatMap((s) => s.testcase);
            const failures = cases.filter((c) => c.failure !== undefined);
            const skipped = cases.filter((c) => c.skipped !== undefined);
            // Every violation the text output prints (its `- [level]` lines) is a failure or skipped.
            const printed = result.output.split("\n").filter((l) => /^ {8}- \[(mandatory|advisory)\]/.test(l)).length;
            expect(failures.length + skipped.length).toBe(printed);
            expect(failures.length).toBe(countOutcomes(results.verdicts).violation);
            expect(Number(root["@_failures"])).toBe(failures.length);
            expect(Number(root["@_tests"])).toBe(cases.length);
            // One suite per policy, each named once, cases named after the policy.
            expect(new Set(suites.map((s) => s["@_name"])).size).toBe(suites.length);
            for (const s of suites) {
                expect(Number(s["@_tests"])).toBe(s.testcase.length);
                expect(s.testcase.every((c) => c["@_classname"] === s["@_name"])).toBe(true);
            }
            // A mandatory violation's failure carries the level and the problem line.
            for (const v of result.violations.filter((x) => x.enforcementLevel === "mandatory" && !/not checked/.test(x.message))) {
                const problem = v.message.split("\n")[1];
                expect(failures.some((c) => c.failure?.["@_type"] === "mandatory" && c.failure["@_message"] === problem)).toBe(true);
            }
        });
    }

    it("npm run preview -- <example> --format junit prints the same document", async () => {
        const { result } = await examplePreview("nsx-alb-se-groups");
        const run = spawnSync(process.execPath, [path.join(ROOT, "dist", "preview", "main.js"), "examples/nsx-alb-se-groups", "--format", "junit"], {
            cwd: ROOT,
            encoding: "utf8",
        });
        expect(run.status).toBe(result.exitCode);
        expect(run.stdout).toBe(writeJunit(previewResults(result, "examples/nsx-alb-se-groups")));
        expect(run.stderr).toContain("Policies:");
    }, 300_000);
});

describe("JUnit escaping", () => {
    it("keeps markup, quotes and control characters of a message as text", () => {
        const message = "P & <Q>.\nPool \"a<b>\" & 'c' uses 90% \u0001 (limit 80%).\nFix: ]]> add\nBasis: x";
        const results = buildResults({
            pack: { name: "perfguard", version: "0.1.0", policies: [] },
            levels: {},
            programRoot: "",
            resources: [],
            violations: [
                {
                    policyName: "p<1>",
                    policyPackName: "perfguard",
                    policyPackVersion: "0.1.0",
                    enforcementLevel: "mandatory",
                    message,
                    urn: "urn:pulumi:s::p::a:b:C::n&m",
                    phase: "analyze",
                },
            ],
        });
        const { suites } = parse(writeJunit(results));
        expect(suites[0]["@_name"]).toBe("p<1>");
        expect(suites[0].testcase[0].failure?.["@_message"]).toBe("Pool \"a<b>\" & 'c' uses 90%  (limit 80%).");
        expect(suites[0].testcase[0].failure?.["#text"]).toContain("Fix: ]]> add");
    });
});

describe("JUnit passes of stack policies", () => {
    const zone = "urn:pulumi:s::p::citrix:index/zone:Zone::z";
    const seGroup = "urn:pulumi:s::p::avi:index/serviceenginegroup:Serviceenginegroup::g";
    const verdict = (policy: string, o: { applies: boolean; typeNotRead?: boolean; text?: string }) => ({
        policy,
        phase: "analyzeStack" as const,
        applies: o.applies,
        text: o.text ?? "not read",
        typeNotRead: o.typeNotRead ?? false,
        violations: 0,
        notChecked: [],
    });
    // citrix-site-limits applies stack-wide ("0 Citrix zones ...") whatever the stack holds.
    const stackWide = [verdict("citrix-site-limits", { applies: true, text: "0 Citrix zones against maxZonesPerSite 50" })];
    const cases = [
        {
            name: "a stack without a resource the policy reads: no test case",
            resource: { urn: seGroup, typeNotRead: true, applies: false },
            suites: [] as string[],
        },
        { name: "a stack with one: a passed test case", resource: { urn: zone, typeNotRead: false, applies: true }, suites: ["citrix-site-limits"] },
    ];
    for (const c of cases) {
        it(c.name, () => {
            const results = buildResults({
                pack: { name: "perfguard", version: "0.1.0", policies: [] },
                levels: {},
                programRoot: "",
                resources: [],
                violations: [],
                explanation: {
                    stack: stackWide,
                    resources: [
                        {
                            urn: c.resource.urn,
                            type: "",
                            name: "",
                            facts: {},
                            incomplete: false,
                            problems: 0,
                            verdicts: [verdict("citrix-site-limits", { applies: c.resource.applies, typeNotRead: c.resource.typeNotRead, text: "ok" })],
                        },
                    ],
                },
            });
            const { suites } = parse(writeJunit(results));
            expect(suites.map((s) => s["@_name"])).toEqual(c.suites);
            // Where it judged a resource, the stack-wide pass is listed beside the resource's.
            expect(
                suites
                    .flatMap((s) => s.testcase)
                    .map((t) => t["@_name"])
                    .sort(),
            ).toEqual(c.suites.length > 0 ? ["(stack)", "citrix:index/zone:Zone z"] : []);
        });
    }
});
