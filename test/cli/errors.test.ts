/**
 * Every error path of `perfguard` through the built binary: exit 2, nothing on stdout, and a
 * message on stderr that names the problem (and the path, for files).
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { perfguard, tempDir, writeExport } from "./cliHarness";

const dir = tempDir();

async function fails(args: string[], ...expected: Array<string | RegExp>): Promise<void> {
    const run = await perfguard(args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe("");
    for (const e of expected) {
        expect(run.stderr).toMatch(typeof e === "string" ? new RegExp(e.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : e);
    }
}

describe("bad arguments exit 2 with a clear message", () => {
    it("no command", () => fails([], "Usage: perfguard"));
    it("unknown command", () => fails(["sise"], "unknown command 'sise'", "Did you mean size?"));
    it("unknown size target", () => fails(["size", "vmware", "--json"], "unknown command 'vmware'"));
    it("unknown option", () => fails(["size", "citrix", "--rtt-ms", "160", "--rtt", "3"], "unknown option '--rtt'"));
    it("missing required option", () => fails(["size", "citrix"], "required option '--rtt-ms <ms>' not specified"));
    it("a value that is not a number", () =>
        fails(["size", "citrix", "--rtt-ms", "abc"], "option '--rtt-ms <ms>' argument 'abc' is invalid", "a plain decimal of ms from 0 to 10000"));
    it("a negative value", () => fails(["size", "citrix", "--rtt-ms", "-5"], "argument '-5' is invalid"));
    it("a value with a unit", () => fails(["size", "citrix", "--rtt-ms", "160ms"], "argument '160ms' is invalid"));
    it("an exponent", () => fails(["size", "nsx-alb", "--l7-rps", "1e5"], "argument '1e5' is invalid"));
    it("a fractional count", () => fails(["size", "citrix", "--rtt-ms", "160", "--controllers", "1.5"], "a whole number of controllers"));
    it("a zero target", () => fails(["size", "citrix", "--rtt-ms", "160", "--target-response-s", "0"], "above 0"));
    it("an empty table range", () => fails(["size", "citrix", "--rtt-ms", "160", "--from", "40", "--to", "20"], "--to 20 is below --from 40"));
    it("no demand for nsx-alb", () => fails(["size", "nsx-alb", "--json"], "give at least one demand"));
    it("an unknown HA mode", () => fails(["size", "nsx-alb", "--l7-rps", "1000", "--ha-mode", "pair"], "expected one of shared, shared-pair, active-standby"));
    it("scale-out in legacy active/standby", () =>
        fails(["size", "nsx-alb", "--l7-rps", "1000", "--ha-mode", "active-standby", "--scale-out", "2"], "legacy active/standby has no scale-out"));
    it("a zero link", () => fails(["size", "xen", "--link-mb-per-s", "0", "--guests", "2"], "above 0"));
    it("zero guests", () => fails(["size", "xen", "--link-mb-per-s", "117", "--guests", "0"], "a whole number of guests from 1"));
    it("a plot in a folder that cannot be created (a missing one is created: checkReportFolder.test.ts)", () => {
        fs.writeFileSync(path.join(dir, "plot-file"), "");
        return fails(
            ["size", "citrix", "--rtt-ms", "160", "--plot", path.join(dir, "plot-file", "p.svg")],
            "cannot write plot",
            `${path.join(dir, "plot-file")} is a file, not a folder`,
        );
    });
    it("check without a file", () => fails(["check"], "missing required argument 'file'"));
    it("extra arguments", () => fails(["size", "xen", "--link-mb-per-s", "117", "--guests", "2", "extra"], "too many arguments"));
});

describe("missing or malformed files exit 2 naming the problem and the path", () => {
    it("a missing stack export", () => {
        const file = path.join(dir, "missing.json");
        return fails(["check", file], `cannot read stack export ${file}: no such file`);
    });
    // A folder is a fleet of exports (docs/shared-capacity.md): one without any is an error.
    it("a folder without a stack export", () => {
        const empty = fs.mkdtempSync(path.join(dir, "no-exports-"));
        fs.writeFileSync(path.join(empty, "notes.txt"), "not an export");
        return fails(["check", empty], `no stack export in ${empty}`);
    });
    it("malformed JSON", () => {
        const file = path.join(dir, "broken.json");
        fs.writeFileSync(file, '{ "version": 3, "deployment": ');
        return fails(["check", file], `stack export ${file} is not valid JSON`);
    });
    it("JSON that is not a stack export", () => {
        const file = path.join(dir, "package.json");
        fs.writeFileSync(file, JSON.stringify({ name: "x", version: "1.0.0" }));
        return fails(["check", file, "--json"], `${file} is not a stack export: no deployment.resources list`, "pulumi stack export");
    });
    it("a top level that is not an object", () => {
        const file = path.join(dir, "list.json");
        fs.writeFileSync(file, "[1, 2]");
        return fails(["check", file], `${file} is not a stack export: the top level is not a JSON object`);
    });
    it("a resource without a URN", () => {
        const file = path.join(dir, "nourn.json");
        fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { resources: [{ type: "x:y:Z" }] } }));
        return fails(["check", file], `${file} is not a stack export: deployment.resources[0] has no string "urn" and "type"`);
    });
    it("an empty stack (never deployed) is checked and passes", async () => {
        const file = path.join(dir, "empty.json");
        fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: {} } }));
        const run = await perfguard(["check", file]);
        expect(run.code).toBe(0);
        expect(run.stdout).toContain("0 resources");
    });
    it("malformed JSON is named without quoting the file", async () => {
        const file = path.join(dir, "secretish.json");
        fs.writeFileSync(file, "root:*:20201:0:99999:7:::\n");
        const run = await perfguard(["check", file]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`stack export ${file} is not valid JSON (syntax error`);
        expect(run.stderr).not.toContain("root:");
    });
    it("an unsupported version", () => {
        const file = path.join(dir, "v9.json");
        fs.writeFileSync(file, JSON.stringify({ version: 9, deployment: { resources: [] } }));
        return fails(["check", file], "unsupported stack export version 9");
    });
    it("a missing policy config file", async () => {
        const file = writeExport(path.join(dir, "ok.json"), [{ type: "citrix:index/zone:Zone", name: "z", inputs: { name: "z" } }]);
        const config = path.join(dir, "nope-config.json");
        return fails(["check", file, "--policy-pack-config", config], `cannot read policy pack config ${config}`);
    });
    it("a policy config that breaks a schema", async () => {
        const file = writeExport(path.join(dir, "ok2.json"), [{ type: "citrix:index/zone:Zone", name: "z", inputs: { name: "z" } }]);
        const config = path.join(dir, "bad-config.json");
        fs.writeFileSync(config, JSON.stringify({ "citrix-zone-rtt-limit": { maxRttMs: "far" } }));
        return fails(["check", file, "--policy-pack-config", config], "citrix-zone-rtt-limit: maxRttMs: Invalid type. Expected: number, given: string");
    });
    it("a report in a folder that cannot be created (a missing one is created: checkReportFolder.test.ts)", async () => {
        const file = writeExport(path.join(dir, "ok3.json"), [{ type: "citrix:index/zone:Zone", name: "z", inputs: { name: "z" } }]);
        fs.writeFileSync(path.join(dir, "not-a-folder"), "");
        const report = path.join(dir, "not-a-folder", "r.md");
        return fails(
            ["check", file, "--report", report],
            `cannot write report ${report}: folder ${path.join(dir, "not-a-folder")} cannot be created or is not writable`,
        );
    });
});

describe("an --output file that cannot be written exits 2 naming it (never an internal error, never a hang)", () => {
    const exportFile = path.resolve(__dirname, "..", "fixtures", "inventory", "team-b.json");
    it.each([
        ["a folder that cannot be made under /proc", "/proc/perfguard-nope/x.sarif", "ENOENT: mkdir /proc/perfguard-nope"],
        ["a file where its folder should be", path.join(dir, "output-file-in-the-way", "x.sarif"), "is a file, not a folder"],
    ])("%s", async (_label, file, reason) => {
        fs.writeFileSync(path.join(dir, "output-file-in-the-way"), "");
        const run = await perfguard(["check", exportFile, "--output", `sarif=${file}`]);
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toContain(`--output sarif=${file}: cannot make its folder: `);
        expect(run.stderr).toContain(reason);
        expect(run.stderr).not.toContain("internal error");
    });
});
