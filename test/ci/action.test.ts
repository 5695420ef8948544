/**
 * action.yml (the repository root's composite action), run here step by step
 * (test/support/ciRecipe.ts runAction): install is skipped (network), the `uses:` steps
 * (upload-sarif, the sticky comment) are recorded with what they would be given, and every `run:`
 * step runs in bash as the runner would. The preview mode gates a program offline and leaves a
 * schema-valid SARIF file and the diff comment; a misspelt policy name stops it at the config
 * check; the check mode gates a stack export (here the preview's record) with the same verdicts.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { stageProgram } from "../../scripts/realCli/run";
import { sarifErrors } from "../cli/sarifSchema";
import { JobResult, loadAction, loadWorkflow, runAction, runJob, runnerBaseEnv } from "../support/ciRecipe";

const ROOT = path.resolve(__dirname, "..", "..");
const action = loadAction(path.join(ROOT, "action.yml"));
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

const SKIP = { "install perfguard": "network: npm ci from the registry; this checkout's node_modules and dist/ stand in (perfguard/ links to it)" };

interface Repo {
    workspace: string;
    programDir: string;
    temp: string;
}

/** A team repository: the program (with Pulumi.prod.yaml), its config, perfguard/ linked to this checkout. */
function teamRepo(program: string, config: unknown): Repo {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-ci-action-"));
    roots.push(root);
    const staged = stageProgram(program, root);
    const workspace = path.dirname(staged.dir);
    fs.symlinkSync(ROOT, path.join(workspace, "perfguard"), "dir");
    fs.writeFileSync(path.join(workspace, "perfguard-config.json"), JSON.stringify(config));
    fs.writeFileSync(path.join(staged.dir, "Pulumi.prod.yaml"), "");
    fs.writeFileSync(path.join(workspace, "base.json"), JSON.stringify({ version: 3, deployment: {} }));
    return { workspace, programDir: path.basename(staged.dir), temp: path.join(root, "runner-temp") };
}

function run(repo: Repo, inputs: Record<string, string>): Promise<JobResult> {
    return runAction(action, path.join(repo.workspace, "perfguard"), inputs, {
        workspace: repo.workspace,
        runnerTemp: repo.temp,
        event: "pull_request",
        baseEnv: runnerBaseEnv({ NO_COLOR: "1" }),
        skip: SKIP,
    });
}

