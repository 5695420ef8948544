/**
 * PERFGUARD_RESULTS under the real CLI: `pulumi preview --policy-pack <this pack>` on a bundled
 * example leaves a file, at a path relative to the folder the CLI started in (PWD), whose verdicts
 * and messages are those of the CLI's `Policies:` section.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import type { Results } from "../../policies/pack/results/verdict";
import { listedViolations, policiesSection, realPreview, REPO_ROOT } from "../../scripts/realCli/run";

describe("PERFGUARD_RESULTS under a real pulumi preview", () => {
    it("writes the verdicts of the Policies section (nsx-alb-se-groups)", async () => {
        const start = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-real-results-"));
        const run = await realPreview(path.join(REPO_ROOT, "examples", "nsx-alb-se-groups"), { env: { PERFGUARD_RESULTS: "out/results.json", PWD: start } });
        const both = `\n--- pulumi preview (exit ${run.exitCode}) ---\n${run.stdout}${run.stderr}`;
        expect(run.exitCode, both).toBe(1);
        const file = path.join(start, "out", "results.json");
        expect(fs.existsSync(file), both).toBe(true);
        const results = JSON.parse(fs.readFileSync(file, "utf8")) as Results;
        const section = policiesSection(run.stdout);
        const printed = listedViolations(section)
            .map((v) => `${v.level} ${v.policy} -> ${v.name ?? "(stack)"}`)
            .sort();
        expect(printed.length, both).toBeGreaterThan(0);
        expect(results.verdicts.map((v) => `${v.level} ${v.policy} -> ${v.resourceName ?? "(stack)"}`).sort(), both).toEqual(printed);
        for (const v of results.verdicts) {
            expect(section, both).toContain(
                v.message
                    .replace(/\n$/, "")
                    .split("\n")
                    .map((l) => `          ${l}`)
                    .join("\n"),
            );
        }
    }, 600_000);
});
