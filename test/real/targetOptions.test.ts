/**
 * --target, --target-dependents, --exclude, --exclude-dependents and --replace (issue 33, pulumi#3370):
 * the real CLI accepts each on a fresh stack, and the emulation accepts them too, names each
 * "not reproduced" and exits 1 (what the engine sends then depends on the stack's state), never
 * exit 2. The emulation's Policies: section is the CLI's for the whole program (no option).
 */
import { spawnSync } from "child_process";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { CliRun, policiesSection, realCliAvailable, realPreview, REPO_ROOT } from "../../scripts/realCli/run";

const present = realCliAvailable();
if (!present) {
    console.warn("test/real/targetOptions.test.ts skipped: no Pulumi CLI (npm run real-cli:setup)");
}

const PROGRAM = path.join(REPO_ROOT, "test", "fixtures", "programs", "stack-config");
const ZONE = "urn:pulumi:dev::stack-config::citrix:index/zone:Zone::latam-zone";
const OPTIONS: Array<[string, string[]]> = [
    ["--target", ["--target", ZONE]],
    ["--target-dependents", ["--target", ZONE, "--target-dependents"]],
    ["--exclude", ["--exclude", ZONE]],
    ["--exclude-dependents", ["--exclude", ZONE, "--exclude-dependents"]],
    ["--replace", ["--replace", ZONE]],
];

function emulated(args: string[]): CliRun {
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist", "preview", "main.js"), PROGRAM, "--policy-pack", REPO_ROOT, ...args], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", PULUMI_BACKEND_URL: "" },
        timeout: 300_000,
    });
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

describe.skipIf(!present)("the targeting options", () => {
    const real = new Map<string, CliRun>();
    let whole: CliRun;
    beforeAll(async () => {
        whole = await realPreview(PROGRAM);
        for (const [name, args] of OPTIONS) {
            real.set(name, await realPreview(PROGRAM, { cliArgs: args }));
        }
    }, 1_800_000);

    it.each(OPTIONS.map(([name]) => name))("the real CLI accepts %s (no flag error)", (name) => {
        const run = real.get(name) as CliRun;
        expect(run.stderr).not.toMatch(/unknown flag|unknown shorthand/);
        expect(run.exitCode, run.stdout + run.stderr).not.toBe(2);
    });

    it("the emulation accepts all of them, names each not reproduced, exit 1, the whole program's Policies: section", () => {
        const run = emulated(OPTIONS.flatMap(([, args]) => args));
        expect(run.exitCode, run.stderr).toBe(1);
        for (const [name] of OPTIONS) {
            expect(run.stderr).toContain(`not reproduced by the emulation: ${name} `);
        }
        expect(policiesSection(run.stdout)).toBe(policiesSection(whole.stdout));
    });
});
