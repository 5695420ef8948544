/**
 * No test leaves a process behind: a preview ended midway (as a timeout ends it) leaves no pack;
 * a pack orphaned by a killed parent is found by its marker and ended; a test that times out in
 * vitest has the pack it started ended before the next test (the suite's own setup, in a vitest
 * of its own). Nothing here measures time: each wait polls for a state, bounded only generously.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { endMarked, killMarked, markedProcesses, MarkedProcess, OWNER_ENV, ownMarker, startTracked } from "../support/processes";

const ROOT = path.resolve(__dirname, "..", "..");
const PREVIEW = path.join(ROOT, "dist", "preview", "main.js");
const EXAMPLE = path.join(ROOT, "examples", "citrix-satellite-zones");
const linux = fs.existsSync("/proc/self/environ");

/** Polls until `found` returns something, or `gone()` says it never will; bounded for a loaded machine. */
async function waitFor<T>(found: () => T | undefined, gone: () => boolean, what: string): Promise<T> {
    const until = Date.now() + 240_000;
    for (;;) {
        const value = found();
        if (value !== undefined) {
            return value;
        }
        if (gone() || Date.now() > until) {
            throw new Error(`never saw ${what}`);
        }
        await new Promise((r) => setTimeout(r, 100));
    }
}

function packOf(marker: string): MarkedProcess | undefined {
    return markedProcesses(marker).find((p) => p.command.includes("run-policy-pack"));
}

function parentOf(pid: number): number | undefined {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
        return undefined;
    }
}

describe.runIf(linux)("processes end with their test", () => {
    it("a preview stopped midway, as a timeout stops it, leaves no process", async () => {
        const run = startTracked(process.execPath, [PREVIEW, EXAMPLE], { cwd: ROOT });
        let ended = false;
        void run.done.then(() => (ended = true));
        const pack = await waitFor(
            () => packOf(run.marker),
            () => ended,
            "the preview's run-policy-pack",
        );
        expect(pack.command).toContain("run-policy-pack");
        await run.stop();
        const result = await run.done;
        expect(result.stopped).toBe(true);
        expect(markedProcesses(run.marker)).toEqual([]);
    });

    it("a pack orphaned by a killed preview is found by its marker and ended", async () => {
        // Started as a test would start it without this suite's cleanup: same group, plain spawn.
        const marker = `${ownMarker() ?? "perfguard-test"}:orphan`;
        const child = spawn(process.execPath, [PREVIEW, EXAMPLE], { cwd: ROOT, env: { ...process.env, [OWNER_ENV]: marker }, stdio: "ignore" });
        let exited = false;
        child.on("exit", () => (exited = true));
        const pack = await waitFor(
            () => packOf(marker),
            () => exited,
            "the preview's run-policy-pack",
        );
        child.kill("SIGKILL");
        await waitFor(
            () => (exited ? true : undefined),
            () => false,
            "the preview exit",
        );
        // The leak the suite guards against: the pack outlives its parent, re-parented.
        await waitFor(
            () => (parentOf(pack.pid) !== child.pid ? true : undefined),
            () => false,
            "the pack re-parented",
        );
        expect(markedProcesses(marker).map((p) => p.pid)).toContain(pack.pid);
        killMarked(marker);
        expect(await endMarked(marker)).toEqual([]);
    });

    it("a vitest test that times out has the pack it started ended before the next test", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-cleanup-"));
        try {
            const run = startTracked(
                process.execPath,
                [
                    path.join(ROOT, "node_modules", "vitest", "vitest.mjs"),
                    "run",
                    "--config",
                    path.join(ROOT, "test", "fixtures", "vitest", "vitest.fixture.config.mts"),
                ],
                {
                    cwd: ROOT,
                    env: { ...process.env, PERFGUARD_FIXTURE_FLAG: path.join(dir, "pack.pid"), NO_COLOR: "1", CI: "1" },
                },
            );
            const result = await run.done;
            const out = result.stdout + result.stderr;
            expect(out, out).toContain("Test timed out in 3000ms");
            expect(out, out).toMatch(/1 failed \| 1 passed|1 passed \| 1 failed/);
            expect(result.code).toBe(1);
            const pid = Number(fs.readFileSync(path.join(dir, "pack.pid"), "utf8"));
            expect(pid).toBeGreaterThan(0);
            expect(markedProcesses(run.marker)).toEqual([]);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });
});
