import { describe, expect, it } from "vitest";
import { requiredVcpusPerSe, seGroupCapacity, SeGroupSpec, seUtilisation } from "../../model/seCapacity";
import { connectionsScaled, extrapolationSlope, seCapacity, seCapacityBasis, testedSeSize } from "../../model/seTable";
import table from "../../model/data/nsx-alb-se-20.1.6.json";

/** The JSON's rows as objects keyed by column name (read here, not through the model). */
const rows = table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i]])) as Record<string, number | boolean>);

const GROUP: SeGroupSpec = {
    vcpusPerSe: 4,
    memoryPerSeMb: 4096,
    maxSe: 10,
    minScaleoutPerVs: 1,
    maxScaleoutPerVs: 4,
    bufferSe: 1,
    haMode: "HA_MODE_SHARED",
};

describe("model/data/nsx-alb-se-20.1.6.json", () => {
    it("keeps its source, notes and the memory rule's source", () => {
        expect(table.source).toContain("nsx-alb-se-performance.ja.txt");
        expect(table.notes.some((n) => n.includes("Open connections grow with memory"))).toBe(true);
        expect(table.notes.some((n) => n.includes("RSA-2048"))).toBe(true);
        expect(table.otherPublishedFacts.limits).toContain("concurrent connections are memory bound");
        expect(rows.map((r) => r.vcpus)).toEqual([1, 2, 4, 6]);
    });
});

