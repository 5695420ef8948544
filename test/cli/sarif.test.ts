/**
 * SARIF: schema-valid (SARIF 2.1.0 JSON Schema, ajv) for every bundled TypeScript example's
 * preview and for `perfguard check --format sarif` on a stack export; each verdict located at the
 * line that constructs its resource when the SDK recorded it, else at Pulumi.yaml line 1 with the
 * URN as logical location; levels, rules, help links, fingerprints and suppressions.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { buildResults, Results } from "../../cli/results/model";
import { docsBase, policyDocUrl } from "../../policies/pack/results/docsUrl";
import { FINGERPRINT_KEY, toSarif } from "../../policies/pack/results/sarif";
import { parseProjectPosition } from "../../preview/sourcePosition";
import { previewResults } from "../../preview/resultArgs";
import type { Violation } from "../../preview/types";
import { bundledExamples, EXAMPLES, examplePreview, ROOT } from "../support/examplePreviews";
import { perfguard, tempDir } from "./cliHarness";
import { sarifErrors } from "./sarifSchema";

type SarifResult = {
    ruleId: string;
    level: string;
    message: { text: string };
    locations: Array<{
        physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
        logicalLocations?: Array<{ fullyQualifiedName: string }>;
    }>;
    partialFingerprints: Record<string, string>;
    suppressions?: Array<{ kind: string; justification: string }>;
};
type SarifLog = {
    runs: Array<{ tool: { driver: { name: string; version: string; rules: Array<{ id: string; helpUri?: string }> } }; results: SarifResult[] }>;
};

const typescriptExamples = bundledExamples().filter((name) => fs.existsSync(path.join(EXAMPLES, name, "index.ts")));

/** The line of `file` (repository-relative) at `line`. */
function sourceLine(file: string, line: number): string {
    return fs.readFileSync(path.join(ROOT, file), "utf8").split("\n")[line - 1] ?? "";
}

describe("SARIF of each bundled TypeScript example's preview", () => {
    it("covers at least the four TypeScript examples", () => {
        expect(typescriptExamples.length).toBeGreaterThanOrEqual(4);
    });
    for (const name of typescriptExamples) {
        it(`${name}: schema-valid, one result per violation, each at the line constructing its resource`, async () => {
            const { result } = await examplePreview(name);
            const log = toSarif(previewResults(result, `examples/${name}`), { docsBase: "https://example.test/perfguard/blob/main" }) as SarifLog;
            expect(sarifErrors(log)).toBe("");
            const run = log.runs[0];
            expect(run.tool.driver.name).toBe("perfguard");
            expect(run.results.length).toBe(result.violations.length);
            for (const r of run.results) {
                expect(run.tool.driver.rules.map((x) => x.id)).toContain(r.ruleId);
                const loc = r.locations[0];
                const urn = loc.logicalLocations?.[0]?.fullyQualifiedName;
                const declared = result.resources.find((x) => x.urn === urn)?.sourcePosition;
                const pos = parseProjectPosition(declared);
                if (pos) {
                    expect(loc.physicalLocation.artifactLocation.uri).toBe(`examples/${name}/${pos.file}`);
                    // The line constructs a resource of the verdict's type: `new [<module>.]<Type>(`.
                    const type = (urn ?? "").split("::")[2].split(":").pop() as string;
                    expect(sourceLine(loc.physicalLocation.artifactLocation.uri, loc.physicalLocation.region.startLine)).toMatch(
                        new RegExp(`new (\\w+\\.)?${type}\\(`),
                    );
                } else {
                    expect(loc.physicalLocation.artifactLocation.uri).toBe(`examples/${name}/Pulumi.yaml`);
                    expect(loc.physicalLocation.region.startLine).toBe(1);
                }
            }
            // Every resource declared at top level or in a named function has its line.
            const located = run.results.filter((r) => r.locations[0].physicalLocation.artifactLocation.uri.endsWith(".ts"));
            expect(located.length).toBeGreaterThan(0);
        });
    }
});

