/**
 * `perfguard diff`'s three outputs: text for a terminal, Markdown for a pull-request comment (a
 * summary line, one table per system, verdict messages folded in <details>, under GitHub's
 * 65,536-character comment limit) and one JSON document.
 */
import { num, plural } from "../../policies/pack/format";
import { escapeControl } from "../../policies/pack/message";
import type { DiffResult, EntityChange, FigureChange, MembershipChange, VerdictChange } from "./compare";
import { cappedList } from "../../policies/pack/format";
import { SYSTEMS } from "../systems";
import { DiffInventory, inventoryLine } from "./inventory";

/** What the renderers say about each side. */
export interface SideSummary {
    readonly file: string;
    readonly kind: string;
    readonly resources: number;
    readonly unknownValues: number;
}

export interface DiffReport {
    readonly base: SideSummary;
    readonly head: SideSummary;
    readonly result: DiffResult;
    readonly exitCode: number;
    readonly failOn: string;
    /** SVG files written by --plot. */
    readonly plots: readonly string[];
    /** PERFGUARD_INVENTORY, when set: both sides were judged with it (cli/diff/inventory.ts). */
    readonly inventory?: DiffInventory;
}

/** GitHub's limit on an issue or pull-request comment body. */
export const COMMENT_LIMIT = 65536;
/** Marks perfguard's comment, so CI updates it instead of adding one per push. */
export const COMMENT_MARKER = "<!-- perfguard-diff -->";

/** "2 new mandatory verdicts; 3 figures worse, 1 better". */
export function summaryLine(r: DiffResult): string {
    const c = r.counts;
    const verdicts: string[] = [];
    if (c.newMandatory > 0) verdicts.push(plural(c.newMandatory, "new mandatory verdict"));
    if (c.newAdvisory > 0) verdicts.push(plural(c.newAdvisory, "new advisory verdict"));
    if (c.goneMandatory + c.goneAdvisory > 0) verdicts.push(`${plural(c.goneMandatory + c.goneAdvisory, "verdict")} gone`);
    const figures: string[] = [];
    if (c.worse + c.better + c.changed > 0) {
        figures.push(`${plural(c.worse, "figure")} worse`, `${c.better} better`, ...(c.changed > 0 ? [`${c.changed} changed`] : []));
    }
    // Apart from worse and better: what moved only through a system's shared scale (its descriptor
    // words it), and what moved below the precision the verdicts print.
    const changed = r.entities.filter((e) => e.status === "changed").flatMap((e) => e.figures);
    for (const scaling of SYSTEMS.flatMap((s) => (s.scaling ? [s.scaling] : []))) {
        const moved = changed.filter((f) => f.cause === scaling.cause).length;
        if (moved > 0) {
            figures.push(`${plural(moved, "figure")} ${scaling.moved}`);
        }
    }
    if (c.membership > 0) {
        figures.push(`${plural(c.membership, "membership")} changed`);
    }
    if (c.belowPrecision > 0) {
        figures.push(`${plural(c.belowPrecision, "figure")} moved below the display precision (not counted)`);
    }
    const entities: string[] = [];
    if (c.added > 0) entities.push(`${c.added} added`);
    if (c.removed > 0) entities.push(`${c.removed} removed`);
    const parts = [verdicts.join(", "), figures.join(", "), entities.length > 0 ? `entities ${entities.join(", ")}` : ""].filter((p) => p !== "");
    return parts.length > 0 ? parts.join("; ") : "no change in figures or verdicts";
}

function valueText(f: FigureChange["before"], text: string | undefined): string {
    if (!f) {
        return "-";
    }
    // A state ("no cap") reads as the report and the verdicts print it; only a blind spot is "not checked".
    return f.value === undefined ? (f.state ?? `not checked: ${f.notChecked ?? "not computed"}`) : (text ?? f.text);
}