describe("seCapacity reproduces the published table", () => {
    const cells: Array<[string, string]> = [
        ["sslTpsEcc", "sslTpsEcc"],
        ["sslTpsRsa", "sslTpsRsa2048"],
        ["l7Rps", "l7Rps"],
        ["l4Cps", "l4Cps"],
        ["l4OpenConnections", "l4OpenConnections"],
        ["l4ThroughputGbps", "l4ThroughputGbps"],
        ["l7ThroughputGbps", "l7ThroughputGbps"],
        ["l7SslThroughputGbps", "l7SslThroughputGbps"],
    ];
    it.each(rows.map((r) => [r.vcpus as number, r] as const))("%i vCPU row, every cell", (vcpus, row) => {
        for (const memoryGb of [undefined, row.memoryGb as number]) {
            const cap = seCapacity({ vcpus, memoryGb }) as unknown as Record<string, number | boolean>;
            for (const [field, column] of cells) {
                expect(cap[field], `${field} at ${vcpus} vCPUs`).toBe(row[column]);
            }
            expect(cap.extrapolated).toBe(false);
        }
        expect(testedSeSize(vcpus)).toMatchObject({ memoryGb: row.memoryGb, diskGb: row.diskGb });
        expect(seCapacityBasis(vcpus)).toBe(`NSX ALB 20.1.6 per-SE table, ${vcpus} vCPU row`);
    });

    it("interpolates 3 and 5 vCPUs linearly (midpoints of the neighbouring rows)", () => {
        // (5800 + 8700) / 2 = 7250; (80000 + 150000) / 2 = 115000; (5.6 + 11) / 2 = 8.3
        expect(seCapacity({ vcpus: 3 })).toMatchObject({ sslTpsEcc: 7250, l7Rps: 115000, l7ThroughputGbps: 8.3, extrapolated: false });
        // (100000 + 132000) / 2 = 116000; (2600 + 4000) / 2 = 3300; (160000 + 320000) / 2 = 240000 at 5 GB
        expect(seCapacity({ vcpus: 5 })).toMatchObject({ l4Cps: 116000, sslTpsRsa: 3300, l4OpenConnections: 240000 });
        expect(testedSeSize(3)).toMatchObject({ memoryGb: 3, diskGb: 25 });
        expect(seCapacityBasis(5)).toBe("NSX ALB 20.1.6 per-SE table, interpolated between the 4 and 6 vCPU rows");
    });

    it("extrapolates TPS/RPS/CPS beyond 6 vCPUs on the 4-to-6 slope (at most the average) and holds throughput", () => {
        const c = seCapacity({ vcpus: 12 });
        // 6 vCPUs more than the top row, per vCPU: ECC (12000 - 8700) / 2 = 1650 (average 2000);
        // RSA (4000 - 2600) / 2 = 700, capped at the average 4000 / 6 = 666.7; RPS 17500 (average
        // 30833); CPS 16000 (average 22000): 21900 ECC, 8000 RSA, 290000 RPS, 228000 CPS.
        expect(c).toMatchObject({ sslTpsEcc: 21900, l7Rps: 290000, l4Cps: 228000, extrapolated: true });
        expect(c.sslTpsRsa).toBeCloseTo(8000, 9);
        // Throughput held at 13 / 12 / 10 Gbps; open connections stay memory bound (320000 at 6 GB).
        expect(c).toMatchObject({ l4ThroughputGbps: 13, l7ThroughputGbps: 12, l7SslThroughputGbps: 10, l4OpenConnections: 320000 });
        expect(seCapacity({ vcpus: 64 }).l4Cps).toBe(132000 + 16000 * 58);
        expect(testedSeSize(16)).toMatchObject({ memoryGb: 6, diskGb: 40 });
    });

    // [metric, marginal slope of the 4 and 6 vCPU rows, the 6 vCPU row's average per vCPU]
    const slopes: Array<["sslTpsEcc" | "sslTpsRsa" | "l7Rps" | "l4Cps", number, number]> = [
        ["sslTpsEcc", 1650, 2000],
        ["sslTpsRsa", 700, 4000 / 6],
        ["l7Rps", 17500, 185000 / 6],
        ["l4Cps", 16000, 22000],
    ];
    it.each(slopes)("beyond 6 vCPUs %s grows by min(marginal %d, average %d) per vCPU, never the average alone", (key, marginal, average) => {
        const step = seCapacity({ vcpus: 7 })[key] - seCapacity({ vcpus: 6 })[key];
        expect(step).toBeCloseTo(Math.min(marginal, average), 9);
        expect(extrapolationSlope(key)).toBeCloseTo(Math.min(marginal, average), 9);
        expect(step).toBeLessThanOrEqual(average + 1e-9);
    });

    it("scales open connections with memory above the row's memory, never below", () => {
        expect(seCapacity({ vcpus: 4, memoryGb: 8 }).l4OpenConnections).toBe(320000); // 160000 x 8/4
        expect(seCapacity({ vcpus: 4, memoryGb: 2 }).l4OpenConnections).toBe(160000); // max(1, 2/4) = 1
        expect(seCapacity({ vcpus: 12, memoryGb: 12 }).l4OpenConnections).toBe(640000); // 320000 x 12/6
        expect(seCapacity({ vcpus: 4, memoryGb: 8 }).l7Rps).toBe(150000); // CPU bound: memory does not help
    });

    // Only the row's own memory was measured: the factor marks a figure scaled by memory (not measured).
    it.each([
        ["4 vCPUs at the row's 4 GB (measured)", { vcpus: 4, memoryGb: 4 }, 1, false],
        ["4 vCPUs, memory not given (the row's)", { vcpus: 4 }, 1, false],
        ["4 vCPUs at 2 GB (below the row: not scaled)", { vcpus: 4, memoryGb: 2 }, 1, false],
        ["4 vCPUs at 8 GB (scaled x2)", { vcpus: 4, memoryGb: 8 }, 2, true],
        ["12 vCPUs at 12 GB (scaled from the 6 GB row)", { vcpus: 12, memoryGb: 12 }, 2, true],
    ])("open connections memory factor: %s", (_name, input, factor, scaled) => {
        const c = seCapacity(input);
        expect(c.openConnectionsMemoryFactor).toBe(factor);
        expect(connectionsScaled(c)).toBe(scaled);
    });

    it.each([
        [{ vcpus: 0 }, /vcpus .* got 0/],
        [{ vcpus: 65 }, /vcpus .* got 65/],
        [{ vcpus: 4.5 }, /vcpus must be an integer from 1 to 64 .* got 4.5/],
        [{ vcpus: Number.NaN }, /vcpus .* got NaN/],
        [{ vcpus: 4, memoryGb: 0 }, /memoryGb .* got 0/],
        [{ vcpus: 4, memoryGb: -2 }, /memoryGb .* got -2/],
        [{ vcpus: 4, memoryGb: Number.NaN }, /memoryGb .* got NaN/],
    ])("rejects %o with a RangeError", (input, pattern) => {
        expect(() => seCapacity(input)).toThrow(RangeError);
        expect(() => seCapacity(input)).toThrow(pattern);
    });
});

