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
const examples = fs
    .readdirSync(EXAMPLES)
    .filter((d) => fs.existsSync(path.join(EXAMPLES, d, "expected-violations.json")))
    .sort();

function verdicts(output: string): string[] {
    return listedViolations(policiesSection(output))
        .map((v) => `${v.level} ${v.policy} -> ${v.type === "pulumi:pulumi:Stack" ? "(stack)" : v.name}`)
        .sort();
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
            // What is deployed is what the preview judged: the same verdicts as expected-violations.json.
            const expected = (
                JSON.parse(fs.readFileSync(path.join(dir, "expected-violations.json"), "utf8")) as Array<{
                    policy: string;
                    resource: string | null;
                    level: string;
                }>
            )
                .map((v) => `${v.level} ${v.policy} -> ${v.resource ?? "(stack)"}`)
                .sort();
            expect(verdicts(real.stdout), both).toEqual(expected);
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

describe("facts kept in a secret, deployed (test/fixtures/programs/secret-facts)", () => {
    const dir = path.join(REPO_ROOT, "test", "fixtures", "programs", "secret-facts");

    it("the CLI with the passphrase judges them; without it, the CLI and perfguard check say not checked, never pass", async () => {
        await withDeployedStack(dir, async ({ ws, exportFile, up }) => {
            expect(up.exitCode, up.stdout + up.stderr).toBe(0);
            const real = await analyzeIn(ws, exportFile);
            expect(verdicts(real.stdout), real.stdout + real.stderr).toEqual([
                "advisory citrix-broker-throttle -> (stack)",
                "mandatory citrix-zone-rtt-limit -> far-zone",
            ]);
            expect(real.exitCode).toBe(1);
            const redacted = await analyzeIn(ws, exportFile, { env: { PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase" } });
            const mine = check(exportFile);
            const both = `\n--- pulumi policy analyze, no passphrase (exit ${redacted.exitCode}) ---\n${redacted.stdout}${redacted.stderr}\n--- perfguard check (exit ${mine.exitCode}) ---\n${mine.stdout}${mine.stderr}`;
            // Every policy that needs the zone's RTT says "not checked" (advisory); none passes it.
            expect(verdicts(redacted.stdout), both).toEqual([
                "advisory citrix-broker-throttle -> (stack)",
                "advisory citrix-brokering-capacity -> (stack)",
                "advisory citrix-site-database-load -> (stack)",
                "advisory citrix-zone-rtt-limit -> far-zone",
            ]);
            expect(redacted.stdout, both).toContain("encrypted secrets that were not decrypted");
            expect(verdicts(mine.stdout), both).toEqual(verdicts(redacted.stdout));
            expect(mine.exitCode, both).toBe(redacted.exitCode);
        });
    });
});
