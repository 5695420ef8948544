/**
 * Brokering of one Delivery Group: its lock is its own closed queue, and a group whose machines
 * sit in several zones is a queue with several classes, one per zone (the requests brokered by
 * that zone's Delivery Controllers hold the lock for that zone's lock time).
 *
 * Source: citrix-zones-latency-brokering.ja.txt: the brokering transaction locks every worker of
 * the Delivery Group to snapshot their load (the tests used one Delivery Group of 57 VDAs). What
 * the source did not measure, and this module labels "not measured": several groups working at
 * once on one Site database, a group spanning zones, and more than 60 concurrent requests.
 */
import { BROKERING_PARAMS, BrokeringParams, largestMeeting, lockHoldTimeS, predictBrokering, solveLockClasses } from "./brokering";

/** The most concurrent brokering requests the source measured against one Site database. */
export const MEASURED_MAX_CONCURRENCY = 60;

/** One zone's requests into a Delivery Group. */
export interface GroupClassInput {
    /** RTT between that zone's Delivery Controllers and the Site database, ms (>= 0). */
    readonly rttMs: number;
    /** Concurrent brokering requests from that zone into the group, > 0 (may be fractional). */
    readonly concurrency: number;
}

/** Per-zone (per-class) prediction for one Delivery Group. */
export interface GroupClassPrediction {
    readonly rttMs: number;
    readonly concurrency: number;
    readonly meanResponseS: number;
    readonly brokeredPerS: number;
    readonly errorRate: number;
}

/** Prediction for one Delivery Group's lock. */
export interface GroupPrediction {
    readonly classes: GroupClassPrediction[];
    /** Requests of all classes in flight. */
    readonly concurrency: number;
    /** The worst class's mean response (the users of the farthest zone), s. */
    readonly worstMeanResponseS: number;
    /** The worst class's error rate, 0..1. */
    readonly worstErrorRate: number;
    /** All classes, requests/s. */
    readonly brokeredPerS: number;
    /** All classes, requests completed within the timeout, requests/s. */
    readonly successfulPerS: number;
    /** Time to broker `users` launches at brokeredPerS, s (when users is given). */
    readonly launchTimeS?: number;
    /** Why parts of this prediction rest on extrapolation ("not measured"); empty when none. */
    readonly notMeasured: string[];
}

/**
 * Predicts one Delivery Group's brokering.
 * Input: classes (one per zone the group's requests come from; classes with concurrency 0 are
 * dropped), users? (>= 0); params.
 * Output: GroupPrediction. One class is exactly predictBrokering (the calibrated single-lock
 * model); several use approximate multi-class MVA (checked against a discrete-event simulation
 * in test/model/brokering.groups.test.ts).
 * Throws RangeError when no class has concurrency > 0, or an input is non-finite or negative.
 */
export function predictGroupBrokering(
    input: { classes: readonly GroupClassInput[]; users?: number },
    params: BrokeringParams = BROKERING_PARAMS,
): GroupPrediction {
    const classes = input.classes.filter((c) => c.concurrency > 0);
    for (const c of input.classes) {
        if (!Number.isFinite(c.concurrency) || c.concurrency < 0) {
            throw new RangeError(`concurrency must be a finite number >= 0, got ${c.concurrency}`);
        }
    }
    if (classes.length === 0) {
        throw new RangeError("a Delivery Group prediction needs at least one class with concurrency > 0");
    }
    const concurrency = classes.reduce((sum, c) => sum + c.concurrency, 0);
    let results: GroupClassPrediction[];
    if (classes.length === 1 && classes[0].concurrency >= 1) {
        const p = predictBrokering({ rttMs: classes[0].rttMs, concurrency: classes[0].concurrency }, params);
        results = [
            {
                rttMs: classes[0].rttMs,
                concurrency: classes[0].concurrency,
                meanResponseS: p.meanResponseS,
                brokeredPerS: p.brokeredPerS,
                errorRate: p.errorRate,
            },
        ];
    } else {
        const solved = solveLockClasses(
            classes.map((c) => ({ population: c.concurrency, holdS: lockHoldTimeS(c.rttMs, params) })),
            params,
        );
        results = classes.map((c, i) => ({ rttMs: c.rttMs, concurrency: c.concurrency, ...solved[i] }));
    }
    const brokeredPerS = results.reduce((sum, r) => sum + r.brokeredPerS, 0);
    const notMeasured: string[] = [];
    if (concurrency > MEASURED_MAX_CONCURRENCY) {
        notMeasured.push(`${round(concurrency)} concurrent requests on one lock: not measured (the source measured up to ${MEASURED_MAX_CONCURRENCY})`);
    }
    if (new Set(results.map((r) => r.rttMs)).size > 1) {
        notMeasured.push("one Delivery Group brokered from zones at different RTTs: not measured (multi-class MVA)");
    }
    if (input.users !== undefined && (!Number.isFinite(input.users) || input.users < 0)) {
        throw new RangeError(`users must be a finite number >= 0, got ${input.users}`);
    }
    return {
        classes: results,
        concurrency,
        worstMeanResponseS: Math.max(...results.map((r) => r.meanResponseS)),
        worstErrorRate: Math.max(...results.map((r) => r.errorRate)),
        brokeredPerS,
        successfulPerS: results.reduce((sum, r) => sum + r.brokeredPerS * (1 - r.errorRate), 0),
        ...(input.users === undefined ? {} : { launchTimeS: input.users / brokeredPerS }),
        notMeasured,
    };
}

