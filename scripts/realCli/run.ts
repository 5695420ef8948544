/**
 * Runs the real Pulumi CLI (built by `npm run real-cli:setup`) on a program or a stack export,
 * offline: a local file backend and PULUMI_HOME in a temporary folder, a fixed passphrase, no
 * update check, no plugin download, and perfguard's stand-in provider plugins in the plugin cache.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { installStandInPlugins } from "../../preview/providers/install";
import { NPM_SDKS, STAND_IN_SDKS } from "../../preview/sdkResolution";
import { carryStackConfig, notReproducedByRealLine, userPassphraseGiven } from "./stackConfig";

/** The CLI version scripts/real-cli/setup.sh builds. */
export const REAL_CLI_VERSION = "3.274.1";

/** This repository (dist/scripts/realCli/run.js or scripts/realCli/run.ts -> the root). */
export const REPO_ROOT = ((): string => {
    let dir = __dirname;
    while (!fs.existsSync(path.join(dir, "PulumiPolicy.yaml")) && path.dirname(dir) !== dir) {
        dir = path.dirname(dir);
    }
    return dir;
})();

/** Where the CLI and the language host are (PERFGUARD_REAL_CLI_BIN overrides). */
export function realCliBinDir(): string {
    return process.env.PERFGUARD_REAL_CLI_BIN || path.join(REPO_ROOT, ".cache", "real-cli", `v${REAL_CLI_VERSION}`, "bin");
}

/** True when `npm run real-cli:setup` has built the CLI. */
export function realCliAvailable(): boolean {
    return fs.existsSync(path.join(realCliBinDir(), "pulumi")) && fs.existsSync(path.join(realCliBinDir(), "pulumi-language-nodejs"));
}

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
        child.stdout.on("data", (d: Buffer) => { stdout += d.toString("utf8"); });
        child.stderr.on("data", (d: Buffer) => { stderr += d.toString("utf8"); });
        child.on("error", reject);
        child.on("close", (code) => resolve({ stdout, stderr, exitCode: code ?? 1 }));
    });
}

/**
 * Copies a program into a scratch folder outside the repository, so that `stack init` writes its
 * Pulumi.<stack>.yaml there and not into the program's folder (the stack's own file is carried
 * by carryStackConfig, the others are left out) (and, for a program inside this
 * repository, so that the Node.js language host does not take perfguard's own package.json as the
 * program's project root), with a node_modules beside it (stageNodeModules). A program anywhere on
 * disk works, with its own node_modules or none; one that imports a file from outside its folder
 * cannot be staged and fails with one line (StagingError).
 */
export function stageProgram(programDir: string, root: string): { dir: string; dispose(): void } {
    const source = path.resolve(programDir);
    if (!fs.existsSync(source) || !fs.statSync(source).isDirectory()) {
        throw new StagingError(`no program folder ${source}`);
    }
    const escaping = importsFromOutside(source);
    if (escaping) {
        throw new StagingError(escaping);
    }
    const dir = path.join(root, "program", path.basename(source));
    fs.cpSync(source, dir, {
        recursive: true,
        filter: (src) => path.basename(src) !== "node_modules" && !/^Pulumi\.[^/]+\.yaml$/.test(path.basename(src)),
    });
    stageNodeModules(source, path.join(dir, "node_modules"));
    return { dir, dispose: () => fs.rmSync(path.join(root, "program"), { recursive: true, force: true }) };
}

/** A program that cannot be staged, in one line. */
export class StagingError extends Error {}

/** The node_modules Node would use for `dir`: the nearest one in it or above it. */
export function nearestNodeModules(dir: string): string | undefined {
    for (let d = path.resolve(dir); ; d = path.dirname(d)) {
        const candidate = path.join(d, "node_modules");
        if (fs.existsSync(candidate) && fs.statSync(candidate).isDirectory()) {
            return candidate;
        }
        if (path.dirname(d) === d) {
            return undefined;
        }
    }
}

/**
 * Builds the staged program's node_modules: a link to each package of the node_modules the program
 * would use in place (its own, or one above it; perfguard's when there is none), then what is
 * missing there: `@pulumi/pulumi` from perfguard, and the providers' package names
 * (preview/sdkResolution.ts STAND_IN_SDKS) as packages made of perfguard's compiled stand-ins
 * (dist/examples/sdk). The stand-ins are copied, not linked, so that their own
 * `require("@pulumi/pulumi")` finds the program's copy beside them: one SDK, whose types the
 * program's resources share (with a second copy `Zone.id` fails to type-check, TS2339).
 * `@vates/pulumi-xenorchestra` is copied from perfguard's node_modules for the same reason.
 */
