/**
 * The real Pulumi CLI as the arbiter (`npm run real-cli:setup && npm run test:real`): every
 * program of the one fixture list below is previewed by the real CLI with this pack and by the
 * emulation (`node dist/preview/main.js`), and
 * 1. the real CLI's verdicts (policy, level, resource) and exit code equal the program's
 *    expected-violations.json, or its expected exit code;
 * 2. the emulation gives the same verdict set and exit code;
 * 3. the emulation's `Policies:` section is byte-equal to the real CLI's;
 * and every config-error case exits as the real CLI does with the same `validating policy config`
 * lines. A difference fails with both outputs side by side.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { listedViolations, policiesSection, realCliAvailable, realCliBinDir, realPreview, REPO_ROOT } from "../../scripts/realCli/run";

interface Expected {
    policy: string;
    resource: string | null;
    level: "advisory" | "mandatory";
}

/** One program the CLI and the emulation both run. */
interface Case {
    readonly name: string;
    readonly dir: string;
    readonly config?: string;
    /** Verdicts from expected-violations.json, when the program has one. */
    readonly expected?: Expected[];
    /** Exit code the program must give (from expected-violations.json: 1 with a mandatory verdict). */
    readonly exitCode: number;
}

const EXAMPLES = path.join(REPO_ROOT, "examples");
const FIXTURES = path.join(REPO_ROOT, "test", "fixtures", "programs");

/** Fixture programs and the exit code each must give; runtimes the CLI cannot start here are left out. */
const FIXTURE_EXIT: Record<string, number> = {
    "logs-error": 0, // the CLI prints the logged error and exits 0
    "rejects-input": 1,
    throws: 1,
    "uncaught-exception": 1,
    "unhandled-rejection": 1,
    "main-dir": 0,
    "main-file": 0,
    "package-main": 0,
    sibling: 0,
    sample: 0,
    "remediate-secret": 0, // remediates; the real CLI lists the [remediate] entry
    "secret-facts": 1, // the preview decrypts the secret facts
    xen: 0,
    transforms: 1, // stack and resource transforms add the facts
    "rename-alias": 1, // not renamed by default; the rename is test/real/emulation.test.ts
    "stack-reference-network": 0,
    "type-error": 1, // the Node.js host type-checks the program: the preview fails before any resource
    "stack-config": 0, // the program's default 160 ms on stack dev; --stack prod is test/real/stackConfig.test.ts
    "uneven-catalogs": 0, // 900 VDAs at 2 ms; the other stacks are test/real/unevenCatalogs.test.ts
};
/** Left out, with the reason (listed in the README's real-CLI section). */
export const LEFT_OUT: Record<string, string> = {
    "python-runtime": "a Python program: the machine has no Python language host for the CLI",
    "stack-reference-site": "reads another stack: test/real/emulation.test.ts deploys stack-reference-network first",
    "stack-config-yaml": "a YAML program (the emulation refuses it): test/real/stackConfig.test.ts compares it with its TypeScript twin",
};

function readExpected(dir: string): Expected[] | undefined {
    const file = path.join(dir, "expected-violations.json");
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Expected[]) : undefined;
}

function cases(): Case[] {
    const out: Case[] = [];
    for (const name of fs.readdirSync(EXAMPLES).sort()) {
        const dir = path.join(EXAMPLES, name);
        const expected = readExpected(dir);
        if (!expected) {
            continue;
        }
        const config = path.join(dir, "policy-config.json");
        out.push({
            name: `examples/${name}`,
            dir,
            config: fs.existsSync(config) ? config : undefined,
            expected,
            exitCode: expected.some((e) => e.level === "mandatory") ? 1 : 0,
        });
    }
    for (const name of fs.readdirSync(FIXTURES).sort()) {
        const dir = path.join(FIXTURES, name);
        if (!fs.statSync(dir).isDirectory() || name in LEFT_OUT) {
            continue;
        }
        if (!(name in FIXTURE_EXIT)) {
            throw new Error(`fixture program ${name} has no expected exit code in test/real/cli.test.ts`);
        }
        const expected = readExpected(dir);
        const config = path.join(dir, "policy-config.json");
        out.push({ name: `fixtures/${name}`, dir, config: fs.existsSync(config) ? config : undefined, expected, exitCode: FIXTURE_EXIT[name] });
    }
    return out;
}

const CASES = cases();

interface Run {
    readonly stdout: string;
    readonly stderr: string;
    readonly exitCode: number;
}

