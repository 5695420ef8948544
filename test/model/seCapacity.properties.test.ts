import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requiredVcpusPerSe, SeGroupSpec, seUtilisation } from "../../model/seCapacity";
import { seCapacity, SeCapacity } from "../../model/seTable";

// Bounded runs keep the file fast.
const RUNS = { numRuns: 300 };
const METRICS: Array<keyof Omit<SeCapacity, "extrapolated" | "reading">> = [
    "sslTpsEcc",
    "sslTpsRsa",
    "l7Rps",
    "l4Cps",
    "l4OpenConnections",
    "l4ThroughputGbps",
    "l7ThroughputGbps",
    "l7SslThroughputGbps",
];
const vcpus = fc.integer({ min: 1, max: 64 });
const memoryGb = fc.double({ min: 0.5, max: 256, noNaN: true });

function notBelow(high: SeCapacity, low: SeCapacity): void {
    for (const m of METRICS) {
        expect(high[m]).toBeGreaterThanOrEqual(low[m] * (1 - 1e-12));
    }
}

describe("seCapacity properties", () => {
    it("is monotone in vcpus (with or without memory)", () => {
        fc.assert(
            fc.property(vcpus, vcpus, fc.option(memoryGb, { nil: undefined }), (a, b, mem) => {
                const [lo, hi] = a <= b ? [a, b] : [b, a];
                notBelow(seCapacity({ vcpus: hi, memoryGb: mem }), seCapacity({ vcpus: lo, memoryGb: mem }));
            }),
            RUNS,
        );
    });

    it("is monotone in memory, and memory only moves open connections", () => {
        fc.assert(
            fc.property(vcpus, memoryGb, memoryGb, (v, a, b) => {
                const [lo, hi] = a <= b ? [a, b] : [b, a];
                const small = seCapacity({ vcpus: v, memoryGb: lo });
                const big = seCapacity({ vcpus: v, memoryGb: hi });
                notBelow(big, small);
                for (const m of METRICS.filter((x) => x !== "l4OpenConnections")) {
                    expect(big[m]).toBe(small[m]);
                }
            }),
            RUNS,
        );
    });

    it("flags exactly the sizes beyond the 6 vCPU row as extrapolated", () => {
        fc.assert(
            fc.property(vcpus, (v) => {
                expect(seCapacity({ vcpus: v }).extrapolated).toBe(v > 6);
            }),
            { numRuns: 100 },
        );
    });
});

describe("requiredVcpusPerSe properties", () => {
    const group: SeGroupSpec = {
        vcpusPerSe: 2,
        memoryPerSeMb: 4096,
        maxSe: 4,
        minScaleoutPerVs: 1,
        maxScaleoutPerVs: 2,
        bufferSe: 1,
        haMode: "HA_MODE_SHARED",
    };
    it("returns a size that fits, and one vCPU fewer does not", () => {
        fc.assert(
            fc.property(fc.integer({ min: 1, max: 60000 }), fc.integer({ min: 1, max: 600000 }), fc.integer({ min: 0, max: 90 }), (tps, rps, headroomPct) => {
                const demand = [{ sslTps: tps, l7Rps: rps }];
                const req = requiredVcpusPerSe(demand, group, { headroomPct, scope: "vs" });
                const limit = 1 - headroomPct / 100;
                const fits = (v: number) => seUtilisation(demand, seCapacity({ vcpus: v, memoryGb: 4 }), 1).peak <= limit + 1e-9;
                if (req.vcpusPerSe === undefined) {
                    expect(fits(64)).toBe(false);
                } else {
                    expect(fits(req.vcpusPerSe)).toBe(true);
                    if (req.vcpusPerSe > 1) {
                        expect(fits(req.vcpusPerSe - 1)).toBe(false);
                    }
                }
                // The SE count at the current size fits, one fewer does not.
                const onSes = (n: number) => seUtilisation(demand, seCapacity({ vcpus: 2, memoryGb: 4 }), n).peak <= limit + 1e-9;
                expect(onSes(req.sesAtCurrentVcpus)).toBe(true);
                if (req.sesAtCurrentVcpus > 1) {
                    expect(onSes(req.sesAtCurrentVcpus - 1)).toBe(false);
                }
            }),
            RUNS,
        );
    });
});
