import { describe, expect, it } from "vitest";
import {
    BROKERING_PARAMS,
    BrokeringInput,
    MAX_SEARCHED_CONCURRENCY,
    SafeConcurrencyInput,
    lockHoldTimeS,
    maxSafeConcurrency,
    predictBrokering,
} from "../../model/brokering";
import table from "../../model/data/citrix-brokering.json";
import { loadBrokeringCells } from "../../model/calibration/cells";
import { measuredLimit } from "../../model/citrixGuidance";

const cells = loadBrokeringCells();

/** Measured mean response of one cell, s (citrix-brokering.json). */
function measuredResponseS(rttMs: number, concurrency: number): number {
    const cell = cells.find((c) => c.rttMs === rttMs && c.concurrency === concurrency);
    if (cell === undefined || cell.meanResponseS === null) {
        throw new Error(`no measured response at ${rttMs} ms / ${concurrency}`);
    }
    return cell.meanResponseS;
}

describe("model/data/citrix-brokering.json", () => {
    it("names its source and carries all 25 cells", () => {
        expect(table.source).toContain("citrix-zones-latency-brokering.ja.txt");
        expect(table.notes.length).toBeGreaterThan(0);
        expect(cells).toHaveLength(25);
        expect(new Set(cells.map((c) => `${c.rttMs}/${c.concurrency}`)).size).toBe(25);
    });
});

describe("predictBrokering", () => {
    it("returns launchTimeS only when users is given", () => {
        expect(predictBrokering({ rttMs: 45, concurrency: 24 }).launchTimeS).toBeUndefined();
        const withUsers = predictBrokering({ rttMs: 45, concurrency: 24, users: 10000 });
        expect(withUsers.launchTimeS).toBeCloseTo(10000 / withUsers.brokeredPerS, 6);
        expect(predictBrokering({ rttMs: 45, concurrency: 24, users: 0 }).launchTimeS).toBe(0);
    });

    it.each([10, 45, 90, 160, 250])("obeys Little's law for the closed loop at %i ms", (rttMs) => {
        for (const concurrency of [1, 12, 24, 36]) {
            const p = predictBrokering({ rttMs, concurrency });
            expect(p.meanResponseS * p.brokeredPerS).toBeCloseTo(concurrency, 6);
        }
    });

    it("reports successful requests as completed minus timed out", () => {
        const p = predictBrokering({ rttMs: 160, concurrency: 60 });
        expect(p.errorRate).toBeGreaterThan(0.01);
        expect(p.successfulPerS).toBeCloseTo(p.brokeredPerS * (1 - p.errorRate), 9);
    });

    it("accepts fractional concurrency between its integer neighbours", () => {
        const low = predictBrokering({ rttMs: 90, concurrency: 24 }).meanResponseS;
        const mid = predictBrokering({ rttMs: 90, concurrency: 24.5 }).meanResponseS;
        const high = predictBrokering({ rttMs: 90, concurrency: 25 }).meanResponseS;
        expect(mid).toBeGreaterThanOrEqual(low);
        expect(mid).toBeLessThanOrEqual(high);
    });

    it("collapses when the orphaned transactions cannot drain (source: 99 % errors at 250 ms / 60)", () => {
        const p = predictBrokering({ rttMs: 250, concurrency: 60 });
        expect(p.errorRate).toBe(1);
        expect(p.meanResponseS).toBe(BROKERING_PARAMS.timeoutS);
        expect(p.brokeredPerS).toBeCloseTo(1 / lockHoldTimeS(250), 9);
    });

    const invalid: [string, BrokeringInput, RegExp][] = [
        ["negative rttMs", { rttMs: -1, concurrency: 12 }, /rttMs.*-1/],
        ["NaN rttMs", { rttMs: Number.NaN, concurrency: 12 }, /rttMs.*NaN/],
        ["infinite rttMs", { rttMs: Number.POSITIVE_INFINITY, concurrency: 12 }, /rttMs.*Infinity/],
        ["concurrency below 1", { rttMs: 10, concurrency: 0.5 }, /concurrency.*0\.5/],
        ["NaN concurrency", { rttMs: 10, concurrency: Number.NaN }, /concurrency.*NaN/],
        ["infinite concurrency", { rttMs: 10, concurrency: Number.POSITIVE_INFINITY }, /concurrency.*Infinity/],
        ["negative users", { rttMs: 10, concurrency: 12, users: -5 }, /users.*-5/],
        ["NaN users", { rttMs: 10, concurrency: 12, users: Number.NaN }, /users.*NaN/],
    ];
    it.each(invalid)("throws RangeError for %s", (_name, input, message) => {
        expect(() => predictBrokering(input)).toThrow(RangeError);
        expect(() => predictBrokering(input)).toThrow(message);
    });

    it("throws RangeError for out-of-range parameters", () => {
        expect(() => predictBrokering({ rttMs: 10, concurrency: 12 }, { ...BROKERING_PARAMS, timeoutS: 0 })).toThrow(/timeoutS/);
        expect(() => predictBrokering({ rttMs: 10, concurrency: 12 }, { ...BROKERING_PARAMS, lockRoundTrips: -1 })).toThrow(RangeError);
    });
});

