/**
 * `perfguard diff --format sarif|junit|github` and `--output <format>=<file>`: written from head's
 * verdict list (head judged whole, as `perfguard check` judges it), each verdict marked new or
 * unchanged against base. Base is the nsx-alb-se-groups example's --record without the web SE
 * group and its VS, so head's two mandatory verdicts on them are new and the rest unchanged.
 */
import * as fs from "fs";
import * as path from "path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { examplePreview } from "../support/examplePreviews";
import { perfguard, tempDir } from "./cliHarness";
import { sarifErrors } from "./sarifSchema";

type SarifResult = {
    ruleId: string;
    level: string;
    baselineState?: string;
    locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>;
};
type SarifLog = { runs: Array<{ results: SarifResult[] }> };
type Case = {
    "@_classname": string;
    "@_name": string;
    failure?: unknown;
    skipped?: unknown;
    properties?: { property: { "@_name": string; "@_value": string } };
};
type JunitDoc = { testsuites: { testsuite?: Array<{ testcase: Case[] }> } };

function junitCases(xml: string): Case[] {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- fast-xml-parser's validator, as the issue asks; fast-xml-validator is a separate package
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "testsuite" || name === "testcase" }).parse(xml) as JunitDoc;
    return (doc.testsuites.testsuite ?? []).flatMap((s) => s.testcase);
}

/** The `+`/`-` verdict lines of the diff's text output. */
function changeLines(text: string, sign: "+" | "-"): number {
    return text.split("\n").filter((l) => l.startsWith(`  ${sign} [`)).length;
}

// Each diff starts two pack processes, the check one: minutes on a loaded 2-core machine.
const SLOW = 300_000;

describe("perfguard diff in the result formats", () => {
    it(
        "SARIF validates and marks head's verdicts new or unchanged; JUnit counts the verdicts check's text prints",
        async () => {
            const { record } = await examplePreview("nsx-alb-se-groups");
            const dir = tempDir();
            const head = path.join(dir, "head.json");
            const base = path.join(dir, "base.json");
            fs.copyFileSync(record, head);
            const doc = JSON.parse(fs.readFileSync(record, "utf8")) as { deployment: { resources: Array<{ urn: string }> } };
            doc.deployment.resources = doc.deployment.resources.filter((r) => !/::web-(se-group|https-vs)$/.test(r.urn));
            fs.writeFileSync(base, JSON.stringify(doc));

            const plain = await perfguard(["diff", "base.json", "head.json"], dir);
            const run = await perfguard(
                [
                    "diff",
                    "base.json",
                    "head.json",
                    "--format",
                    "sarif",
                    "--program-root",
                    "examples/nsx-alb-se-groups",
                    "--output",
                    "junit=out/diff.xml",
                    "--output",
                    "json=out/diff.json",
                    "--output",
                    "github=out/annotations.txt",
                ],
                dir,
            );
            const check = await perfguard(["check", "head.json"], dir);

            // The exit code is the diff's; the diff's text goes to stderr, before the files' notes.
            expect(run.code).toBe(plain.code);
            expect(run.code).toBe(1);
            expect(run.stderr.startsWith(plain.stdout)).toBe(true);
            expect(run.stderr).toContain("junit written to out/diff.xml");
            const added = changeLines(plain.stdout, "+");
            expect(added).toBe(2);

            const log = JSON.parse(run.stdout) as SarifLog;
            expect(sarifErrors(log)).toBe("");
            const results = log.runs[0].results;
            // Every violation `check` prints of head is one result; the diff's `+` lines are the new ones.
            const printed = check.stdout.split("\n").filter((l) => /^ {8}- \[(mandatory|advisory)\]/.test(l)).length;
            expect(results.length).toBe(printed);
            expect(results.filter((r) => r.baselineState === "new").length).toBe(added);
            expect(results.filter((r) => r.baselineState === "unchanged").length).toBe(printed - added);
            expect(results.filter((r) => r.baselineState === "new").every((r) => r.level === "error")).toBe(true);
            expect(results.every((r) => r.locations[0].physicalLocation.artifactLocation.uri === "examples/nsx-alb-se-groups/index.ts")).toBe(true);

            // JUnit: failures and skipped are the verdicts check's text prints; the new ones carry the property.
            const cases = junitCases(fs.readFileSync(path.join(dir, "out", "diff.xml"), "utf8"));
            expect(cases.filter((c) => c.failure !== undefined || c.skipped !== undefined).length).toBe(printed);
            expect(cases.filter((c) => c.properties?.property["@_value"] === "new").length).toBe(added);

            // json is the diff's own document (as --format json), github head's annotations.
            const json = JSON.parse(fs.readFileSync(path.join(dir, "out", "diff.json"), "utf8")) as { command: string; verdicts: Array<{ change: string }> };
            expect(json.command).toBe("diff");
            expect(json.verdicts.filter((v) => v.change === "appeared").length).toBe(added);
            const annotations = fs
                .readFileSync(path.join(dir, "out", "annotations.txt"), "utf8")
                .trim()
                .split("\n");
            expect(annotations.length).toBe(printed);
            expect(annotations.filter((l) => /,title=[^:]*\[new\]::/.test(l)).length).toBe(added);
        },
        SLOW,
    );
});
