/**
 * Calibration of the brokering model against the measured cells. Not part of the policy pack's
 * run-time code: model/index.ts must not export this file (the pack must not load fitting code).
 */
import { BROKERING_PARAMS, BrokeringParams, predictBrokering } from "../brokering";
import { BrokeringCell, USERS_PER_RUN } from "./cells";

/**
 * Acceptance bounds of the calibration (issue 12; relative errors as fractions, error rates as
 * fractions). If six parameters could not meet them all, leave-one-out would give way first, then
 * the medians, then the 15 % bound, then the factor of 3; the budget side never gives way.
 */
export const CALIBRATION_BOUNDS = Object.freeze({
    /** Mean response, brokered/s and launch time: every measured cell. */
    maxRelativeError: 0.15,
    /** Mean response and brokered/s: median over measured cells. */
    medianRelativeError: 0.05,
    /** The default error budget of the policies (0.1 %): the budget side of the error figures. */
    errorBudget: 0.001,
    /** Cells measured at or below this (0.05 %) must be predicted at or below errorBudget. */
    lowMeasuredError: 0.0005,
    /** Cells measured at or above this (0.2 %) must be predicted above errorBudget. */
    highMeasuredError: 0.002,
    /** Cells measured at or above this (0.1 %) must be predicted within errorFactor of it. */
    factorMeasuredError: 0.001,
    /** Largest ratio between predicted and measured error (either way) for those cells. */
    errorFactor: 3,
    /** Leave-one-RTT-out: mean response and brokered/s of the held-out level (45, 90, 160, 250 ms). */
    leaveOneOutRelativeError: 0.2,
});

/**
 * Order of the parameters in the optimiser's vector and their lower bounds: each is optimised as
 * log(value - lower bound), so it stays in range.
 */
const PARAM_ORDER: readonly (readonly [keyof BrokeringParams, number])[] = [
    ["lockRoundTrips", 0],
    ["lockFixedS", 0],
    ["serialServiceS", 0],
    ["outsideS", 0],
    ["timeoutS", 0],
    ["responseSigma", 0],
];

interface Minimum {
    readonly x: number[];
    readonly fx: number;
}

/**
 * Nelder-Mead simplex minimiser (standard coefficients: reflection 1, expansion 2, contraction
 * 0.5, shrink 0.5; Lagarias et al. 1998). Hand-written because the npm package fmin 0.0.4 ships a
 * UMD build under "type": "module" that CommonJS cannot load, and ml-levenberg-marquardt is
 * ESM-only and needs a smooth objective (ours has a collapse boundary and hinges).
 * Input: f, start point x0, initial step added to each coordinate, iteration cap.
 * Output: best point and value; stops when the simplex's values span less than 1e-12.
 */
function nelderMead(f: (x: number[]) => number, x0: readonly number[], step: number, maxIterations: number): Minimum {
    const n = x0.length;
    const point = (x: number[]): Minimum => ({ x, fx: f(x) });
    const simplex: Minimum[] = [point([...x0])];
    for (let i = 0; i < n; i++) {
        const x = [...x0];
        x[i] += step;
        simplex.push(point(x));
    }
    const along = (from: readonly number[], to: readonly number[], t: number): number[] => from.map((v, i) => v + t * (to[i] - v));
    for (let iteration = 0; iteration < maxIterations; iteration++) {
        simplex.sort((a, b) => a.fx - b.fx);
        const best = simplex[0];
        const worst = simplex[n];
        if (Math.abs(worst.fx - best.fx) <= 1e-12 * (1 + Math.abs(best.fx))) {
            break;
        }
        const centroid = x0.map((_, i) => simplex.slice(0, n).reduce((sum, s) => sum + s.x[i], 0) / n);
        const reflected = point(along(worst.x, centroid, 2));
        if (reflected.fx < best.fx) {
            const expanded = point(along(worst.x, centroid, 3));
            simplex[n] = expanded.fx < reflected.fx ? expanded : reflected;
        } else if (reflected.fx < simplex[n - 1].fx) {
            simplex[n] = reflected;
        } else {
            // Contract towards the better of the worst and the reflected point.
            const outside = reflected.fx < worst.fx;
            const contracted = point(along(worst.x, centroid, outside ? 1.5 : 0.5));
            if (contracted.fx < Math.min(worst.fx, reflected.fx)) {
                simplex[n] = contracted;
            } else {
                for (let i = 1; i <= n; i++) {
                    simplex[i] = point(along(best.x, simplex[i].x, 0.5));
                }
            }
        }
    }
    simplex.sort((a, b) => a.fx - b.fx);
    return simplex[0];
}

