/**
 * Remediation under the real CLI keeps secrets secret: `pulumi up` with nsx-alb-se-dedicated-
 * dispatcher at `remediate` on test/fixtures/programs/remediate-secret. The engine sends Remediate
 * the inputs with their secrets marked and stores the remediated properties as the new inputs, so
 * the stack's state (exported without --show-secrets) must hold the remediated field and every
 * secret still encrypted, and no secret's plain text anywhere.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, withDeployedStack } from "../../scripts/realCli/run";

const PROGRAM = path.join(REPO_ROOT, "test", "fixtures", "programs", "remediate-secret");
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SE_GROUP = "avi:index/serviceenginegroup:Serviceenginegroup";

interface StateResource {
    readonly type: string;
    readonly inputs?: Record<string, unknown>;
    readonly outputs?: Record<string, unknown>;
}

function isEncryptedSecret(value: unknown): boolean {
    return (
        typeof value === "object" &&
        value !== null &&
        (value as Record<string, unknown>)[SECRET_SIG] === "1b47061264138c4ac30d75fd1eb44270" &&
        typeof (value as Record<string, unknown>).ciphertext === "string"
    );
}

describe("remediation under pulumi up", () => {
    it("stores the remediated field and keeps every secret encrypted in the state", async () => {
        await withDeployedStack(
            PROGRAM,
            async ({ exportFile, up }) => {
                const log = up.stdout + up.stderr;
                expect(up.exitCode, log).toBe(0);
                expect(log, "the CLI reports the remediation").toMatch(/\[remediate\] {2}nsx-alb-se-dedicated-dispatcher/);
                const text = fs.readFileSync(exportFile, "utf8");
                expect(text, "no secret in plain text").not.toContain("remediate-secret-fixture");
                const resources = (JSON.parse(text) as { deployment: { resources: StateResource[] } }).deployment.resources;
                const group = resources.find((r) => r.type === SE_GROUP);
                expect(group, "the SE group is in the state").toBeDefined();
                const inputs = group?.inputs ?? {};
                expect(inputs.dedicatedDispatcherCore).toBe("true");
                expect(inputs.vcpusPerSe).toBe("6");
                expect(isEncryptedSecret(inputs.description), JSON.stringify(inputs.description)).toBe(true);
                const labels = inputs.labels;
                // A list holding a secret is stored as one secret (the engine encrypts the outermost marker).
                const nested = Array.isArray(labels) ? (labels[0] as Record<string, unknown>).value : labels;
                expect(isEncryptedSecret(nested), JSON.stringify(labels)).toBe(true);
            },
            { withPack: true, policyPackConfig: path.join(PROGRAM, "policy-config.json") },
        );
    });
});
