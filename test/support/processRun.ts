/**
 * vitest global setup: one marker for the whole run, inherited by every worker (and so by every
 * process a test starts); at the end of the run, every process still carrying it is ended, so
 * that a worker killed mid-file leaves nothing behind either.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { endMarked, markedProcesses, OWNER_ENV } from "./processes";

/** The environment variable holding the run's marker. */
export const RUN_ENV = "PERFGUARD_TEST_RUN";

/** The run's cache of example previews (test/support/examplePreviews.ts), removed at the end of the run. */
export function previewCacheDir(run = process.env[RUN_ENV] ?? `process-${process.pid}`): string {
    return path.join(os.tmpdir(), `perfguard-previews-${run.replace(/[^A-Za-z0-9._-]/g, "_")}`);
}

export function setup(): void {
    // A run started by a tracked command (a test that runs vitest) stays under that command's
    // marker, so that the outer test finds what the inner run left.
    const outer = process.env[OWNER_ENV];
    process.env[RUN_ENV] = outer ? `${outer}:run${process.pid}` : `perfguard-test-${process.pid}-${Date.now().toString(36)}`;
}

export async function teardown(): Promise<void> {
    const run = process.env[RUN_ENV];
    if (run === undefined) {
        return;
    }
    fs.rmSync(previewCacheDir(run), { recursive: true, force: true });
    const left = markedProcesses(run);
    const still = await endMarked(run);
    if (left.length > 0) {
        process.stderr.write(
            `perfguard tests: ended ${left.length} process(es) the tests left running: ${left.map((p) => p.command.slice(0, 80)).join("; ")}\n`,
        );
    }
    if (still.length > 0) {
        process.stderr.write(`perfguard tests: could not end ${still.map((p) => p.pid).join(", ")}\n`);
    }
}
