/**
 * A config key that names no policy never turns a gate off silently: the CLI sends it to the
 * pack's Configure, and the pack (perfguard-facts, on the root stack) reports it, mandatory, once
 * per preview; a config naming only policies reports nothing of the kind. (test/real/configNames
 * shows the real CLI gives the same Policies section.)
 */
import * as path from "path";
import { describe, expect, it } from "vitest";
import { runPreview } from "../../preview/runPreview";

const ROOT = path.resolve(__dirname, "../..");
const PROGRAM = path.join(ROOT, "examples", "xen-guest-layout");

describe("config keys that name no policy", () => {
    it.each([
        [
            "a misspelt name",
            { "xen-dom0-workoad": "mandatory" },
            ['policy pack config names "xen-dom0-workoad", not a policy of perfguard: ignored, so the policy meant keeps its defaults.'],
            1,
        ],
        [
            "two unknown names, sorted",
            { zeta: "advisory", "xen-guest-network-shar": { enforcementLevel: "mandatory" } },
            ['policy pack config names "xen-guest-network-shar" and 1 more key, not policies of perfguard: ignored, so the policy meant keeps its defaults.'],
            1,
        ],
        ["only policy names and all", { all: "advisory", "xen-dom0-workload": "mandatory" }, [], undefined],
    ] as const)("%s", async (_label, config, problems, exitCode) => {
        const result = await runPreview({ programDir: PROGRAM, packDir: ROOT, policyPackConfig: config, onLog: () => undefined });
        const onStack = result.violations.filter((v) => v.policyName === "perfguard-facts" && v.resourceType === "pulumi:pulumi:Stack");
        expect(onStack.map((v) => v.message.split("\n")[1])).toEqual(problems);
        expect(onStack.every((v) => v.enforcementLevel === "mandatory")).toBe(true);
        if (exitCode !== undefined) {
            expect(result.exitCode).toBe(exitCode);
        }
    });
});
