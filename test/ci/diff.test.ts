/**
 * docs/ci/diff.yml, run here step by step from its YAML (test/support/ciRecipe.ts), the offline
 * part: the policy config check, `perfguard diff`, the comment and the gate. The steps that need the
 * real CLI and the backend (`pulumi stack export`, `pulumi preview --json`) are run by
 * test/real/ciRecipe.test.ts; here what they write into RUNNER_TEMP is staged instead: base.json
 * (an export, or the empty export the base step falls back to), perfguard-head.json (an emulated
 * preview's --record file, which `perfguard diff` reads as it reads a preview's JSON) and the preview's
 * exit code, as the head step (the action, mode pulumi-preview) leaves them; the action's config check runs.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobResult, loadAction, loadWorkflow, runJob, runnerBaseEnv } from "../support/ciRecipe";
import { examplePreview } from "../support/examplePreviews";

const ROOT = path.resolve(__dirname, "..", "..");
const workflow = loadWorkflow("diff.yml");
const action = loadAction(path.join(ROOT, "action.yml"));
const HEAD = "head (the pull request's preview, with the pack)";
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

const NETWORK = "network: npm ci from the registry; this checkout's node_modules and dist/ stand in (perfguard/ links to it)";
// The head step is the action (uses: ./perfguard): its config check runs here, its preview does not.
const SKIP = {
    [`${HEAD} / install perfguard`]: NETWORK,
    "install the program's packages": NETWORK,
    "base (the deployed stack)": "the real CLI and a backend: test/real/ciRecipe.test.ts runs it; its base.json is staged",
    [`${HEAD} / gate`]: "the real CLI and a backend: test/real/ciRecipe.test.ts runs it; its perfguard-head.json and exit code are staged",
};
const EMPTY_EXPORT = JSON.stringify({ version: 3, deployment: {} });

let record: string;
beforeAll(async () => {
    record = (await examplePreview("citrix-satellite-zones")).record;
});

interface Staged {
    readonly base: string;
    /** What the action's preview leaves: absent when it did not run (a config check that failed). */
    readonly head?: string;
    readonly previewExit?: number;
    readonly config: unknown;
}

async function diffJob(staged: () => Staged): Promise<{ job: JobResult; temp: string }> {
    const s = staged();
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-ci-diff-"));
    roots.push(workspace);
    fs.symlinkSync(ROOT, path.join(workspace, "perfguard"), "dir");
    fs.writeFileSync(path.join(workspace, "perfguard-config.json"), JSON.stringify(s.config));
    const temp = path.join(workspace, "runner-temp");
    fs.mkdirSync(temp);
    fs.writeFileSync(path.join(temp, "base.json"), s.base);
    if (s.head !== undefined && s.previewExit !== undefined) {
        fs.writeFileSync(path.join(temp, "perfguard-head.json"), s.head);
        fs.writeFileSync(path.join(temp, "perfguard-preview-exit"), `${s.previewExit}\n`);
    }
    const job = await runJob(workflow, "diff", {
        workspace,
        runnerTemp: temp,
        event: "pull_request",
        baseEnv: runnerBaseEnv({ NO_COLOR: "1" }),
        expressions: { "vars.PULUMI_BACKEND_URL": "file:///srv/pulumi-state", "secrets.PULUMI_CONFIG_PASSPHRASE": "not-used-offline" },
        skip: SKIP,
        actions: { "./perfguard": { action, path: path.join(workspace, "perfguard") } },
    });
    return { job, temp };
}

const comment = (temp: string) => fs.readFileSync(path.join(temp, "perfguard-diff.md"), "utf8");

