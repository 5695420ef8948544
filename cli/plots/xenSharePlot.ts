/**
 * `size xen --plot FILE.svg`: each receiver's predicted share (as measured: receive) of one Xen host's link
 * (dom0 first, then the guests), from the same share model as xen-guest-network-share.
 *
 * One horizontal bar per sender, in MB/s, coloured by whether a guest's need is met (a guest that
 * sends as much as it can, and dom0, are drawn neutral); a guest's need is a dashed marker on its
 * bar, and a dashed line marks the link's usable throughput.
 *
 * ECharts is loaded only when {@link xenSharePlotSvg} is called (see ./render.ts).
 */
import type { EChartsOption, SeriesOption } from "echarts";
import { COLORS, formatNumber, niceCeil, renderSvg, requireFinite } from "./render";

/** One sender on the host. */
export interface XenSharePlotSender {
    readonly name: string;
    /** Predicted throughput, MB/s (>= 0), in the measured direction (receive). */
    readonly predictedMBps: number;
    /** What it needs, MB/s; undefined = as much as it can (dom0, or a guest without a need). */
    readonly needMBps?: number;
}

/** Input of {@link xenSharePlotSvg}. */
export interface XenSharePlotInput {
    readonly title: string;
    /** The link's usable throughput, MB/s (> 0). */
    readonly linkMBps: number;
    /** At least one sender, drawn top to bottom in this order. */
    readonly senders: ReadonlyArray<XenSharePlotSender>;
}

export const XEN_SHARE_PLOT_WIDTH = 900;

/** Legend names of the bar colours. */
export const XEN_BAR_SERIES = { met: "need met", short: "short of its need", other: "no declared need" } as const;

/** Height, px, for `senders` bars (at most the first 40 are drawn; a plot of 3000 guests is not readable). */
export function xenSharePlotHeight(senders: number): number {
    return 170 + 34 * Math.min(senders, 40);
}

function validate(input: XenSharePlotInput): void {
    requireFinite("linkMBps", input.linkMBps, 0);
    if (!(input.linkMBps > 0)) {
        throw new RangeError(`linkMBps must be above 0, got ${input.linkMBps}`);
    }
    if (input.senders.length === 0) {
        throw new RangeError("senders must not be empty");
    }
    input.senders.forEach((s, i) => {
        requireFinite(`senders[${i}].predictedMBps`, s.predictedMBps, 0);
        if (s.needMBps !== undefined) {
            requireFinite(`senders[${i}].needMBps`, s.needMBps, 0);
        }
    });
}

/** The validated option and size of {@link xenSharePlotSvg}, for a chart drawn beside another (diff --plot). */
export function xenSharePlotPanel(input: XenSharePlotInput): { option: EChartsOption; width: number; height: number } {
    validate(input);
    return { option: xenSharePlotOption(input), width: XEN_SHARE_PLOT_WIDTH, height: xenSharePlotHeight(input.senders.length) };
}

/** The ECharts option of {@link xenSharePlotSvg} (pure; exported for tests). */
export function xenSharePlotOption(input: XenSharePlotInput): EChartsOption {
    const senders = input.senders.slice(0, 40);
    // ECharts draws the first category at the bottom: reverse so the list reads top to bottom.
    const shown = [...senders].reverse();
    const status = shown.map((s) => (s.needMBps === undefined ? "other" : s.predictedMBps >= s.needMBps - 1e-9 ? "met" : "short"));
    const max = niceCeil(Math.max(input.linkMBps, ...shown.map((s) => Math.max(s.predictedMBps, s.needMBps ?? 0))) * 1.1);
    const bar = (key: keyof typeof XEN_BAR_SERIES, color: string): SeriesOption => ({
        type: "bar",
        name: XEN_BAR_SERIES[key],
        stack: "share",
        barWidth: 20,
        data: shown.map((s, i) => (status[i] === key ? s.predictedMBps : "-")),
        itemStyle: { color },
        label: {
            show: true,
            position: "right",
            fontSize: 12,
            color: COLORS.text,
            formatter: (p: { dataIndex: number }) => {
                const s = shown[p.dataIndex];
                return s.needMBps === undefined
                    ? `${formatNumber(s.predictedMBps)} MB/s`
                    : `${formatNumber(s.predictedMBps)} of ${formatNumber(s.needMBps)} MB/s needed`;
            },
        },
        z: 3,
    });
    const needs: SeriesOption = {
        type: "scatter",
        name: "need",
        symbol: "rect",
        symbolSize: [3, 28],
        itemStyle: { color: COLORS.limit },
        data: shown.map((s, i) => (s.needMBps === undefined ? "-" : [s.needMBps, i])) as never,
        z: 4,
    };
    const link: SeriesOption = {
        type: "line",
        name: `link (${formatNumber(input.linkMBps)} MB/s)`,
        data: [],
        lineStyle: { type: "dashed", color: COLORS.safe },
        markLine: {
            silent: true,
            symbol: "none",
            label: { show: false },
            lineStyle: { type: "dashed", color: COLORS.safe, width: 1.5 },
            data: [{ xAxis: input.linkMBps }],
        },
    };
    return {
        title: {
            left: "center",
            top: 10,
            text: input.title,
            subtext: "Predicted receive (download) share, as measured (dom0/domU share model), MB/s",
            textStyle: { fontSize: 16 },
        },
        legend: {
            top: 58,
            left: "center",
            data: [XEN_BAR_SERIES.met, XEN_BAR_SERIES.short, XEN_BAR_SERIES.other, "need", `link (${formatNumber(input.linkMBps)} MB/s)`],
        },
        grid: { left: 140, right: 220, top: 100, bottom: 50 },
        xAxis: { type: "value", min: 0, max, name: "MB/s", nameLocation: "middle", nameGap: 28, splitLine: { lineStyle: { color: COLORS.grid } } },
        yAxis: { type: "category", data: shown.map((s) => s.name) },
        series: [bar("met", COLORS.ok), bar("short", COLORS.over), bar("other", COLORS.model), needs, link],
        animation: false,
    };
}

/**
 * Draws the shares.
 * Input: XenSharePlotInput. Output: an SVG document (900 px wide) as a string.
 * Throws RangeError naming the field for an empty sender list or a negative or non-finite figure.
 */
export async function xenSharePlotSvg(input: XenSharePlotInput): Promise<string> {
    validate(input);
    return renderSvg(xenSharePlotOption(input), XEN_SHARE_PLOT_WIDTH, xenSharePlotHeight(input.senders.length));
}
