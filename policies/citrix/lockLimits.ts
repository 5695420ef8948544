/**
 * What one Delivery Group's lock sustains and the throttle that keeps it there: the safe
 * concurrency of a zone mix, the worst mix first-come throttles can bring, and the largest
 * per-controller throttle that bounds the lock within what it then sustains (the fix's value).
 */
import { MEASURED_MAX_CONCURRENCY, maxSafeGroupConcurrency } from "../../model/deliveryGroupBrokering";
import type { LockFeed } from "./evaluationTypes";
import { adviceLimit, BrokeringTargets, safeConcurrency } from "./targets";

/**
 * A lock's safe concurrency: one zone gives safeConcurrency (the model, never above a measured
 * cell that missed the targets); several, the multi-class model with the zones' mix.
 */
export function lockSafeConcurrency(mix: readonly { rttMs: number; weight: number }[], targets: BrokeringTargets): number {
    const used = mix.filter((m) => m.weight > 0);
    if (used.length === 1 || new Set(used.map((m) => m.rttMs)).size === 1) {
        return used.length === 0 ? 0 : safeConcurrency(used[0].rttMs, targets);
    }
    const model = maxSafeGroupConcurrency(used, { targetResponseS: targets.targetResponseS, errorBudget: targets.errorBudgetPct / 100 });
    // The source's advice (at most 24 from 160 ms) bounds a mix whose every zone is that far.
    const advice = adviceLimit(Math.min(...used.map((m) => m.rttMs)), targets);
    return advice === undefined ? model : Math.min(model, advice);
}

/** The per-controller throttle a lock allows: its safe concurrency (within the 60 measured) over the controllers feeding it. */
export function perControllerThrottle(safe: number, feeders: number): number {
    return Math.max(0, Math.floor(Math.min(safe, MEASURED_MAX_CONCURRENCY) / Math.max(1, feeders)));
}

/**
 * The worst mix one storm can bring to a lock: `arriving` requests, the slowest zones filled first,
 * each up to its controllers' throttles (all of them where a controller has no known throttle).
 */
export function worstMix(feeds: readonly LockFeed[], arriving: number): { rttMs: number; weight: number }[] {
    let left = Math.max(0, arriving);
    const mix: { rttMs: number; weight: number }[] = [];
    for (const f of [...feeds].sort((a, b) => b.rttMs - a.rttMs)) {
        const take = f.allThrottled ? Math.min(left, f.knownThrottles) : left;
        if (take > 0) {
            mix.push({ rttMs: f.rttMs, weight: take });
        }
        left -= take;
    }
    return mix;
}

/**
 * The largest per-controller throttle, at most `safe` split over `lowered`'s controllers, that
 * bounds the lock within what it then sustains: lowering throttles changes the worst mix the lock
 * can receive (slowest zones first), and so what it sustains; undefined when even 1 each does not.
 * At most `safe` steps of one worst-mix solve each (a lock sustains tens of requests).
 */
export function settledThrottle(
    feeds: readonly LockFeed[],
    lowered: readonly LockFeed[],
    safe: number,
    peak: number | undefined,
    byMachines: number,
    config: BrokeringTargets,
): number | undefined {
    for (
        let each = perControllerThrottle(
            safe,
            lowered.reduce((sum, f) => sum + f.controllers, 0),
        );
        each >= 1;
        each -= 1
    ) {
        const after = feeds.map((f) => (lowered.includes(f) ? { ...f, knownThrottles: each * f.controllers, allThrottled: true } : f));
        const sum = after.reduce((total, f) => total + f.knownThrottles, 0);
        const bounded = after.every((f) => f.allThrottled);
        const arriving = peak !== undefined ? (bounded ? Math.min(peak, sum) : peak) : bounded ? sum : Number.POSITIVE_INFINITY;
        if (!Number.isFinite(arriving)) {
            return undefined;
        }
        const worst = worstMix(after, arriving);
        const safeAfter = worst.length > 0 ? Math.min(byMachines, lockSafeConcurrency(worst, config)) : byMachines;
        if (arriving <= safeAfter) {
            return each;
        }
    }
    return undefined;
}