function deltaText(c: FigureChange): string {
    if (c.delta === undefined) {
        return c.before === undefined ? "new" : c.after === undefined ? "gone" : "";
    }
    const sign = c.delta > 0 ? "+" : c.delta < 0 ? "−" : "±";
    // A launch time prints in minutes ("8 min → 13 min"): its change too, not "+292.19 s".
    const minutes = (f: FigureChange["before"]) => Math.abs(f?.value ?? 0) >= 120;
    if (c.unit === "s" && (Math.abs(c.delta) >= 120 || (minutes(c.before) && minutes(c.after)))) {
        return `${sign}${num(Math.abs(c.delta) / 60, 1)} min`;
    }
    const unit = c.unit === "" ? "" : c.unit === "%" ? " pts" : ` ${c.unit}`;
    // Small differences keep enough decimals not to print as "+0" (a timeout rate from <0.0001% to 0.003%).
    let digits = 2;
    while (digits < 6 && num(Math.abs(c.delta), digits) === "0") {
        digits += 1;
    }
    return `${sign}${num(Math.abs(c.delta), digits)}${unit}`;
}

const MARK: Record<FigureChange["direction"], string> = { worse: "worse", better: "better", changed: "changed", unchanged: "" };

/** Why a figure is counted apart, for its row. */
function noteOf(c: FigureChange): string {
    const shared = c.cause === undefined ? undefined : SYSTEMS.find((s) => s.scaling?.cause === c.cause)?.scaling?.label;
    return shared ? shared : c.precise ? "below the display precision: not counted" : "";
}

/** The two values a row prints: the finer texts where the diff's own are equal. */
function rowTexts(f: FigureChange): { before: string; after: string } {
    return f.precise ?? { before: valueText(f.before, f.beforeText), after: valueText(f.after, f.afterText) };
}

/** One side of a membership, its names sorted (at most ten named). */
function namesText(names: readonly string[] | undefined): string {
    return names === undefined ? "-" : names.length === 0 ? "none" : cappedList(names, 10);
}

/** What a membership row marks: the names that left and joined. */
function membershipMark(m: MembershipChange): string {
    return [...(m.gone.length > 0 ? [`−${cappedList(m.gone, 3)}`] : []), ...(m.added.length > 0 ? [`+${cappedList(m.added, 3)}`] : [])].join(", ") || "changed";
}

function verdictWhere(v: VerdictChange): string {
    return v.verdict.entity;
}

function clean(text: string): string {
    return escapeControl(text);
}

/** Markdown-safe table cell. */
function cell(text: string): string {
    return clean(text)
        .replace(/\|/g, "\\|")
        .replace(/\s*\n\s*/g, " ");
}

/** A base without resources: a stack never deployed (its export, or the empty one CI writes when the stack does not exist). */
export function isFirstDeploy(d: Pick<DiffReport, "base">): boolean {
    return d.base.resources === 0;
}

function sidesLine(d: DiffReport, code: (s: string) => string): string {
    const side = (s: SideSummary) =>
        `${code(clean(s.file))} (${s.kind}, ${plural(s.resources, "resource")}${s.unknownValues > 0 ? `; ${plural(s.unknownValues, "value")} known after apply` : ""})`;
    // Every entity and verdict of head is then new: say why, not only "0 resources".
    const base = isFirstDeploy(d) ? `first deploy: no deployed state (${code(clean(d.base.file))} holds no resource)` : side(d.base);
    return `${base} → ${side(d.head)}`;
}

function unchangedLine(list: readonly EntityChange[], max: number): string {
    const names = list.map((e) => e.label);
    return `${plural(list.length, "entity", "entities")} unchanged: ${names.length > max ? `${names.slice(0, max).join(", ")} and ${names.length - max} more` : names.join(", ")}`;
}

// ---- text ------------------------------------------------------------------------------------

