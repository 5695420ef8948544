/**
 * citrix-broker-throttle and citrix-brokering-capacity across stacks (PERFGUARD_INVENTORY): the
 * platform stack (vdi-platform) owns zone apac (160 ms) and its two Delivery Controllers,
 * throttled at 20 each; the desktop team's stack (desktops-apac) adds catalog apac-catalog (its
 * `zone` the zone's id, perfguard:citrixZone=apac) and Delivery Group apac-eng, peak 30.
 */
import { describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { parseMessage } from "../../../policies/pack/message";
import { runPolicies } from "../../support/policyHarness";
import { fixture, previewOf, withInventoryEnv } from "../../support/inventoryStacks";

const citrix = policies.filter((p) => p.name.startsWith("citrix"));

async function judge(spec: string | undefined): Promise<Array<[string, string, string, string]>> {
    const out = await withInventoryEnv(spec, () => runPolicies(citrix, previewOf("desktops-apac.json")));
    for (const v of out) {
        expect(v.message).not.toMatch(/SECRETCIPHERTEXT|\[secret\]/);
    }
    return out.map((v) => [v.policyName, v.enforcementLevel, v.urn?.split("::").pop() ?? "(stack)", parseMessage(v.message).problem] as [string, string, string, string]).sort();
}

describe("the desktop team's apac-eng in the platform stack's zone", () => {
    it("with the platform stack's export: judged in zone apac (160 ms, 20 + 20)", async () => {
        expect(await judge(fixture("vdi-platform.json"))).toEqual([
            ["citrix-broker-throttle", "mandatory", "apac-eng", "Delivery Group \"apac-eng\": the throttles of 2 Delivery Controllers can put 30 concurrent requests on its lock, above the 24 it sustains."],
            ["citrix-brokering-capacity", "advisory", "apac-eng", "Delivery Group \"apac-eng\": at 30 concurrent launches, mean 14.1 s > 12 s."],
        ]);
    });

    it("names the platform stack's zone, where its controllers' throttles are changed", async () => {
        const out = await withInventoryEnv(fixture("vdi-platform.json"), () => runPolicies(citrix, previewOf("desktops-apac.json")));
        const throttle = out.find((v) => v.policyName === "citrix-broker-throttle");
        expect(throttle?.message).toContain("40 from zone \"apac\" (stack vdi-platform/prod, deployed 2026-12-04T19:00:00Z) at 160 ms");
    });

    it("without an inventory: not checked, naming PERFGUARD_INVENTORY, never the fact the catalog already declares", async () => {
        const out = await withInventoryEnv(undefined, () => runPolicies(citrix, previewOf("desktops-apac.json")));
        expect(out.length).toBeGreaterThan(0);
        for (const v of out) {
            const m = parseMessage(v.message);
            expect(v.enforcementLevel).toBe("advisory");
            expect(`${m.problem}\n${m.basis.join("\n")}`).toMatch(/not checked/);
            expect(m.fix).toMatch(/^set PERFGUARD_INVENTORY/);
        }
    });
});
