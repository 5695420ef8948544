/**
 * A --policy-pack-config key that names no policy, under the real CLI and the emulation:
 * - with a string level the CLI validates nothing and sends the key to the pack's Configure; the
 *   pack reports it (perfguard-facts, mandatory, on the root stack), so the preview exits 1 and the
 *   emulation's Policies section is byte-equal to the CLI's;
 * - as an object without a level the CLI fails in Configure with `invalid enforcement level ""`;
 *   the emulation prints that line exactly, then its own line marked `perfguard: `.
 * `perfguard config check` exits 1 on both files.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { policiesSection, realPreview, REPO_ROOT } from "../../scripts/realCli/run";

interface Run {
    readonly stdout: string;
    readonly stderr: string;
    readonly exitCode: number;
}

const PROGRAM = path.join(REPO_ROOT, "examples", "xen-guest-layout");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-real-names-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function node(args: string[]): Run {
    const run = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

function emulated(config: string): Run {
    return node([path.join(REPO_ROOT, "dist", "preview", "main.js"), PROGRAM, "--policy-pack", REPO_ROOT, "--policy-pack-config", config]);
}

function write(name: string, config: unknown): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, JSON.stringify(config));
    return file;
}

function sideBySide(real: Run, emu: Run): string {
    return `\n--- real CLI (exit ${real.exitCode}) ---\n${real.stdout}${real.stderr}\n--- emulation (exit ${emu.exitCode}) ---\n${emu.stdout}${emu.stderr}`;
}

describe("a misspelt policy name with a string level", () => {
    let real: Run;
    let emu: Run;
    let file: string;
    beforeAll(async () => {
        file = write("string.json", { "xen-dom0-workoad": "mandatory" });
        real = await realPreview(PROGRAM, { policyPackConfig: file });
        emu = emulated(file);
    });

    it("fails the real preview with the pack's mandatory verdict, and the emulation's is byte-equal", () => {
        const section = policiesSection(real.stdout);
        expect(real.exitCode, sideBySide(real, emu)).toBe(1);
        expect(section).toContain("- [mandatory]  perfguard-facts  (pulumi:pulumi:Stack: xen-guest-layout-dev)");
        expect(section).toContain('policy pack config names "xen-dom0-workoad", not a policy of perfguard: ignored');
        expect(section).toContain('Fix: rename "xen-dom0-workoad" to "xen-dom0-workload"');
        expect(emu.exitCode, sideBySide(real, emu)).toBe(1);
        expect(policiesSection(emu.stdout), sideBySide(real, emu)).toBe(section);
    });

    it("fails perfguard config check", () => {
        const run = node([path.join(REPO_ROOT, "dist", "cli", "main.js"), "config", "check", file]);
        expect(run.exitCode).toBe(1);
        expect(run.stdout).toContain('error: xen-dom0-workoad: "xen-dom0-workoad" is not a policy of perfguard 0.1.0: did you mean "xen-dom0-workload"?');
    });
});

describe("a misspelt policy name as an object without a level", () => {
    let real: Run;
    let emu: Run;
    let file: string;
    beforeAll(async () => {
        file = write("object.json", { "xen-dom0-workoad": { dom0Share: 0.4 } });
        real = await realPreview(PROGRAM, { policyPackConfig: file });
        emu = emulated(file);
    });

    it("the emulation prints the CLI's error line exactly, then perfguard's own line", () => {
        const cliLine = (real.stdout + real.stderr).split("\n").find((l) => l.includes("invalid enforcement level"));
        expect(cliLine, sideBySide(real, emu)).toBe(`error: configuring policy pack "perfguard" at ${JSON.stringify(REPO_ROOT)}: invalid enforcement level ""`);
        expect(real.exitCode).toBe(1);
        expect(emu.exitCode, sideBySide(real, emu)).toBe(1);
        expect(emu.stderr.split("\n").slice(0, 2)).toEqual([
            cliLine,
            'perfguard: "xen-dom0-workoad" has no enforcementLevel and is not a policy of perfguard: did you mean "xen-dom0-workload"?',
        ]);
    });

    it("fails perfguard config check", () => {
        const run = node([path.join(REPO_ROOT, "dist", "cli", "main.js"), "config", "check", file]);
        expect(run.exitCode).toBe(1);
        expect(run.stdout).toContain('error: xen-dom0-workoad: invalid enforcement level ""');
    });
});

/**
 * A misspelt level, and the level written under "level": what the real CLI does with each file, and
 * that `perfguard config check` says it (the CLI's words first, then perfguard's: "did you mean",
 * and whether the file is rejected or the level silently stays).
 */
