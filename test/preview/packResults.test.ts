/**
 * PERFGUARD_RESULTS through the emulated preview (which runs the pack process as the CLI does): the
 * file the pack writes holds the verdicts of the printed `Policies:` section, message for message;
 * a relative path resolves against the folder the CLI started in (PWD), not the pack's; a preview
 * whose program fails still leaves the verdicts so far. test/real/packResults.test.ts does the same
 * under the real CLI.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { listedViolations, policiesSection } from "../../scripts/realCli/run";
import type { Results } from "../../policies/pack/results/verdict";
import { sarifErrors } from "../cli/sarifSchema";

const ROOT = path.resolve(__dirname, "..", "..");

/** Verdicts as `level policy -> name` (stack-wide: "(stack)"), sorted. */
function printed(stdout: string): string[] {
    return listedViolations(policiesSection(stdout))
        .map((v) => `${v.level} ${v.policy} -> ${v.name ?? "(stack)"}`)
        .sort();
}

function written(results: Results): string[] {
    return results.verdicts.map((v) => `${v.level} ${v.policy} -> ${v.resourceName ?? "(stack)"}`).sort();
}

/** Runs the emulated preview with PERFGUARD_RESULTS=<value>, PWD a fresh folder (as a shell sets it). */
function preview(program: string, value: string) {
    const start = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-results-"));
    const run = spawnSync(process.execPath, [path.join(ROOT, "dist", "preview", "main.js"), program], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, PERFGUARD_RESULTS: value, PWD: start },
    });
    return { run, start };
}

describe("PERFGUARD_RESULTS under the emulated preview", () => {
    it("writes the Policies section's verdicts and messages as JSON, at a path relative to PWD", () => {
        const { run, start } = preview("examples/nsx-alb-se-groups", "out/results.json");
        expect(run.status, run.stderr).toBe(1);
        const file = path.join(start, "out", "results.json");
        expect(fs.existsSync(path.join(ROOT, "out", "results.json"))).toBe(false);
        const results = JSON.parse(fs.readFileSync(file, "utf8")) as Results & { counts: Record<string, number> };
        expect(written(results)).toEqual(printed(run.stdout));
        expect(written(results)).toEqual([
            "advisory nsx-alb-se-dedicated-dispatcher -> bulk-se-group",
            "mandatory nsx-alb-se-capacity -> web-https-vs",
            "mandatory nsx-alb-se-capacity -> web-se-group",
        ]);
        // Each message as the section prints it (indented 10 spaces under its line).
        for (const v of results.verdicts) {
            expect(policiesSection(run.stdout)).toContain(
                v.message
                    .replace(/\n$/, "")
                    .split("\n")
                    .map((l) => `          ${l}`)
                    .join("\n"),
            );
        }
        expect(results.counts).toEqual({ violation: 3, waived: 0, "not checked": 0, passed: 0 });
        expect(results.rules.map((r) => r.id)).toContain("nsx-alb-se-capacity");
        expect(results.verdicts.every((v) => v.location.file === "Pulumi.yaml" && v.location.line === 1)).toBe(true);
    }, 300_000);

    it("writes SARIF 2.1.0 that validates against the schema when asked (<file>,sarif)", () => {
        const { run, start } = preview("examples/nsx-alb-se-groups", "results.out,sarif");
        expect(run.status, run.stderr).toBe(1);
        const log = JSON.parse(fs.readFileSync(path.join(start, "results.out"), "utf8")) as {
            runs: Array<{ results: Array<{ ruleId: string; level: string }> }>;
        };
        expect(sarifErrors(log)).toBe("");
        expect(log.runs[0].results.map((r) => `${r.level} ${r.ruleId}`).sort()).toEqual([
            "error nsx-alb-se-capacity",
            "error nsx-alb-se-capacity",
            "warning nsx-alb-se-dedicated-dispatcher",
        ]);
    }, 300_000);

    it("leaves the verdicts so far when the program fails", () => {
        const { run, start } = preview(path.join("test", "fixtures", "programs", "rejects-input"), path.join("r", "results.json"));
        expect(run.status).toBe(1);
        expect(run.stderr).toContain("async boom");
        const results = JSON.parse(fs.readFileSync(path.join(start, "r", "results.json"), "utf8")) as Results;
        expect(written(results)).toEqual(printed(run.stdout));
    }, 300_000);
});