describe("perfguard check --format sarif on a stack export", () => {
    it("is schema-valid and locates verdicts from the export's sourcePosition under --program-root", async () => {
        const { record, result } = await examplePreview("nsx-alb-se-groups");
        const run = await perfguard(["check", record, "--format", "sarif", "--program-root", "examples/nsx-alb-se-groups"]);
        expect(run.code).toBe(1); // exit code as with text
        const log = JSON.parse(run.stdout) as SarifLog;
        expect(sarifErrors(log)).toBe("");
        expect(run.stderr).toContain("Policies:"); // the text goes to stderr
        const results = log.runs[0].results;
        expect(results.map((r) => `${r.ruleId} ${r.level}`).sort()).toEqual(
            result.violations.map((v) => `${v.policyName} ${v.enforcementLevel === "mandatory" ? "error" : "warning"}`).sort(),
        );
        const seGroup = results.find((r) => r.locations[0].logicalLocations?.[0].fullyQualifiedName.endsWith("::web-se-group"));
        expect(seGroup?.locations[0].physicalLocation.artifactLocation.uri).toBe("examples/nsx-alb-se-groups/index.ts");
        expect(sourceLine("examples/nsx-alb-se-groups/index.ts", seGroup?.locations[0].physicalLocation.region.startLine ?? 0)).toContain(
            `new avi.Serviceenginegroup("web-se-group"`,
        );
        // The help link is absolute, from package.json's repository, overridable by --docs-url.
        const rule = log.runs[0].tool.driver.rules.find((r) => r.id === "nsx-alb-se-capacity");
        expect(rule?.helpUri).toMatch(/^https:\/\/.+\/docs\/policies\/nsx-alb-se-capacity\.md$/);
    });

    it("--output writes the same SARIF beside the text on stdout", async () => {
        const { record } = await examplePreview("nsx-alb-se-groups");
        const out = path.join(tempDir(), "sub", "r.sarif");
        const text = await perfguard(["check", record]);
        const run = await perfguard(["check", record, "--output", `sarif=${out}`, "--docs-url", "https://example.test/fork/blob/dev"]);
        expect(run.stdout).toBe(text.stdout);
        expect(run.code).toBe(text.code);
        const log = JSON.parse(fs.readFileSync(out, "utf8")) as SarifLog;
        expect(sarifErrors(log)).toBe("");
        expect(log.runs[0].tool.driver.rules[0].helpUri).toMatch(/^https:\/\/example\.test\/fork\/blob\/dev\/docs\/policies\//);
    });
});

function violation(policyName: string, name: string, level: "mandatory" | "advisory", message: string): Violation {
    return {
        policyName,
        policyPackName: "perfguard",
        policyPackVersion: "0.1.0",
        enforcementLevel: level,
        message,
        urn: `urn:pulumi:dev::p::avi:index/pool:Pool::${name}`,
        phase: "analyze",
    };
}

function results(violations: Violation[]): Results {
    return buildResults({
        pack: {
            name: "perfguard",
            version: "0.1.0",
            policies: [{ name: "p-one", displayName: "", description: "Pools must fit.", enforcementLevel: "mandatory", policyType: "resource" }],
        },
        levels: {},
        violations,
        programRoot: "infra",
        resources: [
            {
                urn: "urn:pulumi:dev::p::avi:index/pool:Pool::a",
                type: "avi:index/pool:Pool",
                name: "a",
                custom: true,
                parent: "",
                inputs: {},
                outputs: {},
                dependencies: [],
                propertyDependencies: {},
                options: {
                    protect: false,
                    ignoreChanges: [],
                    additionalSecretOutputs: [],
                    aliases: [],
                    customTimeouts: { create: 0, update: 0, delete: 0, read: 0 },
                },
                sourcePosition: "project:///src/index.ts#12,5",
            },
        ],
    });
}

describe("SARIF levels, fingerprints and suppressions", () => {
    const base = 'Pools must fit.\nPool "a" uses 90% (limit 80%).\nFix: add a server\nBasis: table';
    const cases: Array<{ name: string; v: Violation; level: string; suppressed: boolean }> = [
        { name: "mandatory is error", v: violation("p-one", "a", "mandatory", base), level: "error", suppressed: false },
        { name: "advisory is warning", v: violation("p-one", "a", "advisory", base), level: "warning", suppressed: false },
        {
            name: "not checked is note",
            v: violation("p-one", "a", "mandatory", 'Pools must fit.\nPool "a" not checked: unknown in preview.\nFix: deploy'),
            level: "note",
            suppressed: false,
        },
        {
            name: "waived is a suppressed warning",
            v: violation("p-one", "a", "advisory", 'Pools must fit.\nwaived (tags: "ticket 7")\nPool "a" uses 90% (limit 80%).\nFix: add a server'),
            level: "warning",
            suppressed: true,
        },
    ];
    for (const c of cases) {
        it(c.name, () => {
            const log = toSarif(results([c.v])) as SarifLog;
            expect(sarifErrors(log)).toBe("");
            const r = log.runs[0].results[0];
            expect(r.level).toBe(c.level);
            expect(r.locations[0].physicalLocation.artifactLocation.uri).toBe("infra/src/index.ts");
            expect(r.locations[0].physicalLocation.region.startLine).toBe(12);
            expect(r.suppressions?.[0]?.justification).toBe(c.suppressed ? 'waived (tags: "ticket 7")' : undefined);
        });
    }

    it("fingerprints depend on policy and resource, not on the figures", () => {
        const one = toSarif(results([violation("p-one", "a", "mandatory", base)])) as SarifLog;
        const other = toSarif(results([violation("p-one", "a", "mandatory", base.replace("90%", "95%"))])) as SarifLog;
        const moved = toSarif(results([violation("p-one", "b", "mandatory", base)])) as SarifLog;
        const fp = (l: SarifLog) => l.runs[0].results[0].partialFingerprints[FINGERPRINT_KEY];
        expect(fp(other)).toBe(fp(one));
        expect(fp(moved)).not.toBe(fp(one));
        // A resource without a recorded line: Pulumi.yaml line 1 and the URN as logical location.
        expect(moved.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe("infra/Pulumi.yaml");
        expect(moved.runs[0].results[0].locations[0].logicalLocations?.[0].fullyQualifiedName).toBe("urn:pulumi:dev::p::avi:index/pool:Pool::b");
    });

    it("two verdicts of one policy on one resource keep distinct fingerprints", () => {
        const log = toSarif(
            results([violation("p-one", "a", "mandatory", base), violation("p-one", "a", "mandatory", base.replace("uses", "needs"))]),
        ) as SarifLog;
        const fps = log.runs[0].results.map((r) => r.partialFingerprints[FINGERPRINT_KEY]);
        expect(new Set(fps).size).toBe(2);
    });
});

describe("SARIF help links for a fork", () => {
    it.each([
        ["package.json's repository (the placeholder) by default", undefined, {}, "https://github.com/perfguard/perfguard/blob/main"],
        [
            "PERFGUARD_DOCS_URL overrides it (a trailing slash dropped)",
            undefined,
            { PERFGUARD_DOCS_URL: "https://git.example.test/me/perfguard/blob/dev/" },
            "https://git.example.test/me/perfguard/blob/dev",
        ],
        [
            "--docs-url overrides the variable",
            "https://example.test/fork/blob/x",
            { PERFGUARD_DOCS_URL: "https://git.example.test/me/perfguard/blob/dev" },
            "https://example.test/fork/blob/x",
        ],
    ] as const)("%s", (_label, option, env, base) => {
        expect(docsBase(option, env)).toBe(base);
        expect(policyDocUrl(docsBase(option, env), "xen-dom0-workload")).toBe(`${base}/docs/policies/xen-dom0-workload.md`);
    });
});
