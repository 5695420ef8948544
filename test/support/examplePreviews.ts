/**
 * The emulated preview of each bundled example, run once per `npm test` and read by every test
 * file that checks it (test/e2e/examples, test/e2e/messageSize, test/messages, test/cli/check):
 * as `npm run preview -- examples/<name> [--policy-pack-config examples/<name>/policy-config.json]
 * --explain --record <file>` would run it. The first file to ask runs it (a lock directory keeps
 * two workers from running the same one); the others read its JSON. The cache lives in a folder
 * named after the run's marker (test/support/processRun.ts), which the run's teardown removes.
 */
import * as fs from "fs";
import * as path from "path";
import { runPreview } from "../../preview/runPreview";
import type { PreviewResult } from "../../preview/runPreview";
import { previewCacheDir } from "./processRun";

export const ROOT = path.resolve(__dirname, "..", "..");
export const EXAMPLES = path.join(ROOT, "examples");

/** One example's preview: what runPreview returned (with the explanation) and its --record file. */
export interface ExamplePreview {
    readonly result: PreviewResult;
    /** A `pulumi stack export`-shaped file of the resources sent. */
    readonly record: string;
    /** The policy config file the preview used, if the example has one. */
    readonly config?: string;
}

function configOf(name: string): string | undefined {
    const file = path.join(EXAMPLES, name, "policy-config.json");
    return fs.existsSync(file) ? file : undefined;
}

function holderAlive(lock: string): boolean {
    try {
        const pid = Number(fs.readFileSync(path.join(lock, "pid"), "utf8"));
        process.kill(pid, 0);
        return true;
    } catch (err) {
        // No pid file yet (the holder is writing it) counts as alive; a dead pid does not.
        return (err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "EPERM";
    }
}

const inProcess = new Map<string, Promise<ExamplePreview>>();

async function load(name: string): Promise<ExamplePreview> {
    const dir = previewCacheDir();
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}.json`);
    const lock = path.join(dir, `${name}.lock`);
    for (;;) {
        if (fs.existsSync(file)) {
            return JSON.parse(fs.readFileSync(file, "utf8")) as ExamplePreview;
        }
        try {
            fs.mkdirSync(lock);
        } catch {
            // Another worker is running it: wait for its file, or take over if it died.
            if (!holderAlive(lock)) {
                fs.rmSync(lock, { recursive: true, force: true });
            }
            await new Promise((r) => setTimeout(r, 250));
            continue;
        }
        try {
            fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
            const record = path.join(dir, `${name}.record.json`);
            const config = configOf(name);
            const result = await runPreview({
                programDir: path.join(EXAMPLES, name),
                packDir: ROOT,
                policyPackConfig: config,
                explain: true,
                record,
                onLog: () => undefined,
            });
            const preview: ExamplePreview = { result, record, ...(config ? { config } : {}) };
            const partial = `${file}.${process.pid}`;
            fs.writeFileSync(partial, JSON.stringify(preview));
            fs.renameSync(partial, file); // whole or absent, never half-written
            return preview;
        } finally {
            fs.rmSync(lock, { recursive: true, force: true });
        }
    }
}

/** The example's preview, run once per test run. Each call returns its own copy to read. */
export async function examplePreview(name: string): Promise<ExamplePreview> {
    let pending = inProcess.get(name);
    if (!pending) {
        pending = load(name);
        inProcess.set(name, pending);
        pending.catch(() => inProcess.delete(name));
    }
    return structuredClone(await pending);
}

/** The bundled examples with an expected-violations.json, sorted. */
export function bundledExamples(): string[] {
    return fs
        .readdirSync(EXAMPLES)
        .filter((d) => fs.existsSync(path.join(EXAMPLES, d, "expected-violations.json")))
        .sort();
}
