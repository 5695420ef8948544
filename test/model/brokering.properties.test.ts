import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lockHoldTimeS, maxSafeConcurrency, predictBrokering } from "../../model/brokering";

// Bounded runs keep the file well under 10 s.
const RUNS = { numRuns: 300 };
// Non-strict monotonicity up to the solver's relative tolerance.
const SLACK = 1e-9;

// Half the draws in the measured region (RTT <= 300 ms, <= 80 requests), where the model has not collapsed.
const rtt = fc.oneof(fc.double({ min: 0, max: 300, noNaN: true }), fc.double({ min: 0, max: 2000, noNaN: true }));
const concurrency = fc.oneof(fc.double({ min: 1, max: 80, noNaN: true }), fc.double({ min: 1, max: 1000, noNaN: true }));

describe("predictBrokering properties", () => {
    it("mean response does not fall as RTT grows", () => {
        fc.assert(
            fc.property(rtt, rtt, concurrency, (a, b, n) => {
                const [low, high] = a <= b ? [a, b] : [b, a];
                const r1 = predictBrokering({ rttMs: low, concurrency: n }).meanResponseS;
                const r2 = predictBrokering({ rttMs: high, concurrency: n }).meanResponseS;
                expect(r2).toBeGreaterThanOrEqual(r1 * (1 - SLACK));
            }),
            RUNS,
        );
    });

    it("mean response and error rate do not fall as concurrency grows", () => {
        fc.assert(
            fc.property(rtt, concurrency, concurrency, (r, a, b) => {
                const [low, high] = a <= b ? [a, b] : [b, a];
                const p1 = predictBrokering({ rttMs: r, concurrency: low });
                const p2 = predictBrokering({ rttMs: r, concurrency: high });
                expect(p2.meanResponseS).toBeGreaterThanOrEqual(p1.meanResponseS * (1 - SLACK));
                expect(p2.errorRate).toBeGreaterThanOrEqual(p1.errorRate - SLACK);
            }),
            RUNS,
        );
    });

    it("brokered/s never exceeds the Delivery Group lock bound 1 / lock hold time", () => {
        fc.assert(
            fc.property(rtt, concurrency, (r, n) => {
                const p = predictBrokering({ rttMs: r, concurrency: n });
                expect(p.brokeredPerS).toBeLessThanOrEqual((1 / lockHoldTimeS(r)) * (1 + SLACK));
                expect(p.successfulPerS).toBeLessThanOrEqual(p.brokeredPerS * (1 + SLACK));
            }),
            RUNS,
        );
    });

    it("outputs are finite, positive, and the error rate stays in [0, 1]", () => {
        fc.assert(
            fc.property(rtt, concurrency, fc.double({ min: 0, max: 1e6, noNaN: true }), (r, n, users) => {
                const p = predictBrokering({ rttMs: r, concurrency: n, users });
                expect(Number.isFinite(p.meanResponseS) && p.meanResponseS > 0).toBe(true);
                expect(Number.isFinite(p.brokeredPerS) && p.brokeredPerS > 0).toBe(true);
                expect(Number.isFinite(p.launchTimeS)).toBe(true);
                expect(p.errorRate).toBeGreaterThanOrEqual(0);
                expect(p.errorRate).toBeLessThanOrEqual(1);
            }),
            RUNS,
        );
    });

    it("integer concurrencies near the edges of the input range stay finite", () => {
        for (const r of [0, 1e-9, 14, 2000]) {
            for (const n of [1, 2, 999, 1000]) {
                const p = predictBrokering({ rttMs: r, concurrency: n });
                expect(Number.isFinite(p.meanResponseS) && Number.isFinite(p.brokeredPerS) && Number.isFinite(p.errorRate)).toBe(true);
            }
        }
    });
});

describe("maxSafeConcurrency properties", () => {
    it("does not rise with RTT and its answer meets the targets", () => {
        const target = fc.double({ min: 0.5, max: 60, noNaN: true });
        const budget = fc.double({ min: 0, max: 1, noNaN: true });
        fc.assert(
            fc.property(rtt, rtt, target, budget, (a, b, t, e) => {
                const [low, high] = a <= b ? [a, b] : [b, a];
                const atLow = maxSafeConcurrency({ rttMs: low, targetResponseS: t, errorBudget: e });
                const atHigh = maxSafeConcurrency({ rttMs: high, targetResponseS: t, errorBudget: e });
                expect(atHigh).toBeLessThanOrEqual(atLow);
                if (atHigh > 0) {
                    const p = predictBrokering({ rttMs: high, concurrency: atHigh });
                    expect(p.meanResponseS).toBeLessThanOrEqual(t);
                    expect(p.errorRate).toBeLessThanOrEqual(e);
                }
            }),
            { numRuns: 100 },
        );
    });
});
