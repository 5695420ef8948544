/**
 * `size nsx-alb --plot FILE.svg`: demand against capacity per metric for an NSX ALB Service
 * Engine (SE) or SE group.
 *
 * Metrics have different units (TPS, RPS, Gbps, connections), so each is drawn as one horizontal
 * bar of demand as a percentage of its capacity, labelled with both figures in the metric's unit
 * ("60,000 of 80,000 RPS (75 %)"). A dashed line marks capacity (100 %) and, when headroomPct is
 * given, a second one the headroom limit (100 - headroomPct %). Bars are coloured by where they
 * end: within the headroom limit, inside the headroom, over capacity (one legend entry each).
 *
 * ECharts is loaded only when {@link seCapacityPlotSvg} is called (see ./render.ts).
 */
import type { EChartsOption, SeriesOption } from "echarts";
import { COLORS, formatNumber, niceCeil, renderSvg, requireFinite } from "./render";

/** One metric: demand against capacity, both in `unit`. */
export interface SeCapacityPlotMetric {
    /** What is measured, e.g. "SSL TPS (RSA-2048)", "L7 RPS". */
    readonly name: string;
    /** Unit of demand and capacity, e.g. "TPS", "RPS", "Gbps", "connections". */
    readonly unit: string;
    /** Peak demand, in unit (>= 0). */
    readonly demand: number;
    /** Capacity, in unit (> 0). */
    readonly capacity: number;
}

/** Input of {@link seCapacityPlotSvg}. */
export interface SeCapacityPlotInput {
    /** Chart title, e.g. "SE group sg-web: 2 SEs of 2 vCPUs (NSX ALB 20.1.6 per-SE table)". */
    readonly title: string;
    /** Metrics, at least one, drawn top to bottom in this order. */
    readonly metrics: ReadonlyArray<SeCapacityPlotMetric>;
    /**
     * Spare capacity to keep, percent (0 <= headroomPct < 100; the nsx-alb-se-capacity setting,
     * default there 20). Optional: when given, a dashed line marks 100 - headroomPct % and bars
     * between it and 100 % are drawn as "inside the headroom".
     */
    readonly headroomPct?: number;
}

/** Chart width, px; the height grows with the number of metrics (see {@link seCapacityPlotHeight}). */
export const SE_CAPACITY_PLOT_WIDTH = 900;

/** Legend names of the three bar colours. */
export const SE_BAR_SERIES = {
    fits: "fits",
    inHeadroom: "inside the headroom",
    over: "over capacity",
} as const;

/**
 * Title line height, px, and the title's wrap width, px (well inside the 900 px, so fonts wider
 * than ECharts' estimate, e.g. DejaVu Sans Bold, still fit).
 */
const TITLE_LINE_PX = 22;
const TITLE_WIDTH_PX = 740;

/**
 * Lines the title wraps to, estimated at 10 px per character (17 px bold sans-serif; ECharts
 * measures text without a canvas with a similar estimate). Always >= 1.
 */
export function seCapacityTitleLines(title: string): number {
    return Math.max(1, Math.ceil((title.length * 10) / TITLE_WIDTH_PX));
}

/** Chart height, px, for `metricCount` metrics and a title of `titleLines` lines (default 1). */
export function seCapacityPlotHeight(metricCount: number, titleLines = 1): number {
    return 170 + TITLE_LINE_PX * (titleLines - 1) + 56 * Math.max(1, metricCount);
}

/**
 * Renders the demand-against-capacity chart.
 * Input: {@link SeCapacityPlotInput} (demand and capacity in each metric's unit; headroomPct in %).
 * Output: an SVG document (900 px wide, {@link seCapacityPlotHeight} px high) as a string: the
 * title (wrapped when long), one bar per metric labelled "<name> (<unit>)" on the axis and
 * "<demand> of <capacity> <unit> (<pct> %)" at its end, x axis "demand, % of capacity", a dashed
 * "capacity (100 %)" line and, with headroomPct, a dashed "headroom limit (<100 - headroomPct> %)"
 * line (both named in the legend with the bar colours "fits", "inside the headroom", "over
 * capacity").
 * Throws RangeError for an empty `metrics`, an empty name or unit, a negative or non-finite
 * demand, a capacity that is not a finite number > 0, or headroomPct outside 0..100 (exclusive
 * of 100); Error "install the optional dependency echarts to use --plot ..." when ECharts is
 * not installed.
 */
