/** Small statistics and formatting helpers for the benchmark (no dependencies). */

/** The value at quantile `q` (0..1) of `values`, nearest-rank; NaN for an empty list. */
export function quantile(values: readonly number[], q: number): number {
    if (values.length === 0) {
        return NaN;
    }
    const sorted = [...values].sort((a, b) => a - b);
    const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
    return sorted[rank - 1];
}

/** The median of `values` (mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
    if (values.length === 0) {
        return NaN;
    }
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Milliseconds elapsed since `start` (a process.hrtime.bigint() reading). */
export function msSince(start: bigint): number {
    return Number(process.hrtime.bigint() - start) / 1e6;
}

/** A duration in ms with a precision that suits its size: 0.412, 41.2, 1,234. */
export function fmtMs(ms: number): string {
    if (!Number.isFinite(ms)) {
        return "n/a";
    }
    if (ms < 10) {
        return ms.toFixed(3);
    }
    if (ms < 100) {
        return ms.toFixed(1);
    }
    return Math.round(ms).toLocaleString("en-US");
}

/** A ratio as `1.07x`. */
export function fmtRatio(ratio: number): string {
    return Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : "n/a";
}

/** MB with one decimal. */
export function fmtMb(mb: number): string {
    return Number.isFinite(mb) ? mb.toFixed(1) : "n/a";
}
