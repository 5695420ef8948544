// End-to-end: fixture program -> sample pack -> violations, printed output, exit code, record.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { PreviewError } from "../../preview/errors";
import { runPreview } from "../../preview/runPreview";
import { UNKNOWN_STRING } from "../../preview/types";
import { program, quiet, SAMPLE_PACK, SAMPLE_PROGRAM, THROWING_PROGRAM } from "./fixtures";

const ZONE = "citrix:index/zone:Zone";
const CATALOG = "citrix:index/machineCatalog:MachineCatalog";

describe("runPreview on the sample program", () => {
    it("reports the stack policy's join, exits 1 on the mandatory violation, and records a stack export", async () => {
        const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-preview-")), "out.json");
        const result = await runPreview({ programDir: SAMPLE_PROGRAM, packDir: SAMPLE_PACK, record, onLog: quiet });

        // The catalog's zone is zone.id: unknown in a preview, joined only through property dependencies.
        const catalogEast = result.resources.find((r) => r.type === CATALOG && r.name === "catalog-east");
        const zoneEast = result.resources.find((r) => r.type === ZONE && r.name === "zone-east");
        expect(catalogEast?.inputs.zone).toBe(UNKNOWN_STRING);
        expect(catalogEast?.propertyDependencies.zone).toEqual([zoneEast?.urn]);
        expect(catalogEast?.dependencies).toContain(zoneEast?.urn);
        expect(zoneEast?.urn).toBe("urn:pulumi:dev::sample::citrix:index/zone:Zone::zone-east");

        // zone-east's RTT (160 ms) exceeds the default 90 ms; zone-west's (10 ms) does not.
        const rtt = result.violations.filter((v) => v.policyName === "catalog-zone-rtt");
        expect(rtt).toHaveLength(1);
        expect(rtt[0]).toMatchObject({
            enforcementLevel: "mandatory",
            urn: catalogEast?.urn,
            resourceType: CATALOG,
            resourceName: "catalog-east",
            phase: "analyzeStack",
        });
        expect(rtt[0].message).toContain("160 ms > 90 ms");
        expect(result.exitCode).toBe(1);

        // Reading the unknown zone in Analyze makes the SDK report "can't run during preview".
        const unknownZone = result.violations.filter((v) => v.policyName === "catalog-zone-known");
        expect(unknownZone.map((v) => v.resourceName).sort()).toEqual(["catalog-east", "catalog-west"]);
        expect(unknownZone[0].message).toMatch(/can't be known during preview/);

        // A stack violation without a URN is attributed to the root stack.
        const count = result.violations.find((v) => v.policyName === "catalog-count");
        expect(count?.urn).toBe("urn:pulumi:dev::sample::pulumi:pulumi:Stack::sample-dev");
        expect(count?.message).toContain("2 catalogs, 550 machines");

        // The progress view (the CLI's default) prints each violation once, in the Policies section.
        expect(result.output).toContain("        - [mandatory]  catalog-zone-rtt  (citrix:index:MachineCatalog: catalog-east)\n");
        expect(result.output).not.toContain("sample-pack@v0.1.0 [mandatory]");
        expect(result.output).toContain("        - [advisory]  catalog-count  (pulumi:pulumi:Stack: sample-dev)\n");
        expect(result.output).toContain("    ❌ sample-pack@v0.1.0 (local: ");
        expect(result.output).not.toContain("Resources:");

        const exported = JSON.parse(fs.readFileSync(record, "utf8"));
        expect(exported.version).toBe(3);
        expect(typeof exported.deployment.manifest.time).toBe("string");
        expect(exported.deployment.manifest.magic).toMatch(/^[0-9a-f]{64}$/);
        const exportedCatalog = exported.deployment.resources.find((r: { urn: string }) => r.urn === catalogEast?.urn);
        expect(exportedCatalog).toMatchObject({
            custom: true,
            type: CATALOG,
            parent: "urn:pulumi:dev::sample::pulumi:pulumi:Stack::sample-dev",
            inputs: { zone: UNKNOWN_STRING, provisioningScheme: { numberOfTotalMachines: 500 } },
            propertyDependencies: { zone: [zoneEast?.urn] },
        });
        expect(exported.deployment.resources[0].type).toBe("pulumi:pulumi:Stack");
        expect(exported.deployment.resources[0].parent).toBeUndefined();
    });

    it("applies config from the file: levels, properties, remediation", async () => {
        const result = await runPreview({
            programDir: SAMPLE_PROGRAM,
            packDir: SAMPLE_PACK,
            onLog: quiet,
            policyPackConfig: {
                "catalog-zone-rtt": { maxRttMs: 200 },
                "catalog-size-limit": { enforcementLevel: "mandatory", maxMachines: 40, unit: "VMs" },
                "catalog-count": "disabled",
                "zone-name-uppercase": "remediate",
            },
        });
        expect(result.violations.some((v) => v.policyName === "catalog-zone-rtt")).toBe(false);
        expect(result.violations.some((v) => v.policyName === "catalog-count")).toBe(false);
        const size = result.violations.filter((v) => v.policyName === "catalog-size-limit");
        expect(size.map((v) => [v.resourceName, v.enforcementLevel]).sort()).toEqual([
            ["catalog-east", "mandatory"],
            ["catalog-west", "mandatory"],
        ]);
        expect(size.find((v) => v.resourceName === "catalog-west")?.message).toContain("50 VMs exceed the limit of 40");
        expect(result.exitCode).toBe(1);

        // Both zone names were remediated to upper case before Analyze and AnalyzeStack.
        expect(result.remediations.map((r) => r.after.name).sort()).toEqual(["EAST", "WEST"]);
        const zoneWest = result.resources.find((r) => r.name === "zone-west");
        expect(zoneWest?.inputs.name).toBe("WEST");
        expect(zoneWest?.outputs.name).toBe("WEST");
        expect(result.output).not.toContain("[diff: ~name]"); // event lines belong to the diff view
        expect(result.output).toContain("        - [remediate]  zone-name-uppercase  (2 resources)\n");
    });

    it("exits 0 without mandatory violations and prints the resource summary", async () => {
        const result = await runPreview({
            programDir: SAMPLE_PROGRAM,
            packDir: SAMPLE_PACK,
            onLog: quiet,
            policyPackConfig: { "catalog-zone-rtt": "advisory" },
        });
        expect(result.exitCode).toBe(0);
        expect(result.violations.find((v) => v.policyName === "catalog-zone-rtt")?.enforcementLevel).toBe("advisory");
        expect(result.output).toContain(`Resources:\n    + ${result.resources.length} to create\n`);
        expect(result.output).toContain("    ⚠️ sample-pack@v0.1.0");
    });

    it("rejects bad config naming the policy and field, without running the program", async () => {
        // The throwing program would fail if it ran; the config error must come first.
        const err = await runPreview({
            programDir: THROWING_PROGRAM,
            packDir: SAMPLE_PACK,
            onLog: quiet,
            policyPackConfig: { "catalog-zone-rtt": { maxRttMs: "fast" } },
        }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PreviewError);
        expect((err as PreviewError).exitCode).toBe(1);
        expect((err as PreviewError).message).toContain("catalog-zone-rtt: maxRttMs: Invalid type. Expected: number, given: string");
    });

    it("rejects an invalid enforcement level in the config file", async () => {
        const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-preview-")), "config.json");
        fs.writeFileSync(file, JSON.stringify({ "catalog-count": "loud" }));
        const err = await runPreview({ programDir: SAMPLE_PROGRAM, packDir: SAMPLE_PACK, policyPackConfig: file, onLog: quiet }).catch((e: unknown) => e);
        expect((err as PreviewError).exitCode).toBe(1);
        expect((err as PreviewError).message).toContain('"catalog-count": "loud" is not a valid enforcement level');
    });

    it("reports a throwing program with its directory and the error", async () => {
        const err = await runPreview({ programDir: THROWING_PROGRAM, packDir: SAMPLE_PACK, onLog: quiet }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PreviewError);
        expect((err as PreviewError).exitCode).toBe(1);
        expect((err as PreviewError).message).toContain(`program ${THROWING_PROGRAM} failed`);
        expect((err as PreviewError).message).toContain("zone catalogue is missing the RTT table");
    });

    it("fails on a resource input that is a rejected promise instead of previewing without the resource", async () => {
        const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-preview-")), "out.json");
        const err = await runPreview({ programDir: program("rejects-input"), packDir: SAMPLE_PACK, record, onLog: quiet }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PreviewError);
        expect((err as PreviewError).exitCode).toBe(1);
        expect((err as PreviewError).message).toContain(`program ${program("rejects-input")} failed`);
        expect((err as PreviewError).message).toContain("async boom");
        // No record of a stack that lacks the failed resource.
        expect(fs.existsSync(record)).toBe(false);
    });

    it("refuses a program in another language before starting the pack (exit 2)", async () => {
        const err = await runPreview({ programDir: program("python-runtime"), packDir: path.join(os.tmpdir(), "no-such-pack"), onLog: quiet }).catch(
            (e: unknown) => e,
        );
        expect((err as PreviewError).exitCode).toBe(2);
        expect((err as PreviewError).message).toContain("says runtime: python");
    });

    it("reports an unwritable --record file as a user error", async () => {
        const record = path.join(os.tmpdir(), "perfguard-no-such-dir", "sub", "out.json");
        const err = await runPreview({ programDir: SAMPLE_PROGRAM, packDir: SAMPLE_PACK, record, onLog: quiet }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PreviewError);
        expect((err as PreviewError).message).toContain(`cannot write --record file ${record}`);
    });
});
