/**
 * `--stack` names a stack the CLI must find. On a file backend without it, `pulumi preview --stack
 * prdo` fails with "error: no stack named 'prdo' found", exit 6 (v3.274.1, read off the built CLI:
 * with Pulumi.prod.yaml beside it, and for the qualified name too); the emulation fails alike,
 * before the program runs. Where it cannot tell (no backend, or one it cannot read), a stack
 * without its Pulumi.<stack>.yaml gets one perfguard line on stderr, never a silent empty config.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { PreviewError } from "../../preview/errors";
import { checkStack } from "../../preview/runPreview";
import { SAMPLE_PACK, SAMPLE_PROGRAM } from "./fixtures";

const ROOT = path.resolve(__dirname, "..", "..");
const PROJECT = "sample";
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

function temp(prefix: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    roots.push(dir);
    return dir;
}

/** The sample program with a Pulumi.prod.yaml beside it. */
function programWithProd(): string {
    const dir = temp("perfguard-stack-program-");
    for (const f of fs.readdirSync(SAMPLE_PROGRAM)) {
        fs.copyFileSync(path.join(SAMPLE_PROGRAM, f), path.join(dir, f));
    }
    fs.writeFileSync(path.join(dir, "Pulumi.prod.yaml"), "config:\n  sample:region: east\n");
    // Outside the repository: the program's @pulumi/pulumi is this checkout's.
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    return dir;
}

/** A file backend holding these stacks of the project, each as `pulumi stack init` leaves it. */
function backend(stacks: readonly string[]): NodeJS.ProcessEnv {
    const dir = temp("perfguard-stack-backend-");
    for (const s of stacks) {
        const file = path.join(dir, ".pulumi", "stacks", PROJECT, `${s}.json`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify({ version: 3, checkpoint: { stack: `organization/${PROJECT}/${s}`, latest: { metadata: {} } } }));
    }
    return { PULUMI_BACKEND_URL: `file://${dir}`, PULUMI_HOME: temp("perfguard-stack-home-") };
}

/** No backend at all: no PULUMI_BACKEND_URL, a PULUMI_HOME without credentials. */
function noBackend(): NodeJS.ProcessEnv {
    return { PULUMI_HOME: temp("perfguard-stack-home-") };
}

describe("checkStack: what --stack finds", () => {
    const program = programWithProd();
    it.each([
        ["the backend holds prod, which has its Pulumi.prod.yaml (baseline)", () => backend(["prod"]), "prod", "prod", []],
        ["no backend, prod has its Pulumi.prod.yaml", noBackend, "prod", "prod", []],
        ["no backend, a typo of prod", noBackend, "prdo", "prdo", ["perfguard: no Pulumi.prdo.yaml: the stack's config is empty; did you mean prod?\n"]],
        ["no backend, the qualified name of a typo", noBackend, "prdo", `organization/${PROJECT}/prdo`, ["perfguard: no Pulumi.prdo.yaml: the stack's config is empty; did you mean prod?\n"]],
        ["a backend that is not file://, a typo", () => ({ PULUMI_BACKEND_URL: "https://api.pulumi.com" }), "prdo", "prdo", ["perfguard: no Pulumi.prdo.yaml: the stack's config is empty; did you mean prod?\n"]],
        ["the backend holds qa, which has no stack file and no close name", () => backend(["qa"]), "qa", "qa", ["perfguard: no Pulumi.qa.yaml: the stack's config is empty\n"]],
    ] as const)("%s", (_label, env, stack, given, lines) => {
        const logged: string[] = [];
        checkStack(program, PROJECT, stack, given, (c) => logged.push(c), env());
        expect(logged).toEqual(lines);
    });

    it.each([
        ["a typo of prod", "prdo", "prdo", "no stack named 'prdo' found"],
        ["the qualified name of a typo (echoed as given)", "prdo", `organization/${PROJECT}/prdo`, `no stack named 'organization/${PROJECT}/prdo' found`],
        ["a stack with its Pulumi.<stack>.yaml but never created", "prod", "prod", "no stack named 'prod' found"],
    ] as const)("the file backend does not hold it, %s: the CLI's error, exit 6", (_label, stack, given, message) => {
        const env = stack === "prod" ? backend(["dev"]) : backend(["prod"]);
        let error: unknown;
        try {
            checkStack(program, PROJECT, stack, given, () => undefined, env);
        } catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(PreviewError);
        expect((error as PreviewError).message).toBe(message);
        expect((error as PreviewError).exitCode).toBe(6);
    });
});

describe("npm run preview -- <dir> --stack", () => {
    const program = programWithProd();
    const cli = (args: string[], env: NodeJS.ProcessEnv) => {
        const base: NodeJS.ProcessEnv = { ...process.env };
        delete base.PULUMI_BACKEND_URL;
        return spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(ROOT, "preview", "main.ts"), program, "--policy-pack", SAMPLE_PACK, ...args], {
            cwd: ROOT, encoding: "utf8", env: { ...base, ...env },
        });
    };

    it("a stack the file backend does not hold: the CLI's line, exit 6, no verdicts", () => {
        const run = cli(["--stack", "prdo"], backend(["prod"]));
        expect(run.status).toBe(6);
        expect(run.stderr).toBe("error: no stack named 'prdo' found\n");
        expect(run.stdout).toBe("");
    }, 60_000);

    it("no backend: the program is judged with an empty config, and stderr says so", () => {
        const run = cli(["--stack", "prdo"], noBackend());
        // The sample program's mandatory verdict: the preview ran.
        expect(run.status).toBe(1);
        expect(run.stdout).toContain("[mandatory]  catalog-zone-rtt");
        expect(run.stderr).toContain("perfguard: no Pulumi.prdo.yaml: the stack's config is empty; did you mean prod?\n");
    }, 120_000);
});