/** Targets of {@link maxSafeGroupConcurrency}. */
export interface GroupTargets {
    readonly targetResponseS: number;
    /** Fraction 0..1. */
    readonly errorBudget: number;
}

/**
 * Largest whole number of concurrent requests in all that one Delivery Group's lock sustains at
 * the targets, with the requests split over its zones in the given proportions (`mix`: RTT and
 * weight per zone). One zone gives exactly maxSafeConcurrency. 0 when even 1 request misses.
 */
export function maxSafeGroupConcurrency(
    mix: readonly { rttMs: number; weight: number }[],
    targets: GroupTargets,
    params: BrokeringParams = BROKERING_PARAMS,
): number {
    const weights = mix.filter((m) => m.weight > 0);
    const total = weights.reduce((sum, m) => sum + m.weight, 0);
    if (weights.length === 0 || !(total > 0)) {
        return 0;
    }
    const meets = (n: number): boolean => {
        const p = predictGroupBrokering({ classes: weights.map((m) => ({ rttMs: m.rttMs, concurrency: (n * m.weight) / total })) }, params);
        return p.worstMeanResponseS <= targets.targetResponseS && p.worstErrorRate <= targets.errorBudget;
    };
    return largestMeeting(meets);
}

/** One Delivery Group's storm as the Site database sees it. */
export interface SiteStorm {
    /** The group's predicted rate on its own lock, requests/s (timed-out ones included). */
    readonly brokeredPerS: number;
    /** Of which complete within the timeout, requests/s. */
    readonly successfulPerS: number;
    /** Users of its logon storm, when declared. */
    readonly users?: number;
}

/** A storm after the Site database's cap. */
export interface SiteStormResult {
    readonly brokeredPerS: number;
    readonly successfulPerS: number;
    /**
     * Time until every user of the storm has a brokered launch, s: users / successfulPerS (a
     * timed-out launch is retried, so only successful ones count); undefined without users,
     * Infinity when nothing succeeds.
     */
    readonly launchTimeS?: number;
}

/**
 * Storms of several Delivery Groups at once on one Site database: every lock is its own queue, all
 * brokering through the one database. The source measured one group, whose 22.9-23.2/s plateau is
 * that lock's hold time, not a database ceiling, so only a rate measured on the Site (`capPerS`,
 * measuredSiteBrokeredPerS) caps the sum: when the groups' rates add up to more, each is scaled
 * down in proportion (they would share it while they run at once).
 * Input: storms (rates >= 0), capPerS (> 0). Output: one result per storm, same order, and the
 * Site's total after the cap. Never throws on finite input.
 */
export function shareSiteCap(
    storms: readonly SiteStorm[],
    capPerS: number,
): { storms: SiteStormResult[]; totalPerS: number; uncappedPerS: number; capped: boolean; responseScale: number } {
    const uncappedPerS = storms.reduce((sum, s) => sum + s.brokeredPerS, 0);
    const factor = uncappedPerS > capPerS && uncappedPerS > 0 ? capPerS / uncappedPerS : 1;
    const results = storms.map((s): SiteStormResult => {
        const successfulPerS = s.successfulPerS * factor;
        return {
            brokeredPerS: s.brokeredPerS * factor,
            successfulPerS,
            ...(s.users === undefined ? {} : { launchTimeS: s.users === 0 ? 0 : successfulPerS > 0 ? s.users / successfulPerS : Number.POSITIVE_INFINITY }),
        };
    });
    // A closed loop keeps its requests in flight: response = concurrency / throughput (Little's
    // law), so a throughput lowered by `factor` raises every mean response by 1 / factor.
    return {
        storms: results,
        totalPerS: uncappedPerS * factor,
        uncappedPerS,
        capped: factor < 1,
        responseScale: factor > 0 ? 1 / factor : Number.POSITIVE_INFINITY,
    };
}

function round(value: number): string {
    return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