export async function seCapacityPlotSvg(input: SeCapacityPlotInput): Promise<string> {
    validate(input);
    const height = seCapacityPlotHeight(input.metrics.length, seCapacityTitleLines(input.title));
    return renderSvg(seCapacityPlotOption(input), SE_CAPACITY_PLOT_WIDTH, height);
}

/** The validated option and size of {@link seCapacityPlotSvg}, for a chart drawn beside another (diff --plot). */
export function seCapacityPlotPanel(input: SeCapacityPlotInput): { option: EChartsOption; width: number; height: number } {
    validate(input);
    return {
        option: seCapacityPlotOption(input),
        width: SE_CAPACITY_PLOT_WIDTH,
        height: seCapacityPlotHeight(input.metrics.length, seCapacityTitleLines(input.title)),
    };
}

/** The ECharts option of {@link seCapacityPlotSvg} (pure; exported for tests). Assumes a validated input. */
export function seCapacityPlotOption(input: SeCapacityPlotInput): EChartsOption {
    const metrics = input.metrics;
    const limitPct = input.headroomPct === undefined ? 100 : 100 - input.headroomPct;
    const pcts = metrics.map((m) => (m.demand / m.capacity) * 100);
    const status = pcts.map((p) => (p > 100 ? "over" : p > limitPct ? "inHeadroom" : "fits"));
    const barLabels = metrics.map((m, i) => `${formatQuantity(m.demand)} of ${formatQuantity(m.capacity)} ${m.unit} (${formatPct(pcts[i])} %)`);
    // A long title wraps; everything below it moves down by the extra lines.
    const shift = TITLE_LINE_PX * (seCapacityTitleLines(input.title) - 1);
    const axisMax = niceCeil(Math.max(110, ...pcts) * 1.05);

    const bar = (key: keyof typeof SE_BAR_SERIES, color: string): SeriesOption => ({
        type: "bar",
        name: SE_BAR_SERIES[key],
        stack: "demand",
        barWidth: 26,
        data: pcts.map((p, i) => (status[i] === key ? p : "-")),
        itemStyle: { color },
        label: {
            show: true,
            position: "right",
            fontSize: 12,
            color: COLORS.text,
            // Opaque, so a reference line crossing the label does not strike it through.
            backgroundColor: "#ffffff",
            padding: [2, 3],
            formatter: (params: { dataIndex: number }) => barLabels[params.dataIndex],
        },
        z: 3,
    });
    const series: SeriesOption[] = [bar("fits", COLORS.ok), bar("inHeadroom", COLORS.warn), bar("over", COLORS.over)];
    const hasHeadroomLine = input.headroomPct !== undefined && input.headroomPct > 0;
    const capacityName = "capacity (100 %)";
    const headroomName = `headroom limit (${formatNumber(limitPct)} %)`;
    const lineData: object[] = [{ xAxis: 100 }];
    if (hasHeadroomLine) {
        lineData.push({ xAxis: limitPct, lineStyle: { color: COLORS.headroom } });
    }
    // The reference lines are the markLine of a data-less line series drawn under the bars and
    // their labels (z 1), named in the legend (a dashed icon per line) rather than labelled on
    // the chart, where the two labels would collide when the lines are close.
    const legendLine = (name: string, color: string, markLine?: object): SeriesOption => ({
        type: "line",
        name,
        data: [],
        symbol: "none",
        lineStyle: { type: "dashed", color, width: 1.5 },
        itemStyle: { color },
        z: 1,
        ...(markLine === undefined ? {} : { markLine }),
    });
    series.push(
        legendLine(capacityName, COLORS.limit, {
            silent: true,
            symbol: "none",
            lineStyle: { type: "dashed", color: COLORS.limit, width: 1.5 },
            label: { show: false },
            z: 1,
            data: lineData,
        }),
    );
    if (hasHeadroomLine) {
        series.push(legendLine(headroomName, COLORS.headroom));
    }
    const dashedIcon = "path://M0 0h5v2H0zM8 0h5v2H8zM16 0h5v2h-5z";

    return {
        title: {
            left: "center",
            top: 10,
            text: input.title,
            subtext: "Peak demand as a percentage of capacity, per metric (figures in each metric's unit)",
            textStyle: { fontSize: 17, width: TITLE_WIDTH_PX, overflow: "break" },
            subtextStyle: { fontSize: 12, color: "#555555" },
        },
        legend: {
            top: 62 + shift,
            left: "center",
            itemGap: 24,
            textStyle: { fontSize: 13 },
            data: [
                SE_BAR_SERIES.fits,
                SE_BAR_SERIES.inHeadroom,
                SE_BAR_SERIES.over,
                { name: capacityName, icon: dashedIcon },
                ...(hasHeadroomLine ? [{ name: headroomName, icon: dashedIcon }] : []),
            ],
        },
        grid: { left: 250, right: 240, top: 115 + shift, bottom: 60 },
        xAxis: {
            type: "value",
            min: 0,
            max: axisMax,
            name: "demand, % of capacity",
            nameLocation: "middle",
            nameGap: 30,
            nameTextStyle: { fontSize: 13 },
            axisLabel: { formatter: "{value} %" },
            splitLine: { show: true, lineStyle: { color: COLORS.grid } },
            axisLine: { show: true },
            axisTick: { show: true },
        },
        yAxis: {
            type: "category",
            inverse: true,
            data: metrics.map((m) => `${m.name} (${m.unit})`),
            axisLabel: { fontSize: 12, width: 230, overflow: "break" },
            axisTick: { show: false },
        },
        series,
    };
}