/** Measured vs predicted for one cell; relative errors are (predicted - measured) / measured. */
export interface CellResidual {
    readonly rttMs: number;
    readonly concurrency: number;
    readonly measured: BrokeringCell;
    readonly predictedResponseS: number;
    readonly predictedPerS: number;
    readonly predictedErrorRate: number;
    readonly predictedLaunchS: number;
    readonly responseRelError: number | null;
    readonly perSRelError: number | null;
    readonly launchRelError: number | null;
    /** Predicted minus measured error rate, fraction. */
    readonly errorRateDifference: number;
}

/** Residuals and the bound checks they fail (empty when all bounds are met). */
export interface CalibrationReport {
    readonly residuals: CellResidual[];
    readonly maxResponseRelError: number;
    readonly medianResponseRelError: number;
    readonly maxPerSRelError: number;
    readonly medianPerSRelError: number;
    readonly maxLaunchRelError: number;
    readonly maxErrorRateDifference: number;
    /** Largest predicted/measured error ratio (either way) over cells measured at 0.1 % or more. */
    readonly maxErrorFactor: number;
    /** Highest predicted error among cells measured at or below 0.05 % (must be <= the budget). */
    readonly maxPredictedErrorWhereNone: number;
    /** Lowest predicted error among cells measured at 0.2 % or more (must be above the budget). */
    readonly minPredictedErrorWhereHigh: number;
    readonly failures: string[];
}

/**
 * Residual of every cell for the given parameters.
 * Input: params, cells (from loadBrokeringCells). Output: one CellResidual per cell, table order.
 */
export function brokeringResiduals(params: BrokeringParams, cells: readonly BrokeringCell[]): CellResidual[] {
    return cells.map((cell) => {
        const p = predictBrokering({ rttMs: cell.rttMs, concurrency: cell.concurrency, users: USERS_PER_RUN }, params);
        const launchS = p.launchTimeS ?? Number.NaN;
        return {
            rttMs: cell.rttMs,
            concurrency: cell.concurrency,
            measured: cell,
            predictedResponseS: p.meanResponseS,
            predictedPerS: p.brokeredPerS,
            predictedErrorRate: p.errorRate,
            predictedLaunchS: launchS,
            responseRelError: relativeError(p.meanResponseS, cell.meanResponseS),
            perSRelError: relativeError(p.brokeredPerS, cell.brokeredPerS),
            launchRelError: relativeError(launchS, cell.launch10kUsersS),
            errorRateDifference: p.errorRate - cell.errorRate,
        };
    });
}

/**
 * Checks the calibration bounds (CALIBRATION_BOUNDS) over the given cells.
 * Output: CalibrationReport; `failures` names each missed bound with the cell and the value.
 */
export function checkCalibration(params: BrokeringParams, cells: readonly BrokeringCell[]): CalibrationReport {
    const residuals = brokeringResiduals(params, cells);
    const b = CALIBRATION_BOUNDS;
    const failures: string[] = [];
    const cellName = (r: CellResidual): string => `${r.rttMs} ms / ${r.concurrency} requests`;
    const absolute = (values: (number | null)[]): number[] => values.filter((v): v is number => v !== null).map(Math.abs);
    for (const r of residuals) {
        for (const [metric, value] of [
            ["meanResponseS", r.responseRelError],
            ["brokeredPerS", r.perSRelError],
            ["launchTimeS", r.launchRelError],
        ] as const) {
            if (value !== null && !(Math.abs(value) <= b.maxRelativeError)) {
                failures.push(`${cellName(r)}: ${metric} off by ${(value * 100).toFixed(1)} % (bound ${b.maxRelativeError * 100} %)`);
            }
        }
        for (const failure of errorRateFailures(r.predictedErrorRate, r.measured.errorRate)) {
            failures.push(`${cellName(r)}: ${failure}`);
        }
    }
    const response = absolute(residuals.map((r) => r.responseRelError));
    const perS = absolute(residuals.map((r) => r.perSRelError));
    const report = {
        residuals,
        maxResponseRelError: Math.max(...response),
        medianResponseRelError: median(response),
        maxPerSRelError: Math.max(...perS),
        medianPerSRelError: median(perS),
        maxLaunchRelError: Math.max(...absolute(residuals.map((r) => r.launchRelError))),
        maxErrorRateDifference: Math.max(...residuals.map((r) => Math.abs(r.errorRateDifference))),
        maxErrorFactor: Math.max(
            1,
            ...residuals
                .filter((r) => r.measured.errorRate >= b.factorMeasuredError)
                .map((r) => Math.max(r.predictedErrorRate / r.measured.errorRate, r.measured.errorRate / r.predictedErrorRate)),
        ),
        maxPredictedErrorWhereNone: Math.max(0, ...residuals.filter((r) => r.measured.errorRate <= b.lowMeasuredError).map((r) => r.predictedErrorRate)),
        minPredictedErrorWhereHigh: Math.min(1, ...residuals.filter((r) => r.measured.errorRate >= b.highMeasuredError).map((r) => r.predictedErrorRate)),
        failures,
    };
    for (const [metric, value] of [
        ["meanResponseS", report.medianResponseRelError],
        ["brokeredPerS", report.medianPerSRelError],
    ] as const) {
        if (!(value <= b.medianRelativeError)) {
            failures.push(`median ${metric} error ${(value * 100).toFixed(1)} % (bound ${b.medianRelativeError * 100} %)`);
        }
    }
    return report;
}

