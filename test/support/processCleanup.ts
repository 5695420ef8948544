/**
 * vitest setup file (every test file): marks every process this file's tests start, and ends
 * them. After a test that failed or timed out, whatever it started and left running ends at
 * once; after a passing test, processes whose parent is gone (orphans) end; when the file ends,
 * everything it started ends. test/support/processes.ts says how processes are found.
 */
import * as fs from "fs";
import { afterAll, afterEach, beforeEach } from "vitest";
import { endMarked, markedProcesses, OWNER_ENV } from "./processes";
import { RUN_ENV } from "./processRun";

// One marker per file (per worker process), under the run's marker from the global setup.
const marker = `${process.env[RUN_ENV] ?? "perfguard-test"}:${process.pid}`;
process.env[OWNER_ENV] = marker;

let before = new Set<number>();

function parentOf(pid: number): number | undefined {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
        return undefined;
    }
}

beforeEach(() => {
    before = new Set(markedProcesses(marker).map((p) => p.pid));
});

afterEach((context) => {
    const state = context.task.result?.state;
    const mine = new Set(markedProcesses(marker).map((p) => p.pid));
    for (const p of markedProcesses(marker)) {
        const failed = state === "fail" && !before.has(p.pid);
        // An orphan: its parent is neither this worker nor another of its processes.
        const parent = parentOf(p.pid);
        const orphan = parent !== process.pid && (parent === undefined || !mine.has(parent));
        if (failed || orphan) {
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
