/**
 * docs/ci/preview.yml, docs/ci/check-deployed.yml and docs/ci/diff.yml, run here step by step from their YAML
 * (test/support/ciRecipe.ts) with the real CLI, a file backend and a passphrase secrets provider,
 * as a self-hosted runner would run them: the job's own env (PULUMI_BACKEND_URL from a variable,
 * PULUMI_CONFIG_PASSPHRASE from a secret) is all the CLI gets; the stack is named in full
 * (organization/<project>/<stack>). Each gates through perfguard's action (`uses: ./perfguard`),
 * whose steps run here too. Not run here: npm ci (network; this checkout stands in), the other
 * `uses:` actions and `gh pr comment` (GitHub). The stand-in providers replace the on-premises
 * endpoints. Set up here as a team would have it: the stack exists (stack init), and for the
 * deployed-state check it is deployed (pulumi up).
 */
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, REPO_ROOT, stageProgram, Workspace } from "../../scripts/realCli/run";
import { JobResult, JobRunOptions, loadAction, loadWorkflow, runJob, runnerBaseEnv } from "../support/ciRecipe";

const PROGRAM = path.join(REPO_ROOT, "examples", "citrix-satellite-zones");
const PROJECT = "citrix-satellite-zones";
const STACK = `organization/${PROJECT}/prod`;
const NETWORK = "network: npm ci from the registry; this checkout's node_modules and dist/ stand in";
// Each workflow gates through the action (uses: ./perfguard); its install step is named after the workflow's step.
const ACTION_STEPS = ["preview with the pack", "pulumi policy analyze", "head (the pull request's preview, with the pack)"];
const SKIP = {
    ...Object.fromEntries(ACTION_STEPS.map((step) => [`${step} / install perfguard`, NETWORK])),
    "install the program's packages": `${NETWORK} (linked beside the program)`,
    "post the comment": "GitHub: gh pr comment needs the GitHub API and a pull request",
};

interface Team {
    ws: Workspace;
    workspace: string;
    programDir: string;
}

/** The staged program's folder of a team (the pull request's checkout). */
function programOf(t: Team): string {
    return path.join(t.workspace, t.programDir);
}

const teams: Team[] = [];
afterAll(() => teams.forEach((t) => t.ws.dispose()));

/** A runner's checkout of the team's repository, with the stack created (and deployed) in the file backend. */
async function team(deploy: boolean): Promise<Team> {
    const ws = createWorkspace();
    const staged = stageProgram(PROGRAM, ws.dir);
    const workspace = path.dirname(staged.dir);
    fs.symlinkSync(REPO_ROOT, path.join(workspace, "perfguard"), "dir");
    fs.writeFileSync(path.join(workspace, "perfguard-config.json"), JSON.stringify({ "citrix-zone-rtt-limit": { maxRttMs: 250 } }));
    const init = await ws.run(["stack", "init", STACK, "--non-interactive"], staged.dir);
    expect(init.exitCode, init.stdout + init.stderr).toBe(0);
    if (deploy) {
        const up = await ws.run(["up", "--yes", "--non-interactive", "--skip-preview", "--stack", STACK], staged.dir);
        expect(up.exitCode, up.stdout + up.stderr).toBe(0);
    }
    const t = { ws, workspace, programDir: path.basename(staged.dir) };
    teams.push(t);
    return t;
}

function options(t: Team, over: Partial<JobRunOptions> = {}): JobRunOptions {
    return {
        workspace: t.workspace,
        runnerTemp: path.join(t.ws.dir, `runner-temp-${Math.random().toString(36).slice(2)}`),
        event: "pull_request",
        baseEnv: runnerBaseEnv(t.ws.env),
        replace: { PROGRAM_DIR: t.programDir, STACK },
        expressions: {
            "vars.PULUMI_BACKEND_URL": t.ws.env.PULUMI_BACKEND_URL ?? "",
            "secrets.PULUMI_CONFIG_PASSPHRASE": t.ws.env.PULUMI_CONFIG_PASSPHRASE ?? "",
            "github.token": "not-used-here",
            "github.event.pull_request.number": "1",
        },
        skip: SKIP,
        actions: { "./perfguard": { action: loadAction(path.join(REPO_ROOT, "action.yml")), path: path.join(t.workspace, "perfguard") } },
        ...over,
    };
}

