/**
 * `perfguard check --report <path>` creates the report's folder (mkdir -p), as `diff --plot` does;
 * a folder that cannot be created (a file is in the way) is a usage error, exit 2, before the pack starts.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { perfguard, tempDir, writeExport } from "./cliHarness";

const dir = tempDir();
// One zone at 280 ms: citrix-zone-rtt-limit's mandatory verdict (limit 250 ms), so exit 1.
const record = writeExport(path.join(dir, "far.json"), [{
    type: "citrix:index/zone:Zone", name: "far-zone",
    inputs: { name: "far", metadata: [{ name: "perfguard:rttMs", value: "280" }] },
}]);
fs.writeFileSync(path.join(dir, "a-file"), "not a folder\n");

describe("check --report into a folder", () => {
    it.each([
        ["an existing folder (baseline)", "report.md"],
        ["a folder that does not exist", path.join("nodir", "x.md")],
        ["two levels that do not exist", path.join("reports", "prod", "x.md")],
    ])("%s: written, the verdicts as without --report", async (_label, rel) => {
        const report = path.join(dir, rel);
        const run = await perfguard(["check", record, "--report", report]);
        expect(run.code, run.stderr).toBe(1);
        expect(run.stdout).toContain(`Report written to ${report}.`);
        const md = fs.readFileSync(report, "utf8");
        expect(md).toMatch(/^# perfguard check: ❌ mandatory violations\n/);
        expect(md).toContain("- **citrix-zone-rtt-limit** on `citrix:index:Zone` `far-zone`");
    }, 120_000);

    it("a folder that cannot be created (a file in the way): exit 2, nothing judged", async () => {
        const report = path.join(dir, "a-file", "x.md");
        const run = await perfguard(["check", record, "--report", report]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`cannot write report ${report}: folder ${path.join(dir, "a-file")} cannot be created or is not writable`);
        expect(run.stdout).toBe("");
    }, 120_000);
});
