/**
 * `size citrix --plot FILE.svg`: predicted launch brokering against concurrency at one RTT, with
 * the source's measured cells overlaid when the RTT is one the source measured.
 *
 * Two stacked panels sharing the concurrency axis: mean response (s) on top with the target
 * response as a dashed reference line, error rate (%) below on a log scale (so the error budget,
 * typically 0.1 %, stays readable next to rates of tens of percent) with the error budget as a
 * dashed reference line. Measured cells are drawn as markers in both panels under one legend entry
 * naming the source ("XenApp/XenDesktop 7.7 tests, 160 ms").
 *
 * ECharts is loaded only when {@link brokeringPlotSvg} is called (see ./render.ts).
 */
import type { EChartsOption, SeriesOption } from "echarts";
import { COLORS, formatNumber, niceCeil, renderSvg, requireFinite } from "./render";

/** One predicted point (e.g. from predictBrokering in model/brokering.ts). */
export interface BrokeringPlotRow {
    /** Concurrent brokering requests (closed loop), >= 0. */
    readonly concurrency: number;
    /** Predicted mean response of a brokering request, s (>= 0). */
    readonly meanResponseS: number;
    /** Predicted fraction of requests that time out, 0..1 (drawn as %). */
    readonly errorRate: number;
}

/** One measured cell (e.g. from measuredAt in model/citrixGuidance.ts); null = not measured. */
export interface BrokeringPlotMeasured {
    /** Concurrent brokering requests of the test run. */
    readonly concurrency: number;
    /** Measured mean response, s; null when the source has no value. */
    readonly meanResponseS: number | null;
    /** Measured error rate, percent (0..100); null when the source has no value. */
    readonly errorPct: number | null;
}

/** Input of {@link brokeringPlotSvg}. */
export interface BrokeringPlotInput {
    /** RTT between the zone's Delivery Controller and the Site database, ms (>= 0); in the title. */
    readonly rttMs: number;
    /** Highest acceptable mean response, s (> 0); dashed line on the response panel. */
    readonly targetResponseS: number;
    /** Highest acceptable error rate as a fraction, 0..1 (0.001 = 0.1 %); dashed line on the error panel. */
    readonly errorBudget: number;
    /** Predicted points, at least one; drawn in the order of concurrency. */
    readonly rows: ReadonlyArray<BrokeringPlotRow>;
    /** The source's measured cells at this RTT; omitted or empty = no markers, no legend entry. */
    readonly measured?: ReadonlyArray<BrokeringPlotMeasured>;
    /**
     * Optional: the largest concurrency that meets both targets (maxSafeConcurrency in
     * model/brokering.ts), requests (>= 0); drawn as a dotted vertical line "max safe <n>".
     */
    readonly safeConcurrency?: number;
    /**
     * Optional: the zone's load spread evenly over several Delivery Groups, each its own lock
     * (`size citrix --delivery-groups N`): points at the zone's concurrency (worst group's response
     * and error rate), drawn as a second line named by {@link zoneSeriesName}; `rows` is then one
     * group's lock taking the whole concurrency (the judged case: throttles are first come, first
     * served). The zone's points come from the same evaluation as `size citrix` (brokered/s
     * capped by the one Site database).
     */
    readonly zone?: { readonly groups: number; readonly rows: ReadonlyArray<BrokeringPlotRow> };
    /**
     * Optional: the one Site database's cap on this state (`perfguard diff --plot`; policies/citrix/
     * evaluation.ts database): when the Site's storms exceed it, every lock's throughput is lowered
     * and its mean response multiplied by `responseScale` (Little's law). Drawn on the response
     * panel as a second line, the model's response × responseScale, named by {@link siteCapSeriesName};
     * the error rate does not move with it.
     */
    readonly siteCap?: { readonly responseScale: number; readonly capPerS: number; readonly uncappedPerS: number };
}

/** The legend entry of the Site-capped response: "under the Site database cap (×1.35: 31.2/s over 23.2/s)". */
export function siteCapSeriesName(cap: NonNullable<BrokeringPlotInput["siteCap"]>): string {
    return `under the Site database cap (×${formatNumber(cap.responseScale)}: ${formatNumber(cap.uncappedPerS)}/s over ${formatNumber(cap.capPerS)}/s)`;
}