describe("docs/ci/preview.yml on a self-hosted runner", () => {
    const workflow = loadWorkflow("preview.yml");
    let t: Team;
    let job: JobResult;
    let temp: string;
    beforeAll(async () => {
        t = await team(false);
        const o = options(t);
        temp = o.runnerTemp;
        job = await runJob(workflow, "preview", o);
    });

    it("declares the comment's permission, the secret and a self-hosted runner", () => {
        expect(workflow.permissions).toEqual({ contents: "read", "pull-requests": "write" });
        expect(workflow.jobs.preview["runs-on"]).toEqual(["self-hosted", "linux"]);
        expect(workflow.jobs.preview.env?.PULUMI_CONFIG_PASSPHRASE).toBe("${{ secrets.PULUMI_CONFIG_PASSPHRASE }}");
        expect(workflow.env?.STACK).toMatch(/^organization\/[^/]+\/[^/]+$/);
    });

    it("fails at the preview with the pack's mandatory verdicts, after a passing config check", () => {
        expect(job.steps.filter((s) => !s.ran).map((s) => s.name)).toEqual([
            "uses actions/checkout@v4",
            "uses actions/checkout@v4",
            "uses actions/setup-node@v4",
            "install the program's packages",
            "uses pulumi/actions@v7",
            "preview with the pack / install perfguard",
            "preview with the pack / upload the SARIF to code scanning",
            "preview with the pack / perfguard diff",
            "preview with the pack / post or update the comment",
            "post the comment",
        ]);
        expect(job.step("preview with the pack / check the policy config").code).toBe(0);
        const preview = job.step("preview with the pack / gate");
        expect(preview.code, preview.output).toBe(1);
        expect(preview.output).toContain("- [mandatory]  citrix-zone-rtt-limit  (citrix:index:Zone: latam-zone)");
    });

    it("writes the comment: the counts and the Policies section", () => {
        expect(job.step("write the comment").code).toBe(0);
        const body = fs.readFileSync(path.join(temp, "comment.md"), "utf8");
        expect(body).toContain(`### perfguard: \`pulumi preview\` of \`${STACK}\``);
        expect(body).toContain("2 mandatory, 1 advisory violation(s).");
        expect(body).toContain("- [advisory]  citrix-brokering-capacity");
    });

    it("without the passphrase secret the preview fails, and the comment says no policy ran", async () => {
        const o = options(t, { expressions: { ...options(t).expressions, "secrets.PULUMI_CONFIG_PASSPHRASE": "" } });
        const run = await runJob(workflow, "preview", o);
        const preview = run.step("preview with the pack / gate");
        expect(preview.code).not.toBe(0);
        expect(preview.output).toMatch(/passphrase/i);
        expect(run.step("write the comment").code).toBe(0);
        const body = fs.readFileSync(path.join(o.runnerTemp, "comment.md"), "utf8");
        expect(body).toContain("The preview failed (exit ");
        expect(body).toMatch(/passphrase/i);
        expect(body).not.toContain("violation(s)");
    });
});

describe("docs/ci/check-deployed.yml after the merge", () => {
    const workflow = loadWorkflow("check-deployed.yml");
    let t: Team;
    beforeAll(async () => {
        t = await team(true);
    });

    it("fails on the deployed state's mandatory verdicts and writes the report to the job summary", async () => {
        const o = options(t, { event: "push" });
        const job = await runJob(workflow, "check-deployed", o);
        const analyze = job.step("pulumi policy analyze / gate");
        expect(analyze.code, analyze.output).toBe(1);
        expect(analyze.output).toContain("citrix-zone-rtt-limit");
        expect(job.step("report").code).toBe(0);
        const summary = fs.readFileSync(path.join(o.runnerTemp, "step-summary.md"), "utf8");
        expect(summary).not.toContain("perfguard: no report");
        expect(summary).toContain("latam");
    });

    it("with a short stack name analyze fails as the docs say, and the report step still passes and says why", async () => {
        const o = options(t, { event: "push", replace: { STACK: "prod" } });
        const job = await runJob(workflow, "check-deployed", o);
        const analyze = job.step("pulumi policy analyze / gate");
        expect(analyze.code).not.toBe(0);
        expect(analyze.output).toContain("no Pulumi.yaml project file found");
        expect(job.step("report").code).toBe(0);
        expect(fs.readFileSync(path.join(o.runnerTemp, "step-summary.md"), "utf8")).toContain(
            "perfguard: no report for `prod`: `pulumi stack export` or `perfguard check` failed",
        );
    });
});