export function renderText(d: DiffReport): string {
    const r = d.result;
    // The other stacks the figures and verdicts count, under the sides (cli/diff/inventory.ts).
    let out = `perfguard diff: ${summaryLine(r)}\n${sidesLine(d, (s) => s)}\n${d.inventory ? `${clean(inventoryLine(d.inventory))}\n` : ""}`;
    if (r.verdicts.length > 0) {
        out += "\nVerdicts:\n";
        for (const v of r.verdicts) {
            out += `  ${v.change === "appeared" ? "+" : "-"} [${v.verdict.level}]  ${v.verdict.policy}  (${clean(verdictWhere(v))})${v.was ? " (was advisory)" : ""}\n      ${clean(v.verdict.problem)}\n`;
        }
    }
    for (const system of SYSTEMS) {
        const list = r.entities.filter((e) => e.system === system.id);
        if (list.length === 0) {
            continue;
        }
        out += `\n${system.title}:\n`;
        for (const e of list.filter((x) => x.status !== "unchanged")) {
            const sign = e.status === "added" ? "+" : e.status === "removed" ? "-" : "~";
            out += `  ${sign} ${clean(e.label)}${e.status === "added" ? " (new)" : e.status === "removed" ? " (removed)" : ""}\n`;
            if (e.notChecked.before !== e.notChecked.after) {
                out += `      not checked: ${clean(e.notChecked.before ?? "-")} → ${clean(e.notChecked.after ?? "-")}\n`;
            }
            for (const m of e.members) {
                out += `      ${clean(m.label)}: ${clean(namesText(m.before))} → ${clean(namesText(m.after))} (${clean(membershipMark(m))})\n`;
            }
            for (const f of e.figures) {
                const delta = deltaText(f);
                const marks = [delta, f.delta === undefined && (f.before === undefined || f.after === undefined) ? "" : MARK[f.direction], noteOf(f)].filter(
                    (x) => x,
                );
                const t = rowTexts(f);
                out += `      ${clean(f.label)}: ${clean(t.before)} → ${clean(t.after)}${marks.length > 0 ? ` (${marks.join(", ")})` : ""}\n`;
            }
        }
        const unchanged = list.filter((x) => x.status === "unchanged");
        if (unchanged.length > 0) {
            out += `  ${clean(unchangedLine(unchanged, 10))}\n`;
        }
    }
    for (const p of d.plots) {
        out += `\nPlot written to ${p}.`;
    }
    return out + (d.plots.length > 0 ? "\n" : "");
}

// ---- Markdown --------------------------------------------------------------------------------

interface MdParts {
    readonly head: string;
    readonly verdictRows: string[];
    readonly tables: Array<{ title: string; rows: string[]; unchanged: string }>;
    readonly details: string[];
}

function mdParts(d: DiffReport): MdParts {
    const r = d.result;
    const icon = r.counts.newMandatory > 0 ? "❌" : r.counts.worse > 0 || r.counts.newAdvisory > 0 ? "⚠️" : "✅";
    const head =
        `${COMMENT_MARKER}\n## perfguard diff: ${icon} ${summaryLine(r)}\n\n${sidesLine(d, (s) => `\`${s.replace(/`/g, "'")}\``)}\n` +
        (d.inventory ? `\n${inventoryLine(d.inventory, (s) => `\`${cell(s).replace(/`/g, "'")}\``)}\n` : "");
    const verdictRows = r.verdicts.map(
        (v) =>
            `| ${v.change === "appeared" ? "➕ new" : "➖ gone"} | ${v.verdict.level}${v.was ? " (was advisory)" : ""} | \`${v.verdict.policy}\` | ${cell(verdictWhere(v))} | ${cell(v.verdict.problem)} |`,
    );
    const tables: MdParts["tables"] = [];
    for (const system of SYSTEMS) {
        const list = r.entities.filter((e) => e.system === system.id);
        if (list.length === 0) {
            continue;
        }
        const rows: string[] = [];
        for (const e of list.filter((x) => x.status !== "unchanged")) {
            const label = `${cell(e.label)}${e.status === "added" ? " (new)" : e.status === "removed" ? " (removed)" : ""}`;
            if (e.notChecked.before !== e.notChecked.after || (e.figures.length === 0 && e.members.length === 0)) {
                rows.push(
                    `| ${label} | not checked | ${cell(e.notChecked.before ?? (e.status === "added" ? "-" : "checked"))} | ${cell(e.notChecked.after ?? (e.status === "removed" ? "-" : "checked"))} | |`,
                );
            }
            for (const m of e.members) {
                rows.push(`| ${label} | ${cell(m.label)} | ${cell(namesText(m.before))} | ${cell(namesText(m.after))} | ${cell(membershipMark(m))} |`);
            }
            for (const f of e.figures) {
                const delta = deltaText(f);
                const mark = f.direction === "worse" ? "🔺 worse" : f.direction === "better" ? "🟢 better" : "";
                const note = noteOf(f);
                const t = rowTexts(f);
                rows.push(
                    `| ${label} | ${cell(f.label)} | ${cell(t.before)} | ${cell(t.after)} | ${[delta, mark, note ? `(${note})` : ""].filter((x) => x).join(" ")} |`,
                );
            }
        }
        const unchanged = list.filter((x) => x.status === "unchanged");
        tables.push({ title: system.title, rows, unchanged: unchanged.length > 0 ? cell(unchangedLine(unchanged, 20)) : "" });
    }
    const details = r.verdicts.map(
        (v) =>
            `${v.change === "appeared" ? "+" : "-"} [${v.verdict.level}]  ${v.verdict.policy}  (${clean(verdictWhere(v))})\n${v.verdict.message
                .split("\n")
                .map((l) => `  ${clean(l)}`)
                .join("\n")}`,
    );
    return { head, verdictRows, tables, details };
}

