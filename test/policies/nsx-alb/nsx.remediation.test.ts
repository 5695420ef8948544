// Remediation through the real gRPC path: the built pack (dist/, `npm run build` first) started as
// the CLI starts it, Configure at level remediate, then Remediate on an SE group.
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PackClient, startPack } from "../../../preview/packClient";
import type { PropertyBag } from "../../../preview/types";
import { parseMessage } from "../../../policies/pack/message";
import { SE_GROUP, SECRET, seGroupProps } from "./nsxFixtures";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const MIN = "nsx-alb-se-minimum-resources";
const DISPATCH = "nsx-alb-se-dedicated-dispatcher";

describe("NSX ALB remediation over gRPC", () => {
    let pack: PackClient;

    beforeAll(async () => {
        pack = await startPack(REPO_ROOT, { project: "p", stack: "t", onOutput: () => undefined });
        const info = await pack.getAnalyzerInfo();
        // As the CLI: every policy gets a level; ours remediate, the rest stay quiet.
        const config = Object.fromEntries(info.policies.map((p) => [p.name, { enforcementLevel: "disabled" as const }]));
        await pack.configure({
            ...config,
            [MIN]: { enforcementLevel: "remediate" },
            [DISPATCH]: { enforcementLevel: "remediate", properties: { minVcpus: 4 } },
        });
    });
    afterAll(async () => {
        await pack?.close();
    });

    it("raises memory, disk and the dispatcher as provider strings and keeps every other field", async () => {
        const properties = seGroupProps({
            memoryPerSe: "2048",
            diskPerSe: "15",
            dedicatedDispatcherCore: undefined,
            markers: [{ key: "team", values: ["web"] }],
        }) as PropertyBag;
        const group = { urn: "urn:pulumi:t::p::avi:index/serviceenginegroup:Serviceenginegroup::web-seg", type: SE_GROUP, name: "web-seg", properties };
        const { remediations } = await pack.remediate(group);
        expect(remediations.map((r) => r.policyName)).toEqual([MIN, DISPATCH]);
        const [memory, dispatcher] = remediations;
        expect(memory.properties).toEqual({ ...properties, memoryPerSe: "4096", diskPerSe: "30" });
        // The SDK hands each remediation the previous one's output.
        expect(dispatcher.properties).toEqual({ ...properties, memoryPerSe: "4096", diskPerSe: "30", dedicatedDispatcherCore: "true" });
        expect(typeof dispatcher.properties?.dedicatedDispatcherCore).toBe("string");
        expect(dispatcher.properties?.description).toBe(SECRET);
    });

    it("returns nothing for a compliant group", async () => {
        const group = {
            urn: "urn:pulumi:t::p::avi:index/serviceenginegroup:Serviceenginegroup::ok",
            type: SE_GROUP,
            name: "ok",
            properties: seGroupProps() as PropertyBag,
        };
        expect((await pack.remediate(group)).remediations).toEqual([]);
    });

    it("reports the violation as well when Analyze runs at level remediate", async () => {
        const group = {
            urn: "urn:pulumi:t::p::avi:index/serviceenginegroup:Serviceenginegroup::small",
            type: SE_GROUP,
            name: "small",
            properties: seGroupProps({ memoryPerSe: "2048" }) as PropertyBag,
        };
        const { diagnostics } = await pack.analyze(group);
        expect(diagnostics.map((d) => d.policyName)).toEqual([MIN]);
        const { problem, fix } = parseMessage(diagnostics[0].message);
        expect(problem).toContain("2048 MB memory per 4 vCPU SE; tested: 4096 MB");
        expect(fix).toContain('memoryPerSe "4096"');
    });
});
