/**
 * How NSX ALB messages, the report, `size` and `diff` name what the evaluation computes: metrics,
 * a VS's needs, size labels and the notes of figures that were not measured.
 */
import { proxyRowVcpus } from "../../model/seTable";
import type { SeMetric, SeUtilisation } from "../../model/seCapacity";
import { MEASURED_VCPUS_MAX } from "../../model/sePlacement";
import { pct } from "../pack/format";

/** How messages, the report and `size` name each metric. */
export const METRIC_NAME: Record<SeMetric, string> = {
    sslTps: "SSL TPS",
    l7Rps: "L7 RPS",
    l4Cps: "L4 CPS",
    sslThroughput: "SSL throughput",
    throughput: "throughput",
    ingress: "primary SE ingress",
    openConnections: "open connections",
};

/** The name of a CPU figure summed over several kinds of load (each was measured alone). */
export const CPU_SUMMED_NAME = "CPU total (summed, not measured)";

/**
 * The metric behind a utilisation's peak, as messages, the report and `size` name it: a CPU
 * peak made of more than one kind of load (SSL TPS + L7 RPS ...) is their sum, not its largest part.
 */
export function limitingName(u: SeUtilisation): string {
    const cpuParts = [u.sslTps, u.l7Rps, u.l4Cps, u.sslThroughput].filter((x) => x > 0).length;
    return u.peak === u.cpu && cpuParts > 1 ? CPU_SUMMED_NAME : METRIC_NAME[u.limiting];
}

/**
 * What a VS needs of the SEs it counts on, as every verdict, the report and explain say it:
 * "297.2% of its 1 SE", or under native scale-out with ingress limiting, "87.7% of its primary
 * SE's throughput (ingress 83.1%)" (the primary carries all of the VS's ingress and its share of
 * the egress; `note` goes inside the parenthesis).
 */
export function needsText(u: SeUtilisation, vsSes: number, note = ""): string {
    // The peak is the primary SE's throughput: all the VS's ingress plus its share of the egress.
    if (u.limiting !== "ingress") {
        return `${pct(u.peak)} of its ${vsSes} SE${vsSes === 1 ? "" : "s"}`;
    }
    // All of it ingress (no egress share): the ingress figure would only repeat the peak.
    const parts = [...(u.peak - u.ingress > 1e-9 ? [`ingress ${pct(u.ingress)}`] : []), ...(note ? [note] : [])];
    return `${pct(u.peak)} of its primary SE's throughput${parts.length > 0 ? ` (${parts.join(", ")})` : ""}`;
}

/**
 * How an open-connections figure scaled by memory above its table row is labelled: the table
 * measured each row at its own memory only (model/seTable.ts openConnectionsMemoryFactor).
 */
export const CONNECTIONS_SCALED = "scaled by memory: not measured";

/**
 * How a figure of an SE below 4 vCPUs with a dedicated dispatcher core is labelled: its proxy
 * figures are the (vcpus - 1) row's (model/seTable.ts perSeCapacity), a layout the table never measured.
 */
export function dispatcherNote(vcpus: number): string {
    return `dedicated dispatcher: judged on the ${vcpus - 1} vCPU row of proxy cores, not measured`;
}

/**
 * How a size's per-SE figures were obtained: a table row, between rows, beyond the 6 vCPU row,
 * or "not measured": another row's figures for a layout the table never measured (a dedicated
 * dispatcher core below 4 vCPUs is judged on the vcpus - 1 row of proxy cores).
 */
export type SizeLabel = "measured" | "interpolated" | "extrapolated" | "not measured";

/**
 * What the figures were computed from: "measured" only for a table row (1, 2, 4, 6 vCPUs) in the
 * layout it was measured with, "interpolated" between rows (3, 5), "extrapolated" beyond 6, and
 * "not measured" when a dedicated dispatcher below 4 vCPUs moves them to the (vcpus - 1) row
 * (3 vCPUs: the 2 vCPU row, not an interpolation).
 */
export function sizeLabel(vcpus: number, dedicatedDispatcher?: boolean): SizeLabel {
    if (proxyRowVcpus(vcpus, dedicatedDispatcher) !== vcpus) {
        return "not measured";
    }
    return vcpus > MEASURED_VCPUS_MAX ? "extrapolated" : [1, 2, 4, 6].includes(vcpus) ? "measured" : "interpolated";
}

/**
 * The note a figure of the group carries when its per-SE figures are not a table row, e.g.
 * "per-SE figures interpolated between table rows"; "" for a measured row.
 */
export function sizeNote(label: SizeLabel): string {
    // "not measured" (a dispatcher core below 4 vCPUs): dispatcherNote names the row the figures come from.
    return label === "interpolated"
        ? "per-SE figures interpolated between table rows"
        : label === "extrapolated"
          ? `per-SE figures extrapolated beyond the ${MEASURED_VCPUS_MAX} vCPU row (CPU-bound ones linear per vCPU, the favourable reading): not measured`
          : "";
}

/** What scaleoutEcmp asks of the VSs, in short words. */
export const ECMP_SHORT = `scaleoutEcmp "true" on its VSs`;

/**
 * What a VS's peak figure is about, as needsText says it: under native scale-out with ingress
 * limiting, its primary SE (all its ingress, its share of the egress), not the even spread over
 * its SEs; otherwise its SEs, counted in words ("1 SE", "3 SEs").
 */
export function vsPeakLabel(u: SeUtilisation, vsSes: number): string {
    return u.limiting === "ingress"
        ? `needs of its primary SE's throughput (1 of its ${vsSes} SEs; ingress not spread)`
        : `needs of its ${vsSes} SE${vsSes === 1 ? "" : "s"}`;
}