describe("docs/ci/diff.yml on a self-hosted runner", () => {
    const workflow = loadWorkflow("diff.yml");

    it("on the deployed stack with the apac zone moved to 280 ms: the comment shows the change, the job fails at the gate", async () => {
        const t = await team(true);
        // The pull request: apac's RTT from 45 ms to 280 ms, above the 250 ms limit.
        const index = path.join(programOf(t), "index.ts");
        const source = fs.readFileSync(index, "utf8");
        expect(source).toContain("facts: { rttMs: 45,");
        fs.writeFileSync(index, source.replace("facts: { rttMs: 45,", "facts: { rttMs: 280,"));
        const o = options(t);
        const job = await runJob(workflow, "diff", o);
        const head = "head (the pull request's preview, with the pack)";
        expect(job.steps.filter((s) => !s.ran).map((s) => s.name)).toEqual([
            "uses actions/checkout@v4",
            "uses actions/checkout@v4",
            "uses actions/setup-node@v4",
            "install the program's packages",
            "uses pulumi/actions@v7",
            `${head} / install perfguard`,
            `${head} / upload the SARIF to code scanning`,
            `${head} / perfguard diff`,
            `${head} / post or update the comment`,
            "post or update the comment",
        ]);
        expect(job.step(`${head} / check the policy config`).code).toBe(0);
        expect(job.step("base (the deployed stack)").code, job.step("base (the deployed stack)").output).toBe(0);
        // The action's gate fails with the preview (a mandatory verdict); the diff runs after it all the same.
        expect(job.step(`${head} / gate`).code).toBe(1);
        expect(fs.readFileSync(path.join(o.runnerTemp, "perfguard-preview-exit"), "utf8").trim()).toBe("1");
        const diff = job.step("perfguard diff");
        expect(diff.code, diff.output).toBe(0);
        expect(fs.readFileSync(path.join(o.runnerTemp, "diff-exit"), "utf8").trim()).toBe("1");
        const body = fs.readFileSync(path.join(o.runnerTemp, "perfguard-diff.md"), "utf8");
        expect(body).toContain("apac-zone");
        expect(body).toContain("280");
        expect(body).not.toContain("No diff:");
        const gate = job.step("gate");
        expect(gate.output).toContain("pulumi preview exit 1, perfguard diff exit 1");
        expect(gate.code).toBe(1);
    });

    it("on a stack created but never deployed: every verdict of the preview is new", async () => {
        const t = await team(false);
        const o = options(t);
        const job = await runJob(workflow, "diff", o);
        expect(job.step("base (the deployed stack)").code).toBe(0);
        expect(job.step("perfguard diff").code, job.step("perfguard diff").output).toBe(0);
        expect(fs.readFileSync(path.join(o.runnerTemp, "diff-exit"), "utf8").trim()).toBe("1");
        const body = fs.readFileSync(path.join(o.runnerTemp, "perfguard-diff.md"), "utf8");
        expect(body).toContain("latam-zone");
        expect(body).toContain("citrix-zone-rtt-limit");
        expect(body).toContain("first deploy: no deployed state (`");
        expect(job.step("gate").code).toBe(1);
    });

    it('on a stack never created: the export\'s "no stack named" gives the empty base, the preview fails alike, the comment shows its line', async () => {
        const t = await team(false);
        const missing = `organization/${PROJECT}/prdo`;
        const o = options(t, { replace: { PROGRAM_DIR: t.programDir, STACK: missing } });
        const job = await runJob(workflow, "diff", o);
        const base = job.step("base (the deployed stack)");
        expect(base.code, base.output).toBe(0);
        expect(base.output).toContain(`error: no stack named '${missing}' found`);
        expect(base.output).toContain(`perfguard: ${missing} does not exist (first deploy): the diff is against no deployed state`);
        expect(fs.readFileSync(path.join(o.runnerTemp, "perfguard-preview-exit"), "utf8").trim()).toBe("6");
        const body = fs.readFileSync(path.join(o.runnerTemp, "perfguard-diff.md"), "utf8");
        expect(body).toContain("No diff:");
        expect(body).toContain(`error: no stack named '${missing}' found`);
        expect(job.step("gate").code).toBe(1);
    });
});
