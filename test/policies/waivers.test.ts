import { unknownCheckingProxy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { nsxAlbSeDedicatedDispatcher } from "../../policies/nsx-alb-se-dedicated-dispatcher";
import { citrixBrokerThrottle } from "../../policies/citrix-broker-throttle";
import { citrixZoneRttLimit } from "../../policies/citrix-zone-rtt-limit";
import { perfguardFacts } from "../../policies/perfguard-facts";
import { runResourcePolicy, runStackPolicy, TestResource, urnOf } from "../support/policyHarness";
import { citrixStack } from "./citrixFixtures";

function withZoneMetadata(stack: TestResource[], extra: Array<{ name: string; value: string }>): TestResource[] {
    const zone = stack[0];
    (zone.props.metadata as Array<{ name: string; value: string }>).push(...extra);
    return stack;
}

describe("waivers", () => {
    it("perfguard-facts cannot be waived: the unreadable fact stays mandatory and the waiver is reported", async () => {
        const stack = withZoneMetadata(citrixStack({ rttMs: "300ms" }), [
            { name: "perfguard:waive", value: "perfguard-facts" },
            { name: "perfguard:waiveReason", value: "we know" },
        ]);
        const found = await runResourcePolicy(perfguardFacts, stack);
        expect(found.map((v) => v.enforcementLevel)).toEqual(["mandatory", "mandatory"]);
        expect(found[0].message).toContain("perfguard:rttMs in metadata has \"300ms\"");
        expect(found[1].message).toContain("perfguard:waive names perfguard-facts, which cannot be waived");
    });

    it("a waived verdict is reported at advisory, prefixed waived, with the reason", async () => {
        const stack = withZoneMetadata(citrixStack({ rttMs: "260", throttles: ["4", "4"] }), [
            { name: "perfguard:waive", value: "citrix-zone-rtt-limit" },
            { name: "perfguard:waiveReason", value: "CHG-1234: Site split planned for Q3" },
        ]);
        const [v] = await runResourcePolicy(citrixZoneRttLimit, stack);
        expect(v.enforcementLevel).toBe("advisory");
        expect(v.message).toContain("waived (perfguard:waiveReason in metadata: \"CHG-1234: Site split planned for Q3\"): Zone \"emea-zone\" is 260 ms from the Site database");
        expect(await runResourcePolicy(perfguardFacts, stack)).toEqual([]);
    });

    it("a waiver list applies to each named policy only", async () => {
        const stack = citrixStack({ throttles: ["12", undefined] });
        const controller = stack[3];
        (controller.props.tags as string[]).push("perfguard:waive=citrix-site-limits, citrix-broker-throttle", "perfguard:waiveReason=lab controller");
        const [v] = await runStackPolicy(citrixBrokerThrottle, stack);
        expect(v.enforcementLevel).toBe("advisory");
        expect(v.message).toContain("waived (perfguard:waiveReason in tags list: \"lab controller\"): Delivery Controller");
    });

    it("a waiver without a reason keeps the level and is reported by perfguard-facts", async () => {
        const stack = withZoneMetadata(citrixStack({ rttMs: "260", throttles: ["4", "4"] }), [{ name: "perfguard:waive", value: "citrix-zone-rtt-limit" }]);
        const [v] = await runResourcePolicy(citrixZoneRttLimit, stack);
        expect(v.enforcementLevel).toBe("mandatory");
        expect(v.message).not.toContain("waived");
        const facts = await runResourcePolicy(perfguardFacts, stack);
        expect(facts.map((f) => f.message)).toEqual([expect.stringContaining("perfguard:waive names citrix-zone-rtt-limit but there is no perfguard:waiveReason")]);
    });

    it("a waiver naming an unknown policy is reported", async () => {
        const stack = withZoneMetadata(citrixStack(), [
            { name: "perfguard:waive", value: "citrix-zone-rtt" },
            { name: "perfguard:waiveReason", value: "typo" },
        ]);
        const facts = await runResourcePolicy(perfguardFacts, stack);
        expect(facts).toHaveLength(1);
        expect(facts[0].message).toMatch(/perfguard:waive names "citrix-zone-rtt", which is not a policy of this pack \(policies: .*citrix-zone-rtt-limit/);
    });
});

describe("waivers and remediation", () => {
    const SE_GROUP = "avi:index/serviceenginegroup:Serviceenginegroup";
    function remediate(markers: Array<{ key: string; values: string[] }>): Record<string, unknown> | undefined {
        const props = { name: "seg", vcpusPerSe: "6", memoryPerSe: "6144", diskPerSe: "40", markers };
        const args = { type: SE_GROUP, name: "seg", urn: urnOf(SE_GROUP, "seg"), props: unknownCheckingProxy(props), getConfig: () => ({}) };
        return nsxAlbSeDedicatedDispatcher.remediateResource?.(args as never) as Record<string, unknown> | undefined;
    }
    it("remediates an SE group that is not waived", () => {
        expect(remediate([])?.dedicatedDispatcherCore).toBe("true");
    });
    it("does not change a resource whose verdict is waived", () => {
        expect(remediate([
            { key: "perfguard:waive", values: ["nsx-alb-se-dedicated-dispatcher"] },
            { key: "perfguard:waiveReason", values: ["vendor-tuned SEs"] },
        ])).toBeUndefined();
    });
});