/**
 * The error-rate bounds one cell misses (empty when it meets them all): the budget side (measured
 * <= 0.05 % must be predicted <= 0.1 %, measured >= 0.2 % above it) and the factor of 3.
 */
export function errorRateFailures(predicted: number, measured: number): string[] {
    const b = CALIBRATION_BOUNDS;
    const show = (v: number): string => `${(v * 100).toFixed(3)} %`;
    const failures: string[] = [];
    if (measured <= b.lowMeasuredError && !(predicted <= b.errorBudget)) {
        failures.push(`error rate ${show(predicted)} above the ${show(b.errorBudget)} budget (measured ${show(measured)})`);
    }
    if (measured >= b.highMeasuredError && !(predicted > b.errorBudget)) {
        failures.push(`error rate ${show(predicted)} not above the ${show(b.errorBudget)} budget (measured ${show(measured)})`);
    }
    if (measured >= b.factorMeasuredError && !(predicted <= measured * b.errorFactor && predicted >= measured / b.errorFactor)) {
        failures.push(`error rate ${show(predicted)} not within a factor of ${b.errorFactor} of the measured ${show(measured)}`);
    }
    return failures;
}

/**
 * Weights of the asymmetric fit (OBJECTIVE_WEIGHTS). The policies gate on the predicted mean
 * response and error rate (maxSafeConcurrency, citrix-brokering-capacity), so an optimistic
 * residual (response or launch time predicted too short, brokered/s too high) lets through a
 * concurrency the measurements reject, while a pessimistic one only costs headroom.
 */
export const OBJECTIVE_WEIGHTS = Object.freeze({
    /**
     * Weight of a squared optimistic log ratio relative to a pessimistic one (1). 9 makes the fit
     * an expectile regression at tau = 9 / (1 + 9) = 0.9 of the log residuals: the model follows
     * the slow side of each row's scatter (e.g. 160 ms, 2.1 requests/s in all five cells) instead
     * of averaging it with noisy fast cells in other rows (45 ms / 36: 8.4/s between 7.8 and 7.5;
     * 250 ms / 24: 1.6/s where 12 and 36 requests measure 1.3/s).
     */
    optimisticWeight: 9,
    /** |Relative error| beyond which a steep hinge starts on an optimistic residual (3 points inside the 15 % bound). */
    optimisticHinge: 0.12,
    /** Same for a pessimistic residual: 1 point inside the bound, since erring this way is safe. */
    pessimisticHinge: 0.13,
    /** Weight of the squared log excess beyond a hinge. */
    hingeWeight: 3000,
    /** Weight of a predicted response under 12 s at a row's measured 12 s crossing (gate too permissive). */
    crossingWeight: 10000,
    /** Weight of a median relative error above medianMargin. */
    medianWeight: 10000,
    /** Median relative error from which the objective pushes back (the bound is 5 %). */
    medianMargin: 0.04,
});

export type ObjectiveWeights = typeof OBJECTIVE_WEIGHTS;

