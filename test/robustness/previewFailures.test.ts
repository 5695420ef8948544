/**
 * The preview path survives a pack that prints to stdout before its port, a pack that exits
 * before printing it, and a program that throws: a clear error naming the cause and a non-zero
 * exit, through the compiled CLI entry (`npm run preview`, dist/preview/main.js; needs npm run
 * build). test/preview/* covers the same failures at the runPreview/startPack level.
 */
import * as path from "path";
import { describe, expect, it } from "vitest";
import { startTracked } from "../support/processes";
import { CRASHING_PACK, NOISY_PACK, SAMPLE_PACK, SAMPLE_PROGRAM, THROWING_PROGRAM } from "../preview/fixtures";

const ROOT = path.resolve(__dirname, "..", "..");

// Asynchronous and in its own process group (test/support/processes.ts): a slow run is bounded by
// the test's timeout, and what it started ends with it.
async function preview(args: string[]) {
    const run = await startTracked(process.execPath, [path.join(ROOT, "dist", "preview", "main.js"), ...args], { cwd: ROOT }).done;
    return { status: run.code, stdout: run.stdout, stderr: run.stderr };
}

describe("npm run preview on broken inputs", () => {
    it.each([
        [
            "a pack that prints before its port",
            [SAMPLE_PROGRAM, "--policy-pack", NOISY_PACK],
            [`policy pack ${NOISY_PACK} printed "loading noisy pack" before its port`],
            [],
        ],
        [
            "a pack that exits before its port",
            [SAMPLE_PROGRAM, "--policy-pack", CRASHING_PACK],
            [`policy pack ${CRASHING_PACK} exited (exit code 3) before printing its port`, "crashing-pack: missing thresholds table"],
            [],
        ],
        // As the CLI: the Analyze verdicts of the resources registered before the throw are printed.
        [
            "a program that throws",
            [THROWING_PROGRAM, "--policy-pack", SAMPLE_PACK],
            [`program ${THROWING_PROGRAM} failed`, "zone catalogue is missing the RTT table"],
            ["zone-needs-description  (citrix:index:Zone: zone-a)"],
        ],
    ])("%s: exit 1, the cause on stderr, only the verdicts so far on stdout", async (_label, args, causes, soFar) => {
        const run = await preview(args);
        expect(run.status).toBe(1);
        expect(run.stderr).toMatch(/^error: /m);
        for (const cause of causes) {
            expect(run.stderr).toContain(cause);
        }
        // A failed preview never looks like a clean one: no stdout but the verdicts so far (stderr says it failed).
        if (soFar.length === 0) {
            expect(run.stdout).toBe("");
        }
        for (const line of soFar) {
            expect(run.stdout).toContain(line);
        }
    });
});
