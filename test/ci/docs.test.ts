/**
 * docs/ci.md shows each workflow of docs/ci/ exactly as the file the tests run, and every job
 * checks the policy config before it previews or analyzes, and never posts or reports from a step
 * that can fail on what an earlier step did not produce.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { CI_DIR, loadAction, loadWorkflow, Step } from "../support/ciRecipe";

const ROOT = path.resolve(__dirname, "..", "..");
const doc = fs.readFileSync(path.join(ROOT, "docs", "ci.md"), "utf8");
// A block whose YAML holds ``` itself is fenced with four backticks.
const blocks = [...doc.matchAll(/^(`{3,})yaml\n([\s\S]*?)^\1$/gm)].map((m) => m[2]);
const FILES = ["pr-gate.yml", "preview.yml", "check-deployed.yml", "diff.yml"];
const action = loadAction(path.join(ROOT, "action.yml"));

/** A job's steps with the action's (uses: ./perfguard, the perfguard checkout's action.yml) in its place. */
function expanded(steps: readonly Step[]): Step[] {
    return steps.flatMap((s) => (s.uses === "./perfguard" ? action.runs.steps : [s]));
}

describe("docs/ci.md and docs/ci/", () => {
    it.each(FILES)("ci.md shows %s exactly", (file) => {
        expect(blocks).toContain(fs.readFileSync(path.join(CI_DIR, file), "utf8"));
    });

    it.each(FILES)("%s runs perfguard config check before every preview and analyze", (file) => {
        const workflow = loadWorkflow(file);
        for (const [name, job] of Object.entries(workflow.jobs)) {
            const runs = expanded(job.steps).map((s) => s.run ?? "");
            const gates = runs.map((r, i) => (/pulumi preview|preview\/main\.js|pulumi policy analyze/.test(r) ? i : -1)).filter((i) => i >= 0);
            const check = runs.findIndex((r) => /(perfguard|\$PERFGUARD)\/dist\/cli\/main\.js"? config check "\$PERFGUARD_CONFIG"/.test(r));
            expect(gates.length, `${file} ${name}`).toBeGreaterThan(0);
            expect(check, `${file} ${name}`).toBeGreaterThanOrEqual(0);
            expect(
                gates.every((g) => g > check),
                `${file} ${name}`,
            ).toBe(true);
        }
    });

    it.each(FILES)("%s gates through the action (uses: ./perfguard, from the perfguard checkout)", (file) => {
        for (const job of Object.values(loadWorkflow(file).jobs)) {
            const uses = job.steps.filter((s) => s.uses === "./perfguard");
            expect(uses.length, file).toBe(1);
            expect(["preview", "pulumi-preview", "analyze"], file).toContain(uses[0].with?.mode);
            // The action runs from the checkout the later steps call: perfguard/ is checked out first.
            const checkout = job.steps.findIndex((s) => s.uses?.startsWith("actions/checkout") === true && s.with?.path === "perfguard");
            expect(checkout, file).toBeGreaterThanOrEqual(0);
            expect(checkout, file).toBeLessThan(job.steps.indexOf(uses[0]));
        }
    });

    it("no recipe (docs/ci/ or a yaml block of ci.md) runs pulumi up --skip-preview: AnalyzeStack would run after the resources exist", () => {
        const recipes = fs
            .readdirSync(CI_DIR)
            .sort()
            .map((f) => [f, fs.readFileSync(path.join(CI_DIR, f), "utf8")] as const);
        expect(recipes.map(([f]) => f)).toEqual(expect.arrayContaining(FILES));
        for (const [file, text] of [...recipes, ...blocks.map((b, i) => [`ci.md block ${i + 1}`, b] as const)]) {
            expect(text, file).not.toMatch(/--skip-preview|\bup\b[^\n]*\s-f\b/);
        }
        expect(doc).toMatch(/### Never `pulumi up --skip-preview`/);
    });

    it.each(FILES)("%s names every step and runs them in bash", (file) => {
        const workflow = loadWorkflow(file);
        expect(workflow.defaults?.run?.shell).toBe("bash");
        for (const job of Object.values(workflow.jobs)) {
            expect(job.steps.every((s) => s.uses !== undefined || (s.name ?? "") !== "")).toBe(true);
        }
    });

    it("the jobs that need the backend name stacks in full and take the passphrase from a secret", () => {
        for (const file of ["preview.yml", "check-deployed.yml", "diff.yml"]) {
            const workflow = loadWorkflow(file);
            expect(workflow.env?.STACK, file).toMatch(/^organization\/[^/]+\/[^/]+$/);
            for (const job of Object.values(workflow.jobs)) {
                expect(job.env?.PULUMI_CONFIG_PASSPHRASE, file).toBe("${{ secrets.PULUMI_CONFIG_PASSPHRASE }}");
                expect(job["runs-on"], file).toEqual(["self-hosted", "linux"]);
            }
        }
        expect(loadWorkflow("preview.yml").permissions).toMatchObject({ "pull-requests": "write" });
        expect(loadWorkflow("diff.yml").permissions).toMatchObject({ "pull-requests": "write" });
    });

    // One way of running perfguard in every recipe: the checkout's built bin, as `npm ci` leaves it
    // in perfguard/ (npx would resolve the root package's bin only from inside perfguard/).
    it.each(FILES)("%s runs perfguard as node perfguard/dist/<...>.js, never npx", (file) => {
        const runs = Object.values(loadWorkflow(file).jobs).flatMap((j) => j.steps.map((s) => s.run ?? ""));
        expect(runs.filter((r) => /\bnpx\b/.test(r))).toEqual([]);
        const calls = runs.flatMap((r) => [...r.matchAll(/node (\S*perfguard\S*\.js)/g)].map((m) => m[1]));
        // The gate is the action's (it runs "$PERFGUARD/dist/<...>.js"); a job may call perfguard beside it.
        expect(
            calls.every((c) => /^perfguard\/dist\/(cli|preview)\/main\.js$/.test(c)),
            calls.join(", "),
        ).toBe(true);
    });

    it("the steps that post or report run always and cannot fail on a missing file", () => {
        const preview = loadWorkflow("preview.yml").jobs.preview.steps;
        const post = preview.find((s) => s.name === "post the comment");
        expect(post?.if).toContain("always()");
        expect(post?.run).toContain('if [ ! -s "$RUNNER_TEMP/comment.md" ]; then exit 0; fi');
        const report = loadWorkflow("check-deployed.yml").jobs["check-deployed"].steps.find((s) => s.name === "report");
        expect(report?.if).toBe("always()");
        expect(report?.run).toContain('if [ ! -s "$report" ]');
        const diff = loadWorkflow("diff.yml").jobs.diff.steps;
        expect(diff.find((s) => s.name === "write the comment")?.run).toContain('if [ ! -s "$body" ]');
        for (const name of ["write the comment", "post or update the comment", "gate"]) {
            expect(diff.find((s) => s.name === name)?.if, name).toContain("always()");
        }
    });
});