describe("BROKERING_PARAMS", () => {
    it("is frozen and has at most 6 global parameters", () => {
        expect(Object.isFrozen(BROKERING_PARAMS)).toBe(true);
        expect(Object.keys(BROKERING_PARAMS).length).toBeLessThanOrEqual(6);
    });

    it("holds the lock for about 3 round trips plus 10-15 ms, as the source's table implies", () => {
        // Source: saturated throughput ~ 1 / (k RTT + c), k ~ 3, c ~ 10-15 ms; allow a loose band.
        expect(BROKERING_PARAMS.lockRoundTrips).toBeGreaterThan(2);
        expect(BROKERING_PARAMS.lockRoundTrips).toBeLessThan(4);
        expect(lockHoldTimeS(0)).toBeLessThan(0.03);
    });

    it("has a timeout consistent with the source's cells (30-34 s, loosely)", () => {
        // Errors start where mean responses approach 30 s (row 160 ms / 60: 28.0 s, 17.7 %).
        expect(BROKERING_PARAMS.timeoutS).toBeGreaterThan(25);
        expect(BROKERING_PARAMS.timeoutS).toBeLessThan(45);
    });
});

describe("lockHoldTimeS", () => {
    it("grows linearly with RTT and rejects invalid RTT", () => {
        const slopePerMs = lockHoldTimeS(100) - lockHoldTimeS(99);
        expect(lockHoldTimeS(250) - lockHoldTimeS(10)).toBeCloseTo(240 * slopePerMs, 9);
        expect(() => lockHoldTimeS(-3)).toThrow(RangeError);
    });
});

/**
 * Concurrency at which a measured row first crosses a limit: linear interpolation between the
 * adjacent measured cells that straddle it (citrix-brokering.json), or null when no measured
 * pair does. metric: "meanResponseS" (limit in s) or "errorRate" (limit as a fraction).
 */
function measuredCrossing(rttMs: number, metric: "meanResponseS" | "errorRate", limit: number): number | null {
    const row = cells.filter((c) => c.rttMs === rttMs).sort((a, b) => a.concurrency - b.concurrency);
    for (let i = 1; i < row.length; i++) {
        const low = row[i - 1][metric];
        const high = row[i][metric];
        if (low !== null && high !== null && low <= limit && high > limit) {
            return row[i - 1].concurrency + ((limit - low) / (high - low)) * (row[i].concurrency - row[i - 1].concurrency);
        }
    }
    return null;
}

describe("maxSafeConcurrency is never more permissive than the measurements (12 s, 0.1 %)", () => {
    const targets = { targetResponseS: 12, errorBudget: 0.001 };
    const rtts = [...new Set(cells.map((c) => c.rttMs))].sort((a, b) => a - b);

    it("has a measured 12 s crossing at 90, 160 and 250 ms, and none at 10 and 45 ms", () => {
        // Guards the test below against a data change that silently skips a row.
        expect(rtts.filter((r) => measuredCrossing(r, "meanResponseS", 12) !== null)).toEqual([90, 160, 250]);
    });

    it.each(rtts)("at %i ms stays at or below where the measured row crosses a target", (rttMs) => {
        const safe = maxSafeConcurrency({ rttMs, ...targets });
        const response = measuredCrossing(rttMs, "meanResponseS", targets.targetResponseS);
        const errors = measuredCrossing(rttMs, "errorRate", targets.errorBudget);
        const crossings = [response, errors].filter((c): c is number => c !== null);
        if (crossings.length > 0) {
            // 90 ms: 44.8 (9.5 s at 36, 12.9 s at 48); 160 ms: 25.2; 250 ms: 17.3.
            expect(safe).toBeLessThanOrEqual(Math.min(...crossings));
        } else {
            // No measured cell misses a target (10 ms: 2.6 s, 45 ms: 7.3 s and 0.01 % at 60). Every
            // row is lock-bound at 60, so beyond it R = N / X: extrapolate with the last cell's X.
            const last = cells.filter((c) => c.rttMs === rttMs).sort((a, b) => b.concurrency - a.concurrency)[0];
            expect(safe).toBeGreaterThanOrEqual(last.concurrency);
            expect(safe).toBeLessThanOrEqual(targets.targetResponseS * (last.brokeredPerS as number));
        }
    });

    it("at 160 ms is within 2 of the source's advice of 24 and below the measured 25.2", () => {
        const safe = maxSafeConcurrency({ rttMs: 160, ...targets });
        expect(Math.abs(safe - table.guidance.at160msMaxConcurrent)).toBeLessThanOrEqual(2);
        expect(safe).toBeGreaterThanOrEqual(24);
        expect(safe).toBeLessThanOrEqual(25);
    });

    it("at 90 ms is at most 44 (12 s x 3.7 requests/s measured)", () => {
        expect(maxSafeConcurrency({ rttMs: 90, ...targets })).toBeLessThanOrEqual(44);
    });
});

