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

afterEach(async (context) => {
    if (context.task.result?.state !== "fail") {
        return;
    }
    // What the failed (or timed-out) test started, and nothing the file started before it.
    const killed = new Set<number>();
    for (const p of markedProcesses(marker)) {
        if (p.started >= testStarted) {
            try {
                process.kill(p.pid, "SIGKILL");
                killed.add(p.pid);
            } catch {
                // gone
            }
        }
    }
    // SIGKILL takes effect when the process leaves the kernel: on a loaded machine one blocked in
    // disk I/O lingers. Wait until they are gone (bounded; a bound, not a speed claim), so that the
    // next test never sees them.
    const until = Date.now() + 10_000;
    while (killed.size > 0 && Date.now() < until && markedProcesses(marker).some((p) => killed.has(p.pid))) {
        await new Promise((r) => setTimeout(r, 50));
    }
});

afterAll(async () => {
    await endMarked(marker);
});