describe("docs/ci/diff.yml", () => {
    it("declares what preview.yml declares: a self-hosted runner, the comment's permission, the passphrase, a full stack name", () => {
        expect(workflow.permissions).toEqual({ contents: "read", "pull-requests": "write" });
        expect(workflow.defaults?.run?.shell).toBe("bash");
        expect(workflow.env?.STACK).toMatch(/^organization\/[^/]+\/[^/]+$/);
        const job = workflow.jobs.diff;
        expect(job["runs-on"]).toEqual(loadWorkflow("preview.yml").jobs.preview["runs-on"]);
        expect(job.env?.PULUMI_CONFIG_PASSPHRASE).toBe("${{ secrets.PULUMI_CONFIG_PASSPHRASE }}");
        expect(job.env?.PULUMI_BACKEND_URL).toBe("${{ vars.PULUMI_BACKEND_URL }}");
    });

    it.each([
        [
            "first deploy (the empty export): every verdict of the preview is new, the job fails at the gate after the comment",
            () => ({ base: EMPTY_EXPORT, head: fs.readFileSync(record, "utf8"), previewExit: 1, config: { "citrix-zone-rtt-limit": { maxRttMs: 250 } } }),
            1,
            "pulumi preview exit 1, perfguard diff exit 1",
            ['zone "latam-zone"', "citrix-zone-rtt-limit", "first deploy: no deployed state (`"],
        ],
        [
            "no change and a passing preview: the job passes",
            () => ({ base: fs.readFileSync(record, "utf8"), head: fs.readFileSync(record, "utf8"), previewExit: 0, config: {} }),
            0,
            "pulumi preview exit 0, perfguard diff exit 0",
            [],
        ],
        [
            "no change but a failing preview: the gate fails on the preview's exit code",
            () => ({ base: fs.readFileSync(record, "utf8"), head: fs.readFileSync(record, "utf8"), previewExit: 1, config: {} }),
            0,
            "pulumi preview exit 1, perfguard diff exit 0",
            [],
        ],
    ] as const)("%s", async (_label, staged, diffExit, gateLine, inComment) => {
        const { job, temp } = await diffJob(staged);
        expect(job.steps.filter((s) => !s.ran).map((s) => s.name)).toEqual([
            "uses actions/checkout@v4",
            "uses actions/checkout@v4",
            "uses actions/setup-node@v4",
            "install the program's packages",
            "uses pulumi/actions@v7",
            "base (the deployed stack)",
            `${HEAD} / install perfguard`,
            `${HEAD} / gate`,
            `${HEAD} / upload the SARIF to code scanning`,
            `${HEAD} / perfguard diff`,
            `${HEAD} / post or update the comment`,
            "post or update the comment",
        ]);
        expect(job.step(`${HEAD} / check the policy config`).code).toBe(0);
        const diff = job.step("perfguard diff");
        expect(diff.code, diff.output).toBe(0);
        expect(fs.readFileSync(path.join(temp, "diff-exit"), "utf8").trim()).toBe(String(diffExit));
        expect(job.step("write the comment").code).toBe(0);
        const body = comment(temp);
        expect(body).not.toContain("No diff:");
        for (const text of inComment) {
            expect(body).toContain(text);
        }
        const gate = job.step("gate");
        expect(gate.output).toContain(gateLine);
        expect(gate.code).toBe(gateLine === "pulumi preview exit 0, perfguard diff exit 0" ? 0 : 1);
        expect(job.success).toBe(gate.code === 0);
    });

    it("a misspelt policy name fails at the config check: no diff, a comment saying so, the gate fails", async () => {
        const { job, temp } = await diffJob(() => ({ base: EMPTY_EXPORT, config: { "xen-dom0-workoad": "mandatory" } }));
        const check = job.step(`${HEAD} / check the policy config`);
        expect(check.code).toBe(1);
        expect(check.output).toContain('did you mean "xen-dom0-workload"?');
        expect(job.step(`${HEAD} / gate`)).toMatchObject({ ran: false, reason: "an earlier step failed" });
        // The diff step runs always, and stops at once when no preview ran.
        expect(job.step("perfguard diff")).toMatchObject({ ran: true, code: 1 });
        expect(job.step("perfguard diff").output).toContain("perfguard: no preview ran");
        expect(job.step("write the comment").code).toBe(0);
        expect(comment(temp)).toContain("No diff: the policy config check, `pulumi stack export`, `pulumi preview` or `perfguard diff` failed first");
        expect(job.step("gate").output).toContain("pulumi preview exit not run, perfguard diff exit not run");
        expect(job.step("gate").code).toBe(1);
    });

    it("a head that is not a preview's JSON (the preview failed before writing it) fails the diff step, and the comment says so", async () => {
        const { job, temp } = await diffJob(() => ({ base: EMPTY_EXPORT, head: "", previewExit: 255, config: {} }));
        const diff = job.step("perfguard diff");
        expect(diff.code).toBe(1);
        expect(fs.readFileSync(path.join(temp, "diff-exit"), "utf8").trim()).toBe("2");
        expect(comment(temp)).toContain("No diff:");
        expect(job.step("gate").output).toContain("pulumi preview exit 255, perfguard diff exit 2");
        expect(job.step("gate").code).toBe(1);
    });
});

