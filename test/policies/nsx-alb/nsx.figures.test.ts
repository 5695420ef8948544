/**
 * nsxAlbFigures: the NSX ALB evaluation in the cross-system shape (policies/pack/figures.ts) that
 * `perfguard diff` reads: the same figures the verdicts state, and "not checked" with its reason.
 */
import { describe, expect, it } from "vitest";
import { nsxAlbEvaluation } from "../../../policies/nsx-alb/evaluation";
import { groupFigures, nsxAlbFigures } from "../../../policies/nsx-alb/figures";
import { limitingName } from "../../../policies/nsx-alb/names";
import type { EntityFigures } from "../../../policies/pack/figures";
import { runStackPolicy, TestResource } from "../../support/policyHarness";
import { nsxAlbSeCapacity } from "../../../policies/nsx-alb/nsx-alb-se-capacity";
import { groupStack, nsxStack, SE_GROUP, stackViewOf, VS } from "./nsxFixtures";
import { nsxAlbSection } from "../../../cli/report/nsxAlb";

function figure(all: EntityFigures[], id: string, key: string) {
    return all.find((e) => e.id === id)?.figures.find((f) => f.key === key);
}

/** The busiest SE's load: the row of the metric that limits it, labelled as the busiest SE. */
function busiest(all: EntityFigures[], id: string) {
    return all.find((e) => e.id === id)?.figures.find((f) => f.label.startsWith("busiest SE (limited by"));
}

