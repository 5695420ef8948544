/**
 * Existing state: `perfguard check` on a stack export gives the verdicts of the CLI's own
 * `pulumi policy analyze --file` on it, for every example deployed with `pulumi up` (stand-in
 * providers), also when the export's secrets cannot be decrypted (the CLI redacts them to
 * `[secret]` and analyzes; check does the same), and `pulumi policy analyze --stack` (the CLI reads
 * the state itself: the CI recipe of docs/ci.md) gives the same verdicts.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { analyzeIn, analyzeStack, CliRun, listedViolations, policiesSection, REPO_ROOT, withDeployedStack } from "../../scripts/realCli/run";

const EXAMPLES = path.join(REPO_ROOT, "examples");
const examples = fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, "expected-violations.json"))).sort();

function verdicts(output: string): string[] {
    return listedViolations(policiesSection(output)).map((v) => `${v.level} ${v.policy} -> ${v.type === "pulumi:pulumi:Stack" ? "(stack)" : v.name}`).sort();
}

function check(exportFile: string, config?: string): CliRun {
    const args = [path.join(REPO_ROOT, "dist", "cli", "main.js"), "check", exportFile];
    if (config) {
        args.push("--policy-pack-config", config);
    }
    const run = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: "utf8" });
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

describe.each(examples)("%s, deployed and exported", (name) => {
    const dir = path.join(EXAMPLES, name);
    const configFile = path.join(dir, "policy-config.json");
    const config = fs.existsSync(configFile) ? configFile : undefined;

    it("perfguard check gives pulumi policy analyze's verdicts and exit code (--file with and without the passphrase, --stack)", async () => {
        await withDeployedStack(dir, async (stack) => {
            const { ws, exportFile, up } = stack;
            expect(up.exitCode, up.stdout + up.stderr).toBe(0);
            const real = await analyzeIn(ws, exportFile, { policyPackConfig: config });
            const mine = check(exportFile, config);
            const both = `\n--- pulumi policy analyze (exit ${real.exitCode}) ---\n${real.stdout}${real.stderr}\n--- perfguard check (exit ${mine.exitCode}) ---\n${mine.stdout}${mine.stderr}`;
            expect(verdicts(real.stdout).length, both).toBeGreaterThan(0);
            expect(verdicts(mine.stdout), both).toEqual(verdicts(real.stdout));
            expect(mine.exitCode, both).toBe(real.exitCode);
            // Secrets that cannot be decrypted: the CLI redacts them to [secret] and still analyzes.
            const redacted = await analyzeIn(ws, exportFile, { policyPackConfig: config, env: { PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase" } });
            expect(verdicts(redacted.stdout), both + redacted.stdout + redacted.stderr).toEqual(verdicts(mine.stdout));
            // The CLI on the stack itself, no export: what docs/ci.md tells CI to run.
            const onStack = await analyzeStack(stack, { policyPackConfig: config });
            expect(verdicts(onStack.stdout), both + onStack.stdout + onStack.stderr).toEqual(verdicts(mine.stdout));
            expect(onStack.exitCode, both + onStack.stdout + onStack.stderr).toBe(mine.exitCode);
        });
    });
});