describe.each([
    [
        "a misspelt string level",
        { "citrix-zone-rtt-limit": "mandatroy" },
        'error: parsing enforcement level for "citrix-zone-rtt-limit": "mandatroy" is not a valid enforcement level',
        'did you mean "mandatory"? (the Pulumi CLI rejects the file: the preview fails before any policy runs)',
    ],
    [
        "a misspelt level of all",
        { all: "advisry" },
        'error: parsing enforcement level for "all": "advisry" is not a valid enforcement level',
        'did you mean "advisory"? (the Pulumi CLI rejects the file',
    ],
    [
        "a misspelt level with settings",
        { "citrix-zone-rtt-limit": { enforcementLevel: "mandatroy", maxRttMs: 200 } },
        'error: parsing enforcement level for "citrix-zone-rtt-limit": "mandatroy" is not a valid enforcement level',
        "settings (maxRttMs) apply nowhere)",
    ],
    [
        'a misspelt name with the level under "level"',
        { "citrix-zone-rtt-limt": { level: "mandatroy", maxRttMs: 200 } },
        'invalid enforcement level ""',
        'A level goes in "enforcementLevel", not "level". (the Pulumi CLI rejects the file',
    ],
] as const)("%s", (_label, config, cliLine, checkSays) => {
    let real: Run;
    let file: string;
    beforeAll(async () => {
        file = write(`level-${Math.random().toString(36).slice(2)}.json`, config);
        real = await realPreview(path.join(REPO_ROOT, "examples", "citrix-satellite-zones"), { policyPackConfig: file });
    });

    it("the real CLI rejects the file before any policy runs", () => {
        expect(real.exitCode).toBe(1);
        expect(real.stdout + real.stderr).toContain(cliLine);
        expect(real.stdout).not.toContain("Policies:");
    });

    it("perfguard config check exits 1 with the CLI's words and says so", () => {
        const run = node([path.join(REPO_ROOT, "dist", "cli", "main.js"), "config", "check", file]);
        expect(run.exitCode).toBe(1);
        expect(run.stdout).toContain(checkSays);
        expect(run.stdout).toContain(cliLine.replace(/^error: /, "").replace(/^configuring.*: /, ""));
    });
});

describe('the level under "level" of a policy', () => {
    let real: Run;
    let file: string;
    beforeAll(async () => {
        file = write("level-key.json", { "citrix-zone-rtt-limit": { level: "advisory", maxRttMs: 200 } });
        real = await realPreview(path.join(REPO_ROOT, "examples", "citrix-satellite-zones"), { policyPackConfig: file });
    });

    it("the real CLI accepts the file: maxRttMs applies, the level stays mandatory", () => {
        expect(real.exitCode).toBe(1);
        expect(real.stdout).toContain("- [mandatory]  citrix-zone-rtt-limit");
        expect(real.stdout).toContain("maxRttMs 200 ms, set in the policy config");
    });

    it("perfguard config check says the level is not set", () => {
        const run = node([path.join(REPO_ROOT, "dist", "cli", "main.js"), "config", "check", file]);
        expect(run.exitCode).toBe(1);
        expect(run.stdout).toContain(
            'error: citrix-zone-rtt-limit: unknown config key "level": did you mean "enforcementLevel"? ' +
                "(accepted keys are maxRttMs, unverified, plus enforcementLevel; the Pulumi CLI sends it on as a setting, so citrix-zone-rtt-limit keeps its level, mandatory)",
        );
    });
});
