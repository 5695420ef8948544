/**
 * A client's timeout on a lognormal brokering response (model/brokering.ts): the share of requests
 * that time out and the mean response a client sees, from the response's mean and spread.
 */

export interface TimeoutOutcome {
    /** P(R > timeout). */
    readonly errorRate: number;
    /** E[min(R, timeout)], s. */
    readonly meanSeenS: number;
}

/** Lognormal response R with the given mean: error rate and mean seen by a client that gives up at timeoutS. */
export function timeoutOutcome(meanS: number, timeoutS: number, sigma: number): TimeoutOutcome {
    const d2 = (Math.log(meanS / timeoutS) - (sigma * sigma) / 2) / sigma;
    const d1 = d2 + sigma;
    const errorRate = normalCdf(d2);
    return { errorRate, meanSeenS: meanS * normalCdf(-d1) + timeoutS * errorRate };
}

/** Standard normal CDF via erfc (Numerical Recipes erfcc, relative error < 1.2e-7). */
function normalCdf(x: number): number {
    const z = Math.abs(x) / Math.SQRT2;
    const t = 1 / (1 + 0.5 * z);
    const erfc =
        t *
        Math.exp(
            -z * z -
                1.26551223 +
                t *
                    (1.00002368 +
                        t *
                            (0.37409196 +
                                t *
                                    (0.09678418 +
                                        t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
        );
    return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}