function emulated(dir: string, config?: string): Run {
    const args = [path.join(REPO_ROOT, "dist", "preview", "main.js"), dir, "--policy-pack", REPO_ROOT];
    if (config) {
        args.push("--policy-pack-config", config);
    }
    const run = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

function key(v: { policy: string; resource: string | null | undefined; level: string }): string {
    return `${v.level} ${v.policy} -> ${v.resource ?? "(stack)"}`;
}

/** The verdicts a Policies section lists; the root stack's counts as "(stack)". */
function verdictsOf(output: string): string[] {
    return listedViolations(policiesSection(output))
        .map((v) => key({ policy: v.policy, level: v.level, resource: v.type === "pulumi:pulumi:Stack" ? null : v.name }))
        .sort();
}

function sideBySide(real: Run, emu: Run): string {
    return `\n--- real CLI (exit ${real.exitCode}) ---\n${real.stdout}${real.stderr}\n--- emulation (exit ${emu.exitCode}) ---\n${emu.stdout}${emu.stderr}`;
}

describe("the real CLI is built", () => {
    it(`has pulumi and pulumi-language-nodejs in ${realCliBinDir()}`, () => {
        // test:real must never pass by running nothing: without the CLI this fails.
        expect(realCliAvailable(), "run npm run real-cli:setup (needs Go)").toBe(true);
        expect(fs.existsSync(path.join(REPO_ROOT, "dist", "index.js")), "run npm run build").toBe(true);
    });
});

describe.each(CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    let real: Run;
    let emu: Run;
    beforeAll(async () => {
        real = await realPreview(c.dir, { policyPackConfig: c.config });
        emu = emulated(c.dir, c.config);
    });

    it("1. the real CLI gives the expected verdicts and exit code", () => {
        expect(real.exitCode, sideBySide(real, emu)).toBe(c.exitCode);
        if (c.expected) {
            expect(verdictsOf(real.stdout), sideBySide(real, emu)).toEqual(c.expected.map((e) => key(e)).sort());
        }
    });

    it("2. the emulation gives the real CLI's verdicts and exit code", () => {
        expect(emu.exitCode, sideBySide(real, emu)).toBe(real.exitCode);
        expect(verdictsOf(emu.stdout), sideBySide(real, emu)).toEqual(verdictsOf(real.stdout));
    });

    it("3. the emulation's Policies section is byte-equal to the real CLI's", () => {
        expect(policiesSection(emu.stdout), sideBySide(real, emu)).toBe(policiesSection(real.stdout));
    });
});

/** Config files whose errors the CLI reports before the program runs. */
const CONFIG_ERRORS: Array<[string, unknown]> = [
    ["a value below an exclusive minimum", { "citrix-zone-rtt-limit": { maxRttMs: -5 } }],
    [
        "a string for a number, a fraction for an integer, nested",
        { "citrix-site-limits": { maxZonesPerSite: 1.5 }, "xen-guest-network-share": { hosts: { h1: { linkMBps: "x" } }, defaultLinkMBps: true } },
    ],
    ["a word outside an enum", { "citrix-zone-rtt-limit": { unverified: "blocking" } }],
    [
        "a Xen host's bond: too few members, a mode outside the enum, no members",
        { "xen-guest-network-share": { hosts: { h1: { linkMBps: 2222, bond: { members: 1, mode: "balance-tcp" } }, h2: { bond: {} } } } },
    ],
    ["an invalid enforcement level", { "nsx-alb-se-capacity": "loud" }],
    ["a policy object without a level for an unknown policy", { "nsx-alb-se-capacty": { headroomPct: 10 } }],
];

function configLines(run: Run): string[] {
    const text = run.stdout + run.stderr;
    return [
        ...new Set(
            text
                .split("\n")
                .map((l) => l.replace(/^.*?(validating policy config: )/, "$1").trim())
                .filter((l) => l.startsWith("validating policy config: ")),
        ),
    ].sort();
}

describe.each(CONFIG_ERRORS)("config error: %s", (_label, config) => {
    let real: Run;
    let emu: Run;
    beforeAll(async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-real-config-"));
        const file = path.join(dir, "config.json");
        fs.writeFileSync(file, JSON.stringify(config));
        const program = path.join(EXAMPLES, "xen-guest-layout");
        real = await realPreview(program, { policyPackConfig: file });
        emu = emulated(program, file);
        fs.rmSync(dir, { recursive: true, force: true });
    });

    it("exits as the real CLI does, with the same validation lines", () => {
        expect(real.exitCode).not.toBe(0);
        expect(emu.exitCode, sideBySide(real, emu)).toBe(real.exitCode);
        expect(configLines(emu), sideBySide(real, emu)).toEqual(configLines(real));
    });
});
