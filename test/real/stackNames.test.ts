/**
 * --stack names the file backend refuses or does not hold, under the real CLI and the emulation
 * in the same workspace (the emulation reads the same file backend): the same `error:` line and
 * exit code, before any program runs. The backend holds `prod` of the program's project and
 * `prod` of a project "other".
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliRun, createWorkspace, REPO_ROOT, stageProgram, Workspace } from "../../scripts/realCli/run";

const SAMPLE = path.join(REPO_ROOT, "test", "fixtures", "programs", "sample");

function emulated(dir: string, args: string[], env: NodeJS.ProcessEnv): CliRun {
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist", "preview", "main.js"), dir, ...args], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...env, NO_COLOR: "1" },
    });
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

/** The CLI's error line (its last `error:` line). */
function errorLine(output: string): string | undefined {
    return output
        .split("\n")
        .filter((l) => l.startsWith("error: "))
        .pop();
}

describe("--stack on a file backend: the CLI's line and exit code", () => {
    let ws: Workspace;
    let program: string;
    beforeAll(async () => {
        ws = createWorkspace();
        program = stageProgram(SAMPLE, ws.dir).dir;
        fs.writeFileSync(path.join(program, "Pulumi.prod.yaml"), "");
        const other = path.join(ws.dir, "other");
        fs.mkdirSync(other);
        fs.writeFileSync(path.join(other, "Pulumi.yaml"), "name: other\nruntime: nodejs\n");
        for (const dir of [program, other]) {
            const init = await ws.run(["stack", "init", "prod", "--non-interactive"], dir);
            expect(init.exitCode, init.stderr).toBe(0);
        }
    });
    afterAll(() => ws?.dispose());

    it.each([
        ["a typo of prod", "prdo", "error: no stack named 'prdo' found", 6],
        ["another organization, qualified", "acme/sample/prod", "error: organization name must be 'organization'", 1],
        ["another organization, two parts", "acme/prod", "error: organization name must be 'organization'", 1],
        ["four parts", "a/b/c/prod", "error: a stack name may not be empty", 1],
        [
            "a space in the name",
            "organization/sample/pr od",
            "error: a stack name may only contain alphanumeric, hyphens, underscores, or periods: invalid character ' ' at position 2",
            1,
        ],
        [
            "a quote in the name",
            "pr'od",
            "error: a stack name may only contain alphanumeric, hyphens, underscores, or periods: invalid character '\\'' at position 2",
            1,
        ],
        [
            "a non-ASCII letter",
            "prodé",
            "error: a stack name may only contain alphanumeric, hyphens, underscores, or periods: invalid character 'Ã' at position 4",
            1,
        ],
        ["another project's stack", "organization/other/prod", 'error: provided project name "other" doesn\'t match Pulumi.yaml', 1],
        ["another project without the stack", "organization/other/qa", "error: no stack named 'organization/other/qa' found", 6],
    ])("%s (%s)", async (_label, stack, line, code) => {
        const real = await ws.run(["preview", "--non-interactive", "--stack", stack, "--policy-pack", REPO_ROOT], program);
        const emu = emulated(program, ["--policy-pack", REPO_ROOT, "--stack", stack], ws.env);
        expect(errorLine(real.stdout + real.stderr), real.stdout + real.stderr).toBe(line);
        expect(real.exitCode).toBe(code);
        expect(errorLine(emu.stderr), emu.stderr).toBe(line);
        expect(emu.exitCode).toBe(code);
        expect(emu.stdout).toBe("");
    });
});
