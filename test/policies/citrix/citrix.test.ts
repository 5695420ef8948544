import { describe, expect, it } from "vitest";
import type { Policy, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { maxSafeConcurrency, predictBrokering } from "../../../model/brokering";
import { CITRIX_GUIDANCE } from "../../../model/citrixGuidance";
import { citrixBrokerThrottle } from "../../../policies/citrix/citrix-broker-throttle";
import { citrixBrokeringCapacity } from "../../../policies/citrix/citrix-brokering-capacity";
import { citrixSiteLimits } from "../../../policies/citrix/citrix-site-limits";
import { citrixZoneRttLimit } from "../../../policies/citrix/citrix-zone-rtt-limit";
import { perfguardFacts } from "../../../policies/perfguard-facts";
import { duration } from "../../../policies/pack/format";
import { parseMessage } from "../../../policies/pack/message";
import { runPolicies, runResourcePolicy, runStackPolicy, TestResource, UNKNOWN_VALUE, verdicts, Violation } from "../../support/policyHarness";
import { citrixStack, ZONE } from "./citrixFixtures";

const CITRIX_POLICIES: Policy[] = [perfguardFacts, citrixZoneRttLimit, citrixBrokerThrottle, citrixBrokeringCapacity, citrixSiteLimits];

function runAll(resources: TestResource[], config: Record<string, Record<string, unknown>> = {}): Promise<Violation[]> {
    return runPolicies(CITRIX_POLICIES, resources, config);
}

const manyZones: TestResource[] = Array.from({ length: 50 }, (_, i) => ({ type: ZONE, name: `z${i}`, props: { name: `z${i}` } }));

describe("Citrix policies: a compliant baseline and one change per failing case", () => {
    const cases: Array<[string, TestResource[], string[], Record<string, Record<string, unknown>>?]> = [
        ["baseline (160 ms, 2 x 12 throttle, 20 at peak)", citrixStack(), []],
        ["zone at 260 ms", citrixStack({ rttMs: "260", throttles: ["4", "4"] }), ["citrix-zone-rtt-limit -> emea-zone"]],
        ["a controller without the throttle", citrixStack({ throttles: ["12", undefined] }), ["citrix-broker-throttle -> ddc-2"]],
        ["throttles summing above the safe concurrency", citrixStack({ throttles: ["20", "20"] }), ["citrix-broker-throttle -> emea-zone"]],
        [
            "throttles above the safe total plus an unthrottled controller",
            citrixStack({ throttles: ["20", "20", undefined] }),
            ["citrix-broker-throttle -> ddc-3", "citrix-broker-throttle -> emea-zone"],
        ],
        ["a logon storm too large for the window", citrixStack({ users: "20000" }), ["citrix-brokering-capacity -> emea-zone"]],
        [
            "peak above the targets without the throttle",
            citrixStack({ peak: "40", throttles: [undefined] }),
            ["citrix-broker-throttle -> ddc-1", "citrix-brokering-capacity -> emea-zone"],
        ],
        [
            "no controller in the stack: the throttle is not checked (fail closed, on the stack)",
            citrixStack({ throttles: [] }),
            ["citrix-broker-throttle -> (stack)"],
        ],
        [
            "no controller in the stack, peak above the safe concurrency",
            citrixStack({ throttles: [], peak: "30" }),
            ["citrix-broker-throttle -> (stack)", "citrix-brokering-capacity -> emea-zone"],
        ],
        [
            "controllers another stack manages, listed in externalControllers",
            citrixStack({ throttles: [] }),
            [],
            {
                "citrix-broker-throttle": {
                    externalControllers: {
                        emea: [
                            { name: "ddc-a", throttle: 12 },
                            { name: "ddc-b", throttle: 12 },
                        ],
                    },
                },
            },
        ],
        [
            "an external controller without a throttle",
            citrixStack({ throttles: [] }),
            ["citrix-broker-throttle -> emea-zone"],
            { "citrix-broker-throttle": { externalControllers: { emea: [{ name: "ddc-a", throttle: 12 }, { name: "ddc-b" }] } } },
        ],
        [
            "no controller, required in stack",
            citrixStack({ throttles: [], peak: "30" }),
            ["citrix-broker-throttle -> emea-zone", "citrix-brokering-capacity -> emea-zone"],
            { "citrix-broker-throttle": { requireControllersInStack: true } },
        ],
        ["too many machines in one zone", citrixStack({ machines: "10001" }), ["citrix-site-limits -> emea-zone"]],
        ["more than 50 zones", citrixStack({ extra: manyZones }), ["citrix-site-limits -> (stack)"]],
        [
            "two zones with more machines than maxVdasPerSite",
            citrixStack({ extra: manyZones.slice(0, 1) }),
            ["citrix-site-limits -> (stack)"],
            { "citrix-site-limits": { maxVdasPerSite: 499 } },
        ],
        ["two zones within maxVdasPerSite", citrixStack({ extra: manyZones.slice(0, 1) }), [], { "citrix-site-limits": { maxVdasPerSite: 500 } }],
        ["one zone above maxVdasPerSite: the per-zone limit judges it", citrixStack(), [], { "citrix-site-limits": { maxVdasPerSite: 499 } }],
        ["an unparseable RTT fact", citrixStack({ rttMs: "160ms" }), ["perfguard-facts -> emea-zone"]],
        ["a throttle of 0", citrixStack({ throttles: ["0", "12"] }), ["perfguard-facts -> ddc-1"]],
        ["RTT below requireAtRttMs: no throttle needed", citrixStack({ rttMs: "45", throttles: [undefined] }), []],
        ["stricter maxRttMs in config", citrixStack(), ["citrix-zone-rtt-limit -> emea-zone"], { "citrix-zone-rtt-limit": { maxRttMs: 150 } }],
    ];
    it.each(cases)("%s", async (_name, resources, expected, config) => {
        expect(verdicts(await runAll(resources, config))).toEqual([...expected].sort());
    });
});

describe("unknown values (preview)", () => {
    it("an unknown throttle makes the controller not evaluable, other zones still judged", async () => {
        const stack = citrixStack({ throttles: [UNKNOWN_VALUE, undefined] });
        expect(verdicts(await runAll(stack))).toEqual(["citrix-broker-throttle -> (stack)", "citrix-broker-throttle -> ddc-2"]);
    });
    it("unknown tags on a resource do not abort the stack verdicts", async () => {
        const stack = citrixStack({
            rttMs: "300",
            extra: [{ type: "vsphere:index/virtualMachine:VirtualMachine", name: "vm-x", props: { tags: UNKNOWN_VALUE } }],
        });
        const found = verdicts(await runAll(stack));
        expect(found).toContain("citrix-zone-rtt-limit -> emea-zone");
        expect(found.some((v) => v.includes("can't run"))).toBe(false);
    });
    it("a resource whose controller facts are unknown does not hide a zone without controllers", async () => {
        const stack = citrixStack({
            throttles: [],
            peak: "30",
            extra: [
                {
                    type: "vsphere:index/virtualMachine:VirtualMachine",
                    name: "vm-x",
                    props: { extraConfig: { "guestinfo.perfguard.citrixRole": UNKNOWN_VALUE } },
                },
            ],
        });
        const found = await runAll(stack, { "citrix-broker-throttle": { requireControllersInStack: true } });
        expect(verdicts(found)).toEqual(["citrix-broker-throttle -> emea-zone", "citrix-brokering-capacity -> emea-zone"]);
        expect(parseMessage(found[0].message).problem).toContain('Zone "emea-zone" (name "emea", 160 ms) has no Delivery Controller in this stack');
    });
    it("a catalog whose zone is unknown still joins through property dependencies", async () => {
        const stack = citrixStack({ machines: 12000 });
        const zoneProps = stack[1].props;
        expect(zoneProps.zone).toBe(UNKNOWN_VALUE);
        expect(verdicts(await runStackPolicy(citrixSiteLimits, stack))).toEqual(["citrix-site-limits -> emea-zone"]);
    });
});

describe("config", () => {
    it.each([
        [
            "citrix-zone-rtt-limit",
            citrixZoneRttLimit as Policy,
            { maxRttMs: -5 },
            /invalid config for policy citrix-zone-rtt-limit: field maxRttMs must be > 0 \(got -5\)/,
        ],
        ["citrix-broker-throttle", citrixBrokerThrottle as Policy, { errorBudgetPct: 150 }, /field errorBudgetPct must be <= 100 \(got 150\)/],
        [
            "citrix-broker-throttle",
            citrixBrokerThrottle as Policy,
            { requireControllersInStack: "yes" },
            /field requireControllersInStack must be boolean \(got "yes"\)/,
        ],
        ["citrix-site-limits", citrixSiteLimits as Policy, { maxVdasPerZone: 1.5 }, /field maxVdasPerZone must be integer/],
    ])("rejects bad config of %s", async (_name, policy, config, pattern) => {
        const found = !("validateResource" in policy && policy.validateResource)
            ? await runStackPolicy(policy as StackValidationPolicy, citrixStack({ rttMs: "300" }), config)
            : await runResourcePolicy(policy as ResourceValidationPolicy, citrixStack({ rttMs: "300" }), config);
        expect(found).toHaveLength(1);
        expect(found[0].enforcementLevel).toBe("mandatory");
        expect(found[0].message).toMatch(pattern);
    });
    it("reports an unknown key of a resource policy once, on the first resource analyzed, even with no resource of its type", async () => {
        // The engine analyzes the root stack resource first, so the report lands on the stack.
        const found = await runResourcePolicy(
            citrixZoneRttLimit,
            [
                { type: "pulumi:pulumi:Stack", name: "perfguard-test-dev", props: {} },
                { type: "vsphere:index/virtualMachine:VirtualMachine", name: "vm", props: {} },
            ],
            { maxRtt: 100 },
        );
        expect(verdicts(found)).toEqual(["citrix-zone-rtt-limit -> (stack)"]); // no URN: the engine shows it on the analyzed resource
        expect(found[0].enforcementLevel).toBe("mandatory");
        expect(found[0].message).toContain('unknown config key "maxRtt" for policy citrix-zone-rtt-limit');
    });
    it("reports an unknown key once and still runs", async () => {
        const found = await runResourcePolicy(citrixZoneRttLimit, [...citrixStack({ rttMs: "300" }), ...citrixStack({ rttMs: "300" })], { maxRtt: 100 });
        const typo = found.filter((v) => v.message.includes("unknown config key"));
        expect(typo).toHaveLength(1);
        expect(typo[0].message).toMatch(
            /"maxRtt" for policy citrix-zone-rtt-limit[\s\S]*Fix: "maxRtt": did you mean "maxRttMs"\? \(accepted keys are maxRttMs/,
        );
        expect(found.filter((v) => v.message.includes("300 ms"))).toHaveLength(2);
    });
});

describe("messages: problem line and fix, asserted separately", () => {
    it("citrix-zone-rtt-limit", async () => {
        const [v] = await runResourcePolicy(citrixZoneRttLimit, citrixStack({ rttMs: "260" }));
        const m = parseMessage(v.message);
        expect(m.problem).toBe('Zone "emea-zone" (name "emea") is 260 ms from the Site database, at or above the 250 ms limit: launches time out under load.');
        expect(m.fix).toMatch(/^deploy a separate Site/);
        expect(m.basis.join(" ")).toContain("4.6% at 36, 42.8% at 48, 99% at 60 concurrent requests");
    });
    it("citrix-broker-throttle proposes the per-controller value from the model", async () => {
        // The model's 25 at 160 ms, bounded by the source's advice of at most 24 there.
        const safe = Math.min(maxSafeConcurrency({ rttMs: 160, targetResponseS: 12, errorBudget: 0.001 }), CITRIX_GUIDANCE.at160msMaxConcurrent);
        expect(safe).toBe(24);
        const [unset] = await runStackPolicy(citrixBrokerThrottle, citrixStack({ peak: "40", throttles: ["12", undefined] }));
        const m = parseMessage(unset.message);
        expect(m.problem).toBe(
            `Delivery Controller "ddc-2" of zone "emea-zone" (name "emea", 160 ms) sets no brokering throttle: its peak of 40 exceeds the ${safe} one lock sustains.`,
        );
        expect(m.fix).toContain(`to ${Math.floor(safe / 2)} on each of zone "emea-zone"'s 2 Delivery Controllers`);
        const [sum] = await runStackPolicy(citrixBrokerThrottle, citrixStack({ throttles: ["20", "20"] }));
        expect(parseMessage(sum.message).problem).toBe(
            `Zone "emea-zone" (name "emea"): the throttles of 2 Delivery Controllers can put 40 concurrent requests on its lock, above the ${safe} it sustains.`,
        );
    });
    it("citrix-broker-throttle says when the declared peak already meets the targets", async () => {
        const [v] = await runStackPolicy(citrixBrokerThrottle, citrixStack({ peak: "20", throttles: ["12", undefined] }));
        const m = parseMessage(v.message);
        expect(m.problem).toBe(
            'Delivery Controller "ddc-2" of zone "emea-zone" (name "emea", 160 ms) sets no brokering throttle: nothing caps a logon storm above its peak of 20.',
        );
        expect(m.basis.join("\n")).toContain("the declared peak of 20 is within the 24 its most exposed lock sustains");
    });
    it("three unthrottled controllers: one cause, one verdict, on the zone, naming them", async () => {
        const found = await runStackPolicy(citrixBrokerThrottle, citrixStack({ throttles: [undefined, undefined, undefined] }));
        expect(verdicts(found)).toEqual(["citrix-broker-throttle -> emea-zone"]);
        const zone = found[0];
        expect(parseMessage(zone.message).fix).toMatch(/to 8 on each of zone "emea-zone"'s 3 Delivery Controllers/);
        expect(parseMessage(zone.message).basis).toContain('without a throttle: "ddc-1", "ddc-2", "ddc-3"');
    });
    it("citrix-brokering-capacity names each exceeded target", async () => {
        const [v] = await runStackPolicy(citrixBrokeringCapacity, citrixStack({ users: "20000" }));
        // Launch time at the successful rate: a timed-out launch is retried.
        const p = predictBrokering({ rttMs: 160, concurrency: 20 });
        const m = parseMessage(v.message);
        expect(m.problem).toBe(`Zone "emea-zone" (name "emea"): at 20 concurrent launches, 20000 users in ${duration(20000 / p.successfulPerS)} > 60 min.`);
        // A zone without a Delivery Group has none to split: its users go to several.
        expect(m.fix).toMatch(/^even at \d+ concurrent requests its lock takes .*: spread its users over several Delivery Groups \(one lock each\)/);
        expect(m.fix).not.toContain("Site");
    });
    it("every problem line is at most 160 characters", async () => {
        const all = await runAll(citrixStack({ rttMs: "300", peak: "60", throttles: [undefined, undefined], users: "50000", machines: 20000 }));
        expect(all.length).toBeGreaterThan(3);
        for (const v of all) {
            expect(parseMessage(v.message).problem.length, parseMessage(v.message).problem).toBeLessThanOrEqual(160);
        }
    });
    it("never echoes other property values", async () => {
        const stack = citrixStack({ rttMs: "300", peak: "60", throttles: [undefined], users: "50000", machines: 20000 });
        stack[0].props.description = "SECRET-MARKER-123";
        const all = await runAll(stack);
        expect(all.length).toBeGreaterThan(3);
        for (const v of all) {
            expect(v.message).not.toContain("SECRET-MARKER");
        }
    });
});

describe("joining controllers to zones", () => {
    it("the zone's name input wins over another zone's Pulumi name", async () => {
        // Zone "amb" (Pulumi name, 10 ms) and zone "amb-other" whose name input is "amb" (200 ms).
        const stack: TestResource[] = [
            { type: ZONE, name: "amb", props: { name: "ambient", metadata: [{ name: "perfguard:rttMs", value: "10" }] } },
            { type: ZONE, name: "amb-other", props: { name: "amb", metadata: [{ name: "perfguard:rttMs", value: "200" }] } },
            {
                type: "vsphere:index/virtualMachine:VirtualMachine",
                name: "ddc",
                props: { tags: ["perfguard:citrixRole=deliveryController", "perfguard:citrixZone=amb"] },
            },
        ];
        const found = await runStackPolicy(citrixBrokerThrottle, stack, { requireControllersInStack: true });
        expect(verdicts(found)).toEqual(["citrix-broker-throttle -> ddc"]);
        expect(parseMessage(found[0].message).problem).toContain('of zone "amb-other" (name "amb", 200 ms) sets no brokering throttle');
    });
});
