/**
 * Shared rendering for the `--plot` charts: loads Apache ECharts lazily and renders an option to
 * an SVG string with its server-side renderer (no browser, no DOM, no canvas).
 *
 * ECharts is an optional dependency of perfguard (package.json optionalDependencies): only the
 * sizing CLI's `--plot` needs it, and the policy pack never imports cli/. This module imports
 * ECharts' types only (`import type`, erased at compile time); the library itself is loaded by
 * {@link renderSvg} on its first call, so importing this module or the plot modules loads nothing.
 * ECharts ships a CommonJS build (`require("echarts")` resolves to dist/echarts.js), so the
 * dynamic `import()` below, which TypeScript compiles to `require` for this CommonJS repository,
 * is all that is needed.
 */
import type { EChartsOption } from "echarts";

/** The npm package the plots need; named in the error when it is missing. */
export const CHART_PACKAGE = "echarts";

/** Generic font family for every text: the SVG names no installed font, viewers pick their sans-serif. */
export const FONT_FAMILY = "sans-serif";

/** Colours shared by the charts (ECharts' default palette plus a red for limits). */
export const COLORS = {
    model: "#5470c6",
    measured: "#3ba272",
    limit: "#c23531",
    headroom: "#d48806",
    safe: "#6e7079",
    ok: "#91cc75",
    warn: "#fac858",
    over: "#ee6666",
    text: "#333333",
    grid: "#e0e6f1",
} as const;

type EchartsModule = typeof import("echarts");

let loaded: EchartsModule | undefined;

/**
 * Loads ECharts (once per process).
 * Output: the ECharts module.
 * Throws Error "install the optional dependency echarts to use --plot (...)" when the package is
 * not installed (e.g. `npm ci --omit=optional`); other load errors propagate unchanged.
 */
export async function loadEcharts(): Promise<EchartsModule> {
    if (loaded !== undefined) {
        return loaded;
    }
    try {
        loaded = await import("echarts");
    } catch (error) {
        if (isModuleNotFound(error)) {
            throw new Error(`install the optional dependency ${CHART_PACKAGE} to use --plot (npm install ${CHART_PACKAGE}); it is not installed`, {
                cause: error,
            });
        }
        throw error;
    }
    return loaded;
}

/**
 * Renders an ECharts option to a standalone SVG document.
 * Input: option (ECharts option; animation is switched off here), width and height in px (> 0).
 * Output: a self-contained SVG document (starts with `<svg`, no XML declaration, white
 * background, text in the generic sans-serif family, markup in texts escaped).
 * Throws the Error of {@link loadEcharts} when ECharts is missing.
 */
export async function renderSvg(option: EChartsOption, width: number, height: number): Promise<string> {
    const echarts = await loadEcharts();
    const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height });
    try {
        chart.setOption({ animation: false, backgroundColor: "#ffffff", textStyle: { fontFamily: FONT_FAMILY, color: COLORS.text }, ...option });
        return chart.renderToSVGString();
    } finally {
        chart.dispose();
    }
}

/**
 * A number for a label: at most `digits` significant digits, thousands separated by commas,
 * no exponent (e.g. 60000 -> "60,000", 3.8 -> "3.8", 0.1 -> "0.1").
 */
export function formatNumber(value: number, digits = 3): string {
    if (!Number.isFinite(value)) {
        return String(value);
    }
    const rounded = Number(value.toPrecision(digits));
    return rounded.toLocaleString("en-US", { maximumFractionDigits: 6 });
}

/** The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k at or above value (value > 0); 1 for value <= 0. */
export function niceCeil(value: number): number {
    if (!(value > 0)) {
        return 1;
    }
    const magnitude = 10 ** Math.floor(Math.log10(value));
    for (const step of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) {
        if (step * magnitude >= value - 1e-9 * magnitude) {
            return step * magnitude;
        }
    }
    return 10 * magnitude;
}

/** Requires a finite number (>= min when given); throws RangeError naming the field. */
export function requireFinite(name: string, value: number, min?: number): void {
    if (typeof value !== "number" || !Number.isFinite(value) || (min !== undefined && value < min)) {
        throw new RangeError(`${name} must be a finite number${min === undefined ? "" : ` >= ${min}`}, got ${String(value)}`);
    }
}

function isModuleNotFound(error: unknown): boolean {
    if (typeof error !== "object" || error === null) {
        return false;
    }
    const { code, message } = error as { code?: unknown; message?: unknown };
    const mentionsPackage = typeof message === "string" && message.includes(`'${CHART_PACKAGE}'`);
    return (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") && mentionsPackage;
}
