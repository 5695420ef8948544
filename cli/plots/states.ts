/**
 * Two states of one entity in one SVG (`perfguard diff --plot`): the chart `perfguard size ...
 * --plot` draws for each state, before above after, each series and the title named with its
 * state ("before: perfguard model", "after: perfguard model"). Each state keeps its own axes, so
 * charts whose categories differ between the states (a guest added to a host, a metric a new VS
 * declares) stay exact. A state without the entity is a short panel saying so.
 */
import type { EChartsOption } from "echarts";
import { COLORS, FONT_FAMILY, renderSvg } from "./render";

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
    const series = (Array.isArray(option.series) ? option.series : option.series ? [option.series] : [])
        .map((s) => ({ ...s, name: named(state, s.name) })) as EChartsOption["series"];
    const rename = <T>(x: T): T => {
        if (x === null || typeof x !== "object" || Array.isArray(x)) {
            return x;
        }
        const o = x as Record<string, unknown>;
        return { ...o, ...(Array.isArray(o.data) ? { data: o.data.map((d) => (typeof d === "string" ? named(state, d) : d)) } : {}) } as T;
    };
    const legend = Array.isArray(option.legend) ? option.legend.map(rename) : rename(option.legend);
    const title = option.title && !Array.isArray(option.title) && typeof option.title.text === "string"
        ? { ...option.title, text: `${state === "before" ? "Before" : "After"}: ${option.title.text}` }
        : option.title;
    return { ...option, series, ...(legend !== undefined ? { legend } : {}), ...(title !== undefined ? { title } : {}) } as EChartsOption;
}

function escapeXml(text: string): string {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * Renders both states into one SVG document, before above after.
 * @param panels - each state's chart, or a sentence for a state without the entity.
 * Output: an SVG document (starts with `<svg`): each state a nested <svg> at its offset.
 */
export async function twoStatesSvg(panels: Record<State, StatePanel | { readonly absent: string }>): Promise<string> {
    const parts: Array<{ svg: string; width: number; height: number }> = [];
    for (const state of ["before", "after"] as const) {
        const p = panels[state];
        if ("absent" in p) {
            const text = `${state === "before" ? "Before" : "After"}: ${p.absent}`;
            parts.push({
                width: 900, height: ABSENT_HEIGHT,
                svg: `<svg width="900" height="${ABSENT_HEIGHT}" xmlns="http://www.w3.org/2000/svg"><rect width="900" height="${ABSENT_HEIGHT}" fill="#ffffff"/>` +
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
