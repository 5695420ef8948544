import { describe, expect, it } from "vitest";
import { BROKERING_PARAMS, BrokeringParams, maxSafeConcurrency, predictBrokering } from "../../model/brokering";
import { BrokeringCell, USERS_PER_RUN, loadBrokeringCells } from "../../model/calibration/cells";
import { checkCalibration, fitBrokeringParams, leaveOneRttOut } from "../../model/calibration/fitBrokering";

// Acceptance bounds, written out here rather than imported so the test does not grade itself.
// Issue 12's error figures: the default 0.1 % budget separates cells measured at <= 0.05 % from
// cells measured at >= 0.2 %, and cells measured at >= 0.1 % are predicted within a factor of 3.
const MAX_REL = 0.15;
const MEDIAN_REL = 0.05;
const BUDGET = 0.001;
const LOW_MEASURED = 0.0005;
const HIGH_MEASURED = 0.002;
const FACTOR = 3;
const LOO_REL = 0.2;
// Leave-one-out gives way first (issue 12's order): the 45 ms row is predicted within 23 %, not 20 %.
const LOO_REL_45MS = 0.23;

function errorBoundsHold(predicted: number, measured: number): boolean {
    if (measured <= LOW_MEASURED && predicted > BUDGET) {
        return false;
    }
    if (measured >= HIGH_MEASURED && predicted <= BUDGET) {
        return false;
    }
    return measured < BUDGET || (predicted <= FACTOR * measured && predicted >= measured / FACTOR);
}

const cells = loadBrokeringCells();
const name = (c: BrokeringCell): string => `${c.rttMs} ms / ${c.concurrency} requests`;
const relError = (predicted: number, measured: number): number => Math.abs(predicted - measured) / measured;

function predictCell(cell: BrokeringCell, params: BrokeringParams = BROKERING_PARAMS) {
    return predictBrokering({ rttMs: cell.rttMs, concurrency: cell.concurrency, users: USERS_PER_RUN }, params);
}

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

describe("brokering model against the 25 measured cells (citrix-brokering.json)", () => {
    const withResponse = cells.filter((c) => c.meanResponseS !== null).map((c) => [name(c), c] as const);
    const withPerS = cells.filter((c) => c.brokeredPerS !== null).map((c) => [name(c), c] as const);
    const withLaunch = cells.filter((c) => c.launch10kUsersS !== null).map((c) => [name(c), c] as const);

    it.each(withResponse)("mean response within 15 percent at %s", (_n, cell) => {
        expect(relError(predictCell(cell).meanResponseS, cell.meanResponseS as number)).toBeLessThanOrEqual(MAX_REL);
    });

    it.each(withPerS)("brokered/s within 15 percent at %s", (_n, cell) => {
        expect(relError(predictCell(cell).brokeredPerS, cell.brokeredPerS as number)).toBeLessThanOrEqual(MAX_REL);
    });

    it.each(withLaunch)("launch time for 10,000 users within 15 percent at %s", (_n, cell) => {
        expect(relError(predictCell(cell).launchTimeS as number, cell.launch10kUsersS as number)).toBeLessThanOrEqual(MAX_REL);
    });

    it.each(cells.map((c) => [name(c), c] as const))(
        "error rate on the measured side of the 0.1 percent budget, within a factor of 3 where measured >= 0.1 percent, at %s",
        (_n, cell) => {
            const predicted = predictCell(cell).errorRate;
            expect(errorBoundsHold(predicted, cell.errorRate), `predicted ${predicted}, measured ${cell.errorRate}`).toBe(true);
        },
    );

    it("no longer quotes error rates far above the measured ones (issue 12's three cells)", () => {
        const at = (rttMs: number, concurrency: number) => predictBrokering({ rttMs, concurrency }).errorRate;
        expect(at(90, 60)).toBeLessThanOrEqual(BUDGET); // measured 0.01 %
        expect(at(250, 24)).toBeLessThanOrEqual(BUDGET); // measured 0 %
        expect(at(160, 36)).toBeGreaterThanOrEqual(0.0012 / FACTOR); // measured 0.12 %
        expect(at(160, 36)).toBeLessThanOrEqual(0.0012 * FACTOR);
    });

    it("has median relative errors within 5 % for mean response and brokered/s", () => {
        expect(withResponse.length).toBe(23);
        const response = withResponse.map(([, c]) => relError(predictCell(c).meanResponseS, c.meanResponseS as number));
        const perS = withPerS.map(([, c]) => relError(predictCell(c).brokeredPerS, c.brokeredPerS as number));
        expect(median(response)).toBeLessThanOrEqual(MEDIAN_REL);
        expect(median(perS)).toBeLessThanOrEqual(MEDIAN_REL);
    });
});

describe("refitting (model/calibration/fitBrokering.ts)", () => {
    it("reproduces the shipped constants' quality from the shipped start and from the source's rough numbers", () => {
        // Second start: k = 3 round trips, c = 12.5 ms (source README), other values rough guesses.
        const rough: BrokeringParams = { lockRoundTrips: 3, lockFixedS: 0.0125, serialServiceS: 0.03, outsideS: 0.5, timeoutS: 32, responseSigma: 0.2 };
        for (const start of [BROKERING_PARAMS, rough]) {
            const fit = fitBrokeringParams(cells, start);
            expect(checkCalibration(fit.params, cells).failures).toEqual([]);
            // The bounds, checked here independently of checkCalibration.
            for (const cell of cells) {
                const p = predictCell(cell, fit.params);
                if (cell.meanResponseS !== null) {
                    expect(relError(p.meanResponseS, cell.meanResponseS), name(cell)).toBeLessThanOrEqual(MAX_REL);
                }
                expect(errorBoundsHold(p.errorRate, cell.errorRate), name(cell)).toBe(true);
            }
            // The asymmetric objective, not only the pasted constants, keeps the gate at or below the
            // measured 12 s crossings (90 ms: 44.8, 160 ms: 25.2; see brokering.test.ts).
            const safeAt = (rttMs: number): number => maxSafeConcurrency({ rttMs, targetResponseS: 12, errorBudget: 0.001 }, fit.params);
            expect(safeAt(90)).toBeLessThanOrEqual(44);
            expect(safeAt(160)).toBeLessThanOrEqual(25);
        }
    });

    it("is no worse than the shipped constants", () => {
        const shipped = checkCalibration(BROKERING_PARAMS, cells);
        expect(shipped.failures).toEqual([]);
    });
});

describe("leave one RTT level out", () => {
    // 10 ms is not held out: without it nothing pins the RTT-independent serialised work.
    it.each([45, 90, 160, 250])("predicts the %i ms row within 20 percent (45 ms: 23, it gave way) from a fit to the other rows", (rttMs) => {
        const bound = rttMs === 45 ? LOO_REL_45MS : LOO_REL;
        const loo = leaveOneRttOut(cells, rttMs);
        const heldOut = cells.filter((c) => c.rttMs === rttMs);
        expect(loo.params).not.toEqual(BROKERING_PARAMS);
        for (const cell of heldOut) {
            const p = predictCell(cell, loo.params);
            if (cell.meanResponseS !== null) {
                expect(relError(p.meanResponseS, cell.meanResponseS), name(cell)).toBeLessThanOrEqual(bound);
            }
            if (cell.brokeredPerS !== null) {
                expect(relError(p.brokeredPerS, cell.brokeredPerS), name(cell)).toBeLessThanOrEqual(bound);
            }
        }
    });
});