/** Chart size, px. */
export const BROKERING_PLOT_WIDTH = 900;
export const BROKERING_PLOT_HEIGHT = 680;

/** Legend name of the model's lines. */
export const MODEL_SERIES_NAME = "perfguard model";

/** Legend name of the zone's line when its load spreads evenly over `groups` Delivery Group locks. */
export function zoneSeriesName(groups: number): string {
    return `zone spread evenly over ${groups} Delivery Group locks, not judged (not measured: one Delivery Group was tested)`;
}

/** Legend name of the measured markers for an RTT, e.g. "XenApp/XenDesktop 7.7 tests, 160 ms". */
export function measuredSeriesName(rttMs: number): string {
    return `XenApp/XenDesktop 7.7 tests, ${formatNumber(rttMs, 6)} ms`;
}

/**
 * Renders the brokering chart.
 * Input: {@link BrokeringPlotInput} (ms, s, fraction 0..1 for errorBudget and rows[].errorRate,
 * percent for measured[].errorPct, requests for safeConcurrency).
 * Output: an SVG document (900 x 680 px) as a string: title with the RTT, top panel "mean
 * response (s)" (linear), bottom panel "error rate (%, log scale)" (rates below
 * {@link errorFloorPct} drawn on its bottom edge), shared x axis "concurrent brokering requests",
 * dashed reference lines "target <t> s" and "error budget <b> %", a dotted vertical line
 * "max safe <n>" when safeConcurrency is given, legend with the model and, when measured cells
 * are given, the source.
 * Throws RangeError for an empty `rows` or a non-finite / out-of-range number (naming the field);
 * Error "install the optional dependency echarts to use --plot ..." when ECharts is not installed.
 */
export async function brokeringPlotSvg(input: BrokeringPlotInput): Promise<string> {
    validate(input);
    return renderSvg(brokeringPlotOption(input), BROKERING_PLOT_WIDTH, BROKERING_PLOT_HEIGHT);
}

/** The validated option and size of {@link brokeringPlotSvg}, for a chart drawn beside another (diff --plot). */
export function brokeringPlotPanel(input: BrokeringPlotInput): { option: EChartsOption; width: number; height: number } {
    validate(input);
    return { option: brokeringPlotOption(input), width: BROKERING_PLOT_WIDTH, height: BROKERING_PLOT_HEIGHT };
}

/**
 * Bottom of the log-scale error axis, percent: two decades under the error budget (0.1 % ->
 * 0.001 %), or 0.0001 % for a zero budget. Smaller rates, zero included, are drawn at this value.
 */
export function errorFloorPct(errorBudget: number): number {
    const budgetPct = errorBudget * 100;
    return budgetPct > 0 ? 10 ** (Math.floor(Math.log10(budgetPct)) - 2) : 1e-4;
}

