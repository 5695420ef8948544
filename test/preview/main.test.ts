// The CLI entry: argv parsing and exit codes (run through ts-node, no build needed).
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { program, SAMPLE_PACK, SAMPLE_PROGRAM, THROWING_PROGRAM } from "./fixtures";

const ROOT = path.resolve(__dirname, "..", "..");

/** A Pulumi YAML program (a zone in Pulumi.yaml) in a fresh temp folder. */
function yamlProgram(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-yaml-"));
    fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        "name: site\nruntime: yaml\nresources:\n  zone:\n    type: citrix:Zone\n    properties:\n      name: far\n",
    );
    return dir;
}

function cli(args: string[]) {
    return spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(ROOT, "preview", "main.ts"), ...args], {
        cwd: ROOT,
        encoding: "utf8",
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
        [
            "a program directory that does not exist",
            [path.join(ROOT, "no-such-program"), "--policy-pack", SAMPLE_PACK],
            `error: program directory ${path.join(ROOT, "no-such-program")} does not exist\n`,
        ],
        [
            "a policy pack directory that does not exist",
            [SAMPLE_PROGRAM, "--policy-pack", path.join(ROOT, "no-such-pack")],
            `error: policy pack directory ${path.join(ROOT, "no-such-pack")} does not exist\n`,
        ],
    ])("refuses %s with one line and exit 1 (as the CLI)", (_label, args, line) => {
        const run = cli(args);
        expect(run.status).toBe(1);
        expect(run.stderr).toBe(line);
        expect(run.stdout).toBe("");
    });

    it.each([
        ["a YAML program", () => yamlProgram(), "yaml"],
        ["a Python program", () => program("python-runtime"), "python"],
        ["a Go program (the bundled Go twin)", () => path.join(ROOT, "examples", "citrix-delivery-groups-go"), "go"],
    ])("refuses %s with one line naming preview:real and exit 2 (a refusal, never a pass)", (_label, dir, runtime) => {
        const programDir = dir();
        const run = cli([programDir, "--policy-pack", SAMPLE_PACK]);
        expect(run.status).toBe(2);
        expect(run.stderr).toBe(
            "error: perfguard's emulation runs TypeScript and JavaScript programs only (runtime: nodejs); " +
                `${path.join(programDir, "Pulumi.yaml")} says runtime: ${runtime}: run npm run preview:real -- ${programDir} for the Pulumi CLI's verdicts\n`,
        );
        expect(run.stdout).toBe("");
    });

    it.each([
        [
            "more configs than packs",
            ["--policy-pack", SAMPLE_PACK, "--policy-pack-config", "a.json", "--policy-pack-config", "b.json"],
            'error: the number of "--policy-pack-config" flags must match the number of "--policy-pack" flags\n',
        ],
        [
            "two configs for the default pack",
            ["--policy-pack-config", "a.json", "--policy-pack-config", "b.json"],
            'error: the number of "--policy-pack-config" flags must match the number of "--policy-pack" flags\n',
        ],
    ])("refuses %s as the CLI words it, exit 2", (_label, args, line) => {
        const run = cli([SAMPLE_PROGRAM, ...args]);
        expect(run.status).toBe(2);
        expect(run.stderr).toBe(line);
    });

    it("refuses a --stack-reference without <name>=<file>, exit 2", () => {
        const run = cli([SAMPLE_PROGRAM, "--policy-pack", SAMPLE_PACK, "--stack-reference", "organization/net/prod"]);
        expect(run.status).toBe(2);
        expect(run.stderr).toContain("--stack-reference organization/net/prod: expected <stack name>=<export file>");
    });

    it("runs Pulumi.yaml's main: and the directory rather than a file beside it", () => {
        const main = cli([program("main-file"), "--policy-pack", SAMPLE_PACK]);
        expect(main.status).toBe(0);
        expect(main.stdout).toContain("(citrix:index:Zone: zone-from-main)");
        const sibling = cli([program("sibling"), "--policy-pack", SAMPLE_PACK]);
        expect(sibling.status).toBe(0);
        expect(sibling.stdout).toContain("(citrix:index:Zone: zone-from-directory)");
    }, 180_000); // two previews through ts-node: sized for a loaded machine

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
