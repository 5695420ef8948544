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