/**
 * Asymmetric least-squares objective: squared log ratios of response, brokered/s and launch time
 * (optimistic ones weighted OBJECTIVE_WEIGHTS.optimisticWeight), steep hinges on residuals near
 * the bounds (optimistic 12 %, pessimistic 14 %, error rate 7 points), squared error-rate
 * differences, and a hinge that pushes each predicted error rate to the measured side of 1 %.
 * Lower is better; Infinity for parameters the model rejects.
 */
export function brokeringObjective(params: BrokeringParams, cells: readonly BrokeringCell[], w: ObjectiveWeights = OBJECTIVE_WEIGHTS): number {
    let residuals: CellResidual[];
    try {
        residuals = brokeringResiduals(params, cells);
    } catch {
        return Number.POSITIVE_INFINITY;
    }
    let sum = 0;
    for (const r of residuals) {
        // Optimistic: response and launch time too short, brokered/s too high.
        sum += logRatioCost(r.predictedResponseS, r.measured.meanResponseS, "below", w);
        sum += logRatioCost(r.predictedPerS, r.measured.brokeredPerS, "above", w);
        sum += 0.5 * logRatioCost(r.predictedLaunchS, r.measured.launch10kUsersS, "below", w);
        sum += errorRateCost(r.predictedErrorRate, r.measured.errorRate);
    }
    // The gate must not be more permissive than the measurements: where a row's measured mean
    // response crosses the 12 s default target, the model must predict 12 s or more.
    for (const crossing of responseCrossings(cells, GATE_TARGET_S)) {
        const p = predictBrokering({ rttMs: crossing.rttMs, concurrency: crossing.concurrency }, params);
        sum += w.crossingWeight * Math.max(0, Math.log(GATE_TARGET_S / p.meanResponseS)) ** 2;
    }
    // The bounds cap the median error at 5 %: keep it under 4.5 %.
    for (const values of [residuals.map((r) => r.responseRelError), residuals.map((r) => r.perSRelError)]) {
        const measured = values.filter((v): v is number => v !== null).map(Math.abs);
        sum += w.medianWeight * Math.max(0, median(measured) - w.medianMargin) ** 2;
    }
    return Number.isFinite(sum) ? sum : Number.POSITIVE_INFINITY;
}

/** The policies' default response target (s): the gate the measured crossings are checked at. */
export const GATE_TARGET_S = 12;

/**
 * Per RTT row, the concurrency at which the measured mean response first exceeds limitS:
 * linear interpolation between the two measured cells that straddle it (rows that never cross
 * are left out).
 */
export function responseCrossings(cells: readonly BrokeringCell[], limitS: number): Array<{ rttMs: number; concurrency: number }> {
    const out: Array<{ rttMs: number; concurrency: number }> = [];
    for (const rttMs of [...new Set(cells.map((c) => c.rttMs))]) {
        const row = cells.filter((c) => c.rttMs === rttMs).sort((a, b) => a.concurrency - b.concurrency);
        for (let i = 1; i < row.length; i++) {
            const low = row[i - 1].meanResponseS;
            const high = row[i].meanResponseS;
            if (low !== null && high !== null && low <= limitS && high > limitS) {
                out.push({ rttMs, concurrency: row[i - 1].concurrency + ((limitS - low) / (high - low)) * (row[i].concurrency - row[i - 1].concurrency) });
                break;
            }
        }
    }
    return out;
}

/** Result of a fit. */
export interface BrokeringFit {
    readonly params: BrokeringParams;
    readonly objective: number;
}

/**
 * Fits the six global parameters with Nelder-Mead on their logarithms,
 * restarting from the best point until the objective stops improving.
 * Input: cells (any subset, e.g. one RTT level left out), start (default BROKERING_PARAMS).
 * Output: { params (frozen), objective }.
 */
