/**
 * perfguard-facts (policies/perfguard-facts.ts): facts that cannot be read, reported once per
 * resource wherever the engine shows them, each problem line within 160 characters. The fact
 * readers it rests on are tested in test/policies/facts.test.ts.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { parseMessage } from "../../policies/pack/message";
import { perfguardFacts } from "../../policies/perfguard-facts";
import { runResourcePolicy, runStackPolicy, TestResource, UNKNOWN_VALUE, urnOf, Violation } from "../support/policyHarness";

const VSPHERE_VM = "vsphere:index/virtualMachine:VirtualMachine";
const XEN_VM = "xenorchestra:index/vm:Vm";
const ZONE = "citrix:index/zone:Zone";

describe("perfguard-facts: wherever the engine shows facts, once per resource", () => {
    const DOM0 = "perfguard:example:Dom0Service";
    const analyzeOnly = { ...perfguardFacts, validateStack: undefined } as unknown as ResourceValidationPolicy;
    /** Analyze on the inputs, then AnalyzeStack on the outputs, in one process (one preview). */
    async function preview(inputs: TestResource[], outputs: TestResource[]): Promise<Violation[]> {
        return [...(await runResourcePolicy(analyzeOnly, inputs)), ...(await runStackPolicy(perfguardFacts, outputs))];
    }
    const component = (tags: unknown): TestResource => ({ type: DOM0, name: "backup", props: tags === undefined ? {} : { tags } });
    const bad = ["perfguard:xenDomain=dom0", "perfguard:networkMBps=60MB/s"];
    const good = ["perfguard:xenDomain=dom0", "perfguard:networkMBps=60"];
    const BAD_PROBLEM = 'Dom0Service "backup": perfguard:networkMBps has "60MB/s", not a plain decimal in range, so the checks that need it do not run.';
    it.each<[string, TestResource[], TestResource[], string[]]>([
        ["baseline: good facts in inputs and outputs", [component(good)], [component(good)], []],
        ["facts only in the outputs (a component that publishes them)", [component(undefined)], [component(bad)], [`mandatory ${BAD_PROBLEM}`]],
        ["the same bad value in inputs and outputs: once", [component(bad)], [component(bad)], [`mandatory ${BAD_PROBLEM}`]],
        ["bad in the inputs only", [component(bad)], [component(good)], [`mandatory ${BAD_PROBLEM}`]],
        [
            "a fact no policy reads there: advisory, in AnalyzeStack",
            [component(["perfguard:rttMs=160"])],
            [component(["perfguard:rttMs=160"])],
            ['advisory Dom0Service "backup": perfguard:rttMs has no effect here: no policy reads it on this resource.'],
        ],
    ])("%s", async (_name, inputs, outputs, expected) => {
        const found = await preview(inputs, outputs);
        expect(found.map((v) => `${v.enforcementLevel} ${parseMessage(v.message).problem}`)).toEqual(expected);
        expect(found.every((v) => v.urn === urnOf(DOM0, "backup"))).toBe(true);
    });

    it("a long misspelt key keeps the key and the suggestion on the problem line", async () => {
        const zone: TestResource = {
            type: "citrix:index/zone:Zone",
            name: "paris-zone",
            props: { metadatas: [{ name: "perfguard:peakConcurentLaunches", value: "50" }] },
        };
        const found = await preview([zone], []);
        expect(found.map((v) => `${v.enforcementLevel} ${parseMessage(v.message).problem}`)).toEqual([
            'mandatory Zone "paris-zone": "perfguard:peakConcurentLaunches" is not a fact key (did you mean perfguard:peakConcurrentLaunches?); its check does not run.',
        ]);
    });

    it("a misplaced fact names the types that read it", async () => {
        const [v] = await preview([], [{ type: VSPHERE_VM, name: "vm", props: { extraConfig: { "guestinfo.perfguard.rttMs": "160" } } }]);
        expect(parseMessage(v.message).basis).toEqual(["perfguard:rttMs is read on citrix:index/zone:Zone"]);
    });

    it("a near miss on many resources: one violation per key, on the first by URN, naming the first three", async () => {
        const stack = Array.from({ length: 50 }, (_, i): TestResource => ({
            type: XEN_VM,
            name: `vm-${String(i).padStart(2, "0")}`,
            props: { tags: ["perfguard-rttMs=160", "perfguard-exempt=true", "perfguard.version=2"] },
        }));
        for (const order of [stack, [...stack].reverse()]) {
            const found = await preview(order, order);
            expect(found).toHaveLength(1);
            const m = parseMessage(found[0].message);
            expect(m.problem).toBe(
                '50 resources: "perfguard-rttMs" is not read as a fact (did you mean perfguard:rttMs?), so the check that needs it does not run.',
            );
            expect(m.fix).toBe("rename it perfguard:rttMs (prefix perfguard: or perfguard_, any case, no spaces).");
            expect(m.basis).toContain('on Vm "vm-00", Vm "vm-01", Vm "vm-02" and 47 more');
            expect(found[0].urn).toBe(urnOf(XEN_VM, "vm-00"));
            expect(found[0].enforcementLevel).toBe("mandatory");
        }
    });

    it("a perfguard: string in a vSphere VM's tags: read, and reported (the apply would fail), naming the carrier", async () => {
        const vm: TestResource = { type: VSPHERE_VM, name: "ddc-1", props: { tags: ["perfguard:citrixRole=deliveryController"] } };
        const [v, ...rest] = await preview([vm], [vm]);
        expect(rest).toEqual([]);
        expect(v.enforcementLevel).toBe("mandatory");
        const m = parseMessage(v.message);
        expect(m.problem).toBe('VirtualMachine "ddc-1": tags carries a fact but holds vSphere tag ids, so the apply would fail.');
        expect(m.fix).toContain('extraConfig "guestinfo.perfguard.<key>"');
    });

    it("a bad value on an attached vSphere tag is reported on the VM, from AnalyzeStack", async () => {
        const tag: TestResource = { type: "vsphere:index/tag:Tag", name: "throttle", props: { name: "perfguard:throttleMaxConcurrentTransactions=lots" } };
        const vm: TestResource = {
            type: VSPHERE_VM,
            name: "ddc-1",
            props: { tags: [UNKNOWN_VALUE], extraConfig: { "guestinfo.perfguard.citrixRole": "deliveryController" } },
            propertyDependencies: { tags: ["throttle"] },
        };
        const found = await preview([vm, tag], [vm, tag]);
        expect(found.map((v) => [v.urn, parseMessage(v.message).problem])).toEqual([
            [
                urnOf(VSPHERE_VM, "ddc-1"),
                'VirtualMachine "ddc-1": perfguard:throttleMaxConcurrentTransactions is not a whole number in range; its checks do not run.',
            ],
        ]);
    });
});