export function stageNodeModules(programDir: string, dest: string): void {
    const base = nearestNodeModules(programDir) ?? path.join(REPO_ROOT, "node_modules");
    fs.mkdirSync(dest, { recursive: true });
    for (const entry of fs.readdirSync(base)) {
        const from = path.join(base, entry);
        if (entry.startsWith("@") && fs.statSync(from).isDirectory()) {
            fs.mkdirSync(path.join(dest, entry), { recursive: true });
            for (const pkg of fs.readdirSync(from)) {
                fs.symlinkSync(path.join(from, pkg), path.join(dest, entry, pkg), "dir");
            }
        } else if (entry !== ".package-lock.json") {
            fs.symlinkSync(from, path.join(dest, entry));
        }
    }
    const has = (pkg: string) => fs.existsSync(path.join(dest, pkg, "package.json"));
    if (!has("@pulumi/pulumi")) {
        fs.mkdirSync(path.join(dest, "@pulumi"), { recursive: true });
        fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi"), path.join(dest, "@pulumi", "pulumi"), "dir");
    }
    for (const [pkg, name] of Object.entries(STAND_IN_SDKS)) {
        if (has(pkg)) {
            continue;
        }
        const compiled = path.join(REPO_ROOT, "dist", "examples", "sdk", name);
        if (!fs.existsSync(`${compiled}.js`)) {
            throw new StagingError(`perfguard's stand-in for ${pkg} is not built (${compiled}.js): run npm run build in ${REPO_ROOT}`);
        }
        const out = path.join(dest, pkg);
        fs.rmSync(out, { recursive: true, force: true });
        fs.mkdirSync(out, { recursive: true });
        fs.copyFileSync(`${compiled}.js`, path.join(out, "index.js"));
        fs.copyFileSync(`${compiled}.d.ts`, path.join(out, "index.d.ts"));
        // No "pulumi" key: the language host then reports no plugin for it, and the CLI takes the
        // newest installed stand-in provider, as for the examples' classes.
        fs.writeFileSync(path.join(out, "package.json"), JSON.stringify({
            name: pkg, version: "0.0.1", main: "index.js", types: "index.d.ts",
            description: `perfguard's stand-in for ${pkg} (examples/sdk/${name}.ts)`,
        }, null, 4) + "\n");
    }
    for (const pkg of NPM_SDKS) {
        if (!has(pkg)) {
            const from = path.join(REPO_ROOT, "node_modules", pkg);
            if (fs.existsSync(from)) {
                fs.rmSync(path.join(dest, pkg), { recursive: true, force: true });
                fs.cpSync(from, path.join(dest, pkg), { recursive: true, dereference: true });
            }
        }
    }
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)["'](\.\.?\/[^"']*)["']/g;

/**
 * The first relative import (in the program's .ts/.js files, outside node_modules) whose target is
 * outside the program's folder, as the one line to print; undefined when there is none.
 */
export function importsFromOutside(programDir: string): string | undefined {
    const visit = (dir: string): string | undefined => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) {
                const found = entry.name === "node_modules" ? undefined : visit(full);
                if (found) {
                    return found;
                }
            } else if (/\.(?:ts|js|mts|cts|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
                for (const m of fs.readFileSync(full, "utf8").matchAll(RELATIVE_IMPORT)) {
                    const target = path.resolve(dir, m[1]);
                    if (path.relative(programDir, target).startsWith("..")) {
                        const sdk = /(?:^|\/)sdk\/(avi|citrix|vsphere)(?:\.ts)?$/.exec(m[1]);
                        const advice = sdk
                            ? `import "@pulumi/${sdk[1]}" instead (perfguard stages its stand-in under that name)`
                            : "move that module into the program's folder or publish it as a package";
                        return `${path.relative(process.cwd(), full) || full} imports "${m[1]}" from outside the program's folder, ` +
                            `which preview:real does not copy: ${advice}`;
                    }
                }
            }
        }
        return undefined;
    };
    return visit(programDir);
}

/** Whether the program's stack file has passphrase secrets the user gave a passphrase for. */
function needsUserPassphrase(programDir: string, stack: string, env: NodeJS.ProcessEnv = process.env): boolean {
    const file = path.join(path.resolve(programDir), `Pulumi.${stack}.yaml`);
    return userPassphraseGiven(env) && fs.existsSync(file) && /^encryptionsalt:/m.test(fs.readFileSync(file, "utf8")) && /\bsecure:/.test(fs.readFileSync(file, "utf8"));
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

/** One violation as the CLI's `Policies:` section lists it. */
export interface ListedViolation {
    readonly level: string;
    readonly policy: string;
    /** `citrix:index:Zone`, or undefined for a stack-wide violation. */
    readonly type?: string;
    readonly name?: string;
}

/**
 * The `Policies:` section of the CLI's output, from its heading to the blank line that ends it
 * ("" when there is none).
 */
export function policiesSection(output: string): string {
    const lines = output.split("\n");
    const start = lines.findIndex((l) => l === "Policies:");
    if (start < 0) {
        return "";
    }
    let end = start + 1;
    while (end < lines.length && lines[end] !== "") {
        end += 1;
    }
    return lines.slice(start, end).join("\n") + "\n";
}

const VIOLATION_LINE = /^ {8}- \[(advisory|mandatory|remediate)\] {2}([a-z0-9-]+)(?: {2}\((.+?): (.+)\))?$/;

/** The violations listed in a `Policies:` section, in the order printed. */
export function listedViolations(section: string): ListedViolation[] {
    const out: ListedViolation[] = [];
    for (const line of section.split("\n")) {
        const m = VIOLATION_LINE.exec(line);
        if (m && m[1] !== "remediate") {
            out.push({ level: m[1], policy: m[2], type: m[3], name: m[4] });
        }
    }
    return out;
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
