/**
 * vitest setup file (every test file): marks every process this file's tests start, and ends
 * them. After a test that failed or timed out, whatever it started and left running ends at
 * once; when the file ends, everything it started ends (orphans included). A passing test costs
 * nothing here: finding marked processes reads every process's environment (tens of ms on a busy
 * machine), so it is done only after a failure and at the end of the file.
 * test/support/processes.ts says how processes are found.
 */
import { afterAll, afterEach, beforeEach } from "vitest";
import { endMarked, markedProcesses, OWNER_ENV, uptimeTicks } from "./processes";
import { RUN_ENV } from "./processRun";

// One marker per file (per worker process), under the run's marker from the global setup.
const marker = `${process.env[RUN_ENV] ?? "perfguard-test"}:${process.pid}`;
process.env[OWNER_ENV] = marker;

let testStarted = 0;

beforeEach(() => {
    testStarted = uptimeTicks();
});

afterEach((context) => {
    if (context.task.result?.state !== "fail") {
        return;
    }
    // What the failed (or timed-out) test started, and nothing the file started before it.
    for (const p of markedProcesses(marker)) {
        if (p.started >= testStarted) {
            try {
                process.kill(p.pid, "SIGKILL");
            } catch {
                // gone
            }
        }
    }
});

afterAll(async () => {
    await endMarked(marker);
});
