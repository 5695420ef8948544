import { unknownCheckingProxy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { nsxAlbSeDedicatedDispatcher } from "../../../policies/nsx-alb/nsx-alb-se-dedicated-dispatcher";
import { citrixBrokerThrottle } from "../../../policies/citrix/citrix-broker-throttle";
import { citrixZoneRttLimit } from "../../../policies/citrix/citrix-zone-rtt-limit";
import { perfguardFacts } from "../../../policies/perfguard-facts";
import { policies } from "../../../policies";
import { POLICY_IDS } from "../../../policies/pack/waivers";
import { parseMessage } from "../../../policies/pack/message";
import { runResourcePolicy, runStackPolicy, TestResource, urnOf, Violation } from "../../support/policyHarness";
import { citrixStack } from "../citrix/citrixFixtures";

function withZoneMetadata(stack: TestResource[], extra: Array<{ name: string; value: string }>): TestResource[] {
    const zone = stack[0];
    (zone.props.metadatas as Array<{ name: string; value: string }>).push(...extra);
    return stack;
}

const problems = (found: Violation[]) => found.map((v) => parseMessage(v.message).problem);

describe("waivers: a compliant baseline, then one change each", () => {
    // Baseline: a 260 ms zone waives citrix-zone-rtt-limit with a reason.
    const waiver = (waive: string, reason: string | null = "CHG-1234: Site split planned for Q3") =>
        withZoneMetadata(citrixStack({ rttMs: "260", throttles: ["4", "4"] }), [
            { name: "perfguard:waive", value: waive },
            ...(reason === null ? [] : [{ name: "perfguard:waiveReason", value: reason }]),
        ]);
    type Outcome = { rttLevel: string; waived: boolean; facts: string[] };
    const outcome = async (stack: TestResource[]): Promise<Outcome> => {
        const [rtt] = await runResourcePolicy(citrixZoneRttLimit, stack);
        return { rttLevel: rtt.enforcementLevel, waived: rtt.message.includes("\nwaived ("), facts: problems(await runResourcePolicy(perfguardFacts, stack)) };
    };
    it.each<[string, TestResource[], Outcome]>([
        ["baseline: waived, at advisory, nothing to fix", waiver("citrix-zone-rtt-limit"), { rttLevel: "advisory", waived: true, facts: [] }],
        ["ids match with case folding", waiver("CITRIX-ZONE-RTT-LIMIT"), { rttLevel: "advisory", waived: true, facts: [] }],
        [
            "no reason: keeps its level",
            waiver("citrix-zone-rtt-limit", null),
            {
                rttLevel: "mandatory",
                waived: false,
                facts: [
                    'Zone "emea-zone": perfguard:waive names "citrix-zone-rtt-limit" but there is no perfguard:waiveReason, so the verdicts keep their level.',
                ],
            },
        ],
        [
            "a list naming one id that is not a policy waives nothing, not even the valid id",
            waiver("citrix-zone-rtt-limit, citrix-zone-rtt"),
            {
                rttLevel: "mandatory",
                waived: false,
                facts: ['Zone "emea-zone": perfguard:waive names "citrix-zone-rtt", not a policy of this pack, so it waives nothing here.'],
            },
        ],
        [
            "an id with a control character is escaped",
            waiver("citrix-zone-rtt-limit,x\ny"),
            {
                rttLevel: "mandatory",
                waived: false,
                facts: ['Zone "emea-zone": perfguard:waive names "x\\ny", not a policy of this pack, so it waives nothing here.'],
            },
        ],
    ])("%s", async (_name, stack, expected) => {
        expect(await outcome(stack)).toEqual(expected);
    });

    it("the waived message quotes the reason with control characters escaped", async () => {
        const [v] = await runResourcePolicy(citrixZoneRttLimit, waiver("citrix-zone-rtt-limit", "CHG-1\u001b[2J"));
        expect(v.message).toContain('waived (perfguard:waiveReason in metadatas: "CHG-1\\u001b[2J")');
        // eslint-disable-next-line no-control-regex -- matching control characters is the point
        expect(/[\u0000-\u0009\u000b-\u001f]/.test(v.message)).toBe(false);
    });

    it("perfguard-facts cannot be waived: the unreadable fact stays mandatory and the waiver is reported", async () => {
        const stack = withZoneMetadata(citrixStack({ rttMs: "300ms" }), [
            { name: "perfguard:waive", value: "perfguard-facts" },
            { name: "perfguard:waiveReason", value: "we know" },
        ]);
        const found = await runResourcePolicy(perfguardFacts, stack);
        expect(found.map((v) => v.enforcementLevel)).toEqual(["mandatory", "mandatory"]);
        expect(problems(found)).toEqual([
            'Zone "emea-zone": perfguard:rttMs has "300ms", not a plain decimal in range, so the checks that need it do not run.',
            'Zone "emea-zone": perfguard:waive names perfguard-facts, which cannot be waived.',
        ]);
    });

    it("a waiver list applies to each named policy only", async () => {
        const stack = citrixStack({ throttles: ["12", undefined] });
        const controller = stack[3];
        Object.assign(controller.props.extraConfig as Record<string, string>, {
            "guestinfo.perfguard.waive": "citrix-site-limits, citrix-broker-throttle",
            "guestinfo.perfguard.waiveReason": "lab controller",
        });
        const [v] = await runStackPolicy(citrixBrokerThrottle, stack);
        expect(v.enforcementLevel).toBe("advisory");
        expect(v.message).toContain('waived (perfguard:waiveReason in extraConfig: "lab controller")');
    });

    it("POLICY_IDS lists the registry, so waivers do not depend on which policies a process loaded", () => {
        expect([...POLICY_IDS].sort()).toEqual(policies.map((p) => p.name).sort());
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
        expect(
            remediate([
                { key: "perfguard:waive", values: ["nsx-alb-se-dedicated-dispatcher"] },
                { key: "perfguard:waiveReason", values: ["vendor-tuned SEs"] },
            ]),
        ).toBeUndefined();
    });
});
