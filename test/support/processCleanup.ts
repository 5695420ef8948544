/**
 * vitest setup file (every test file): marks every process this file's tests start, and ends
 * them. After a test that failed or timed out, whatever it started and left running ends at
 * once; when the file ends, everything it started ends (orphans included). A passing test costs
 * nothing here: finding marked processes reads every process's environment (tens of ms on a busy
 * machine), so it is done only after a failure and at the end of the file.
 * test/support/processes.ts says how processes are found.
 *
 * Each test gets a marker of its own (`<file marker>:t<n>`), set in the environment its children
 * inherit, so "what this test started" is a name, never a comparison of clocks: /proc/uptime and a
 * process's start time need not share a base (a time namespace, a sandboxed kernel), and a
 * comparison of the two once let a timed-out test's pack outlive it.
 */
import { afterAll, afterEach, beforeEach } from "vitest";
import { endMarked, OWNER_ENV } from "./processes";
import { RUN_ENV } from "./processRun";

// One marker per file (per worker process), under the run's marker from the global setup.
const fileMarker = `${process.env[RUN_ENV] ?? "perfguard-test"}:${process.pid}`;
process.env[OWNER_ENV] = fileMarker;

let testCount = 0;

beforeEach(() => {
    testCount += 1;
    process.env[OWNER_ENV] = `${fileMarker}:t${testCount}`;
});

afterEach(async (context) => {
    const testMarker = process.env[OWNER_ENV] ?? fileMarker;
    // Processes started by afterAll/beforeAll hooks carry the file's marker again.
    process.env[OWNER_ENV] = fileMarker;
    if (context.task.result?.state !== "fail") {
        return;
    }
    // What the failed (or timed-out) test started, and nothing the file started before it. SIGKILL
    // takes effect when the process leaves the kernel: on a loaded machine one blocked in disk I/O
    // lingers, so endMarked waits until they are gone (a bound, not a speed claim) and the next
    // test never sees them.
    await endMarked(testMarker, 30_000);
});

afterAll(async () => {
    await endMarked(fileMarker);
});