type SarifLog = {
    runs: Array<{ results: Array<{ ruleId: string; level: string; locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }>;
};

describe("action.yml", () => {
    it("is a composite action whose steps install, check the config, gate, upload SARIF and comment", () => {
        expect(action.runs.using).toBe("composite");
        expect(action.runs.steps.map((s) => s.name)).toEqual([
            "install perfguard",
            "check the policy config",
            "gate",
            "upload the SARIF to code scanning",
            "perfguard diff",
            "post or update the comment",
        ]);
        expect(Object.keys(action.inputs ?? {}).sort()).toEqual(["diff-base", "export", "mode", "policy-config", "preview-json", "program", "sarif", "stack"]);
    });

    it("preview mode: fails the gate on mandatory violations, and still uploads the SARIF and posts the diff", async () => {
        const repo = teamRepo(path.join(ROOT, "examples", "citrix-satellite-zones"), { "citrix-zone-rtt-limit": { maxRttMs: 250 } });
        const job = await run(repo, { program: repo.programDir, stack: "prod", "diff-base": "base.json" });
        expect(job.step("install perfguard")).toMatchObject({ ran: false });
        expect(job.step("check the policy config").code).toBe(0);
        const gate = job.step("gate");
        expect(gate.code, gate.output).toBe(1);
        expect(gate.output).toContain("- [mandatory]  citrix-zone-rtt-limit  (citrix:index:Zone: latam-zone)");
        expect(job.success).toBe(false);
        // The SARIF the upload step is given: schema-valid, one error per mandatory verdict printed.
        const upload = job.step("upload the SARIF to code scanning");
        expect(upload).toMatchObject({ ran: false, with: { sarif_file: "perfguard.sarif", category: "perfguard" } });
        const log = JSON.parse(fs.readFileSync(path.join(repo.workspace, "perfguard.sarif"), "utf8")) as SarifLog;
        expect(sarifErrors(log)).toBe("");
        const mandatory = (gate.output ?? "").split("\n").filter((l) => /^ {8}- \[mandatory\]/.test(l)).length;
        expect(log.runs[0].results.filter((r) => r.level === "error")).toHaveLength(mandatory);
        expect(log.runs[0].results.every((r) => r.locations[0].physicalLocation.artifactLocation.uri.startsWith(`${repo.programDir}/`))).toBe(true);
        // The diff against an empty base names the new mandatory verdict; the comment step gets its file.
        expect(job.step("perfguard diff").code).toBe(0);
        expect(fs.readFileSync(path.join(repo.temp, "perfguard-diff.md"), "utf8")).toMatch(/new mandatory verdict/);
        expect(job.step("post or update the comment")).toMatchObject({
            ran: false,
            with: { header: "perfguard-diff", path: path.join(repo.temp, "perfguard-diff.md") },
        });
    }, 300_000);

    it("stops at the config check on a misspelt policy name, never gates", async () => {
        const repo = teamRepo(path.join(ROOT, "test", "fixtures", "programs", "sample"), { "xen-dom0-workoad": "mandatory" });
        const job = await run(repo, { program: repo.programDir, stack: "prod", sarif: "" });
        expect(job.step("check the policy config").code).toBe(1);
        expect(job.step("check the policy config").output).toContain('did you mean "xen-dom0-workload"?');
        expect(job.step("gate")).toMatchObject({ ran: false, reason: "an earlier step failed" });
        expect(job.step("upload the SARIF to code scanning")).toMatchObject({ ran: false });
        expect(job.step("perfguard diff")).toMatchObject({ ran: false });
    }, 300_000);

    it("check mode: gates a stack export (the preview's record) with the preview's verdicts", async () => {
        const repo = teamRepo(path.join(ROOT, "examples", "nsx-alb-se-groups"), {});
        const first = await run(repo, { program: repo.programDir, stack: "prod", sarif: "" });
        const verdicts = (out: string | undefined) =>
            (out ?? "")
                .split("\n")
                .filter((l) => /^ {8}- \[(mandatory|advisory)\]/.test(l))
                .sort();
        const record = path.join(repo.workspace, "record.json");
        fs.copyFileSync(path.join(repo.temp, "perfguard-head.json"), record);
        const job = await run(repo, { mode: "check", export: "record.json", program: repo.programDir, sarif: "check.sarif" });
        const gate = job.step("gate");
        expect(gate.code, gate.output).toBe(first.step("gate").code);
        expect(verdicts(gate.output).length).toBeGreaterThan(0);
        expect(verdicts(gate.output)).toEqual(verdicts(first.step("gate").output));
        expect(sarifErrors(JSON.parse(fs.readFileSync(path.join(repo.workspace, "check.sarif"), "utf8")))).toBe("");
    }, 300_000);
});

describe("docs/ci/pr-gate-action.yml: the PR gate through the action", () => {
    const workflow = loadWorkflow("pr-gate-action.yml");

    it("gates the program with the action's steps and hands upload-sarif a schema-valid file", async () => {
        const repo = teamRepo(path.join(ROOT, "examples", "citrix-satellite-zones"), { "citrix-zone-rtt-limit": { maxRttMs: 250 } });
        const job = await runJob(workflow, "offline-preview", {
            workspace: repo.workspace,
            runnerTemp: repo.temp,
            event: "pull_request",
            baseEnv: runnerBaseEnv({ NO_COLOR: "1" }),
            replace: { PROGRAM_DIR: repo.programDir },
            skip: {
                ...Object.fromEntries(Object.entries(SKIP).map(([k, v]) => [`perfguard / ${k}`, v])),
                "install the program's packages": "network: npm ci from the registry; perfguard's node_modules stand in",
            },
            actions: { "<org>/perfguard": { action, path: path.join(repo.workspace, "perfguard") } },
        });
        expect(job.steps.map((s) => [s.name, s.ran])).toEqual([
            ["uses actions/checkout@v4", false],
            ["uses actions/setup-node@v4", false],
            ["install the program's packages", false],
            ["perfguard / install perfguard", false],
            ["perfguard / check the policy config", true],
            ["perfguard / gate", true],
            ["perfguard / upload the SARIF to code scanning", false],
            ["perfguard / perfguard diff", false],
            ["perfguard / post or update the comment", false],
        ]);
        const gate = job.step("perfguard / gate");
        expect(gate.code, gate.output).toBe(1);
        expect(gate.output).toContain("- [mandatory]  citrix-zone-rtt-limit  (citrix:index:Zone: latam-zone)");
        expect(job.success).toBe(false);
        expect(job.step("perfguard / upload the SARIF to code scanning")).toMatchObject({ with: { sarif_file: "perfguard.sarif" } });
        expect(sarifErrors(JSON.parse(fs.readFileSync(path.join(repo.workspace, "perfguard.sarif"), "utf8")))).toBe("");
    }, 300_000);
});

describe("docs/ci.md shows the action's workflow", () => {
    it("pr-gate-action.yml exactly", () => {
        const doc = fs.readFileSync(path.join(ROOT, "docs", "ci.md"), "utf8");
        expect(doc).toContain("```yaml\n" + fs.readFileSync(path.join(ROOT, "docs", "ci", "pr-gate-action.yml"), "utf8") + "```\n");
    });
});
