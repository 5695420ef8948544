/**
 * docs/ci/pr-gate.yml, run here step by step (test/support/ciRecipe.ts; its gate is the action,
 * action.yml, whose steps run here too): the offline preview of
 * the pull request's program gates it with no endpoint, CLI, backend or secret. A program with a
 * mandatory violation fails the job at the preview step; a compliant one passes; a misspelt
 * policy name fails it at the config check, before any preview.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { stageProgram } from "../../scripts/realCli/run";
import { JobResult, loadAction, loadWorkflow, runJob, runnerBaseEnv } from "../support/ciRecipe";

const ROOT = path.resolve(__dirname, "..", "..");
const workflow = loadWorkflow("pr-gate.yml");
const action = loadAction(path.join(ROOT, "action.yml"));
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

/** Steps that need the network, and what stands in for them here. */
const SKIP = {
    "perfguard / install perfguard": "network: npm ci from the registry; this checkout's node_modules and dist/ stand in (perfguard/ links to it)",
    "install the program's packages": "network: npm ci from the registry; perfguard's node_modules, linked beside the program, stand in",
};

/** A team repository: the program (with the examples' sdk/ beside it), its config, perfguard/. */
function teamRepo(program: string, config: unknown, stackFile = true): { workspace: string; programDir: string; temp: string } {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-ci-gate-"));
    roots.push(root);
    const staged = stageProgram(program, root);
    const workspace = path.dirname(staged.dir);
    fs.symlinkSync(ROOT, path.join(workspace, "perfguard"), "dir");
    fs.writeFileSync(path.join(workspace, "perfguard-config.json"), JSON.stringify(config));
    if (stackFile) {
        // The stack the recipe names (STACK: prod), as a team commits it: an empty config.
        fs.writeFileSync(path.join(staged.dir, "Pulumi.prod.yaml"), "");
    }
    return { workspace, programDir: path.basename(staged.dir), temp: path.join(root, "runner-temp") };
}

async function gate(program: string, config: unknown, stackFile = true): Promise<JobResult> {
    const repo = teamRepo(program, config, stackFile);
    return runJob(workflow, "offline-preview", {
        workspace: repo.workspace,
        runnerTemp: repo.temp,
        event: "pull_request",
        baseEnv: runnerBaseEnv({ NO_COLOR: "1" }),
        replace: { PROGRAM_DIR: repo.programDir },
        skip: SKIP,
        // The gate is the action (uses: ./perfguard), run from the perfguard checkout.
        actions: { "./perfguard": { action, path: path.join(repo.workspace, "perfguard") } },
    });
}

describe("docs/ci/pr-gate.yml", () => {
    it("declares what the docs promise: a GitHub-hosted runner, read-only, bash", () => {
        expect(workflow.on).toHaveProperty("pull_request");
        expect(workflow.permissions).toEqual({ contents: "read" });
        expect(workflow.jobs["offline-preview"]["runs-on"]).toBe("ubuntu-latest");
        expect(workflow.defaults?.run?.shell).toBe("bash");
    });

    it("fails the job at the preview on a program with mandatory violations, after a passing config check", async () => {
        const job = await gate(path.join(ROOT, "examples", "citrix-satellite-zones"), { "citrix-zone-rtt-limit": { maxRttMs: 250 } });
        expect(job.steps.filter((s) => !s.ran).map((s) => [s.name, s.reason !== undefined])).toEqual([
            ["uses actions/checkout@v4", true],
            ["uses actions/checkout@v4", true],
            ["uses actions/setup-node@v4", true],
            ["install the program's packages", true],
            ["perfguard / install perfguard", true],
            // sarif "" and no diff-base: nothing to upload or compare.
            ["perfguard / upload the SARIF to code scanning", true],
            ["perfguard / perfguard diff", true],
            ["perfguard / post or update the comment", true],
        ]);
        expect(job.step("perfguard / check the policy config").code).toBe(0);
        const preview = job.step("perfguard / gate");
        expect(preview.code, preview.output).toBe(1);
        expect(preview.output).toContain("- [mandatory]  citrix-zone-rtt-limit  (citrix:index:Zone: latam-zone)");
        expect(preview.output).toContain("- [mandatory]  citrix-broker-throttle  (vsphere:index:VirtualMachine: ddc-emea-east-02)");
        expect(job.success).toBe(false);
    });

    it("passes a program with no mandatory violation", async () => {
        const job = await gate(path.join(ROOT, "test", "fixtures", "programs", "sample"), {});
        const preview = job.step("perfguard / gate");
        expect(preview.code, preview.output).toBe(0);
        expect(preview.output).toContain("Policies:");
        expect(job.success).toBe(true);
    });

    it("fails the job at the preview when the stack has no Pulumi.<stack>.yaml (a misspelt STACK): never judged without its config", async () => {
        const job = await gate(path.join(ROOT, "test", "fixtures", "programs", "sample"), {}, false);
        const preview = job.step("perfguard / gate");
        expect(preview.code, preview.output).toBe(6);
        expect(preview.output).toContain("error: no stack named 'prod' found\nperfguard: no Pulumi.prod.yaml in ");
        expect(preview.output).not.toContain("Policies:");
        expect(job.success).toBe(false);
    });

    it("fails at the config check on a misspelt policy name, and never previews", async () => {
        const job = await gate(path.join(ROOT, "test", "fixtures", "programs", "sample"), { "xen-dom0-workoad": "mandatory" });
        const check = job.step("perfguard / check the policy config");
        expect(check.code).toBe(1);
        expect(check.output).toContain('error: xen-dom0-workoad: "xen-dom0-workoad" is not a policy of perfguard 0.1.0: did you mean "xen-dom0-workload"?');
        expect(job.step("perfguard / gate")).toMatchObject({ ran: false, reason: "an earlier step failed" });
        expect(job.success).toBe(false);
    });
});
