/**
 * docs/ci/preview.yml's comment and posting steps, run here from its YAML (test/support/ciRecipe.ts)
 * on what the preview step (the action, mode pulumi-preview) leaves in RUNNER_TEMP: perfguard-preview.txt
 * and perfguard-preview-exit. The outputs are the
 * real CLI's (v3.274.1, file backend, this pack; test/fixtures/ci/, the runner's paths put in):
 * - preview-type-error.txt: test/fixtures/programs/type-error (a TypeScript error), exit 1;
 * - preview-missing-config.txt: a program whose `config.require("region")` has no value, exit 1;
 * - preview-mandatory-verdicts.txt: examples/citrix-satellite-zones with maxRttMs 250, exit 1;
 * - preview-wrong-passphrase.txt: the missing-config program's stack with another passphrase, exit 1.
 * Both failures print a `Policies:` section with the pack and no verdict: the comment must say the
 * preview failed, with the exit code and the first error, never "0 violations". test/real/ciRecipe.test.ts
 * runs the whole job with the real CLI.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { loadWorkflow, runJob, runnerBaseEnv } from "../support/ciRecipe";

const ROOT = path.resolve(__dirname, "..", "..");
const OUTPUTS = path.join(ROOT, "test", "fixtures", "ci");
const workflow = loadWorkflow("preview.yml");
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

// What the two steps call, linked into a bin folder of their own: a runner with or without gh.
const TOOLS = ["bash", "cat", "sed", "awk", "grep", "cut"];

function binDir(root: string, withGh: boolean): string {
    const bin = path.join(root, "bin");
    fs.mkdirSync(bin);
    for (const tool of TOOLS) {
        const found = (process.env.PATH ?? "")
            .split(path.delimiter)
            .map((d) => path.join(d, tool))
            .find((f) => fs.existsSync(f));
        if (!found) {
            throw new Error(`${tool} is not on PATH`);
        }
        fs.symlinkSync(found, path.join(bin, tool));
    }
    if (withGh) {
        // Stands in for the GitHub CLI: records the arguments it was called with.
        fs.writeFileSync(path.join(bin, "gh"), `#!${path.join(bin, "bash")}\nprintf '%s\\n' "$@" > "$GH_CALL"\n`, { mode: 0o755 });
    }
    return bin;
}

async function commentJob(staged: { output?: string; text?: string; exit?: number }, withGh = true) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-ci-preview-"));
    roots.push(root);
    const temp = path.join(root, "runner-temp");
    fs.mkdirSync(temp);
    if (staged.output !== undefined) {
        fs.copyFileSync(path.join(OUTPUTS, staged.output), path.join(temp, "perfguard-preview.txt"));
    }
    if (staged.text !== undefined) {
        fs.writeFileSync(path.join(temp, "perfguard-preview.txt"), staged.text);
    }
    if (staged.exit !== undefined) {
        fs.writeFileSync(path.join(temp, "perfguard-preview-exit"), `${staged.exit}\n`);
    }
    const ghCall = path.join(root, "gh-call.txt");
    const job = await runJob(workflow, "preview", {
        workspace: root,
        runnerTemp: temp,
        event: "pull_request",
        baseEnv: runnerBaseEnv({ PATH: binDir(root, withGh), GH_CALL: ghCall }),
        expressions: {
            "vars.PULUMI_BACKEND_URL": "file:///srv/pulumi-state",
            "secrets.PULUMI_CONFIG_PASSPHRASE": "not-used-offline",
            "github.token": "not-used-offline",
            "github.event.pull_request.number": "42",
        },
        only: ["write the comment", "post the comment"],
    });
    const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, "utf8") : undefined);
    return { job, comment: read(path.join(temp, "comment.md")) ?? "", summary: read(path.join(temp, "step-summary.md")) ?? "", gh: read(ghCall), temp };
}

const HEADING = "### perfguard: `pulumi preview` of `organization/infra/prod`\n";

describe("docs/ci/preview.yml: the comment", () => {
    it.each([
        [
            "mandatory verdicts (baseline): the counts and the Policies section",
            { output: "preview-mandatory-verdicts.txt", exit: 1 },
            [
                "2 mandatory, 1 advisory violation(s).\n",
                "<details><summary>Policies</summary>",
                "- [mandatory]  citrix-zone-rtt-limit  (citrix:index:Zone: latam-zone)",
            ],
            ["The preview failed", "0 mandatory"],
        ],
        [
            "a TypeScript error: the preview failed, its exit code and its first error, no count",
            { output: "preview-type-error.txt", exit: 1 },
            [
                "❌ The preview failed (exit 1) before the policies judged the whole stack: not a policy verdict.\n",
                "```\nerror: Running program '/home/runner/work/infra/infra/' failed with an unhandled exception:\nTSError: ⨯ Unable to compile TypeScript:\n" +
                    "index.ts(4,25): error TS2307: Cannot find module '@pulumi/citrix' or its corresponding type declarations.\n```\n",
            ],
            ["violation(s)", "0 mandatory", "<details>", "warning: Could not find"],
        ],
        [
            "a missing config value: the preview failed, with the CLI's line and its hint",
            { output: "preview-missing-config.txt", exit: 1 },
            [
                "❌ The preview failed (exit 1) before the policies judged the whole stack: not a policy verdict.\n",
                "```\nerror: Missing required configuration variable 'site:region'\nplease set a value using the command `pulumi config set site:region <value>`\n```\n",
            ],
            ["violation(s)", "0 mandatory", "<details>"],
        ],
        [
            "a wrong passphrase: no Policies section, the CLI's one error line",
            { output: "preview-wrong-passphrase.txt", exit: 1 },
            [
                "❌ The preview failed (exit 1) before the policies judged the whole stack: not a policy verdict.\n",
                "```\nerror: getting stack configuration: get stack secrets manager: incorrect passphrase\n```\n",
            ],
            ["violation(s)", "<details>"],
        ],
        [
            "the preview did not run (an earlier step failed)",
            {},
            ["No policy verdicts: the preview did not run (an earlier step failed: see the job log).\n"],
            ["violation(s)", "The preview failed"],
        ],
    ] as const)("%s", async (_label, staged, has, hasNot) => {
        const { job, comment, summary, gh } = await commentJob(staged);
        expect(job.step("write the comment").code, job.step("write the comment").output).toBe(0);
        expect(comment.startsWith(HEADING)).toBe(true);
        for (const text of has) {
            expect(comment).toContain(text);
        }
        for (const text of hasNot) {
            expect(comment).not.toContain(text);
        }
        // The same text on the run's page, and posted on pull request 42.
        expect(summary).toBe(comment);
        expect(job.step("post the comment").code).toBe(0);
        expect(gh?.split("\n")).toEqual(["pr", "comment", "42", "--body-file", expect.stringMatching(/runner-temp\/comment\.md$/), ""]);
    });

    it("a passing preview (exit 0): 0 mandatory, 0 advisory, no Policies fold", async () => {
        // The missing-config output without its failure: its error lines and Diagnostics section
        // gone, what stays is what the CLI prints for a passing preview of that program.
        const text = fs
            .readFileSync(path.join(OUTPUTS, "preview-missing-config.txt"), "utf8")
            .replace(/^Diagnostics:\n(?: .*\n)*\n/m, "")
            .replace(/^.*error.*\n/gm, "");
        expect(text).toContain("Policies:\n    ✅ perfguard@v0.1.0");
        expect(text).not.toMatch(/error/);
        const { job, comment } = await commentJob({ text, exit: 0 });
        expect(job.step("write the comment").code).toBe(0);
        expect(comment).toBe(`${HEADING}0 mandatory, 0 advisory violation(s).\n`);
    });

    it("a runner without gh: the post step fails and names the install and the alternative action; the comment is in the job summary", async () => {
        const { job, summary, gh } = await commentJob({ output: "preview-type-error.txt", exit: 1 }, false);
        const post = job.step("post the comment");
        expect(post.code).toBe(1);
        expect(post.output).toContain(
            "::error::perfguard: gh (the GitHub CLI) is not on this runner's PATH, so the comment is not posted (it is in the job summary): " +
                "install gh (https://github.com/cli/cli#installation) or post",
        );
        expect(post.output).toContain("with marocchino/sticky-pull-request-comment@v2");
        expect(gh).toBeUndefined();
        expect(summary).toContain("The preview failed (exit 1)");
    });
});