describe("seGroupCapacity by HA mode (hand-computed)", () => {
    it.each([
        // N+M: a VS on minScaleoutPerVs 2 SEs, 4 once scaled out; the group carries 10 - 1 = 9 SEs.
        [{ ...GROUP, minScaleoutPerVs: 2 }, 2, 4, 9],
        // N+M with maxSe 3: scale-out capped at 3 SEs; 3 - 1 = 2 SEs of load.
        [{ ...GROUP, maxSe: 3 }, 1, 3, 2],
        // bufferSe >= maxSe: the group carries nothing (2 - 2 = 0).
        [{ ...GROUP, maxSe: 2, bufferSe: 2 }, 1, 2, 0],
        // Shared pair: a VS gets one SE (survives losing one of 2); floor(5 / 2) = 2 SEs' worth.
        [{ ...GROUP, maxSe: 5, haMode: "HA_MODE_SHARED_PAIR" as const }, 1, 1, 2],
        // Legacy active/standby: one SE's capacity; floor(2 / 2) = 1.
        [{ ...GROUP, maxSe: 2, haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY" as const }, 1, 1, 1],
    ])("%o", (spec, placed, scaled, group) => {
        const c = seGroupCapacity(spec);
        expect([c.vsSesPlaced, c.vsSesScaledOut, c.groupSes]).toEqual([placed, scaled, group]);
        expect(c.perSe.l7Rps).toBe(150000);
    });

    it.each([
        [{ ...GROUP, maxScaleoutPerVs: 0 }, /maxScaleoutPerVs must be an integer >= 1, got 0/],
        [{ ...GROUP, minScaleoutPerVs: 3, maxScaleoutPerVs: 2 }, /maxScaleoutPerVs must be an integer >= 3, got 2/],
        [{ ...GROUP, bufferSe: -1 }, /bufferSe .* got -1/],
        [{ ...GROUP, memoryPerSeMb: 0 }, /memoryPerSeMb .* got 0/],
        [{ ...GROUP, vcpusPerSe: 128 }, /vcpusPerSe .* got 128/],
        [{ ...GROUP, haMode: "HA_MODE_X" as never }, /haMode must be one of .* got HA_MODE_X/],
    ])("rejects %o", (spec, pattern) => {
        expect(() => seGroupCapacity(spec)).toThrow(pattern);
    });
});

describe("seUtilisation", () => {
    it("adds the CPU-bound shares and checks throughput and open connections on their own", () => {
        const perSe = seCapacity({ vcpus: 4 });
        // 1300 / 2600 = 0.5 (RSA) + 30000 / 150000 = 0.2 + 3.6 / 7.2 = 0.5 (SSL bulk throughput: CPU bound,
        // otherPublishedFacts.limits) -> 1.2; no plain throughput; 80000 / 160000 = 0.5
        const u = seUtilisation([{ sslTps: 1300, l7Rps: 30000, throughputGbps: 3.6, l4OpenConnections: 80000 }], perSe, 1);
        expect(u.cpu).toBeCloseTo(1.2, 12);
        expect(u.sslThroughput).toBeCloseTo(0.5, 12);
        expect(u.throughput).toBe(0);
        expect(u.openConnections).toBeCloseTo(0.5, 12);
        expect(u.limiting).toBe("sslTps");
        expect(seUtilisation([{ sslTps: 1300, l7Rps: 30000 }], perSe, 2).cpu).toBeCloseTo(0.35, 12);
        // ECC row: 4350 / 8700 = 0.5.
        expect(seUtilisation([{ sslTps: 4350, sslKeyType: "ecc" }], perSe, 1).sslTps).toBeCloseTo(0.5, 12);
        // L4 VS: 4.75 / 9.5 = 0.5 (L4 row); L7 without SSL: 5.5 / 11 = 0.5 (L7 row).
        expect(seUtilisation([{ l4Cps: 10, throughputGbps: 4.75 }], perSe, 1).throughput).toBeCloseTo(0.5, 12);
        expect(seUtilisation([{ l7Rps: 10, throughputGbps: 5.5 }], perSe, 1).throughput).toBeCloseTo(0.5, 12);
        expect(seUtilisation([{ l4OpenConnections: 200000 }], perSe, 1).limiting).toBe("openConnections");
    });
});

describe("requiredVcpusPerSe (hand-computed)", () => {
    it("finds the smallest vcpusPerSe for one VS", () => {
        // 3000 RSA TPS at <= 80%: per-SE RSA TPS >= 3750. 4 vCPUs 2600, 5 vCPUs 3300, 6 vCPUs 4000 -> 6.
        // At 4 vCPUs: 3000 / 2600 / 0.8 = 1.44 -> 2 SEs.
        expect(requiredVcpusPerSe([{ sslTps: 3000 }], GROUP, { headroomPct: 20, scope: "vs" })).toMatchObject({ vcpusPerSe: 6, sesAtCurrentVcpus: 2 });
    });
    it("says when no size up to 64 vCPUs fits and how many SEs would", () => {
        // 40000 RSA TPS needs 50000 per SE; 64 vCPUs give 4000 x 64 / 6 = 42667. At 4 vCPUs: 40000 / 2600 / 0.8 = 19.2 -> 20 SEs.
        expect(requiredVcpusPerSe([{ sslTps: 40000 }], GROUP, { headroomPct: 20, scope: "vs" })).toMatchObject({
            vcpusPerSe: undefined,
            sesAtCurrentVcpus: 20,
        });
    });
    it("uses the group's SE count for the sum", () => {
        // maxSe 3 - bufferSe 1 = 2 SEs; 300000 RPS needs 300000 / 2 / 0.8 = 187500 per SE:
        // 6 vCPUs 185000 (no), 7 vCPUs 185000 + 17500 = 202500 -> 7. At 4 vCPUs: 300000 / 150000 / 0.8 = 2.5 -> 3 SEs.
        const group = { ...GROUP, maxSe: 3 };
        expect(requiredVcpusPerSe([{ l7Rps: 150000 }, { l7Rps: 150000 }], group, { headroomPct: 20, scope: "group" })).toMatchObject({
            vcpusPerSe: 7,
            sesAtCurrentVcpus: 3,
        });
    });
    it("counts maxScaleoutPerVs only when asked", () => {
        // 2 x 2600 x 0.8 = 4160 >= 3000 at 4 vCPUs on maxScaleoutPerVs 2: 4 vCPUs fit; 3 vCPUs: 2 x 2200 x 0.8 = 3520 fit; 2 vCPUs: 2 x 1800 x 0.8 = 2880 do not -> 3.
        expect(
            requiredVcpusPerSe([{ sslTps: 3000 }], { ...GROUP, maxScaleoutPerVs: 2 }, { headroomPct: 20, scope: "vs", assumeScaleOut: true }).vcpusPerSe,
        ).toBe(3);
    });
    it("gives the memory that fits the open connections", () => {
        // 300000 connections on 1 SE at <= 80%: 375000 per SE; the 4 vCPU row has 160000 at 4 GB -> 9.375 GB = 9600 MB.
        expect(requiredVcpusPerSe([{ l4OpenConnections: 300000 }], GROUP, { headroomPct: 20, scope: "vs" }).memoryPerSeMbForConnections).toBe(9600);
    });
    it("rejects a headroom of 100% or more", () => {
        expect(() => requiredVcpusPerSe([{ sslTps: 1 }], GROUP, { headroomPct: 100, scope: "vs" })).toThrow(/headroomPct .* got 100/);
    });
});