describe("maxSafeConcurrency", () => {
    it("at 160 ms, 12 s and 0.1 % matches the measured row and the source's advice of 24", () => {
        // Where the measured 160 ms row crosses 12 s (between 24 -> 11.4 s and 36 -> 17.3 s).
        const r24 = measuredResponseS(160, 24);
        const r36 = measuredResponseS(160, 36);
        const crossing = 24 + ((12 - r24) / (r36 - r24)) * 12;
        const safe = maxSafeConcurrency({ rttMs: 160, targetResponseS: 12, errorBudget: 0.001 });
        expect(safe).toBeGreaterThanOrEqual(24);
        expect(Math.abs(safe - crossing)).toBeLessThanOrEqual(0.15 * crossing);
    });

    it("returns a concurrency that meets the targets while the next one does not", () => {
        const input = { rttMs: 90, targetResponseS: 8, errorBudget: 0.001 };
        const safe = maxSafeConcurrency(input);
        expect(safe).toBeGreaterThan(0);
        expect(predictBrokering({ rttMs: 90, concurrency: safe }).meanResponseS).toBeLessThanOrEqual(8);
        expect(predictBrokering({ rttMs: 90, concurrency: safe + 1 }).meanResponseS).toBeGreaterThan(8);
    });

    it("lets the error budget bind at 250 ms", () => {
        const safe = maxSafeConcurrency({ rttMs: 250, targetResponseS: 1000, errorBudget: 0.01 });
        expect(predictBrokering({ rttMs: 250, concurrency: safe }).errorRate).toBeLessThanOrEqual(0.01);
        expect(predictBrokering({ rttMs: 250, concurrency: safe + 1 }).errorRate).toBeGreaterThan(0.01);
        // Source: 0 % errors at 24, 4.6 % at 36 (rows 250 ms / 24 and 36).
        expect(safe).toBeGreaterThanOrEqual(24);
        expect(safe).toBeLessThan(36);
    });

    it("returns 0 when even one request misses the target", () => {
        expect(maxSafeConcurrency({ rttMs: 250, targetResponseS: 0.1, errorBudget: 0.5 })).toBe(0);
    });

    it("stops at MAX_SEARCHED_CONCURRENCY when nothing binds", () => {
        expect(maxSafeConcurrency({ rttMs: 0, targetResponseS: 1e6, errorBudget: 1 })).toBe(MAX_SEARCHED_CONCURRENCY);
    });

    const invalid: [string, SafeConcurrencyInput, RegExp][] = [
        ["negative rttMs", { rttMs: -10, targetResponseS: 12, errorBudget: 0.001 }, /rttMs.*-10/],
        ["zero targetResponseS", { rttMs: 10, targetResponseS: 0, errorBudget: 0.001 }, /targetResponseS.*0/],
        ["NaN targetResponseS", { rttMs: 10, targetResponseS: Number.NaN, errorBudget: 0.001 }, /targetResponseS.*NaN/],
        ["errorBudget above 1", { rttMs: 10, targetResponseS: 12, errorBudget: 1.5 }, /errorBudget.*1\.5/],
        ["negative errorBudget", { rttMs: 10, targetResponseS: 12, errorBudget: -0.1 }, /errorBudget.*-0\.1/],
    ];
    it.each(invalid)("throws RangeError for %s", (_name, input, message) => {
        expect(() => maxSafeConcurrency(input)).toThrow(RangeError);
        expect(() => maxSafeConcurrency(input)).toThrow(message);
    });
});

describe("measured cells overrule the model (measuredLimit)", () => {
    // At an RTT the source measured, a concurrency at or above a measured cell that missed the
    // targets is never called safe, whatever the model predicts there.
    it.each<[number, number, number, number | undefined]>([
        [160, 12, 0.001, 35], // 36 requests: 17.3 s, 0.12% measured
        [160, 20, 0.001, 35], // relaxed response: 36 still fails on its 0.12% errors (the model says 0.05%)
        [160, 30, 0.05, 59], // relaxed both: 48 pass (23.2 s, 4%), 60 fail on 17.7% errors
        [250, 12, 0.001, 23], // 24 requests: 15.4 s measured
        [45, 12, 0.001, undefined], // nothing measured at 45 ms misses the default targets
        [120, 12, 0.001, undefined], // not a measured RTT
    ])("at %i ms, %i s, %f: %s", (rttMs, target, budget, expected) => {
        expect(measuredLimit(rttMs, target, budget)).toBe(expected);
    });
    it("the sizing with a 20 s target stops below the measured failure at 160 ms", () => {
        const model = maxSafeConcurrency({ rttMs: 160, targetResponseS: 20, errorBudget: 0.001 });
        expect(model).toBeGreaterThan(35);
        expect(Math.min(model, measuredLimit(160, 20, 0.001) ?? model)).toBe(35);
    });
});
