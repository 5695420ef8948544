/**
 * `--stack` names a stack the CLI must find. On a file backend without it, `pulumi preview --stack
 * prdo` fails with "error: no stack named 'prdo' found", exit 6 (v3.274.1, read off the built CLI:
 * with Pulumi.prod.yaml beside it, and for the qualified name too); the emulation fails alike,
 * before the program runs. Where it cannot tell (no backend, or one it cannot read), a stack
 * without its Pulumi.<stack>.yaml fails closed alike (exit 6, the CLI's line) with a perfguard line
 * that lists the stacks whose config is there: a misspelt stack on a CI gate is never judged with
 * an empty config. On a file backend the CLI's name rules hold ("organization name must be
 * 'organization'", exit 1).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { PreviewError } from "../../preview/errors";
import { checkStack } from "../../preview/stackSelection";
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
function backend(stacks: readonly string[], project = PROJECT): NodeJS.ProcessEnv {
    const dir = temp("perfguard-stack-backend-");
    for (const s of stacks) {
        const file = path.join(dir, ".pulumi", "stacks", project, `${s}.json`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify({ version: 3, checkpoint: { stack: `organization/${project}/${s}`, latest: { metadata: {} } } }));
    }
    return { PULUMI_BACKEND_URL: `file://${dir}`, PULUMI_HOME: temp("perfguard-stack-home-") };
}

/** No backend at all: no PULUMI_BACKEND_URL, a PULUMI_HOME without credentials. */
function noBackend(): NodeJS.ProcessEnv {
    return { PULUMI_HOME: temp("perfguard-stack-home-") };
}

/** Runs checkStack; output: what it returned or threw (message, exit code), and what it logged. */
function check(program: string, given: string, env: NodeJS.ProcessEnv): { stack?: string; error?: [string, number]; logged: string[] } {
    const logged: string[] = [];
    try {
        return { stack: checkStack(program, PROJECT, given, (c: string) => logged.push(c), env), logged };
    } catch (e) {
        expect(e).toBeInstanceOf(PreviewError);
        return { error: [(e as PreviewError).message, (e as PreviewError).exitCode], logged };
    }
}

/** The perfguard line of a stack that cannot be looked up and has no config file. */
function noConfig(program: string, stack: string, why: string, others: string): string {
    return (
        `perfguard: no Pulumi.${stack}.yaml in ${program} and the stack cannot be looked up (${why}); ` +
        `stacks with a Pulumi.<stack>.yaml there: ${others}; to judge a stack that has no config, create an empty Pulumi.${stack}.yaml`
    );
}

const NO_BACKEND = "no backend is set (PULUMI_BACKEND_URL or pulumi login)";

