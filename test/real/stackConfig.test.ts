/**
 * Stack config under the REAL Pulumi CLI and the emulation, on the same inputs (issue 33):
 * preview:real used to stage the program without its Pulumi.<stack>.yaml, so a zone whose RTT
 * comes from Pulumi.prod.yaml (280 ms; the program's default 160 ms) passed under the real CLI
 * and was blocked by the emulation. Now both read the stack file: the TypeScript program and its
 * YAML twin (test/fixtures/programs/stack-config{,-yaml}) are blocked at 280 ms under --stack prod,
 * and pass at the default without it; the emulation prints the real CLI's Policies: section. A
 * passphrase secret is carried with the passphrase the user gives, and named "not reproduced"
 * (exit 1) without it.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
    CliRun,
    createWorkspace,
    listedViolations,
    policiesSection,
    realCliAvailable,
    realCliBinDir,
    realPreview,
    REPO_ROOT,
    Workspace,
} from "../../scripts/realCli/run";

const present = realCliAvailable();
const yamlPresent = present && fs.existsSync(path.join(realCliBinDir(), "pulumi-language-yaml"));
if (!present) {
    console.warn("test/real/stackConfig.test.ts skipped: no Pulumi CLI (npm run real-cli:setup)");
}

const FIXTURES = path.join(REPO_ROOT, "test", "fixtures", "programs");
const TS = path.join(FIXTURES, "stack-config");
const YAML = path.join(FIXTURES, "stack-config-yaml");

function verdictsOf(run: CliRun): string[] {
    return listedViolations(policiesSection(run.stdout))
        .map((v) => `${v.level} ${v.policy} -> ${v.type === "pulumi:pulumi:Stack" ? "(stack)" : v.name}`)
        .sort();
}

function emulated(dir: string, args: string[]): CliRun {
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist", "preview", "main.js"), dir, "--policy-pack", REPO_ROOT, ...args], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", PULUMI_BACKEND_URL: "" },
        timeout: 300_000,
    });
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

function sideBySide(real: CliRun, emu: CliRun): string {
    return `\n--- real CLI (exit ${real.exitCode}) ---\n${real.stdout}${real.stderr}\n--- emulation (exit ${emu.exitCode}) ---\n${emu.stdout}${emu.stderr}`;
}

/** The root stack resource's name (project-stack) made the same for the twins. */
function stackNeutral(section: string): string {
    return section.replace(/\(pulumi:pulumi:Stack: [^)]+\)/g, "(pulumi:pulumi:Stack: <project>-<stack>)");
}

const BLOCKED = "mandatory citrix-zone-rtt-limit -> latam-zone";

describe.skipIf(!present)("a TypeScript program whose zone RTT is stack config", () => {
    const runs: Record<string, { real: CliRun; emu: CliRun }> = {};
    beforeAll(async () => {
        runs.prod = { real: await realPreview(TS, { stack: "prod" }), emu: emulated(TS, ["--stack", "prod"]) };
        runs.dev = { real: await realPreview(TS), emu: emulated(TS, []) };
    }, 900_000);

    it("--stack prod: both read 280 ms from Pulumi.prod.yaml and block (exit 1)", () => {
        const { real, emu } = runs.prod;
        expect(real.exitCode, sideBySide(real, emu)).toBe(1);
        expect(verdictsOf(real), sideBySide(real, emu)).toContain(BLOCKED);
        expect(emu.exitCode, sideBySide(real, emu)).toBe(1);
        expect(policiesSection(emu.stdout), sideBySide(real, emu)).toBe(policiesSection(real.stdout));
    });

    it("the default stack has no config: both judge the program's 160 ms (exit 0)", () => {
        const { real, emu } = runs.dev;
        expect(real.exitCode, sideBySide(real, emu)).toBe(0);
        expect(verdictsOf(real)).not.toContain(BLOCKED);
        expect(emu.exitCode, sideBySide(real, emu)).toBe(0);
        expect(policiesSection(emu.stdout), sideBySide(real, emu)).toBe(policiesSection(real.stdout));
    });
});

describe.skipIf(!yamlPresent)("the YAML twin reads the same stack config", () => {
    let yamlProd: CliRun;
    let tsProd: CliRun;
    let yamlDev: CliRun;
    beforeAll(async () => {
        yamlProd = await realPreview(YAML, { stack: "prod" });
        tsProd = await realPreview(TS, { stack: "prod" });
        yamlDev = await realPreview(YAML);
    }, 900_000);

    it("--stack prod: blocked at 280 ms with the TypeScript twin's Policies: section", () => {
        expect(yamlProd.exitCode, yamlProd.stdout + yamlProd.stderr).toBe(1);
        expect(yamlProd.stderr).not.toContain("not found");
        expect(stackNeutral(policiesSection(yamlProd.stdout))).toBe(stackNeutral(policiesSection(tsProd.stdout)));
    });

    it("without it: the project default of Pulumi.yaml (160 ms), exit 0", () => {
        expect(yamlDev.exitCode, yamlDev.stdout + yamlDev.stderr).toBe(0);
        expect(verdictsOf(yamlDev)).not.toContain(BLOCKED);
    });
});

describe.skipIf(!present)("a passphrase secret in the stack file", () => {
    const PASSPHRASE = "the-user-s-own-passphrase";
    let ws: Workspace;
    let program: string;
    beforeAll(async () => {
        // The user's stack: initialized with their passphrase, a secret set by the CLI itself.
        ws = createWorkspace({ PULUMI_CONFIG_PASSPHRASE: PASSPHRASE });
        program = path.join(ws.dir, "stack-config");
        fs.cpSync(TS, program, { recursive: true });
        for (const args of [
            ["stack", "init", "prod", "--non-interactive"],
            ["config", "set", "--secret", "dbPassword", "hunter2", "--stack", "prod"],
        ]) {
            const run = await ws.run(args, program);
            expect(run.exitCode, run.stdout + run.stderr).toBe(0);
        }
        const written = fs.readFileSync(path.join(program, "Pulumi.prod.yaml"), "utf8");
        expect(written).toMatch(/^encryptionsalt: /m);
        expect(written).toMatch(/^ {2}stack-config:dbPassword:\n {4}secure: /m);
    }, 300_000);
    afterAll(() => ws?.dispose());

    it("is carried and decrypted with the passphrase the user gives: the same verdicts, nothing named", async () => {
        const run = await realPreview(program, { stack: "prod", env: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE } });
        expect(run.exitCode, run.stdout + run.stderr).toBe(1);
        expect(verdictsOf(run)).toContain(BLOCKED);
        expect(run.stderr).not.toContain("not reproduced");
    }, 300_000);

    it('without the passphrase it is left out and named "not reproduced" (exit 1), the rest carried', async () => {
        const run = await realPreview(program, { stack: "prod", env: { PULUMI_CONFIG_PASSPHRASE: undefined } });
        expect(run.exitCode).toBe(1);
        expect(run.stderr).toContain("not reproduced by preview:real: the secret config stack-config:dbPassword of Pulumi.prod.yaml");
        expect(verdictsOf(run)).toContain(BLOCKED);
    }, 300_000);

    it("the emulation names the secret it cannot decrypt (exit 1) and judges the rest as the CLI", () => {
        const emu = emulated(program, ["--stack", "prod"]);
        expect(emu.exitCode).toBe(1);
        expect(emu.stderr).toContain("not reproduced by the emulation: the secret config stack-config:dbPassword of Pulumi.prod.yaml");
        expect(verdictsOf(emu)).toContain(BLOCKED);
    });
});
