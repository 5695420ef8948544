/** Plain-text tables for the human output: columns padded to their widest cell. */

/** Column alignment: numbers right, text left. */
export type Align = "left" | "right";

/**
 * Renders rows under a header, two spaces between columns, each line indented by `indent`.
 * Input: header cells, rows of cells (same length as the header), alignment per column.
 * Output: the table, one line per row plus the header and a rule, ending with "\n".
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[], indent = "    "): string {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const line = (cells: readonly string[]) =>
        indent +
        cells
            .map((c, i) => (align[i] === "right" ? c.padStart(widths[i]) : c.padEnd(widths[i])))
            .join("  ")
            .trimEnd();
    return [line(header), indent + widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n") + "\n";
}
