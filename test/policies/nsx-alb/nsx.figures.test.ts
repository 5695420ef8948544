/**
 * nsxAlbFigures: the NSX ALB evaluation in the cross-system shape (policies/pack/figures.ts) that
 * `perfguard diff` reads: the same figures the verdicts state, and "not checked" with its reason.
 */
import { describe, expect, it } from "vitest";
import { nsxAlbEvaluation } from "../../../policies/nsx-alb/evaluation";
import { nsxAlbFigures } from "../../../policies/nsx-alb/figures";
import { StackView, viewOf } from "../../../policies/pack/resources";
import type { EntityFigures } from "../../../policies/pack/figures";
import { runStackPolicy, TestResource, urnOf } from "../../support/policyHarness";
import { nsxAlbSeCapacity } from "../../../policies/nsx-alb/nsx-alb-se-capacity";
import { nsxStack, SE_GROUP, VS } from "./nsxFixtures";
import { nsxAlbSection } from "../../../cli/report/nsxAlb";

function stackOf(resources: readonly TestResource[]): StackView {
    const urn = (name: string) => {
        const r = resources.find((x) => x.name === name) as TestResource;
        return urnOf(r.type, r.name);
    };
    return new StackView(resources.map((r) => viewOf({
        urn: urnOf(r.type, r.name), type: r.type, name: r.name, props: r.props,
        propertyDependencies: Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([p, names]) => [p, names.map((n) => ({ urn: urn(n) }))])),
    })));
}

function figure(all: EntityFigures[], id: string, key: string) {
    return all.find((e) => e.id === id)?.figures.find((f) => f.key === key);
}

/** The busiest SE's load: the row of the metric that limits it, labelled as the busiest SE. */
function busiest(all: EntityFigures[], id: string) {
    return all.find((e) => e.id === id)?.figures.find((f) => f.label.startsWith("busiest SE (limited by"));
}

