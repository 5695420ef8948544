/**
 * `npm run calibrate`: refits the brokering model to model/data/citrix-brokering.json, prints
 * the parameters (ready to paste into BROKERING_PARAMS in model/brokering.ts), a residual table
 * the leave-one-RTT-out check and maxSafeConcurrency at 12 s / 0.1 % beside the measured rows'
 * 12 s crossings, and exits 1 if a calibration bound is missed by the refit or by the shipped
 * constants.
 */
import { BROKERING_PARAMS, BrokeringParams, maxSafeConcurrency } from "../model/brokering";
import { BROKERING_SOURCE, BrokeringCell, loadBrokeringCells, rttLevels } from "../model/calibration/cells";
import { CALIBRATION_BOUNDS, CalibrationReport, checkCalibration, fitBrokeringParams, leaveOneRttOut } from "../model/calibration/fitBrokering";

function formatParams(params: BrokeringParams): string {
    const lines = Object.entries(params).map(([name, value]) => `    ${name}: ${Number(value.toPrecision(4))},`);
    return `{\n${lines.join("\n")}\n}`;
}

function percent(value: number | null): string {
    return value === null ? "-" : `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}%`;
}

function num(value: number | null, digits: number): string {
    return value === null ? "-" : value.toFixed(digits);
}

function printReport(title: string, report: CalibrationReport): void {
    console.log(`\n${title}`);
    const header = ["RTT ms", "conc", "resp s meas/pred", "rel", "per s meas/pred", "rel", "err % meas/pred", "diff pp", "launch s meas/pred", "rel"];
    const rows = report.residuals.map((r) => [
        String(r.rttMs),
        String(r.concurrency),
        `${num(r.measured.meanResponseS, 1)} / ${num(r.predictedResponseS, 2)}`,
        percent(r.responseRelError),
        `${num(r.measured.brokeredPerS, 1)} / ${num(r.predictedPerS, 2)}`,
        percent(r.perSRelError),
        `${num(r.measured.errorRate * 100, 2)} / ${num(r.predictedErrorRate * 100, 2)}`,
        (r.errorRateDifference * 100).toFixed(1),
        `${num(r.measured.launch10kUsersS, 0)} / ${num(r.predictedLaunchS, 0)}`,
        percent(r.launchRelError),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    for (const row of [header, ...rows]) {
        console.log(row.map((cell, i) => cell.padStart(widths[i])).join("  "));
    }
    console.log(
        `max |rel| response ${percent(report.maxResponseRelError)}, median ${percent(report.medianResponseRelError)}; ` +
            `brokered/s max ${percent(report.maxPerSRelError)}, median ${percent(report.medianPerSRelError)}; ` +
            `launch max ${percent(report.maxLaunchRelError)}; error rate max diff ${(report.maxErrorRateDifference * 100).toFixed(1)} pp`,
    );
    console.log(
        `error rate: highest predicted where measured <= 0.05 %: ${(report.maxPredictedErrorWhereNone * 100).toFixed(3)} % (budget 0.1 %); ` +
            `lowest predicted where measured >= 0.2 %: ${(report.minPredictedErrorWhereHigh * 100).toFixed(3)} %; ` +
            `worst factor where measured >= 0.1 %: ${report.maxErrorFactor.toFixed(2)} (bound 3)`,
    );
    for (const failure of report.failures) {
        console.log(`  BOUND MISSED: ${failure}`);
    }
}

/**
 * Concurrency at which the measured mean response of one RTT row first exceeds limitS, s:
 * linear interpolation between the two measured cells that straddle it; null if none does.
 */
function measuredResponseCrossing(cells: readonly BrokeringCell[], rttMs: number, limitS: number): number | null {
    const row = cells.filter((c) => c.rttMs === rttMs).sort((a, b) => a.concurrency - b.concurrency);
    for (let i = 1; i < row.length; i++) {
        const low = row[i - 1].meanResponseS;
        const high = row[i].meanResponseS;
        if (low !== null && high !== null && low <= limitS && high > limitS) {
            return row[i - 1].concurrency + ((limitS - low) / (high - low)) * (row[i].concurrency - row[i - 1].concurrency);
        }
    }
    return null;
}

/**
 * Prints maxSafeConcurrency at 12 s / 0.1 % per RTT level for the refit and the shipped constants.
 * Output: the number of levels where either is above the measured 12 s crossing (a missed bound).
 */
function printSafeConcurrency(cells: readonly BrokeringCell[], refit: BrokeringParams): number {
    let permissiveLevels = 0;
    const targets = { targetResponseS: 12, errorBudget: 0.001 };
    console.log("\nmaxSafeConcurrency at 12 s / 0.1 % (refit, shipped) vs the measured 12 s crossing:");
    for (const rttMs of rttLevels(cells)) {
        const crossing = measuredResponseCrossing(cells, rttMs, targets.targetResponseS);
        const [a, b] = [refit, BROKERING_PARAMS].map((params) => maxSafeConcurrency({ rttMs, ...targets }, params));
        const permissive = crossing !== null && Math.max(a, b) > crossing;
        if (permissive) {
            permissiveLevels++;
        }
        console.log(
            `  ${String(rttMs).padStart(3)} ms: ${a}, ${b}; measured ${crossing === null ? "not reached (< 12 s at every cell)" : crossing.toFixed(1)}` +
                (permissive ? "  BOUND MISSED: more permissive than measured" : ""),
        );
    }
    return permissiveLevels;
}

function main(): number {
    const cells = loadBrokeringCells();
    console.log(`Source: ${BROKERING_SOURCE}`);
    const fit = fitBrokeringParams(cells);
    console.log(`\nRefitted parameters (objective ${fit.objective.toFixed(4)}):\n${formatParams(fit.params)}`);
    const refit = checkCalibration(fit.params, cells);
    printReport("Refit, all 25 cells:", refit);
    const shipped = checkCalibration(BROKERING_PARAMS, cells);
    printReport("Shipped BROKERING_PARAMS, all 25 cells:", shipped);

    console.log("\nLeave one RTT level out (fit the others, predict it):");
    // Issue 12: if six parameters cannot meet every bound, leave-one-out gives way first; it is
    // printed with the amount, and does not fail the run.
    const gaveWay: string[] = [];
    for (const rttMs of rttLevels(cells)) {
        const loo = leaveOneRttOut(cells, rttMs, fit.params);
        // The 10 ms level is outside the bound (it pins the constant part of the lock).
        const bounded = rttMs !== 10;
        const worst = Math.max(loo.maxResponseRelError, loo.maxPerSRelError);
        const ok = worst <= CALIBRATION_BOUNDS.leaveOneOutRelativeError;
        if (bounded && !ok) {
            gaveWay.push(`leave-one-out ${rttMs} ms: ${percent(worst)} against ${CALIBRATION_BOUNDS.leaveOneOutRelativeError * 100} %`);
        }
        console.log(
            `  ${String(rttMs).padStart(3)} ms: max |rel| response ${percent(loo.maxResponseRelError)}, ` +
                `brokered/s ${percent(loo.maxPerSRelError)}${bounded ? (ok ? "" : "  GIVES WAY (leave-one-out gives way first)") : " (not bounded)"}`,
        );
    }
    const permissiveLevels = printSafeConcurrency(cells, fit.params);
    const failed = refit.failures.length + shipped.failures.length + permissiveLevels;
    for (const line of gaveWay) {
        console.log(`\nGave way: ${line}`);
    }
    console.log(failed === 0 ? `\nAll other calibration bounds met.` : `\n${failed} calibration bound(s) missed.`);
    return failed === 0 ? 0 : 1;
}

process.exitCode = main();
