/**
 * `perfguard check --report <path>` creates the report's folder (mkdir -p), as `diff --plot` and
 * `size --plot` do (one helper, cli/outputFolder.ts); a folder that cannot be created (a file is in
 * the way, /proc) is a usage error, exit 2, at once and before the pack starts.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { BIN, perfguard, tempDir, writeExport } from "./cliHarness";

const dir = tempDir();
// One zone at 280 ms: citrix-zone-rtt-limit's mandatory verdict (limit 250 ms), so exit 1.
const record = writeExport(path.join(dir, "far.json"), [
    {
        type: "citrix:index/zone:Zone",
        name: "far-zone",
        inputs: { name: "far", metadata: [{ name: "perfguard:rttMs", value: "280" }] },
    },
]);
fs.writeFileSync(path.join(dir, "a-file"), "not a folder\n");

describe("check --report into a folder", () => {
    it.each([
        ["an existing folder (baseline)", "report.md"],
        ["a folder that does not exist", path.join("nodir", "x.md")],
        ["two levels that do not exist", path.join("reports", "prod", "x.md")],
    ])(
        "%s: written, the verdicts as without --report",
        async (_label, rel) => {
            const report = path.join(dir, rel);
            const run = await perfguard(["check", record, "--report", report]);
            expect(run.code, run.stderr).toBe(1);
            expect(run.stdout).toContain(`Report written to ${report}.`);
            const md = fs.readFileSync(report, "utf8");
            expect(md).toMatch(/^# perfguard check: ❌ mandatory violations\n/);
            expect(md).toContain("- **citrix-zone-rtt-limit** on `citrix:index:Zone` `far-zone`");
        },
        120_000,
    );

    it.each([
        [
            "a file in the way",
            path.join(dir, "a-file", "x.md"),
            `folder ${path.join(dir, "a-file")} cannot be created or is not writable (${path.join(dir, "a-file")} is a file, not a folder)`,
        ],
        ...(fs.existsSync("/proc/self")
            ? [
                  // Before cli/outputFolder.ts this never returned (Node's recursive mkdir spins on /proc).
                  ["a folder under /proc", "/proc/x/r.md", "folder /proc/x cannot be created or is not writable (ENOENT: mkdir /proc/x)"],
              ]
            : []),
    ])(
        "a folder that cannot be created, %s: one line, exit 2, nothing judged",
        (_label, report, why) => {
            // A hard limit, so that a spin fails the test and leaves no process behind.
            const run = spawnSync(process.execPath, [BIN, "check", record, "--report", report], { encoding: "utf8", timeout: 90_000, killSignal: "SIGKILL" });
            expect(run.signal).toBeNull();
            expect(run.status).toBe(2);
            expect(run.stderr).toBe(`error: cannot write report ${report}: ${why}\n`);
            expect(run.stdout).toBe("");
        },
        120_000,
    );
});

describe("size --plot into a folder", () => {
    it.each([
        ["an existing folder (baseline)", "citrix.svg"],
        ["two levels that do not exist", path.join("plots", "size", "citrix.svg")],
    ])(
        "%s: written",
        async (_label, rel) => {
            const plot = path.join(dir, rel);
            const run = await perfguard(["size", "citrix", "--rtt-ms", "160", "--plot", plot]);
            expect(run.code, run.stderr).toBe(0);
            expect(run.stdout).toContain(`Plot written to ${plot}.`);
            expect(fs.readFileSync(plot, "utf8")).toMatch(/^<svg/);
        },
        120_000,
    );

    it("a folder that cannot be created: one line, exit 2", async () => {
        const plot = path.join(dir, "a-file", "p.svg");
        const run = await perfguard(["size", "xen", "--link-mb-per-s", "117", "--guests", "2", "--plot", plot]);
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(
            `error: cannot write plot ${plot}: folder ${path.join(dir, "a-file")} cannot be created or is not writable (${path.join(dir, "a-file")} is a file, not a folder)\n`,
        );
        expect(run.stdout).toBe("");
    }, 120_000);
});