/** The ECharts option of {@link brokeringPlotSvg} (pure; exported for tests). Assumes a validated input. */
export function brokeringPlotOption(input: BrokeringPlotInput): EChartsOption {
    const rttLabel = formatNumber(input.rttMs, 6);
    const targetLabel = formatNumber(input.targetResponseS);
    const budgetPct = input.errorBudget * 100;
    const floorPct = errorFloorPct(input.errorBudget);
    const rows = [...input.rows].sort((a, b) => a.concurrency - b.concurrency);
    const zoneRows = [...(input.zone?.rows ?? [])].sort((a, b) => a.concurrency - b.concurrency);
    const zoneName = input.zone ? zoneSeriesName(input.zone.groups) : "";
    const modelName = input.zone ? `one lock (${MODEL_SERIES_NAME})` : MODEL_SERIES_NAME;
    const measured = input.measured ?? [];
    const measuredName = measuredSeriesName(input.rttMs);
    const maxConcurrency = Math.max(
        ...rows.map((r) => r.concurrency),
        ...zoneRows.map((r) => r.concurrency),
        ...measured.map((m) => m.concurrency),
        input.safeConcurrency ?? 0,
    );
    const showSymbols = rows.length <= 25;
    const onLog = (pct: number) => Math.max(pct, floorPct);

    const responsePoints = rows.map((r) => [r.concurrency, r.meanResponseS]);
    const errorPoints = rows.map((r) => [r.concurrency, onLog(r.errorRate * 100)]);
    const measuredResponse = measured.filter((m) => m.meanResponseS !== null).map((m) => [m.concurrency, m.meanResponseS as number]);
    const measuredError = measured.filter((m) => m.errorPct !== null).map((m) => [m.concurrency, onLog(m.errorPct as number)]);
    const zoneResponse = zoneRows.map((r) => [r.concurrency, r.meanResponseS]);
    const zoneError = zoneRows.map((r) => [r.concurrency, onLog(r.errorRate * 100)]);
    const maxErrorPct = Math.max(budgetPct * 10, ...errorPoints.map((p) => p[1]), ...zoneError.map((p) => p[1]), ...measuredError.map((p) => p[1]));
    const errorAxisMax = Math.min(100, 10 ** Math.ceil(Math.log10(maxErrorPct)));

    const markLine = (yValue: number, label: string, withSafeLabel: boolean) => {
        const data: object[] = [{ yAxis: yValue, label: { formatter: label, position: "insideStartTop" } }];
        if (input.safeConcurrency !== undefined) {
            data.push({
                xAxis: input.safeConcurrency,
                lineStyle: { type: "dotted", color: COLORS.safe, width: 1.5 },
                label: withSafeLabel
                    ? { formatter: `max safe ${formatNumber(input.safeConcurrency, 6)}`, position: "end", color: COLORS.safe }
                    : { show: false },
            });
        }
        return {
            silent: true,
            symbol: "none",
            lineStyle: { type: "dashed" as const, color: COLORS.limit, width: 1.5 },
            label: { show: true, color: COLORS.limit, fontSize: 12 },
            data,
        };
    };
    const modelLine = (panel: 0 | 1, data: number[][], mark: object): SeriesOption => ({
        type: "line",
        name: modelName,
        xAxisIndex: panel,
        yAxisIndex: panel,
        data,
        showSymbol: showSymbols,
        symbolSize: 5,
        lineStyle: { width: 2, color: COLORS.model },
        itemStyle: { color: COLORS.model },
        markLine: mark,
        z: 2,
    });

    const series: SeriesOption[] = [
        modelLine(0, responsePoints, markLine(input.targetResponseS, `target ${targetLabel} s`, true)),
        modelLine(1, errorPoints, markLine(onLog(budgetPct), `error budget ${formatNumber(budgetPct)} %`, false)),
    ];
    if (input.zone) {
        const zoneLine = (panel: 0 | 1, data: number[][]): SeriesOption => ({
            type: "line",
            name: zoneName,
            xAxisIndex: panel,
            yAxisIndex: panel,
            data,
            showSymbol: false,
            lineStyle: { width: 2, type: "dashed", color: COLORS.headroom },
            itemStyle: { color: COLORS.headroom },
            z: 1,
        });
        series.push(zoneLine(0, zoneResponse), zoneLine(1, zoneError));
    }
    const capped = input.siteCap && Number.isFinite(input.siteCap.responseScale) && input.siteCap.responseScale > 1 ? input.siteCap : undefined;
    const cappedName = capped ? siteCapSeriesName(capped) : "";
    if (capped) {
        series.push({
            type: "line",
            name: cappedName,
            xAxisIndex: 0,
            yAxisIndex: 0,
            data: responsePoints.map(([c, r]) => [c, r * capped.responseScale]),
            showSymbol: false,
            lineStyle: { width: 2, type: "dotted", color: COLORS.limit },
            itemStyle: { color: COLORS.limit },
            z: 2,
        });
    }
    if (measured.length > 0) {
        const markers = { symbol: "diamond", symbolSize: 12, itemStyle: { color: COLORS.measured, borderColor: "#ffffff", borderWidth: 1 }, z: 3 };
        series.push(
            { type: "scatter", name: measuredName, xAxisIndex: 0, yAxisIndex: 0, data: measuredResponse, ...markers },
            { type: "scatter", name: measuredName, xAxisIndex: 1, yAxisIndex: 1, data: measuredError, ...markers },
        );
    }

    const common = {
        nameLocation: "middle" as const,
        nameTextStyle: { fontSize: 13 },
        splitLine: { show: true, lineStyle: { color: COLORS.grid } },
        axisLine: { show: true },
        axisTick: { show: true },
    };
    const xAxis = (gridIndex: number, name: string) => ({
        ...common,
        type: "value" as const,
        gridIndex,
        min: 0,
        max: niceCeil(maxConcurrency),
        name,
        nameGap: 30,
    });

    return {
        title: {
            left: "center",
            top: 10,
            text: `Citrix launch brokering at ${rttLabel} ms RTT (Delivery Controller to Site database)`,
            subtext: `Mean response and error rate against concurrent brokering requests; target ${targetLabel} s, error budget ${formatNumber(budgetPct)} %`,
            textStyle: { fontSize: 17, width: 860, overflow: "break" },
            subtextStyle: { fontSize: 12, color: "#555555" },
        },
        legend: {
            top: 62,
            left: "center",
            itemGap: 24,
            textStyle: { fontSize: 13 },
            data: [modelName, ...(input.zone ? [zoneName] : []), ...(capped ? [cappedName] : []), ...(measured.length > 0 ? [measuredName] : [])],
        },
        grid: [
            { left: 90, right: 40, top: 110, height: 215 },
            { left: 90, right: 40, top: 385, height: 215 },
        ],
        xAxis: [xAxis(0, ""), xAxis(1, "concurrent brokering requests")],
        yAxis: [
            {
                ...common,
                type: "value",
                gridIndex: 0,
                min: 0,
                // Keep the target line inside the panel even when every response is below it.
                max: (extent: { max: number }) => niceCeil(Math.max(extent.max, input.targetResponseS * 1.2)),
                name: "mean response (s)",
                nameGap: 45,
            },
            {
                ...common,
                type: "log",
                logBase: 10,
                gridIndex: 1,
                min: floorPct,
                max: errorAxisMax,
                name: "error rate (%, log scale)",
                nameGap: 62,
                axisLabel: {
                    formatter: (value: number) => (value <= floorPct * 1.000001 ? `\u2264 ${formatNumber(value)}` : formatNumber(value)),
                },
            },
        ],
        series,
    };
}