describe("checkStack: what --stack finds", () => {
    const program = programWithProd();
    it.each([
        ["the backend holds prod, which has its Pulumi.prod.yaml (baseline)", () => backend(["prod"]), "prod", "prod", []],
        ["the backend holds prod, named in full", () => backend(["prod"]), `organization/${PROJECT}/prod`, "prod", []],
        ["no backend, prod has its Pulumi.prod.yaml", noBackend, "prod", "prod", []],
        ["no backend, prod named in full", noBackend, `organization/${PROJECT}/prod`, "prod", []],
        ["no backend, another organization (Pulumi Cloud's), prod has its config", noBackend, `acme/${PROJECT}/prod`, "prod", []],
        [
            "the backend holds qa, which has no stack file and no close name",
            () => backend(["qa"]),
            "qa",
            "qa",
            ["perfguard: no Pulumi.qa.yaml: the stack's config is empty\n"],
        ],
        [
            "the backend holds prdo, which has no stack file: a close name",
            () => backend(["prdo"]),
            "prdo",
            "prdo",
            ["perfguard: no Pulumi.prdo.yaml: the stack's config is empty; did you mean prod?\n"],
        ],
    ] as const)("runs: %s", (_label, env, given, stack, lines) => {
        expect(check(program, given, env())).toEqual({ stack, logged: lines });
    });

    it.each([
        [
            "no backend, a typo of prod",
            noBackend,
            "prdo",
            `no stack named 'prdo' found\n${noConfig(program, "prdo", NO_BACKEND, "prod; did you mean prod?")}`,
            6,
        ],
        [
            "no backend, the qualified name of a typo",
            noBackend,
            `organization/${PROJECT}/prdo`,
            `no stack named 'organization/${PROJECT}/prdo' found\n${noConfig(program, "prdo", NO_BACKEND, "prod; did you mean prod?")}`,
            6,
        ],
        ["no backend, a name close to none", noBackend, "qa", `no stack named 'qa' found\n${noConfig(program, "qa", NO_BACKEND, "prod")}`, 6],
        [
            "a backend that is not file://, a typo",
            () => ({ PULUMI_BACKEND_URL: "https://api.pulumi.com" }),
            "prdo",
            `no stack named 'prdo' found\n${noConfig(program, "prdo", "the backend https://api.pulumi.com is not a file:// backend", "prod; did you mean prod?")}`,
            6,
        ],
        ["the file backend does not hold it: a typo of prod", () => backend(["prod"]), "prdo", "no stack named 'prdo' found", 6],
        [
            "the file backend does not hold it: the qualified name of a typo (echoed as given)",
            () => backend(["prod"]),
            `organization/${PROJECT}/prdo`,
            `no stack named 'organization/${PROJECT}/prdo' found`,
            6,
        ],
        [
            "the file backend does not hold it: a stack with its Pulumi.<stack>.yaml but never created",
            () => backend(["dev"]),
            "prod",
            "no stack named 'prod' found",
            6,
        ],
        ["the file backend, another organization", () => backend(["prod"]), `acme/${PROJECT}/prod`, "organization name must be 'organization'", 1],
        ["the file backend, organization/<stack> of another organization", () => backend(["prod"]), "acme/prod", "organization name must be 'organization'", 1],
        [
            "the file backend holds another project's prod",
            () => backend(["prod"], "other"),
            "organization/other/prod",
            'provided project name "other" doesn\'t match Pulumi.yaml',
            1,
        ],
        [
            "the file backend holds no stack of the other project",
            () => backend(["prod"]),
            "organization/other/prod",
            "no stack named 'organization/other/prod' found",
            6,
        ],
    ] as const)("fails: %s", (_label, env, given, message, exitCode) => {
        expect(check(program, given, env())).toEqual({ error: [message, exitCode], logged: [] });
    });
});

describe("npm run preview -- <dir> --stack", () => {
    const program = programWithProd();
    const cli = (args: string[], env: NodeJS.ProcessEnv) => {
        const base: NodeJS.ProcessEnv = { ...process.env };
        delete base.PULUMI_BACKEND_URL;
        return spawnSync(
            process.execPath,
            ["-r", "ts-node/register/transpile-only", path.join(ROOT, "preview", "main.ts"), program, "--policy-pack", SAMPLE_PACK, ...args],
            {
                cwd: ROOT,
                encoding: "utf8",
                env: { ...base, ...env },
            },
        );
    };

    it.each([
        ["a stack the file backend does not hold", () => backend(["prod"]), "prdo", "error: no stack named 'prdo' found\n", 6],
        ["another organization on a file backend", () => backend(["prod"]), `acme/${PROJECT}/prod`, "error: organization name must be 'organization'\n", 1],
        [
            "no backend and no Pulumi.prdo.yaml",
            noBackend,
            "prdo",
            `error: no stack named 'prdo' found\n${noConfig(program, "prdo", NO_BACKEND, "prod; did you mean prod?")}\n`,
            6,
        ],
    ] as const)(
        "%s: the CLI's line (and perfguard's), its exit code, no verdicts",
        (_label, env, stack, stderr, status) => {
            const run = cli(["--stack", stack], env());
            expect(run.stderr).toBe(stderr);
            expect(run.status).toBe(status);
            expect(run.stdout).toBe("");
        },
        60_000,
    );

    it("no backend, a stack with its Pulumi.<stack>.yaml: judged", () => {
        const run = cli(["--stack", "prod"], noBackend());
        // The sample program's mandatory verdict: the preview ran.
        expect(run.status).toBe(1);
        expect(run.stdout).toContain("[mandatory]  catalog-zone-rtt");
        expect(run.stderr).not.toContain("perfguard:");
    }, 120_000);
});
