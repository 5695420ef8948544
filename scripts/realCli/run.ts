/**
 * Runs the real Pulumi CLI (built by `npm run real-cli:setup`) on a program or a stack export,
 * offline: a local file backend and PULUMI_HOME in a temporary folder, a fixed passphrase, no
 * update check, no plugin download, and perfguard's stand-in provider plugins in the plugin cache.
 * Where the CLI is: paths.ts; how a program is staged for it: staging.ts; reading its output: output.ts.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { installStandInPlugins } from "../../preview/providers/install";
import { realCliBinDir, REPO_ROOT } from "./paths";
import { stageProgram } from "./staging";
import { carryStackConfig, notReproducedByRealLine, userPassphraseGiven } from "./stackConfig";

// What the tests and scripts that drive the real CLI use besides the runs below.
export { listedViolations, policiesSection } from "./output";
export type { ListedViolation } from "./output";
export { REAL_CLI_VERSION, realCliAvailable, realCliBinDir, REPO_ROOT } from "./paths";
export { importsFromOutside, nearestNodeModules, stageNodeModules, stageProgram, StagingError } from "./staging";

/** What one CLI command printed and returned. */
export interface CliRun {
    readonly stdout: string;
    readonly stderr: string;
    readonly exitCode: number;
}

/** A scratch CLI home and file backend; `dispose` removes them. */
export interface Workspace {
    readonly dir: string;
    readonly env: NodeJS.ProcessEnv;
    run(args: readonly string[], cwd: string): Promise<CliRun>;
    dispose(): void;
}

/**
 * Creates a scratch workspace: a temporary PULUMI_HOME and `file://` backend, nothing shared;
 * `extraEnv` is set on top (the bench's PULUMI_SKIP_CHECKPOINTS).
 */
