/**
 * Two states of one entity in one SVG (`perfguard diff --plot`): the chart `perfguard size ...
 * --plot` draws for each state, before above after, each series and the title named with its
 * state ("before: perfguard model", "after: perfguard model"). The value axes of the pair share
 * one range (shareValueAxes), so a bar or a curve reads the same on both; category axes stay each
 * state's own, so charts whose categories differ between the states (a guest added to a host, a
 * metric a new VS declares) stay exact. A state without the entity is a short panel saying so.
 */
import type { EChartsOption } from "echarts";
import { COLORS, FONT_FAMILY, niceCeil, renderSvg } from "./render";

export type State = "before" | "after";

/** One state's chart: an ECharts option already validated by its module, and its size. */
export interface StatePanel {
    readonly option: EChartsOption;
    readonly width: number;
    readonly height: number;
}

// Height of the panel that says a state has no such entity.
const ABSENT_HEIGHT = 60;

function named(state: State, name: unknown): unknown {
    return typeof name === "string" ? `${state}: ${name}` : name;
}

/** The option with its series, legend entries and title named for `state`. */
export function stateOption(option: EChartsOption, state: State): EChartsOption {
    const series = (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []).map((s) => ({
        ...s,
        name: named(state, s.name),
    })) as EChartsOption["series"];
    const rename = <T>(x: T): T => {
        if (x === null || typeof x !== "object" || Array.isArray(x)) {
            return x;
        }
        const o = x as Record<string, unknown>;
        return { ...o, ...(Array.isArray(o.data) ? { data: o.data.map((d) => (typeof d === "string" ? named(state, d) : d)) } : {}) } as T;
    };
    const legend = Array.isArray(option.legend) ? option.legend.map(rename) : rename(option.legend);
    const title =
        option.title && !Array.isArray(option.title) && typeof option.title.text === "string"
            ? { ...option.title, text: `${state === "before" ? "Before" : "After"}: ${option.title.text}` }
            : option.title;
    return { ...option, series, ...(legend !== undefined ? { legend } : {}), ...(title !== undefined ? { title } : {}) };
}

type Axis = Record<string, unknown>;
type AxisKind = "xAxis" | "yAxis";

function axesOf(option: EChartsOption, kind: AxisKind): Axis[] {
    const a = (option as Record<string, unknown>)[kind];
    return (Array.isArray(a) ? a : a ? [a] : []) as Axis[];
}

/** A value axis's type: ECharts' default is "category" for x, "value" for y. */
function axisType(axis: Axis, kind: AxisKind): string {
    return typeof axis.type === "string" ? axis.type : kind === "xAxis" ? "category" : "value";
}

/** What a state draws along value axis `index` of `kind`: its series' points and mark lines. */
function drawnValues(option: EChartsOption, kind: AxisKind, index: number): number[] {
    const other: AxisKind = kind === "xAxis" ? "yAxis" : "xAxis";
    const series = (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []) as Array<Record<string, unknown>>;
    const out: number[] = [];
    const push = (v: unknown) => {
        if (typeof v === "number" && Number.isFinite(v)) {
            out.push(v);
        }
    };
    for (const s of series) {
        if (((s[`${kind}Index`] as number | undefined) ?? 0) !== index) {
            continue;
        }
        // A bare number (or { value }) lies along the value axis of a chart whose other axis is a category.
        const otherAxis = axesOf(option, other)[(s[`${other}Index`] as number | undefined) ?? 0];
        const bare = otherAxis !== undefined && axisType(otherAxis, other) === "category";
        for (const d of (Array.isArray(s.data) ? s.data : []) as unknown[]) {
            const point = d !== null && typeof d === "object" && !Array.isArray(d) ? (d as { value?: unknown }).value : d;
            if (Array.isArray(point)) {
                push(point[kind === "xAxis" ? 0 : 1]);
            } else if (bare) {
                push(point);
            }
        }
        const mark = s.markLine as { data?: unknown[] } | undefined;
        for (const m of mark?.data ?? []) {
            push((m as Record<string, unknown> | null)?.[kind]);
        }
    }
    return out;
}