function mdWith(p: MdParts, d: DiffReport, maxRows: number, maxDetails: number): string {
    let out = p.head;
    const rowsOf = (rows: readonly string[]) => {
        return (
            rows.slice(0, maxRows).join("\n") +
            (rows.length > maxRows ? `\n\n… ${plural(rows.length - maxRows, "more row")} not shown (perfguard diff --format json has all).` : "")
        );
    };
    if (p.verdictRows.length > 0) {
        out += `\n### Verdicts\n\n| | level | policy | resource | problem |\n| --- | --- | --- | --- | --- |\n${rowsOf(p.verdictRows)}\n`;
    }
    for (const t of p.tables) {
        out += `\n### ${t.title}\n\n`;
        if (t.rows.length > 0) {
            out += `| entity | figure | before | after | change |\n| --- | --- | --- | --- | --- |\n${rowsOf(t.rows)}\n`;
        }
        if (t.unchanged) {
            out += `${t.rows.length > 0 ? "\n" : ""}${t.unchanged}\n`;
        }
    }
    if (p.details.length > 0) {
        const shown = p.details.slice(0, maxDetails);
        out += `\n<details><summary>Verdict messages (${p.details.length})</summary>\n\n\`\`\`text\n${shown.join("\n").replace(/```/g, "'''")}\n\`\`\`\n${p.details.length > shown.length ? `\n… ${plural(p.details.length - shown.length, "more message")} not shown.\n` : ""}\n</details>\n`;
    }
    if (d.result.counts.newMandatory > 0 && d.exitCode !== 0) {
        out += `\nThis fails the check (\`--fail-on ${d.failOn}\`).\n`;
    }
    return out;
}

/**
 * The PR comment. Output: Markdown of at most `limit` characters (default GitHub's), rows and
 * folded messages cut with a count of what was left out when the whole does not fit.
 */
export function renderMarkdown(d: DiffReport, limit = COMMENT_LIMIT): string {
    const parts = mdParts(d);
    const rows = Math.max(parts.verdictRows.length, ...parts.tables.map((t) => t.rows.length), 0);
    let maxRows = rows;
    let maxDetails = parts.details.length;
    let out = mdWith(parts, d, maxRows, maxDetails);
    // Fold the messages first (they are the longest), then halve the rows per table.
    while (out.length > limit && maxDetails > 0) {
        maxDetails = Math.floor(maxDetails / 2);
        out = mdWith(parts, d, maxRows, maxDetails);
    }
    while (out.length > limit && maxRows > 1) {
        maxRows = Math.floor(maxRows / 2);
        out = mdWith(parts, d, maxRows, maxDetails);
    }
    // Each row is short (cells are one line each): one row per table always fits in practice; guard anyway.
    return out.length > limit ? `${out.slice(0, limit - 80)}\n\n… cut at ${limit} characters (GitHub's comment limit).\n` : out;
}

// ---- JSON ------------------------------------------------------------------------------------

export function renderJson(d: DiffReport): Record<string, unknown> {
    return {
        command: "diff",
        base: d.base,
        head: d.head,
        summary: summaryLine(d.result),
        firstDeploy: isFirstDeploy(d),
        exitCode: d.exitCode,
        failOn: d.failOn,
        // headMandatory counts every mandatory verdict of head only when head was judged whole (--fail-on any-mandatory).
        counts: d.failOn === "any-mandatory" ? d.result.counts : Object.fromEntries(Object.entries(d.result.counts).filter(([k]) => k !== "headMandatory")),
        ...(d.inventory ? { inventory: d.inventory } : {}),
        verdicts: d.result.verdicts,
        entities: d.result.entities,
        ...(d.plots.length > 0 ? { plots: d.plots } : {}),
    };
}
