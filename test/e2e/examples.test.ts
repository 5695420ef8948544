/**
 * Every bundled example, through the CLI-faithful preview path (the real pack process over
 * gRPC, the program under preview mocks): the pack must report exactly the violations listed
 * in the example's expected-violations.json.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { runPreview } from "../../preview/runPreview";
import type { PreviewResult } from "../../preview/runPreview";
import { ROOT_STACK_TYPE, UNKNOWN_STRING } from "../../preview/types";
import { examplePreview } from "../support/examplePreviews";

const ROOT = path.resolve(__dirname, "../..");
const EXAMPLES = path.join(ROOT, "examples");

interface Expected {
    policy: string;
    resource: string | null;
    level: "advisory" | "mandatory";
}

function key(e: Expected): string {
    return `${e.policy} -> ${e.resource ?? "(stack)"} [${e.level}]`;
}

function found(result: PreviewResult): string[] {
    return result.violations
        .map((v) =>
            key({
                policy: v.policyName,
                resource: v.resourceType === ROOT_STACK_TYPE || !v.resourceName ? null : v.resourceName,
                level: v.enforcementLevel as Expected["level"],
            }),
        )
        .sort();
}

const examples = fs.readdirSync(EXAMPLES).filter((d) => fs.existsSync(path.join(EXAMPLES, d, "expected-violations.json")));

describe("examples produce exactly their expected violations", () => {
    it("has examples", () => {
        expect(examples).toContain("citrix-satellite-zones");
    });
    it.each(examples)("%s", async (name) => {
        const dir = path.join(EXAMPLES, name);
        const expected = (JSON.parse(fs.readFileSync(path.join(dir, "expected-violations.json"), "utf8")) as Expected[]).map(key).sort();
        // The preview every file shares (run once per npm test, with its policy-config.json).
        const { result } = await examplePreview(name);
        expect(found(result)).toEqual(expected);
        expect(result.exitCode).toBe(expected.some((e) => e.includes("[mandatory]")) ? 1 : 0);
        for (const v of result.violations) {
            expect(v.message.length).toBeGreaterThan(0);
        }
    });
});

describe("citrix-satellite-zones: joins survive preview unknowns", () => {
    it("a catalog's zone reaches the pack as an unknown, and the zone join still works", async () => {
        const dir = path.join(EXAMPLES, "citrix-satellite-zones");
        const result = await runPreview({
            programDir: dir,
            packDir: ROOT,
            policyPackConfig: { "citrix-site-limits": { maxVdasPerZone: 200 } },
            onLog: () => undefined,
        });
        const catalog = result.resources.find((r) => r.name === "emea-east-catalog");
        expect(catalog?.inputs.zone).toBe(UNKNOWN_STRING);
        expect(catalog?.propertyDependencies.zone?.[0]).toMatch(/citrix:index\/zone:Zone::emea-east-zone$/);
        const limits = result.violations
            .filter((v) => v.policyName === "citrix-site-limits")
            .map((v) => v.resourceName)
            .sort();
        // primary 700 and emea-east 220 exceed 200; apac 150 and latam 60 do not.
        expect(limits).toEqual(["emea-east-zone", "primary-zone"]);
        const emea = result.violations.find((v) => v.policyName === "citrix-site-limits" && v.resourceName === "emea-east-zone");
        expect(emea?.message).toContain("has 220 machines in its catalogs");
    });
});