export function createWorkspace(extraEnv: NodeJS.ProcessEnv = {}, userPassphrase = false): Workspace {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-real-cli-"));
    fs.mkdirSync(path.join(dir, "home"));
    fs.mkdirSync(path.join(dir, "state"));
    const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: [realCliBinDir(), process.env.PATH ?? ""].join(path.delimiter),
        PULUMI_HOME: path.join(dir, "home"),
        PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`,
        PULUMI_CONFIG_PASSPHRASE: "perfguard-test-passphrase",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        // Providers come from the plugin cache only: the stand-ins installed below, at the
        // versions programs ask for (preview/providers/README.md), never a binary on PATH.
        PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
        PULUMI_SKIP_CONFIRMATIONS: "true",
        PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
        // No colour codes, so that output compares byte for byte.
        NO_COLOR: "1",
        FORCE_COLOR: "0",
        ...extraEnv,
    };
    if (userPassphrase) {
        // The carried stack file's secrets open with the passphrase the user gave (stackConfig.ts).
        env.PULUMI_CONFIG_PASSPHRASE = extraEnv.PULUMI_CONFIG_PASSPHRASE ?? process.env.PULUMI_CONFIG_PASSPHRASE;
        if (env.PULUMI_CONFIG_PASSPHRASE === undefined) {
            delete env.PULUMI_CONFIG_PASSPHRASE;
        }
    } else {
        delete env.PULUMI_CONFIG_PASSPHRASE_FILE;
        env.PULUMI_CONFIG_PASSPHRASE ??= "perfguard-test-passphrase";
    }
    delete env.PULUMI_ACCESS_TOKEN;
    installStandInPlugins(path.join(dir, "home"), REPO_ROOT);
    return {
        dir,
        env,
        run: (args, cwd) => runCommand(path.join(realCliBinDir(), "pulumi"), args, cwd, env),
        dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
    };
}

function runCommand(bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
    return new Promise((resolve, reject) => {
        const child = spawn(bin, [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => {
            stdout += d.toString("utf8");
        });
        child.stderr.on("data", (d: Buffer) => {
            stderr += d.toString("utf8");
        });
        child.on("error", reject);
        child.on("close", (code) => resolve({ stdout, stderr, exitCode: code ?? 1 }));
    });
}

/** Whether the program's stack file has passphrase secrets the user gave a passphrase for. */
function needsUserPassphrase(programDir: string, stack: string, env: NodeJS.ProcessEnv = process.env): boolean {
    const file = path.join(path.resolve(programDir), `Pulumi.${stack}.yaml`);
    return (
        userPassphraseGiven(env) &&
        fs.existsSync(file) &&
        /^encryptionsalt:/m.test(fs.readFileSync(file, "utf8")) &&
        /\bsecure:/.test(fs.readFileSync(file, "utf8"))
    );
}

/** stageProgram into the workspace; disposes the workspace when the program cannot be staged. */
function stagedIn(ws: Workspace, programDir: string): { dir: string; dispose(): void } {
    try {
        return stageProgram(programDir, ws.dir);
    } catch (err) {
        ws.dispose();
        throw err;
    }
}

/** Options of a real preview. */
export interface RealPreviewOptions {
    readonly policyPackConfig?: string;
    readonly diff?: boolean;
    readonly stack?: string;
    /** The pack folder (default: this repository). */
    readonly packDir?: string;
    /** Several packs, one `--policy-pack` flag each in this order (overrides packDir). */
    readonly packDirs?: readonly string[];
    /** Preview without any policy pack (a benchmark floor). */
    readonly noPack?: boolean;
    /** Environment set on top of the workspace's own for the CLI. */
    readonly env?: NodeJS.ProcessEnv;
    /** More `pulumi preview` arguments (--target, --exclude, --replace, ...). */
    readonly cliArgs?: readonly string[];
}

/**
 * Runs `pulumi preview --policy-pack <pack>` on a copy of `programDir` with a fresh stack that
 * holds the program's `Pulumi.<stack>.yaml` (stackConfig.ts says what is carried); what could not
 * be carried is named in a "not reproduced" line and the run exits 1 at least.
 */
export async function realPreview(programDir: string, options: RealPreviewOptions = {}): Promise<CliRun> {
    const stack = options.stack ?? "dev";
    const userEnv = { ...process.env, ...options.env };
    const ws = createWorkspace(options.env, needsUserPassphrase(programDir, stack, userEnv));
    const program = stagedIn(ws, programDir);
    try {
        const carried = carryStackConfig(path.resolve(programDir), program.dir, stack, userEnv);
        const init = await ws.run(["stack", "init", stack, "--non-interactive"], program.dir);
        if (init.exitCode !== 0) {
            return init;
        }
        const notReproduced = carried.notReproduced.map(notReproducedByRealLine).join("");
        const args = ["preview", "--non-interactive", "--stack", stack];
        if (!options.noPack) {
            for (const pack of options.packDirs ?? [options.packDir ?? REPO_ROOT]) {
                args.push("--policy-pack", pack);
            }
        }
        if (options.policyPackConfig) {
            args.push("--policy-pack-config", path.resolve(options.policyPackConfig));
        }
        if (options.diff) {
            args.push("--diff");
        }
        args.push(...(options.cliArgs ?? []));
        const run = await ws.run(args, program.dir);
        return notReproduced === "" ? run : { ...run, stderr: notReproduced + run.stderr, exitCode: Math.max(1, run.exitCode) };
    } finally {
        program.dispose();
        ws.dispose();
    }
}

/** Runs `pulumi policy analyze --file <export> --policy-pack <pack>` (the CLI's own check of existing state). */
export async function realAnalyze(exportFile: string, options: { policyPackConfig?: string; packDir?: string } = {}): Promise<CliRun> {
    const ws = createWorkspace();
    try {
        const args = ["policy", "analyze", "--non-interactive", "--file", path.resolve(exportFile), "--policy-pack", options.packDir ?? REPO_ROOT];
        if (options.policyPackConfig) {
            args.push("--policy-pack-config", path.resolve(options.policyPackConfig));
        }
        return await ws.run(args, ws.dir);
    } finally {
        ws.dispose();
    }
}

/** Options of a deployment: `pulumi up` itself can run the pack (e.g. to remediate). */
export interface DeployOptions {
    readonly policyPackConfig?: string;
    /** Run `pulumi up` with this pack (default: without any pack). */
    readonly withPack?: boolean;
    /** The stack (default dev); the program's Pulumi.<stack>.yaml is carried. */
    readonly stack?: string;
}

/** A deployed scratch stack: its workspace, the staged program folder, the export file. */
export interface DeployedStack {
    readonly ws: Workspace;
    /** The staged copy of the program, where `--stack dev` commands run. */
    readonly programDir: string;
    readonly exportFile: string;
    readonly up: CliRun;
    /** The stack's name (dev unless DeployOptions.stack). */
    readonly stack: string;
}

/**
 * Deploys `programDir` with `pulumi up` (stand-in providers) on a fresh stack, exports the stack
 * (secrets stay encrypted), and calls `fn` with the deployment; cleans up.
 */
export async function withDeployedStack<T>(programDir: string, fn: (stack: DeployedStack) => Promise<T>, options: DeployOptions = {}): Promise<T> {
    const stack = options.stack ?? "dev";
    const ws = createWorkspace({}, needsUserPassphrase(programDir, stack));
    const program = stagedIn(ws, programDir);
    try {
        carryStackConfig(path.resolve(programDir), program.dir, stack);
        const init = await ws.run(["stack", "init", stack, "--non-interactive"], program.dir);
        if (init.exitCode !== 0) {
            throw new Error(`pulumi stack init failed:\n${init.stdout}${init.stderr}`);
        }
        const upArgs = ["up", "--yes", "--non-interactive", "--skip-preview", "--stack", stack];
        if (options.withPack) {
            upArgs.push("--policy-pack", REPO_ROOT);
        }
        if (options.policyPackConfig) {
            upArgs.push("--policy-pack-config", path.resolve(options.policyPackConfig));
        }
        const up = await ws.run(upArgs, program.dir);
        const exportFile = path.join(ws.dir, "export.json");
        const exported = await ws.run(["stack", "export", "--stack", stack, "--file", exportFile], program.dir);
        if (exported.exitCode !== 0) {
            throw new Error(`pulumi stack export failed:\n${exported.stdout}${exported.stderr}`);
        }
        return await fn({ ws, programDir: program.dir, exportFile, up, stack });
    } finally {
        program.dispose();
        ws.dispose();
    }
}

/** `pulumi policy analyze --stack <its stack>` on a deployed stack: the CLI reads the state itself, no export. */
export function analyzeStack(stack: DeployedStack, options: { policyPackConfig?: string } = {}): Promise<CliRun> {
    const args = ["policy", "analyze", "--non-interactive", "--stack", stack.stack, "--policy-pack", REPO_ROOT];
    if (options.policyPackConfig) {
        args.push("--policy-pack-config", path.resolve(options.policyPackConfig));
    }
    return stack.ws.run(args, stack.programDir);
}

/** `pulumi policy analyze --file` in an existing workspace (env overrides, e.g. another passphrase). */
export function analyzeIn(ws: Workspace, exportFile: string, options: { policyPackConfig?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
    const args = ["policy", "analyze", "--non-interactive", "--file", exportFile, "--policy-pack", REPO_ROOT];
    if (options.policyPackConfig) {
        args.push("--policy-pack-config", path.resolve(options.policyPackConfig));
    }
    return runCommand(path.join(realCliBinDir(), "pulumi"), args, ws.dir, { ...ws.env, ...options.env });
}
