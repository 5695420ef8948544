/**
 * Typed view of the measured brokering cells (model/data/citrix-brokering.json, taken from
 * citrix-zones-latency-brokering.ja.txt). Calibration code only; the model does not load it.
 */
import table from "../data/citrix-brokering.json";

/** One measured cell; null where the source has no value. */
export interface BrokeringCell {
    /** RTT Delivery Controller <-> Site database, ms. */
    readonly rttMs: number;
    /** Concurrent brokering requests (closed loop). */
    readonly concurrency: number;
    /** Mean brokering response, s. */
    readonly meanResponseS: number | null;
    /** Brokering requests completed per second, requests/s. */
    readonly brokeredPerS: number | null;
    /** Timed-out requests, fraction 0..1 (the table stores percent). */
    readonly errorRate: number;
    /** Time to launch 10,000 users, s. */
    readonly launch10kUsersS: number | null;
}

/** Users launched per run in the source (launch10kUsersS column). */
export const USERS_PER_RUN = 10000;

/** Name of the source document, as recorded in the data file. */
export const BROKERING_SOURCE: string = table.source;

/**
 * All 25 cells in table order (RTT 10/45/90/160/250 ms x 12/24/36/48/60 requests).
 * Throws Error if a row does not have the six columns the file declares.
 */
export function loadBrokeringCells(): BrokeringCell[] {
    const expected = ["rttMs", "concurrentRequests", "meanResponseS", "brokeredPerS", "errorPct", "launch10kUsersS"];
    if (table.columns.join(",") !== expected.join(",")) {
        throw new Error(`citrix-brokering.json: unexpected columns ${table.columns.join(",")}`);
    }
    return table.rows.map((row, index) => {
        if (row.length !== expected.length || typeof row[0] !== "number" || typeof row[1] !== "number" || typeof row[4] !== "number") {
            throw new Error(`citrix-brokering.json: row ${index} is malformed: ${JSON.stringify(row)}`);
        }
        return {
            rttMs: row[0],
            concurrency: row[1],
            meanResponseS: row[2],
            brokeredPerS: row[3],
            errorRate: row[4] / 100,
            launch10kUsersS: row[5],
        };
    });
}

/** Distinct RTT levels of the table, ms, ascending. */
export function rttLevels(cells: readonly BrokeringCell[]): number[] {
    return [...new Set(cells.map((cell) => cell.rttMs))].sort((a, b) => a - b);
}
