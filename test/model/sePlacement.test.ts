import { describe, expect, it } from "vitest";
import table from "../../model/data/nsx-alb-se-20.1.6.json";
import { SeGroupSpec, VsDemand } from "../../model/seCapacity";
import { PlacedUnit, placeGroup, placementFits } from "../../model/sePlacement";
import { placementFixes } from "../../model/seFixes";

/** A published figure, read from the JSON here (not through the model). */
function cell(vcpus: number, column: string): number {
    const row = table.rows.find((r) => r[0] === vcpus) as Array<number | boolean>;
    return row[table.columns.indexOf(column)] as number;
}

/** The provider defaults (resource_avi_serviceenginegroup.go) at 2 vCPUs. */
const DEFAULTS: SeGroupSpec = {
    vcpusPerSe: 2,
    memoryPerSeMb: 2048,
    maxSe: 10,
    minScaleoutPerVs: 1,
    maxScaleoutPerVs: 4,
    bufferSe: 1,
    haMode: "HA_MODE_SHARED",
};

function units(count: number, demand: VsDemand): PlacedUnit[] {
    return Array.from({ length: count }, () => [demand]);
}

describe("placeGroup: HA modes and placement as the vendor defines them", () => {
    it("legacy active/standby: every VS on the one active SE, no scale-out", () => {
        const p = placeGroup(units(4, { sslTps: 1000 }), { ...DEFAULTS, haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY" });
        expect(p.worstSe.sslTps).toBeCloseTo(4000 / cell(2, "sslTpsRsa2048"), 9); // 222%
        expect(p.vsSes).toBe(1);
        expect(p.sesMax).toBe(2);
        expect(placementFits(p, 20)).toBe(false);
    });
    it("legacy active/standby with distributeLoadActiveStandby: spread over both while both run, all on one after a failover", () => {
        const p = placeGroup(units(4, { sslTps: 600 }), { ...DEFAULTS, haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY", distributeLoadActiveStandby: true });
        // Steady state: two VSs on each SE, 1200 TPS; after a failover the survivor carries all four, 2400 TPS.
        expect(p.steadyStateSe?.sslTps).toBeCloseTo(1200 / cell(2, "sslTpsRsa2048"), 9);
        expect(p.worstSe.sslTps).toBeCloseTo(2400 / cell(2, "sslTpsRsa2048"), 9);
        expect(placementFits(p, 20)).toBe(false);
    });
    it("active/active, minScaleoutPerVs 3: the VS must fit on 2 SEs after one fails", () => {
        const p = placeGroup(units(1, { sslTps: 2000 }), { ...DEFAULTS, haMode: "HA_MODE_SHARED_PAIR", minScaleoutPerVs: 3 });
        expect(p.sesPerVs).toBe(3);
        expect(p.vsSes).toBe(2);
        expect(p.perVs[0].sslTps).toBeCloseTo(2000 / (2 * cell(2, "sslTpsRsa2048")), 9);
        expect(placementFits(p, 20)).toBe(true);
    });
    it("packed (the default): ten VSs of 20000 RPS on one 4 vCPU SE", () => {
        const p = placeGroup(units(10, { l7Rps: 20000 }), { ...DEFAULTS, vcpusPerSe: 4, memoryPerSeMb: 4096 });
        expect(p.rule).toBe("packed");
        expect(p.worstSeShares).toBe(10);
        expect(p.worstSe.l7Rps).toBeCloseTo(200000 / cell(4, "l7Rps"), 9); // 133%
        expect(placementFits(p, 20)).toBe(false);
    });
    it("distributed: the same ten whole VSs over maxSe - bufferSe (9) SEs: one SE holds two", () => {
        const p = placeGroup(units(10, { l7Rps: 20000 }), { ...DEFAULTS, vcpusPerSe: 4, memoryPerSeMb: 4096, algo: "PLACEMENT_ALGO_DISTRIBUTED" });
        expect(p.worstSe.l7Rps).toBeCloseTo((2 * 20000) / cell(4, "l7Rps"), 9);
        expect(p.worstSeShares).toBe(2);
        expect(placementFits(p, 20)).toBe(true);
    });
    it("N+M: three SEs needed for five VSs at maxVsPerSe 2, so bufferSe 2 does not fit maxSe 4", () => {
        const p = placeGroup(units(5, { l7Rps: 1000 }), { ...DEFAULTS, maxSe: 4, bufferSe: 2, maxVsPerSe: 2 });
        expect(p.sesNeeded).toBe(3);
        expect(p.bufferKept).toBe(false);
        expect(p.placeable).toBe(true);
        expect(placementFits(p, 20)).toBe(true);
    });
    it("SSL bulk throughput adds to the CPU with TPS and RPS", () => {
        const p = placeGroup([[{ sslTps: 1000, l7Rps: 60000, throughputGbps: 3, ssl: true }]], { ...DEFAULTS, vcpusPerSe: 4, memoryPerSeMb: 4096 });
        const expected = 1000 / cell(4, "sslTpsRsa2048") + 60000 / cell(4, "l7Rps") + 3 / cell(4, "l7SslThroughputGbps");
        expect(p.perVs[0].cpu).toBeCloseTo(expected, 9); // 120%
        expect(p.perVs[0].throughput).toBe(0);
        expect(placementFits(p, 20)).toBe(false);
    });
    it("beyond 6 vCPUs: fits on the extrapolation, not on the measured row", () => {
        const spec = { ...DEFAULTS, vcpusPerSe: 16, memoryPerSeMb: 16384 };
        // 16 vCPUs: 185000 + 10 x 17500 = 360000 RPS on the 4-to-6 slope: 250000 is 69%; the 6 vCPU row: 135%.
        const u = units(1, { l7Rps: 250000 });
        expect(placementFits(placeGroup(u, spec), 20)).toBe(true);
        expect(placementFits(placeGroup(u, spec, { measuredOnly: true }), 20)).toBe(false);
        expect(placeGroup(u, spec).perSe.extrapolated).toBe(true);
    });
});

describe("placementFixes stay within the provider's ranges and fit", () => {
    const cases: Array<[string, PlacedUnit[], SeGroupSpec]> = [
        ["legacy, four 1000 TPS VSs", units(4, { sslTps: 1000 }), { ...DEFAULTS, haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY" }],
        ["packed, ten 20000 RPS VSs", units(10, { l7Rps: 20000 }), { ...DEFAULTS, vcpusPerSe: 4, memoryPerSeMb: 4096 }],
        ["one VS needing 66 SEs' worth of TPS", units(1, { sslTps: 66 * 1800 * 0.8 }), { ...DEFAULTS, maxSe: 2 }],
        ["SSL throughput in the CPU", [[{ sslTps: 1000, l7Rps: 60000, throughputGbps: 3, ssl: true }]], { ...DEFAULTS, vcpusPerSe: 4, memoryPerSeMb: 4096 }],
    ];
    it.each(cases)("%s", (_name, u, spec) => {
        const fixes = placementFixes(u, spec, { headroomPct: 20 });
        for (const fix of fixes) {
            const s = fix.spec;
            expect(s.minScaleoutPerVs).toBeLessThanOrEqual(64);
            expect(s.maxScaleoutPerVs).toBeLessThanOrEqual(64);
            expect(s.maxSe).toBeLessThanOrEqual(1000);
            expect(s.bufferSe).toBeLessThanOrEqual(s.maxSe);
            expect(s.memoryPerSeMb).toBeGreaterThanOrEqual(2048);
            expect(s.memoryPerSeMb).toBeLessThanOrEqual(262144);
            expect(s.vcpusPerSe).toBeLessThanOrEqual(64);
            expect(placementFits(placeGroup(u, s), 20)).toBe(true);
        }
        // A measured option comes first whenever there is one.
        const firstUnmeasured = fixes.findIndex((f) => !f.measured);
        expect(firstUnmeasured === -1 || fixes.slice(firstUnmeasured).every((f) => !f.measured)).toBe(true);
    });
    it("the 66-SE VS: the fix stays at 64 SEs per VS or a larger SE, never 66", () => {
        const fixes = placementFixes(units(1, { sslTps: 66 * 1800 * 0.8 }), { ...DEFAULTS, maxSe: 2 }, { headroomPct: 20 });
        expect(fixes.every((f) => f.spec.minScaleoutPerVs <= 64)).toBe(true);
    });
});
