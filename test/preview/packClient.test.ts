// The pack client against the sample pack with hand-built resources, and packs that fail to start.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PreviewError } from "../../preview/errors";
import { PackClient, startPack } from "../../preview/packClient";
import { UNKNOWN_STRING } from "../../preview/types";
import { CRASHING_PACK, NOISY_PACK, quiet, SAMPLE_PACK } from "./fixtures";

const ZONE = "citrix:index/zone:Zone";
const CATALOG = "citrix:index/machineCatalog:MachineCatalog";
const urn = (type: string, name: string) => `urn:pulumi:t::p::${type}::${name}`;

describe("startPack with the sample pack", () => {
    let pack: PackClient;

    beforeAll(async () => {
        pack = await startPack(SAMPLE_PACK, { project: "p", stack: "t", onOutput: quiet });
    });
    afterAll(async () => {
        await pack?.close();
    });

    it("answers Handshake with UNIMPLEMENTED and accepts ConfigureStack", async () => {
        expect(pack.port).toBeGreaterThan(0);
        expect(await pack.handshake()).toBe(false);
        expect(await pack.configureStack({ project: "p", stack: "t", dryRun: true, tags: { team: "vdi" } })).toBe(true);
    });

    it("reports policy metadata and schemas from GetAnalyzerInfo", async () => {
        const info = await pack.getAnalyzerInfo();
        expect(info).toMatchObject({ name: "sample-pack", version: "0.1.0", supportsConfig: true });
        const rtt = info.policies.find((p) => p.name === "catalog-zone-rtt");
        expect(rtt).toMatchObject({ enforcementLevel: "mandatory", policyType: "stack" });
        expect(rtt?.configSchema?.required).toEqual(["maxRttMs"]);
        expect(rtt?.configSchema?.properties.maxRttMs).toEqual({ type: "number", default: 90 });
    });

    it("runs Analyze on a catalog whose zone is unknown and AnalyzeStack joining it via property dependencies", async () => {
        await pack.configure({
            "catalog-zone-rtt": { enforcementLevel: "mandatory", properties: { maxRttMs: 50 } },
            "catalog-size-limit": { enforcementLevel: "advisory", properties: { maxMachines: 10, unit: "desktops" } },
            "catalog-count": { enforcementLevel: "disabled" },
        });
        const zone = { urn: urn(ZONE, "z"), type: ZONE, name: "z", properties: { name: "Z", description: "d", metadatas: [{ name: "rttMs", value: "75" }] } };
        const catalog = {
            urn: urn(CATALOG, "c"),
            type: CATALOG,
            name: "c",
            properties: { zone: UNKNOWN_STRING, provisioningScheme: { numberOfTotalMachines: 12 } },
        };

        const analyzed = await pack.analyze(catalog);
        const byPolicy = new Map(analyzed.diagnostics.map((d) => [d.policyName, d]));
        expect(byPolicy.get("catalog-size-limit")?.message).toContain("12 desktops exceed the limit of 10");
        expect(byPolicy.get("catalog-zone-known")?.message).toMatch(/string value at \.zone can't be known during preview/);

        const stack = await pack.analyzeStack([
            zone,
            { ...catalog, dependencies: [zone.urn], propertyDependencies: { zone: [zone.urn], provisioningScheme: [] } },
        ]);
        expect(stack.diagnostics).toHaveLength(1);
        expect(stack.diagnostics[0]).toMatchObject({ policyName: "catalog-zone-rtt", urn: catalog.urn, enforcementLevel: "mandatory" });
        expect(stack.diagnostics[0].message).toContain("RTT 75 ms > 50 ms");

        // Without the property dependency there is nothing to join.
        const unjoined = await pack.analyzeStack([zone, catalog]);
        expect(unjoined.diagnostics).toHaveLength(0);
    });

    it("runs Remediate only for policies at level remediate", async () => {
        const zone = { urn: urn(ZONE, "lower"), type: ZONE, name: "lower", properties: { name: "lower case", description: "x" } };
        await pack.configure({ "zone-name-uppercase": { enforcementLevel: "advisory" } });
        expect((await pack.remediate(zone)).remediations).toHaveLength(0);

        await pack.configure({ "zone-name-uppercase": { enforcementLevel: "remediate" } });
        const { remediations } = await pack.remediate(zone);
        expect(remediations).toHaveLength(1);
        expect(remediations[0]).toMatchObject({ policyName: "zone-name-uppercase", policyPackName: "sample-pack" });
        expect(remediations[0].properties).toEqual({ name: "LOWER CASE", description: "x" });
    });
});

describe("startPack failures", () => {
    it("fails clearly when the pack prints before its port", async () => {
        const err = await startPack(NOISY_PACK, { onOutput: quiet }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PreviewError);
        expect((err as Error).message).toContain('printed "loading noisy pack" before its port');
    });

    it("fails clearly with the stderr tail when the pack exits before printing a port", async () => {
        const err = await startPack(CRASHING_PACK, { onOutput: quiet }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PreviewError);
        expect((err as Error).message).toContain("exited (exit code 3) before printing its port");
        expect((err as Error).message).toContain("crashing-pack: missing thresholds table");
    });

    it("times out when no port arrives in time", async () => {
        const err = await startPack(SAMPLE_PACK, { onOutput: quiet, startTimeoutMs: 1 }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PreviewError);
        expect((err as Error).message).toContain("printed no port within");
    });
});