describe("perfguard-facts: every problem line fits in 160 characters", () => {
    const LONG = "ddc-" + "emea-east-satellite-".repeat(3) + "01";
    const heavy: TestResource[] = [
        {
            type: VSPHERE_VM,
            name: LONG,
            props: {
                tags: [
                    "perfguard:citrixRole=deliveryController",
                    "perfguard:citrixZone=emea",
                    `perfguard-throttleMaxConcurrentTransactions${"x".repeat(40)}=1`,
                ],
                extraConfig: {
                    "guestinfo.perfguard.throttleMaxConcurrentTransactions": "x".repeat(300),
                    "guestinfo.perfguard.rttMs": "160",
                    "guestinfo.perfguard.users": "5",
                    "guestinfo.perfguard.sslTps": "5",
                    "guestinfo.perfguard.waive": `citrix-zone-rtt-limit, ${"not-a-policy-".repeat(6)}`,
                },
            },
        },
        {
            type: ZONE,
            name: LONG,
            props: {
                metadatas: [
                    { name: "perfguard:citrixRole", value: "deliveryControler" },
                    { name: "perfguard:waive", value: "citrix-zone-rtt-limit" },
                ],
            },
        },
    ];
    it("with a long name, the longest key and long values: shortened, with the full phrase in the basis", async () => {
        const found = await runResourcePolicy(perfguardFacts, heavy);
        expect(found.length).toBeGreaterThanOrEqual(6);
        for (const v of found) {
            const m = parseMessage(v.message);
            expect(m.problem.length, m.problem).toBeLessThanOrEqual(160);
            expect(m.fix?.length ?? 0).toBeGreaterThan(0);
        }
        const throttle = found.map((v) => parseMessage(v.message)).find((m) => m.problem.includes("perfguard:throttleMaxConcurrentTransactions is not"));
        expect(throttle?.basis[0]).toBe(
            "perfguard:throttleMaxConcurrentTransactions has a value of 300 characters, not a whole number in range, so the checks that need it do not run.",
        );
    });
});
