/**
 * Runs the built `perfguard` binary (dist/cli/main.js, as npm links it) in a child process and
 * builds small stack exports for `check`. `npm test` builds first.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { AnalyzerInfo, startPack } from "../../preview/packClient";

export const ROOT = path.resolve(__dirname, "../..");
export const BIN = path.join(ROOT, "dist", "cli", "main.js");

export interface CliRun {
    code: number | null;
    stdout: string;
    stderr: string;
}

/**
 * Runs `node dist/cli/main.js ...args` with cwd `cwd` (default: a temp folder, so no test
 * relies on the repository being the cwd), this process's environment with `env` over it (a
 * value undefined: unset). Throws when the binary is not built.
 */
export function perfguard(args: readonly string[], cwd = os.tmpdir(), env?: Record<string, string | undefined>): Promise<CliRun> {
    if (!fs.existsSync(BIN)) {
        throw new Error(`${BIN} is missing: run npm run build (npm test does)`);
    }
    return new Promise((resolve, reject) => {
        const childEnv = env ? Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, v]) => v !== undefined)) : process.env;
        const child = spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
}

/** This perfguard's GetAnalyzerInfo, from a pack process started and closed for it (what `config check` checks against). */
export async function packAnalyzerInfo(): Promise<AnalyzerInfo> {
    const pack = await startPack(ROOT, { onOutput: () => undefined });
    try {
        return await pack.getAnalyzerInfo();
    } finally {
        await pack.close();
    }
}

/** A fresh temp folder for one test file. */
export function tempDir(): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-cli-test-"));
}

/** One resource of a hand-written stack export. */
export interface ExportResource {
    type: string;
    name: string;
    inputs?: Record<string, unknown>;
    outputs?: Record<string, unknown>;
    propertyDependencies?: Record<string, string[]>;
    delete?: boolean;
}

export const STACK = "prod";
export const PROJECT = "sizing";

export function urn(type: string, name: string): string {
    return `urn:pulumi:${STACK}::${PROJECT}::${type}::${name}`;
}

/**
 * Writes a `pulumi stack export`-shaped file (version 3, root stack first; outputs default to
 * the inputs, as after a deployment of resources whose provider computes nothing else).
 */
export function writeExport(file: string, resources: readonly ExportResource[]): string {
    const root = { urn: urn("pulumi:pulumi:Stack", `${PROJECT}-${STACK}`), custom: false, type: "pulumi:pulumi:Stack", inputs: {}, outputs: {} };
    const doc = {
        version: 3,
        deployment: {
            manifest: { time: "2026-01-01T00:00:00Z", magic: "", version: "v3.270.0" },
            resources: [
                root,
                ...resources.map((r) => ({
                    urn: urn(r.type, r.name),
                    custom: true,
                    ...(r.delete ? { delete: true } : {}),
                    id: `${r.name}-id`,
                    type: r.type,
                    inputs: r.inputs ?? {},
                    outputs: r.outputs ?? r.inputs ?? {},
                    parent: root.urn,
                    dependencies: Object.values(r.propertyDependencies ?? {}).flat(),
                    propertyDependencies: r.propertyDependencies ?? {},
                })),
            ],
        },
    };
    fs.writeFileSync(file, JSON.stringify(doc, null, 2));
    return file;
}