const AS: TestResource[] = [
    {
        type: SE_GROUP,
        name: "pair-seg",
        props: { name: "pair", vcpusPerSe: "4", memoryPerSe: "4096", haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY", distributeLoadActiveStandby: "true" },
    },
    ...["a", "b"].map((n): TestResource => ({
        type: VS,
        name: n,
        props: {
            name: n,
            seGroupRef: "/api/serviceenginegroup/?name=pair",
            services: [{ port: "443", enableSsl: "true" }],
            markers: [{ key: "perfguard:sslTps", values: ["1430"] }],
        },
    })),
];

describe("nsxAlbFigures", () => {
    it("gives each SE group's busiest SE as the verdict states it, and the steady state beside it", async () => {
        const all = nsxAlbFigures(stackViewOf(AS));
        // Two SSL VSs: CPU carries the load, so the CPU row is the busiest SE's (one row, not two).
        expect(busiest(all, "pair")).toMatchObject({
            key: "busiestSeCpuPct",
            label: "busiest SE (limited by SSL TPS)",
            unit: "%",
            better: "lower",
            text: "110%",
        });
        expect(busiest(all, "pair")?.value).toBeCloseTo(110, 9);
        expect(all.find((e) => e.id === "pair")?.figures.map((f) => f.key)).toEqual([
            "busiestSeCpuPct",
            "busiestSeThroughputPct",
            "busiestSeOpenConnectionsPct",
            "busiestSeIngressPct",
            "sesNeeded",
            "steadyStateSePct",
            "requiredVcpusPerSe",
        ]);
        expect(figure(all, "pair", "steadyStateSePct")?.text).toBe("55%");
        expect(figure(all, "pair", "requiredVcpusPerSe")?.value).toBe(6);
        const [v] = await runStackPolicy(nsxAlbSeCapacity, AS);
        expect(v.message).toContain(`busiest SE ${busiest(all, "pair")?.text}`);
        // Each VS is half the surviving SE's load: a quantity of its own, so its own row.
        expect(figure(all, "a", "vsPeakPct")?.text).toBe("55%");
    });
    it("says why a figure is not computed: a VS whose group is not in the stack", () => {
        const all = nsxAlbFigures(stackViewOf(nsxStack()));
        const intranet = all.find((e) => e.id === "intranet-vs") as EntityFigures;
        expect(intranet.kind).toBe("virtualService");
        expect(intranet.figures).toEqual([]);
        expect(intranet.notChecked).toContain("names an SE group this stack does not declare: other stacks' load on it is unknown");
        expect(busiest(all, "web")?.value).toBeGreaterThan(0);
    });
    it("prints a VS's need once: on the busiest SE's row when it alone makes that load", () => {
        const all = nsxAlbFigures(stackViewOf(nsxStack()));
        // shop is the busiest SE's CPU and api its throughput: their own rows would repeat those numbers.
        expect(busiest(all, "web")).toMatchObject({
            key: "busiestSeCpuPct",
            label: "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs)",
        });
        expect(figure(all, "web", "busiestSeThroughputPct")?.label).toBe("busiest SE throughput (the need of api-vs)");
        expect(all.filter((e) => e.id === "shop-vs" || e.id === "api-vs").map((e) => e.figures)).toEqual([[], []]);
    });
    // A VS's own figure says which SE it is about: under native scale-out with ingress limiting, its
    // primary SE (all its ingress), not the spread over its SEs; the SE count in words.
    it.each([
        ["baseline: 1 SE per VS", {}, {}, "needs of its 1 SE", (2 / 9.5) * 100],
        [
            "3 SEs per VS, native scale-out: the primary SE's ingress",
            { minScaleoutPerVs: "3", maxScaleoutPerVs: "3" },
            {},
            "needs of its primary SE's throughput (1 of its 3 SEs; ingress not spread)",
            (2 / 9.5) * 100,
        ],
        [
            "3 SEs per VS with scaleoutEcmp: spread over its SEs",
            { minScaleoutPerVs: "3", maxScaleoutPerVs: "3" },
            { scaleoutEcmp: "true" },
            "needs of its 3 SEs",
            (2 / 9.5 / 3) * 100,
        ],
        ["2 SEs per VS with scaleoutEcmp: plural", { minScaleoutPerVs: "2" }, { scaleoutEcmp: "true" }, "needs of its 2 SEs", (2 / 9.5 / 2) * 100],
    ])("labels a VS's peak by the SE it is about: %s", (_label, group, vs, label, valuePct) => {
        // Two L4 VSs of 2 Gbps, packed on 4 vCPU SEs (9.5 Gbps L4): the busiest SE holds both, so each VS is its own row.
        const resources: TestResource[] = [
            {
                type: SE_GROUP,
                name: "g-seg",
                props: {
                    name: "g",
                    vcpusPerSe: "4",
                    memoryPerSe: "4096",
                    maxSe: "10",
                    bufferSe: "1",
                    haMode: "HA_MODE_SHARED",
                    algo: "PLACEMENT_ALGO_PACKED",
                    ...group,
                },
            },
            ...["a", "b"].map((n): TestResource => ({
                type: VS,
                name: n,
                props: {
                    name: n,
                    seGroupRef: "/api/serviceenginegroup?name=g",
                    services: [{ port: "80" }],
                    ...vs,
                    markers: [{ key: "perfguard:throughputGbps", values: ["2"] }],
                },
            })),
        ];
        const f = figure(nsxAlbFigures(stackViewOf(resources)), "a", "vsPeakPct");
        expect(f?.label).toBe(label);
        expect(f?.value).toBeCloseTo(valuePct, 9);
    });
    // The SE size's label (measured row, interpolated, extrapolated) and memory-scaled open connections
    // reach every consumer: the figures' labels (diff prints them) and the report's size cell.
    it.each([
        [
            "baseline: the 4 vCPU row, measured",
            {},
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs)",
            "| web-seg | 4 vCPU, 4 GB |",
            (1000 / 2600 + 30000 / 150000 + 1 / 7.2) * 100,
        ],
        [
            "5 vCPUs: interpolated",
            { vcpusPerSe: "5", memoryPerSe: "5120", diskPerSe: "35" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs; per-SE figures interpolated between table rows)",
            "| web-seg | 5 vCPU, 5 GB (interpolated) |",
            (1000 / 3300 + 30000 / 167500 + 1 / 8.6) * 100,
        ], // the midpoints of the 4 and 6 vCPU rows
        [
            "8 vCPUs: extrapolated",
            { vcpusPerSe: "8", memoryPerSe: "8192", diskPerSe: "40" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs; per-SE figures extrapolated beyond the 6 vCPU row (CPU-bound ones linear per vCPU, the favourable reading): not measured)",
            "| web-seg | 8 vCPU, 8 GB (extrapolated, not measured; open connections scaled by memory: not measured) |",
            // The favourable reading the verdicts rest on: RSA TPS and RPS linear per vCPU from the 6 vCPU row
            // (4000 x 8/6, 185000 x 8/6) and SSL throughput too, CPU bound (10 Gbps x 8/6), up to the
            // plain L7 throughput held at the 6 vCPU row (12 Gbps)
            (1000 / ((4000 * 8) / 6) + 30000 / ((185000 * 8) / 6) + 1 / Math.min((10 * 8) / 6, 12)) * 100,
        ],
        [
            "4 vCPUs with 8 GB: open connections scaled by memory",
            { memoryPerSe: "8192" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs)",
            "| web-seg | 4 vCPU, 8 GB (open connections scaled by memory: not measured) |",
            (1000 / 2600 + 30000 / 150000 + 1 / 7.2) * 100,
        ],
        // The 1 and 2 vCPU rows were measured without a dedicated dispatcher: with one, 1 proxy core is left: the 1 vCPU row.
        [
            "2 vCPUs with a dedicated dispatcher",
            { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs; dedicated dispatcher: judged on the 1 vCPU row of proxy cores, not measured)",
            "| web-seg | 2 vCPU, 2 GB (dedicated dispatcher: judged on the 1 vCPU row of proxy cores, not measured) |",
            (1000 / 950 + 30000 / 58000 + 1 / 2.6) * 100,
        ],
        [
            "2 vCPUs without a dedicated dispatcher (the row as measured)",
            { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20", dedicatedDispatcherCore: "false" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs)",
            "| web-seg | 2 vCPU, 2 GB |",
            (1000 / 1800 + 30000 / 80000 + 1 / 3.8) * 100,
        ],
        // Judged on the 2 vCPU row (vcpus - 1), not interpolated: the label says what the figure was computed from.
        [
            "3 vCPUs with a dedicated dispatcher: the 2 vCPU row",
            { vcpusPerSe: "3", memoryPerSe: "3072", diskPerSe: "25" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs; dedicated dispatcher: judged on the 2 vCPU row of proxy cores, not measured)",
            "| web-seg | 3 vCPU, 3 GB (dedicated dispatcher: judged on the 2 vCPU row of proxy cores, not measured) |",
            (1000 / 1800 + 30000 / 80000 + 1 / 3.8) * 100,
        ],
    ])("labels the size of the per-SE figures: %s", (_label, group, busiestLabel, reportCell, busiestPct) => {
        const stack = stackViewOf(nsxStack({ group }));
        const all = nsxAlbFigures(stack);
        const b = busiest(all, "web");
        expect(b?.label).toBe(busiestLabel);
        expect(b?.value).toBeCloseTo(busiestPct, 9);
        const scaled = "memoryPerSe" in group && group.memoryPerSe === "8192";
        expect(figure(all, "web", "busiestSeOpenConnectionsPct")?.label.endsWith("open connections scaled by memory: not measured)")).toBe(scaled);
        expect(nsxAlbSection(stack, {})).toContain(reportCell);
    });
    it("labels the size a fix names", () => {
        // shop at 4000 RSA TPS: the fix names an 11 vCPU SE (the 4-to-6 slope: RPS +17,500 per vCPU, not the average), beyond the table's rows.
        const all = nsxAlbFigures(stackViewOf(nsxStack({ shop: { sslTps: "4000" } })));
        expect(figure(all, "web", "requiredVcpusPerSe")).toMatchObject({ label: "vcpusPerSe the fix names (extrapolated)", value: 11, text: "11" });
        expect(figure(nsxAlbFigures(stackViewOf(AS)), "pair", "requiredVcpusPerSe")?.label).toBe("vcpusPerSe the fix names (measured)");
    });
    it("is computed once per stack object and config", () => {
        const stack = stackViewOf(AS);
        expect(nsxAlbEvaluation(stack, { headroomPct: 20 })).toBe(nsxAlbEvaluation(stack));
        expect(nsxAlbEvaluation(stack, { headroomPct: 30 })).not.toBe(nsxAlbEvaluation(stack));
        expect(nsxAlbEvaluation(stackViewOf(AS))).not.toBe(nsxAlbEvaluation(stack));
    });
});

// The expert review's findings on the figures and the report (formerly nsx.review.test.ts).
/** N+M, 2 vCPU SEs (1800 RSA TPS each), each VS on 2 SEs, maxSe 2, bufferSe 0, packed. */
const NM0 = {
    vcpusPerSe: "2",
    memoryPerSe: "2048",
    diskPerSe: "20",
    haMode: "HA_MODE_SHARED",
    maxSe: "2",
    bufferSe: "0",
    minScaleoutPerVs: "2",
    maxScaleoutPerVs: "2",
};

describe("N+M with bufferSe 0: the figures after one SE fails", () => {
    it("the figures and the report state the survivor's load, the steady state beside it", () => {
        const view = stackViewOf(groupStack(NM0, [{ sslTps: "2160", sslKeyType: "rsa" }]));
        const [e] = nsxAlbEvaluation(view).groups;
        const f = groupFigures(e, nsxAlbEvaluation(view).config);
        expect(f?.busiestSe.peak).toBeCloseTo(1.2, 9);
        expect(f?.steadyState?.peak).toBeCloseTo(0.6, 9);
        expect(f?.fits).toBe(false);
        expect(f?.fixOptions).toEqual(['set bufferSe "1", maxSe "3"']);
        const busiest = nsxAlbFigures(view)
            .find((x) => x.id === "g")
            ?.figures.find((x) => x.label.startsWith("busiest SE after one SE fails"));
        expect(busiest?.text).toBe("120%");
        expect(nsxAlbSection(view, {})).toContain('| 120% (SSL TPS) | 60% | set bufferSe "1", maxSe "3" |');
    });
});

const L4 = "/api/applicationprofile/?name=System-L4-Application";

/** 6 vCPU N+M, each VS on 3 SEs: 15 Gbps L4 binds on the primary SE's ingress (native scale-out). */
const SO = {
    vcpusPerSe: "6",
    memoryPerSe: "6144",
    diskPerSe: "40",
    dedicatedDispatcherCore: "true",
    haMode: "HA_MODE_SHARED",
    maxSe: "4",
    bufferSe: "1",
    minScaleoutPerVs: "3",
    maxScaleoutPerVs: "3",
};

describe("the report's fix column shows the verdict's fix, VS-level ones too", () => {
    const cases: Array<[string, Record<string, string>, Record<string, unknown>, string]> = [
        ["baseline: scaleoutEcmp on the VS, fits", { throughputGbps: "15" }, { scaleoutEcmp: "true" }, "| fits |"],
        [
            "no direction, no ECMP: declare the direction or set scaleoutEcmp",
            { throughputGbps: "15" },
            {},
            '| declare perfguard:ingressPct on its VSs; or set scaleoutEcmp "true" on its VSs |',
        ],
        ["direction given (ingress 90%), no ECMP: set scaleoutEcmp", { throughputGbps: "15", ingressPct: "90" }, {}, '| set scaleoutEcmp "true" on its VSs |'],
    ];
    it.each(cases)("%s", (_name, facts, props, cellText) => {
        const section = nsxAlbSection(stackViewOf(groupStack(SO, [facts], { services: [{ port: "80" }], applicationProfileRef: L4, ...props })), {});
        expect(section).toContain(cellText);
        expect(section).not.toContain("nothing within the provider's ranges");
    });
});

describe("a CPU figure summed over kinds of load is named as a sum", () => {
    // 2 vCPU N+M: 1800 RSA TPS, 40000 L7 RPS per SE (NSX ALB 20.1.6 table).
    const G = { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20", maxSe: "4", bufferSe: "1" };
    const cases: Array<[string, Record<string, string>, string]> = [
        ["baseline: SSL TPS alone", { sslTps: "1000", sslKeyType: "rsa" }, "SSL TPS"],
        ["SSL TPS + L7 RPS: summed", { sslTps: "1000", sslKeyType: "rsa", l7Rps: "10000" }, "CPU total (summed, not measured)"],
        ["L7 RPS alone", { l7Rps: "10000" }, "L7 RPS"],
    ];
    it.each(cases)("%s", (_name, facts, name) => {
        const view = stackViewOf(groupStack(G, [facts]));
        const [e] = nsxAlbEvaluation(view).groups;
        const f = groupFigures(e, nsxAlbEvaluation(view).config);
        expect(limitingName(f?.busiestSe as NonNullable<typeof f>["busiestSe"])).toBe(name);
        expect(nsxAlbSection(view, {})).toContain(`(${name}) |`);
    });
});
