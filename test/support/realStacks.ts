/**
 * Stacks of several teams under the real CLI (test/real/inventory*.test.ts): a project staged from
 * one index.ts, deployed with `pulumi up` (the stand-in providers) to the workspace's file backend,
 * and its preview emulated with the same environment (backend, PERFGUARD_INVENTORY).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { CliRun, listedViolations, policiesSection, REPO_ROOT, stageNodeModules, Workspace } from "../../scripts/realCli/run";

/** Writes project `name` (Pulumi.yaml, index.ts, a staged node_modules) under the workspace. */
export function stageProject(ws: Workspace, name: string, source: string): string {
    const dir = path.join(ws.dir, "program", name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
    fs.writeFileSync(path.join(dir, "index.ts"), source);
    stageNodeModules(dir, path.join(dir, "node_modules"));
    return dir;
}

/** `pulumi stack init prod` and `pulumi up` of the project in `dir`; throws with the CLI's output when either fails. */
export async function deployStack(ws: Workspace, dir: string): Promise<void> {
    for (const args of [
        ["stack", "init", "prod", "--non-interactive"],
        ["up", "--yes", "--non-interactive", "--skip-preview", "--stack", "prod"],
    ]) {
        const run = await ws.run(args, dir);
        if (run.exitCode !== 0) {
            throw new Error(`pulumi ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`);
        }
    }
}

/** The emulated preview of the program in `dir` (stack prod), with the workspace's environment and `extra` arguments. */
export function emulatePreview(ws: Workspace, dir: string, extra: readonly string[] = []): CliRun {
    const run = spawnSync(
        process.execPath,
        [path.join(REPO_ROOT, "dist", "preview", "main.js"), dir, "--policy-pack", REPO_ROOT, "--stack", "prod", ...extra],
        {
            cwd: REPO_ROOT,
            encoding: "utf8",
            env: { ...ws.env, NO_COLOR: "1" },
        },
    );
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

/** "<level> <policy> -> <resource>" of each violation the Policies section lists, sorted. */
export function verdictsOf(output: string): string[] {
    return listedViolations(policiesSection(output))
        .map((v) => `${v.level} ${v.policy} -> ${v.name}`)
        .sort();
}

/** Both outputs, for an assertion's message. */
export function sideBySide(real: CliRun, emu: CliRun): string {
    return `\n--- real CLI (exit ${real.exitCode}) ---\n${real.stdout}${real.stderr}\n--- emulation (exit ${emu.exitCode}) ---\n${emu.stdout}${emu.stderr}`;
}
