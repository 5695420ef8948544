/**
 * vitest global setup: one marker for the whole run, inherited by every worker (and so by every
 * process a test starts); at the end of the run, every process still carrying it is ended, so
 * that a worker killed mid-file leaves nothing behind either.
 */
import { endMarked, markedProcesses, OWNER_ENV } from "./processes";

/** The environment variable holding the run's marker. */
export const RUN_ENV = "PERFGUARD_TEST_RUN";

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
    const left = markedProcesses(run);
    const still = await endMarked(run);
    if (left.length > 0) {
        process.stderr.write(`perfguard tests: ended ${left.length} process(es) the tests left running: ${left.map((p) => p.command.slice(0, 80)).join("; ")}\n`);
    }
    if (still.length > 0) {
        process.stderr.write(`perfguard tests: could not end ${still.map((p) => p.pid).join(", ")}\n`);
    }
}
