/**
 * The Citrix guidance figures and measured cells that policies quote, read from the project's
 * copy of the measurements (model/data/citrix-brokering.json, source: XenApp/XenDesktop 7.7
 * zones, latency and brokering performance tests).
 */
import table from "./data/citrix-brokering.json";

/** One measured cell of the brokering table (null = not measured). */
export interface BrokeringCell {
    readonly rttMs: number;
    readonly concurrentRequests: number;
    readonly meanResponseS: number | null;
    readonly brokeredPerS: number | null;
    readonly errorPct: number | null;
    readonly launch10kUsersS: number | null;
}

/** All 25 measured cells, in the table's order (RTT, then concurrency). */
export const BROKERING_CELLS: readonly BrokeringCell[] = table.rows.map((row) => ({
    rttMs: row[0] as number,
    concurrentRequests: row[1] as number,
    meanResponseS: row[2],
    brokeredPerS: row[3],
    errorPct: row[4],
    launch10kUsersS: row[5],
}));

/** Citrix guidance numbers (citrix-brokering.json "guidance"). */
export const CITRIX_GUIDANCE = {
    /** Keep zone RTT under this, else deploy separate Sites (ms). */
    maxZoneRttMs: table.guidance.maxZoneRttMs,
    /** At 160 ms do not exceed this many concurrent brokering requests. */
    at160msMaxConcurrent: table.guidance.at160msMaxConcurrent,
    /** At most this many zones per Site. */
    maxZonesPerSite: table.guidance.otherPublishedLimits.maxZonesPerSite,
    /** Local Host Cache supports at most this many VDAs per zone. */
    maxVdasPerZone: table.guidance.otherPublishedLimits.maxVdasPerZoneLocalHostCache,
    /** Local Host Cache in a multi-zone Site: at most this many VDAs per Site (7.14; see its source note). */
    maxVdasPerSite: table.guidance.otherPublishedLimits.maxVdasPerSiteLocalHostCache,
    /** The throttle registry value's full path. */
    throttleKeyPath: table.guidance.throttleKey.path,
} as const;

/**
 * The most launches per second the source brokered through its one Site database: the plateau of
 * the 10 ms row (22.9-23.2/s at 36-60 concurrent requests, one Delivery Group). No test ran more
 * than one group, so perfguard never predicts a Site above it unless the config declares a figure
 * measured on that Site (citrix-brokering-capacity's measuredSiteBrokeredPerS).
 */
export const SITE_PLATEAU_BROKERED_PER_S: number = Math.max(...BROKERING_CELLS.map((c) => c.brokeredPerS ?? 0));

/** The plateau's range, for messages ("22.9-23.2/s"). */
export const SITE_PLATEAU_TEXT = (() => {
    const row = BROKERING_CELLS.filter((c) => c.rttMs === BROKERING_CELLS[0].rttMs && (c.brokeredPerS ?? 0) >= 0.95 * SITE_PLATEAU_BROKERED_PER_S);
    const values = row.map((c) => c.brokeredPerS as number);
    return `${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)}/s at ${BROKERING_CELLS[0].rttMs} ms, one Delivery Group`;
})();

/** The measured cells at one RTT level (empty when that RTT was not measured). */
export function measuredAt(rttMs: number): readonly BrokeringCell[] {
    return BROKERING_CELLS.filter((c) => c.rttMs === rttMs);
}

/**
 * Where the measurements overrule the model: at an RTT the source measured, the smallest measured
 * concurrency that already missed the targets (a mean response above `targetResponseS` or a
 * timed-out share above `errorBudget`), minus one; undefined where nothing measured misses them.
 * The model underpredicts some measured error rates (0.054% for the 0.12% measured at 160 ms and
 * 36 requests), so with relaxed targets it alone could call a measured failure safe.
 */
export function measuredLimit(rttMs: number, targetResponseS: number, errorBudget: number): number | undefined {
    let limit: number | undefined;
    for (const cell of measuredAt(rttMs)) {
        const slow = cell.meanResponseS !== null && cell.meanResponseS > targetResponseS;
        const failing = cell.errorPct !== null && cell.errorPct / 100 > errorBudget;
        if ((slow || failing) && (limit === undefined || cell.concurrentRequests - 1 < limit)) {
            limit = cell.concurrentRequests - 1;
        }
    }
    return limit;
}

/**
 * The source's own advice on concurrency for an RTT, where it gives one: at 160 ms "do not exceed
 * 24 concurrent brokering requests" (guidance.at160msMaxConcurrent). A longer RTT holds the lock
 * longer, so the advice bounds every RTT above 160 ms too (the model's 25 at 160 ms and its
 * interpolation up to about 165 ms would otherwise exceed it). Undefined below 160 ms.
 */
export function adviceMaxConcurrent(rttMs: number): { value: number; text: string } | undefined {
    const at = ADVICE_RTT_MS;
    if (!(rttMs >= at)) {
        return undefined;
    }
    const value = CITRIX_GUIDANCE.at160msMaxConcurrent;
    return {
        value,
        text:
            rttMs === at
                ? `the source advises at most ${value} at ${at} ms`
                : `the source advises at most ${value} at ${at} ms, and ${rttMs} ms holds the lock longer`,
    };
}

/** The RTT of the source's concurrency advice, ms. */
const ADVICE_RTT_MS = 160;

/** The RTT levels the source measured, ms, ascending (10, 45, 90, 160, 250). */
export const MEASURED_RTT_LEVELS: readonly number[] = [...new Set(BROKERING_CELLS.map((c) => c.rttMs))].sort((a, b) => a - b);

/** How a figure at one RTT relates to the measurements, as the NSX ALB sizes are labelled. */
export interface RttCoverage {
    readonly label: "measured" | "interpolated" | "extrapolated";
    /** "measured", "interpolated between 160 and 250 ms", "extrapolated beyond 250 ms", "extrapolated below 10 ms". */
    readonly text: string;
}

/**
 * "measured" only at an RTT level the source measured; "interpolated" between two levels (the
 * model between measured rows); "extrapolated" below the lowest or beyond the highest.
 */
export function rttCoverage(rttMs: number): RttCoverage {
    const levels = MEASURED_RTT_LEVELS;
    if (levels.includes(rttMs)) {
        return { label: "measured", text: "measured" };
    }
    const below = levels.filter((l) => l < rttMs);
    const above = levels.filter((l) => l > rttMs);
    if (below.length === 0) {
        return { label: "extrapolated", text: `extrapolated below ${levels[0]} ms` };
    }
    if (above.length === 0) {
        return { label: "extrapolated", text: `extrapolated beyond ${levels[levels.length - 1]} ms` };
    }
    return { label: "interpolated", text: `interpolated between ${below[below.length - 1]} and ${above[0]} ms` };
}