/** A demand or capacity: whole numbers from 100 up (60,000; 215,833), else 3 significant digits (3.8; 0.01). */
function formatQuantity(value: number): string {
    return Math.abs(value) >= 100 ? Math.round(value).toLocaleString("en-US") : formatNumber(value, 3);
}

/** A percentage: at most one decimal from 10 % up (88; 222.2; 3,787.9), else 2 significant digits (0.077). */
function formatPct(pct: number): string {
    return pct >= 10 ? (Math.round(pct * 10) / 10).toLocaleString("en-US") : formatNumber(pct, 2);
}

function validate(input: SeCapacityPlotInput): void {
    if (typeof input.title !== "string") {
        throw new RangeError("title must be a string");
    }
    if (!Array.isArray(input.metrics) || input.metrics.length === 0) {
        throw new RangeError("metrics must hold at least one metric");
    }
    input.metrics.forEach((m, i) => {
        if (typeof m.name !== "string" || m.name.trim() === "") {
            throw new RangeError(`metrics[${i}].name must be a non-empty string`);
        }
        if (typeof m.unit !== "string" || m.unit.trim() === "") {
            throw new RangeError(`metrics[${i}].unit must be a non-empty string`);
        }
        requireFinite(`metrics[${i}].demand`, m.demand, 0);
        requireFinite(`metrics[${i}].capacity`, m.capacity);
        if (m.capacity <= 0) {
            throw new RangeError(`metrics[${i}].capacity must be > 0, got ${m.capacity}`);
        }
    });
    if (input.headroomPct !== undefined) {
        requireFinite("headroomPct", input.headroomPct, 0);
        if (input.headroomPct >= 100) {
            throw new RangeError(`headroomPct must be below 100, got ${input.headroomPct}`);
        }
    }
}