/**
 * The base step with a stand-in `pulumi` first on PATH that answers `stack export` as the real CLI
 * (v3.274.1, file backend) does: a stack that does not exist prints "error: no stack named '<name>'
 * found" and exits 6 (read off the built CLI); a stack created but never deployed writes an export
 * without resources. The last case is any other failure (an illustrative message and exit code):
 * it must fail the step, not read as a first deploy. test/real/ciRecipe.test.ts runs the real CLI.
 */
describe("docs/ci/diff.yml: the base step", () => {
    const NEVER_DEPLOYED = JSON.stringify({
        version: 3,
        deployment: { manifest: { time: "2026-12-02T03:57:19Z", magic: "", version: "v3.274.1" }, metadata: {} },
    });

    async function baseStep(answer: { stderr: string; code: number; writes?: string }) {
        const root = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-ci-base-"));
        roots.push(root);
        const bin = path.join(root, "bin");
        fs.mkdirSync(bin);
        const writes = answer.writes === undefined ? "" : `printf '%s' '${answer.writes}' > "$6"\n`;
        fs.writeFileSync(
            path.join(bin, "pulumi"),
            `#!/usr/bin/env bash\n[ "$1 $2" = "stack export" ] || exit 99\n${writes}printf '%s\\n' "${answer.stderr}" >&2\nexit ${answer.code}\n`,
            { mode: 0o755 },
        );
        const temp = path.join(root, "runner-temp");
        const job = await runJob(workflow, "diff", {
            workspace: root,
            runnerTemp: temp,
            event: "pull_request",
            baseEnv: runnerBaseEnv({ PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` }),
            expressions: { "vars.PULUMI_BACKEND_URL": "file:///srv/pulumi-state", "secrets.PULUMI_CONFIG_PASSPHRASE": "not-used-offline" },
            only: ["base (the deployed stack)"],
        });
        const base = path.join(temp, "base.json");
        return { step: job.step("base (the deployed stack)"), base: fs.existsSync(base) ? fs.readFileSync(base, "utf8") : undefined };
    }

    it.each([
        ["a stack created, never deployed (baseline): its export, no resources", { stderr: "", code: 0, writes: NEVER_DEPLOYED }, 0, NEVER_DEPLOYED, ""],
        [
            "a stack that does not exist: the empty export, and the log says first deploy",
            { stderr: "error: no stack named 'organization/infra/prod' found", code: 6 },
            0,
            '{"version": 3, "deployment": {}}\n',
            "perfguard: organization/infra/prod does not exist (first deploy): the diff is against no deployed state",
        ],
        [
            "another stack missing in the message: not this one, the step fails",
            { stderr: "error: no stack named 'organization/infra/dev' found", code: 6 },
            6,
            undefined,
            "",
        ],
        [
            "any other failure (the backend): the step fails with its code, no empty base",
            { stderr: "error: failed to load checkpoint: unexpected EOF", code: 255 },
            255,
            undefined,
            "",
        ],
    ] as const)("%s", async (_label, answer, code, base, line) => {
        const { step, base: written } = await baseStep(answer);
        expect(step.code, step.output).toBe(code);
        expect(step.output).toContain(answer.stderr);
        if (line) {
            expect(step.output).toContain(line);
        } else {
            expect(step.output).not.toContain("first deploy");
        }
        if (base === undefined) {
            expect(written ?? "").toBe("");
        } else {
            expect(written).toBe(base);
        }
    });
});
