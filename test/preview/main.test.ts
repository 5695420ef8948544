// The CLI entry: argv parsing and exit codes (run through ts-node, no build needed).
import { spawnSync } from "child_process";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { program, SAMPLE_PACK, SAMPLE_PROGRAM, THROWING_PROGRAM } from "./fixtures";

const ROOT = path.resolve(__dirname, "..", "..");

function cli(args: string[]) {
    return spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(ROOT, "preview", "main.ts"), ...args], {
        cwd: ROOT, encoding: "utf8",
    });
}

describe("preview/main", () => {
    it("prints violations and exits 1 on a mandatory one", () => {
        const run = cli([SAMPLE_PROGRAM, "--policy-pack", SAMPLE_PACK]);
        expect(run.status).toBe(1);
        expect(run.stdout).toContain("[mandatory]  catalog-zone-rtt  (citrix:index:MachineCatalog: catalog-east)");
    });

    it("exits non-zero with the program dir named when the program throws", () => {
        const run = cli([THROWING_PROGRAM, "--policy-pack", SAMPLE_PACK]);
        expect(run.status).toBe(1);
        expect(run.stderr).toContain(`error: program ${THROWING_PROGRAM} failed`);
    });

    it("fails, exit 1, when a resource input is a rejected promise: the verdicts so far on stdout, no stack trace", () => {
        const dir = program("rejects-input");
        const run = cli([dir, "--policy-pack", SAMPLE_PACK]);
        expect(run.status).toBe(1);
        expect(run.stderr).toContain(`error: program ${dir} failed:\n`);
        expect(run.stderr).toContain("async boom");
        expect(run.stderr).not.toMatch(/^\s+at /m);
        // As the CLI: the resources registered before the failure are analyzed and the Policies
        // section printed (test/real compares it with the real CLI's).
        expect(run.stdout).toMatch(/^Policies:\n {4}\S+ sample-pack@v/);
        expect(run.stdout).not.toContain("Resources:");
    });

    it.each([
        ["a program directory that does not exist", [path.join(ROOT, "no-such-program"), "--policy-pack", SAMPLE_PACK],
            `error: program directory ${path.join(ROOT, "no-such-program")} does not exist\n`],
        ["a Python program", [program("python-runtime"), "--policy-pack", SAMPLE_PACK],
            "error: perfguard's preview path runs Node.js (TypeScript/JavaScript) programs; " +
            `${path.join(program("python-runtime"), "Pulumi.yaml")} says runtime: python\n`],
        ["a policy pack directory that does not exist", [SAMPLE_PROGRAM, "--policy-pack", path.join(ROOT, "no-such-pack")],
            `error: policy pack directory ${path.join(ROOT, "no-such-pack")} does not exist\n`],
    ])("refuses %s with one line and exit 1 (as the CLI)", (_label, args, line) => {
        const run = cli(args);
        expect(run.status).toBe(1);
        expect(run.stderr).toBe(line);
        expect(run.stdout).toBe("");
    });

    it("runs Pulumi.yaml's main: and the directory rather than a file beside it", () => {
        const main = cli([program("main-file"), "--policy-pack", SAMPLE_PACK]);
        expect(main.status).toBe(0);
        expect(main.stdout).toContain("(citrix:index:Zone: zone-from-main)");
        const sibling = cli([program("sibling"), "--policy-pack", SAMPLE_PACK]);
        expect(sibling.status).toBe(0);
        expect(sibling.stdout).toContain("(citrix:index:Zone: zone-from-directory)");
    });

    it("documents PERFGUARD_DEBUG in --help", () => {
        const run = cli(["--help"]);
        expect(run.status).toBe(0);
        expect(run.stdout).toContain("PERFGUARD_DEBUG=1");
    });

    it("rejects unknown flags with usage and exit 2", () => {
        const run = cli([SAMPLE_PROGRAM, "--bogus"]);
        expect(run.status).toBe(2);
        expect(run.stderr).toContain("usage: npm run preview");
    });
});