const AS: TestResource[] = [
    { type: SE_GROUP, name: "pair-seg", props: { name: "pair", vcpusPerSe: "4", memoryPerSe: "4096", haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY", distributeLoadActiveStandby: "true" } },
    ...["a", "b"].map((n): TestResource => ({ type: VS, name: n, props: { name: n, seGroupRef: "/api/serviceenginegroup/?name=pair", services: [{ port: "443", enableSsl: "true" }], markers: [{ key: "perfguard:sslTps", values: ["1430"] }] } })),
];

describe("nsxAlbFigures", () => {
    it("gives each SE group's busiest SE as the verdict states it, and the steady state beside it", async () => {
        const all = nsxAlbFigures(stackOf(AS));
        // Two SSL VSs: CPU carries the load, so the CPU row is the busiest SE's (one row, not two).
        expect(busiest(all, "pair")).toMatchObject({ key: "busiestSeCpuPct", label: "busiest SE (limited by SSL TPS)", unit: "%", better: "lower", text: "110%" });
        expect(busiest(all, "pair")?.value).toBeCloseTo(110, 9);
        expect(all.find((e) => e.id === "pair")?.figures.map((f) => f.key)).toEqual(["busiestSeCpuPct", "busiestSeThroughputPct", "busiestSeOpenConnectionsPct", "busiestSeIngressPct", "sesNeeded", "steadyStateSePct", "requiredVcpusPerSe"]);
        expect(figure(all, "pair", "steadyStateSePct")?.text).toBe("55%");
        expect(figure(all, "pair", "requiredVcpusPerSe")?.value).toBe(6);
        const [v] = await runStackPolicy(nsxAlbSeCapacity, AS);
        expect(v.message).toContain(`busiest SE ${busiest(all, "pair")?.text}`);
        // Each VS is half the surviving SE's load: a quantity of its own, so its own row.
        expect(figure(all, "a", "vsPeakPct")?.text).toBe("55%");
    });
    it("says why a figure is not computed: a VS whose group is not in the stack", () => {
        const all = nsxAlbFigures(stackOf(nsxStack()));
        const intranet = all.find((e) => e.id === "intranet-vs") as EntityFigures;
        expect(intranet.kind).toBe("virtualService");
        expect(intranet.figures).toEqual([]);
        expect(intranet.notChecked).toContain("names an SE group this stack does not declare: other stacks' load on it is unknown");
        expect(busiest(all, "web")?.value).toBeGreaterThan(0);
    });
    it("prints a VS's need once: on the busiest SE's row when it alone makes that load", () => {
        const all = nsxAlbFigures(stackOf(nsxStack()));
        // shop is the busiest SE's CPU and api its throughput: their own rows would repeat those numbers.
        expect(busiest(all, "web")).toMatchObject({ key: "busiestSeCpuPct", label: "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs)" });
        expect(figure(all, "web", "busiestSeThroughputPct")?.label).toBe("busiest SE throughput (the need of api-vs)");
        expect(all.filter((e) => e.id === "shop-vs" || e.id === "api-vs").map((e) => e.figures)).toEqual([[], []]);
    });
    // A VS's own figure says which SE it is about: under native scale-out with ingress limiting, its
    // primary SE (all its ingress), not the spread over its SEs; the SE count in words.
    it.each([
        ["baseline: 1 SE per VS", {}, {}, "needs of its 1 SE", 2 / 9.5 * 100],
        ["3 SEs per VS, native scale-out: the primary SE's ingress", { minScaleoutPerVs: "3", maxScaleoutPerVs: "3" }, {},
            "needs of its primary SE's throughput (1 of its 3 SEs; ingress not spread)", 2 / 9.5 * 100],
        ["3 SEs per VS with scaleoutEcmp: spread over its SEs", { minScaleoutPerVs: "3", maxScaleoutPerVs: "3" }, { scaleoutEcmp: "true" },
            "needs of its 3 SEs", 2 / 9.5 / 3 * 100],
        ["2 SEs per VS with scaleoutEcmp: plural", { minScaleoutPerVs: "2" }, { scaleoutEcmp: "true" }, "needs of its 2 SEs", 2 / 9.5 / 2 * 100],
    ])("labels a VS's peak by the SE it is about: %s", (_label, group, vs, label, valuePct) => {
        // Two L4 VSs of 2 Gbps, packed on 4 vCPU SEs (9.5 Gbps L4): the busiest SE holds both, so each VS is its own row.
        const resources: TestResource[] = [
            { type: SE_GROUP, name: "g-seg", props: { name: "g", vcpusPerSe: "4", memoryPerSe: "4096", maxSe: "10", bufferSe: "1", haMode: "HA_MODE_SHARED", algo: "PLACEMENT_ALGO_PACKED", ...group } },
            ...["a", "b"].map((n): TestResource => ({ type: VS, name: n, props: { name: n, seGroupRef: "/api/serviceenginegroup?name=g", services: [{ port: "80" }], ...vs,
                markers: [{ key: "perfguard:throughputGbps", values: ["2"] }] } })),
        ];
        const f = figure(nsxAlbFigures(stackOf(resources)), "a", "vsPeakPct");
        expect(f?.label).toBe(label);
        expect(f?.value).toBeCloseTo(valuePct, 9);
    });
    // The SE size's label (measured row, interpolated, extrapolated) and memory-scaled open connections
    // reach every consumer: the figures' labels (diff prints them) and the report's size cell.
    it.each([
        ["baseline: the 4 vCPU row, measured", {}, "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs)", "| web-seg | 4 vCPU, 4 GB |", (1000 / 2600 + 30000 / 150000 + 1 / 7.2) * 100],
        ["5 vCPUs: interpolated", { vcpusPerSe: "5", memoryPerSe: "5120", diskPerSe: "35" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs; per-SE figures interpolated between table rows)", "| web-seg | 5 vCPU, 5 GB (interpolated) |",
            (1000 / 3300 + 30000 / 167500 + 1 / 8.6) * 100], // the midpoints of the 4 and 6 vCPU rows
        ["8 vCPUs: extrapolated", { vcpusPerSe: "8", memoryPerSe: "8192", diskPerSe: "40" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs; per-SE figures extrapolated beyond the 6 vCPU row (CPU-bound ones linear per vCPU, the favourable reading): not measured)",
            "| web-seg | 8 vCPU, 8 GB (extrapolated, not measured; open connections scaled by memory: not measured) |",
            // The favourable reading the verdicts rest on: RSA TPS and RPS linear per vCPU from the 6 vCPU row
            // (4000 x 8/6, 185000 x 8/6) and SSL throughput too, CPU bound (10 Gbps x 8/6)
            (1000 / (4000 * 8 / 6) + 30000 / (185000 * 8 / 6) + 1 / (10 * 8 / 6)) * 100],
        ["4 vCPUs with 8 GB: open connections scaled by memory", { memoryPerSe: "8192" }, "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs)",
            "| web-seg | 4 vCPU, 8 GB (open connections scaled by memory: not measured) |", (1000 / 2600 + 30000 / 150000 + 1 / 7.2) * 100],
        // The 1 and 2 vCPU rows were measured without a dedicated dispatcher: with one, 1 proxy core is left: the 1 vCPU row.
        ["2 vCPUs with a dedicated dispatcher", { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs; dedicated dispatcher: judged on the 1 vCPU row of proxy cores, not measured)",
            "| web-seg | 2 vCPU, 2 GB (dedicated dispatcher: judged on the 1 vCPU row of proxy cores, not measured) |", (1000 / 950 + 30000 / 58000 + 1 / 2.6) * 100],
        ["2 vCPUs without a dedicated dispatcher (the row as measured)", { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20", dedicatedDispatcherCore: "false" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs)",
            "| web-seg | 2 vCPU, 2 GB |", (1000 / 1800 + 30000 / 80000 + 1 / 3.8) * 100],
        // Judged on the 2 vCPU row (vcpus - 1), not interpolated: the label says what the figure was computed from.
        ["3 vCPUs with a dedicated dispatcher: the 2 vCPU row", { vcpusPerSe: "3", memoryPerSe: "3072", diskPerSe: "25" },
            "busiest SE (limited by CPU total (summed, not measured); the need of shop-vs; dedicated dispatcher: judged on the 2 vCPU row of proxy cores, not measured)",
            "| web-seg | 3 vCPU, 3 GB (dedicated dispatcher: judged on the 2 vCPU row of proxy cores, not measured) |", (1000 / 1800 + 30000 / 80000 + 1 / 3.8) * 100],
    ])("labels the size of the per-SE figures: %s", (_label, group, busiestLabel, reportCell, busiestPct) => {
        const stack = stackOf(nsxStack({ group }));
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
        const all = nsxAlbFigures(stackOf(nsxStack({ shop: { sslTps: "4000" } })));
        expect(figure(all, "web", "requiredVcpusPerSe")).toMatchObject({ label: "vcpusPerSe the fix names (extrapolated)", value: 11, text: "11" });
        expect(figure(nsxAlbFigures(stackOf(AS)), "pair", "requiredVcpusPerSe")?.label).toBe("vcpusPerSe the fix names (measured)");
    });
    it("is computed once per stack object and config", () => {
        const stack = stackOf(AS);
        expect(nsxAlbEvaluation(stack, { headroomPct: 20 })).toBe(nsxAlbEvaluation(stack));
        expect(nsxAlbEvaluation(stack, { headroomPct: 30 })).not.toBe(nsxAlbEvaluation(stack));
        expect(nsxAlbEvaluation(stackOf(AS))).not.toBe(nsxAlbEvaluation(stack));
    });
});
