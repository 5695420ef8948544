/**
 * What a figure was computed from, said on it: numDispatcherCores against the dispatcher layout
 * each row was measured with (4 vCPUs: 1 dispatcher core, 2 for its L4 throughput; 6 vCPUs: 2),
 * and the fix under packed placement (splitting a VS into several puts them on the same SE).
 * Table-driven: a compliant baseline, one change per case.
 */
import { describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { nsxAlbFigures } from "../../../policies/nsx-alb/figures";
import type { EntityFigures } from "../../../policies/pack/figures";
import { parseMessage } from "../../../policies/pack/message";
import { StackView, viewOf } from "../../../policies/pack/resources";
import { nsxAlbSection } from "../../../cli/report/nsxAlb";
import { runPolicies, TestResource, UNKNOWN_VALUE, urnOf, Violation } from "../../support/policyHarness";
import { SE_GROUP, VS } from "./nsxFixtures";

const NSX = policies.filter((p) => p.name.startsWith("nsx-") || p.name === "perfguard-facts");
const CAP = "nsx-alb-se-capacity";
const L4 = "/api/applicationprofile/?name=System-L4-Application";
const HTTP = "/api/applicationprofile/?name=System-HTTP";

/** An SE group and its VSs: web (L7 RPS) and tcp (L4 throughput). */
function stack(
    group: Record<string, unknown>,
    web: Record<string, string> = { l7Rps: "60000" },
    tcp: Record<string, string> = { throughputGbps: "3" },
): TestResource[] {
    const vs = (name: string, facts: Record<string, string>, profile: string): TestResource => ({
        type: VS,
        name,
        props: {
            name,
            seGroupRef: UNKNOWN_VALUE,
            applicationProfileRef: profile,
            markers: Object.entries(facts).map(([key, v]) => ({ key: `perfguard:${key}`, values: [v] })),
        },
        propertyDependencies: { seGroupRef: ["g-seg"] },
    });
    return [
        { type: SE_GROUP, name: "g-seg", props: { name: "g", cloudRef: "/api/cloud/?name=Default-Cloud", ...group } },
        vs("web", web, HTTP),
        vs("tcp", tcp, L4),
    ];
}

function stackOf(resources: readonly TestResource[]): StackView {
    return new StackView(
        resources.map((r) =>
            viewOf({
                urn: urnOf(r.type, r.name),
                type: r.type,
                name: r.name,
                props: r.props,
                propertyDependencies: Object.fromEntries(
                    Object.entries(r.propertyDependencies ?? {}).map(([p, names]) => [p, names.map((n) => ({ urn: urnOf(SE_GROUP, n) }))]),
                ),
            }),
        ),
    );
}

function label(all: EntityFigures[], key: string): string {
    return all.find((e) => e.id === "g")?.figures.find((f) => f.key === key)?.label ?? "";
}

/** 4 vCPU SEs at the tested size, dispatcher on, N+M, each VS on one SE, distributed. */
const G4 = {
    vcpusPerSe: "4",
    memoryPerSe: "4096",
    diskPerSe: "30",
    dedicatedDispatcherCore: "true",
    maxSe: "3",
    bufferSe: "1",
    minScaleoutPerVs: "1",
    maxScaleoutPerVs: "1",
    algo: "PLACEMENT_ALGO_DISTRIBUTED",
};
const CPU_OFF = "numDispatcherCores 2: the 4 vCPU row's CPU-bound figures measured with 1 dispatcher core, not measured";
const L4_OFF = "numDispatcherCores 1: the 4 vCPU row's L4 throughput measured with 2 dispatcher cores, not measured";

describe("numDispatcherCores against the dispatcher layout the row was measured with", () => {
    // [case, group fields, note on the CPU row ("" none), note on the throughput row]
    const cases: Array<[string, Record<string, string>, string, string]> = [
        ["baseline: not set (provider default 0: the Controller deduces it)", G4, "", ""],
        ["0 set literally", { ...G4, numDispatcherCores: "0" }, "", ""],
        // The 4 vCPU row's CPS/RPS/TPS were measured with 1 dispatcher core, its L4 throughput with 2.
        ["1: CPU figures as measured, L4 throughput not", { ...G4, numDispatcherCores: "1" }, "", L4_OFF],
        ["2: L4 throughput as measured, CPU figures not", { ...G4, numDispatcherCores: "2" }, CPU_OFF, ""],
        [
            "4: neither",
            { ...G4, numDispatcherCores: "4" },
            "numDispatcherCores 4: the 4 vCPU row's CPU-bound figures measured with 1 dispatcher core, not measured",
            "numDispatcherCores 4: the 4 vCPU row's L4 throughput measured with 2 dispatcher cores, not measured",
        ],
        [
            "6 vCPUs with 2: as measured (2 dispatcher + 4 proxy)",
            { ...G4, vcpusPerSe: "6", memoryPerSe: "6144", diskPerSe: "40", numDispatcherCores: "2" },
            "",
            "",
        ],
        [
            "2 vCPUs (no dedicated dispatcher) with 1: the table states no count",
            { ...G4, vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20", dedicatedDispatcherCore: "false", numDispatcherCores: "1" },
            "numDispatcherCores 1: the table states no dispatcher count for 2 vCPUs per SE, not measured",
            "numDispatcherCores 1: the table states no dispatcher count for 2 vCPUs per SE, not measured",
        ],
        [
            "unknown in the preview: not silently the default",
            { ...G4, numDispatcherCores: UNKNOWN_VALUE },
            "numDispatcherCores unknown in this preview: the dispatcher layout may not be the measured one, not measured",
            "numDispatcherCores unknown in this preview: the dispatcher layout may not be the measured one, not measured",
        ],
    ];
    it.each(cases)("%s", (_name, group, cpu, throughput) => {
        const view = stackOf(stack(group));
        const all = nsxAlbFigures(view);
        expect(label(all, "busiestSeCpuPct").includes("numDispatcherCores")).toBe(cpu !== "");
        expect(label(all, "busiestSeThroughputPct").includes("numDispatcherCores")).toBe(throughput !== "");
        if (cpu) {
            expect(label(all, "busiestSeCpuPct")).toContain(cpu);
            expect(nsxAlbSection(view, {})).toContain(cpu);
        }
        if (throughput) {
            expect(label(all, "busiestSeThroughputPct")).toContain(throughput);
        }
    });

    it("a verdict names it on a Basis line", async () => {
        // 130000 RPS is 86.7% of the 4 vCPU row's 150000 (limit 80%).
        const out = await runPolicies(NSX, stack({ ...G4, numDispatcherCores: "2" }, { l7Rps: "130000" }));
        const group = out.find((v) => v.policyName === CAP && v.urn === urnOf(SE_GROUP, "g-seg")) as Violation;
        expect(parseMessage(group.message).basis).toContain(CPU_OFF);
        const asMeasured = await runPolicies(NSX, stack(G4, { l7Rps: "130000" }));
        const plain = asMeasured.find((v) => v.policyName === CAP && v.urn === urnOf(SE_GROUP, "g-seg")) as Violation;
        expect(parseMessage(plain.message).basis.some((b) => b.includes("numDispatcherCores"))).toBe(false);
    });

    it.each([["3"], ["32"]])("numDispatcherCores %s is not one the provider allows: perfguard-facts reports it", async (value) => {
        const out = await runPolicies(NSX, stack({ ...G4, numDispatcherCores: value }));
        const facts = out.filter((v) => v.policyName === "perfguard-facts" && v.urn === urnOf(SE_GROUP, "g-seg"));
        expect(facts).toHaveLength(1);
        expect(facts[0].message).toContain(`numDispatcherCores "${value}"`);
    });
});

/** 4 vCPU SEs, each VS on 2 SEs (native scale-out, no ECMP): 9 Gbps L4 of all-ingress traffic binds on the primary SE (94.7% of 9.5). */
const SO = {
    vcpusPerSe: "4",
    memoryPerSe: "4096",
    diskPerSe: "30",
    dedicatedDispatcherCore: "true",
    maxSe: "8",
    bufferSe: "1",
    minScaleoutPerVs: "2",
    maxScaleoutPerVs: "2",
};

describe("what the fix offers for ingress-bound VSs follows the placement", () => {
    // [case, group fields, the fix says, the fix does not say]
    const cases: Array<[string, Record<string, string>, string, string]> = [
        // Distributed placement puts new VSs on other SEs: several VSs get several primaries.
        [
            "distributed: splitting over several VSs helps",
            { ...SO, algo: "PLACEMENT_ALGO_DISTRIBUTED" },
            "over several VSs (each with its own primary SE)",
            "packed placement",
        ],
        // Packed (compact) placement fills an SE up to maxVsPerSe first: the split VSs land on the same SE.
        [
            "packed (the provider default): the split alone moves no load",
            SO,
            'with algo "PLACEMENT_ALGO_DISTRIBUTED" (packed placement puts them on the same SE until maxVsPerSe',
            "(each with its own primary SE), or another",
        ],
    ];
    it.each(cases)("%s", async (_name, group, says, not) => {
        const out = await runPolicies(NSX, stack(group, { l7Rps: "1000" }, { throughputGbps: "9", ingressPct: "100" }));
        const msg = out.find((v) => v.policyName === CAP && v.urn === urnOf(SE_GROUP, "g-seg")) as Violation;
        const { fix } = parseMessage(msg.message);
        expect(fix).toContain(says);
        expect(fix).not.toContain(not);
    });
});
