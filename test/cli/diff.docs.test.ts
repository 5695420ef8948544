/** docs/ci.md's perfguard diff job: the section quotes docs/ci/diff.yml verbatim, and the workflow does what the section says. */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

describe("docs/ci.md: the pull-request diff job (docs/ci/diff.yml)", () => {
    const yml = fs.readFileSync(path.join(ROOT, "docs", "ci", "diff.yml"), "utf8");
    const ci = fs.readFileSync(path.join(ROOT, "docs", "ci.md"), "utf8");
    const start = ci.indexOf("## Pull requests: what the change does to performance (perfguard diff)");
    // The section runs to the next level-2 heading (other sections of docs/ci.md follow it).
    const end = ci.indexOf("\n## ", start + 3);
    const section = ci.slice(start, end < 0 ? undefined : end);

    it("is one self-contained section quoting the workflow file verbatim", () => {
        expect(start).toBeGreaterThanOrEqual(0);
        expect(section.length).toBeGreaterThan(100);
        expect(section).toContain("```yaml\n" + yml + "```");
    });

    it("exports the deployed stack, previews with the pack as JSON, diffs, posts one comment, and gates on the exit code", async () => {
        const yaml = await import("js-yaml");
        const wf = yaml.load(yml) as {
            on: Record<string, unknown>;
            jobs: Record<string, { steps: Array<{ name?: string; run?: string; uses?: string; with?: Record<string, string>; if?: string }> }>;
        };
        expect(Object.keys(wf.on)).toEqual(["pull_request"]);
        const steps = wf.jobs.diff.steps;
        const run = steps.map((s) => s.run ?? "").join("\n");
        // Run step by step, offline, by test/ci/diff.test.ts and under the real CLI by test/real/ciRecipe.test.ts.
        expect(run).toMatch(/pulumi stack export --stack "\$STACK" --file "\$RUNNER_TEMP\/base\.json" 2> "\$RUNNER_TEMP\/export-error\.txt"/);
        // The empty base only for this stack's "no stack named" (test/ci/diff.test.ts runs the step).
        expect(run).toContain('if ! grep -qF "no stack named \'$STACK\' found" "$RUNNER_TEMP/export-error.txt"; then exit "$code"; fi');
        expect(run).toMatch(/echo '\{"version": 3, "deployment": \{\}\}' > "\$RUNNER_TEMP\/base\.json"/);
        // The preview with the pack runs through the repository's action (action.yml), which keeps its JSON as the head.
        const preview = steps.find((x) => x.uses === "./perfguard");
        expect(preview?.with).toMatchObject({ mode: "pulumi-preview", "preview-json": "true" });
        const action = fs.readFileSync(path.join(__dirname, "..", "..", "action.yml"), "utf8");
        expect(action).toMatch(/pulumi preview "\$\{real\[@\]\}" --json\) > "\$RUNNER_TEMP\/perfguard-head\.json"/);
        expect(run).toMatch(
            /node perfguard\/dist\/cli\/main\.js diff "\$RUNNER_TEMP\/base\.json" "\$RUNNER_TEMP\/perfguard-head\.json"[\s\S]*--format markdown > "\$RUNNER_TEMP\/perfguard-diff\.md"/,
        );
        const comment = steps.find((s) => s.uses?.startsWith("marocchino/sticky-pull-request-comment@"));
        expect(comment?.with).toEqual({ header: "perfguard-diff", path: "${{ runner.temp }}/perfguard-diff.md" });
        const gate = steps[steps.length - 1];
        expect(gate.name).toBe("gate");
        expect(gate.if).toBe("always()");
        expect(gate.run).toContain('[ "$preview" = 0 ] && [ "$diff" = 0 ]');
        expect(steps.indexOf(comment!)).toBeLessThan(steps.indexOf(gate));
        expect(section).toContain("**First deploy, no base**");
    });
});