export function fitBrokeringParams(
    cells: readonly BrokeringCell[],
    start: BrokeringParams = BROKERING_PARAMS,
    weights: ObjectiveWeights = OBJECTIVE_WEIGHTS,
): BrokeringFit {
    const toParams = (x: readonly number[]): BrokeringParams => {
        const entries = PARAM_ORDER.map(([name, lower], i) => [name, lower + Math.exp(x[i])] as const);
        return Object.freeze(Object.fromEntries(entries) as unknown as BrokeringParams);
    };
    const objective = (x: number[]): number => brokeringObjective(toParams(x), cells, weights);
    // A start value on its lower bound would have no logarithm; start it just above instead.
    let x = PARAM_ORDER.map(([name, lower]) => Math.log(Math.max(start[name] - lower, 1e-3)));
    let best = objective(x);
    for (let restart = 0; restart < 8; restart++) {
        // Restarting rebuilds the simplex, which un-sticks Nelder-Mead from collapsed simplices.
        const result = nelderMead(objective, x, 0.2, 3000);
        const improved = result.fx < best - 1e-9;
        if (result.fx < best) {
            best = result.fx;
            x = [...result.x];
        }
        if (!improved) {
            break;
        }
    }
    return { params: toParams(x), objective: best };
}

/** Result of predicting one RTT level from a fit to the other levels. */
export interface LeaveOneOutResult {
    readonly heldOutRttMs: number;
    readonly params: BrokeringParams;
    readonly maxResponseRelError: number;
    readonly maxPerSRelError: number;
    readonly residuals: CellResidual[];
}

/**
 * Refits without the cells of one RTT level and predicts that level.
 * Input: all cells, heldOutRttMs (ms), start params. Output: LeaveOneOutResult (max |relative
 * error| of mean response and brokered/s over the held-out cells that have values).
 */
export function leaveOneRttOut(cells: readonly BrokeringCell[], heldOutRttMs: number, start: BrokeringParams = BROKERING_PARAMS): LeaveOneOutResult {
    const fit = fitBrokeringParams(
        cells.filter((c) => c.rttMs !== heldOutRttMs),
        start,
    );
    const residuals = brokeringResiduals(
        fit.params,
        cells.filter((c) => c.rttMs === heldOutRttMs),
    );
    const maxAbs = (values: (number | null)[]): number => Math.max(0, ...values.filter((v): v is number => v !== null).map(Math.abs));
    return {
        heldOutRttMs,
        params: fit.params,
        maxResponseRelError: maxAbs(residuals.map((r) => r.responseRelError)),
        maxPerSRelError: maxAbs(residuals.map((r) => r.perSRelError)),
        residuals,
    };
}

/**
 * Cost of one cell's predicted error rate: squared log ratio where the source measured 0.1 % or
 * more (a steep hinge beyond a factor of 2.5), and steep hinges that keep cells measured at or
 * below 0.05 % under 0.07 % and cells measured at 0.2 % or more above 0.15 % (margins inside the
 * 0.1 % budget bound, which never gives way).
 */
function errorRateCost(predicted: number, measured: number): number {
    const b = CALIBRATION_BOUNDS;
    const p = Math.max(predicted, 1e-12);
    let cost = 0;
    if (measured >= b.factorMeasuredError) {
        const logRatio = Math.log(p / measured);
        cost += logRatio ** 2 + 100 * Math.max(0, Math.abs(logRatio) - Math.log(2.8)) ** 2;
    }
    if (measured <= b.lowMeasuredError) {
        cost += 100 * Math.max(0, Math.log(p / (0.9 * b.errorBudget))) ** 2;
    }
    if (measured >= b.highMeasuredError) {
        cost += 100 * Math.max(0, Math.log((1.5 * b.errorBudget) / p)) ** 2;
    }
    return cost;
}

function relativeError(predicted: number, measured: number | null): number | null {
    return measured === null ? null : (predicted - measured) / measured;
}

/**
 * Squared log ratio, weighted OBJECTIVE_WEIGHTS.optimisticWeight when the prediction is on the
 * optimistic side (`optimistic`: "below" or "above" the measurement), plus a steep hinge beyond
 * the side's hinge (12 % optimistic, 14 % pessimistic), so no cell drifts out of the 15 % bound.
 * 0 when the cell has no measurement.
 */
function logRatioCost(predicted: number, measured: number | null, optimistic: "below" | "above", w: ObjectiveWeights): number {
    if (measured === null) {
        return 0;
    }
    const logRatio = Math.log(predicted / measured);
    const isOptimistic = optimistic === "below" ? logRatio < 0 : logRatio > 0;
    const weight = isOptimistic ? w.optimisticWeight : 1;
    const hinge = Math.log(1 + (isOptimistic ? w.optimisticHinge : w.pessimisticHinge));
    return weight * logRatio ** 2 + w.hingeWeight * Math.max(0, Math.abs(logRatio) - hinge) ** 2;
}

function median(values: readonly number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