function validate(input: BrokeringPlotInput): void {
    requireFinite("rttMs", input.rttMs, 0);
    requireFinite("targetResponseS", input.targetResponseS);
    if (input.targetResponseS <= 0) {
        throw new RangeError(`targetResponseS must be > 0, got ${input.targetResponseS}`);
    }
    requireFinite("errorBudget", input.errorBudget, 0);
    if (input.errorBudget > 1) {
        throw new RangeError(`errorBudget must be a fraction in 0..1, got ${input.errorBudget}`);
    }
    if (!Array.isArray(input.rows) || input.rows.length === 0) {
        throw new RangeError("rows must hold at least one predicted point");
    }
    input.rows.forEach((r, i) => {
        requireFinite(`rows[${i}].concurrency`, r.concurrency, 0);
        requireFinite(`rows[${i}].meanResponseS`, r.meanResponseS, 0);
        requireFinite(`rows[${i}].errorRate`, r.errorRate, 0);
        if (r.errorRate > 1) {
            throw new RangeError(`rows[${i}].errorRate must be a fraction in 0..1, got ${r.errorRate}`);
        }
    });
    (input.measured ?? []).forEach((m, i) => {
        requireFinite(`measured[${i}].concurrency`, m.concurrency, 0);
        if (m.meanResponseS !== null) {
            requireFinite(`measured[${i}].meanResponseS`, m.meanResponseS, 0);
        }
        if (m.errorPct !== null) {
            requireFinite(`measured[${i}].errorPct`, m.errorPct, 0);
        }
    });
    if (input.safeConcurrency !== undefined) {
        requireFinite("safeConcurrency", input.safeConcurrency, 0);
    }
    if (input.zone) {
        requireFinite("zone.groups", input.zone.groups, 1);
        input.zone.rows.forEach((r, i) => {
            requireFinite(`zone.rows[${i}].concurrency`, r.concurrency, 0);
            requireFinite(`zone.rows[${i}].meanResponseS`, r.meanResponseS, 0);
            requireFinite(`zone.rows[${i}].errorRate`, r.errorRate, 0);
        });
    }
}