/** One state's range of an axis: its own min/max (a number, or ECharts' function of the data's extent), else the data's. */
function rangeOf(axis: Axis, values: number[], type: string): { min: number; max: number } | undefined {
    if (values.length === 0 && (typeof axis.min !== "number" || typeof axis.max !== "number")) {
        return undefined;
    }
    const extent = { min: Math.min(...values), max: Math.max(...values) };
    const resolve = (v: unknown, fallback: number) =>
        typeof v === "number" ? v : typeof v === "function" ? (v as (e: typeof extent) => number)(extent) : fallback;
    const min = resolve(axis.min, type === "log" ? extent.min : Math.min(0, extent.min));
    const max = resolve(axis.max, type === "log" ? extent.max : niceCeil(extent.max));
    return Number.isFinite(min) && Number.isFinite(max) ? { min, max } : undefined;
}

/**
 * The pair with one range per value (or log) axis that both states have at the same position:
 * the lower of the two minimums and the higher of the two maximums, each state's own range
 * resolved as ECharts would (a fixed bound, a bound computed from the data's extent, or the data
 * with a nice ceiling). Category axes and axes only one state has are left as they are.
 */
export function shareValueAxes(before: EChartsOption, after: EChartsOption): { before: EChartsOption; after: EChartsOption } {
    const result = { before: { ...before } as Record<string, unknown>, after: { ...after } as Record<string, unknown> };
    for (const kind of ["xAxis", "yAxis"] as const) {
        const b = axesOf(before, kind);
        const a = axesOf(after, kind);
        const nb = b.map((x) => ({ ...x }));
        const na = a.map((x) => ({ ...x }));
        for (let i = 0; i < Math.min(b.length, a.length); i++) {
            const type = axisType(b[i], kind);
            if ((type !== "value" && type !== "log") || axisType(a[i], kind) !== type) {
                continue;
            }
            const rb = rangeOf(b[i], drawnValues(before, kind, i), type);
            const ra = rangeOf(a[i], drawnValues(after, kind, i), type);
            if (!rb || !ra) {
                continue;
            }
            const range = { min: Math.min(rb.min, ra.min), max: Math.max(rb.max, ra.max) };
            Object.assign(nb[i], range);
            Object.assign(na[i], range);
        }
        if (b.length > 0) {
            result.before[kind] = Array.isArray((before as Record<string, unknown>)[kind]) ? nb : nb[0];
        }
        if (a.length > 0) {
            result.after[kind] = Array.isArray((after as Record<string, unknown>)[kind]) ? na : na[0];
        }
    }
    return { before: result.before, after: result.after };
}

function escapeXml(text: string): string {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Both states with their value axes shared, when both are charts (shareValueAxes). */
export function sharedPanels(panels: Record<State, StatePanel | { readonly absent: string }>): Record<State, StatePanel | { readonly absent: string }> {
    const { before, after } = panels;
    if ("absent" in before || "absent" in after) {
        return panels;
    }
    const shared = shareValueAxes(before.option, after.option);
    return { before: { ...before, option: shared.before }, after: { ...after, option: shared.after } };
}

/**
 * Renders both states into one SVG document, before above after (value axes shared).
 * @param panels - each state's chart, or a sentence for a state without the entity.
 * Output: an SVG document (starts with `<svg`): each state a nested <svg> at its offset.
 */
export async function twoStatesSvg(input: Record<State, StatePanel | { readonly absent: string }>): Promise<string> {
    const parts: Array<{ svg: string; width: number; height: number }> = [];
    const panels = sharedPanels(input);
    for (const state of ["before", "after"] as const) {
        const p = panels[state];
        if ("absent" in p) {
            const text = `${state === "before" ? "Before" : "After"}: ${p.absent}`;
            parts.push({
                width: 900,
                height: ABSENT_HEIGHT,
                svg:
                    `<svg width="900" height="${ABSENT_HEIGHT}" xmlns="http://www.w3.org/2000/svg"><rect width="900" height="${ABSENT_HEIGHT}" fill="#ffffff"/>` +
                    `<text x="450" y="36" text-anchor="middle" font-family="${FONT_FAMILY}" font-size="16" fill="${COLORS.text}">${escapeXml(text)}</text></svg>`,
            });
        } else {
            parts.push({ svg: await renderSvg(stateOption(p.option, state), p.width, p.height), width: p.width, height: p.height });
        }
    }
    const width = Math.max(...parts.map((p) => p.width));
    const height = parts.reduce((t, p) => t + p.height, 0);
    let y = 0;
    const nested = parts.map((p) => {
        const at = p.svg.replace(/^<svg /, `<svg x="0" y="${y}" `);
        y += p.height;
        return at;
    });
    return `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" viewBox="0 0 ${width} ${height}">\n${nested.join("\n")}\n</svg>\n`;
}
