/**
 * docs/models.md quotes the brokering calibration's residuals: each figure it quotes must be what
 * `npm run calibrate` prints today, computed here in-process the way scripts/calibrate-brokering.ts
 * computes it (shipped constants' residuals; leave-one-RTT-out from the refit), never hard-coded.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { BROKERING_PARAMS } from "../../model/brokering";
import { loadBrokeringCells } from "../../model/calibration/cells";
import { checkCalibration, fitBrokeringParams, leaveOneRttOut } from "../../model/calibration/fitBrokering";

const doc = fs.readFileSync(path.resolve(__dirname, "../../docs/models.md"), "utf8").replace(/\s+/g, " ");
const cells = loadBrokeringCells();
const shipped = checkCalibration(BROKERING_PARAMS, cells);

/** The number the doc gives after `before` (a regex source ending where the number starts). */
function quoted(before: string): number {
    const m = doc.match(new RegExp(`${before}(-?[\\d.]+)`));
    expect(m, `docs/models.md quotes "${before}"`).not.toBeNull();
    return Number(m![1]);
}

const pct1 = (fraction: number): number => Number((Math.abs(fraction) * 100).toFixed(1));

describe("docs/models.md's calibration figures equal the calibration's output", () => {
    it.each([
        ["worst mean response", "Worst cells of the shipped constants: mean response within ", () => shipped.maxResponseRelError],
        ["worst brokered/s", "brokered/s within ", () => shipped.maxPerSRelError],
        ["worst launch time", "launch time within ", () => shipped.maxLaunchRelError],
        ["worst error rate, percentage points", "error rate within ", () => shipped.maxErrorRateDifference],
        ["median mean response", "Medians: mean response ", () => shipped.medianResponseRelError],
        ["median brokered/s", "Medians: mean response [\\d.]+%, brokered/s ", () => shipped.medianPerSRelError],
    ])("%s", (_name, before, actual) => {
        expect(quoted(before)).toBe(pct1(actual()));
    });

    it("names the cell of the worst response, brokered/s and launch time, and of the worst error rate", () => {
        const worst = (key: "responseRelError" | "perSRelError" | "launchRelError" | "errorRateDifference") =>
            shipped.residuals.reduce((a, b) => (Math.abs(b[key] ?? 0) > Math.abs(a[key] ?? 0) ? b : a));
        const all3 = doc.match(/\(all three at (\d+) ms and (\d+) requests/);
        expect(all3).not.toBeNull();
        for (const key of ["responseRelError", "perSRelError", "launchRelError"] as const) {
            expect([worst(key).rttMs, worst(key).concurrency], key).toEqual([Number(all3![1]), Number(all3![2])]);
        }
        const err = doc.match(/percentage points \((\d+) ms and (\d+) requests: ([\d.]+)% predicted where ([\d.]+)% was measured/);
        expect(err).not.toBeNull();
        const e = worst("errorRateDifference");
        expect([e.rttMs, e.concurrency]).toEqual([Number(err![1]), Number(err![2])]);
        expect(Number(err![3])).toBe(Number((e.predictedErrorRate * 100).toFixed(1)));
        expect(Number(err![4])).toBe(Number((e.measured.errorRate * 100).toFixed(1)));
    });

    it("quotes leave-one-RTT-out as the calibration computes it (from the refit; 10 ms not held out)", () => {
        const fit = fitBrokeringParams(cells);
        const worst = (rttMs: number): number => {
            const loo = leaveOneRttOut(cells, rttMs, fit.params);
            return Math.max(loo.maxResponseRelError, loo.maxPerSRelError);
        };
        expect(quoted("Refitting without one RTT level predicts it within ")).toBe(pct1(Math.max(...[90, 160, 250].map(worst))));
        expect(quoted("predicts it within [\\d.]+% \\(45 ms: ")).toBe(pct1(worst(45)));
    }, 120_000);
});
