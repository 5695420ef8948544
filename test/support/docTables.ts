/**
 * The config table of docs/policies/<id>.md (`| key | type | default | meaning |`) against the
 * policy's configSchema: the type and default columns are derived from the schema, so the test can
 * check them and `npm run docs:examples` can rewrite them (the meaning column is the doc's own).
 */

/** A JSON Schema property as the policies declare them (the subset perfguard uses). */
export interface PropertySchema {
    readonly type?: string | readonly string[];
    readonly enum?: readonly unknown[];
    readonly minimum?: number;
    readonly maximum?: number;
    readonly exclusiveMinimum?: number;
    readonly exclusiveMaximum?: number;
    readonly default?: unknown;
}

function bounds(s: PropertySchema): string {
    const low = s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : s.minimum !== undefined ? `>= ${s.minimum}` : undefined;
    const high = s.exclusiveMaximum !== undefined ? `< ${s.exclusiveMaximum}` : s.maximum !== undefined ? `<= ${s.maximum}` : undefined;
    if (s.minimum !== undefined && s.maximum !== undefined && s.exclusiveMinimum === undefined && s.exclusiveMaximum === undefined) {
        return ` (${s.minimum}..${s.maximum})`;
    }
    const parts = [low, high].filter((p): p is string => p !== undefined);
    return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

/**
 * The type column for a schema property: `number (0..100)`, `number (> 0, <= 600)`,
 * `integer (1..64)`, `boolean`, `"advisory" or "mandatory"`, `number (> 0) or null`; objects read
 * `object` (the doc may say more after it: what the entries are).
 */
export function typeText(s: PropertySchema): string {
    if (s.enum) {
        const values = s.enum.map((v) => JSON.stringify(v));
        return values.length === 1 ? values[0] : `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;
    }
    const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type as string];
    const shown = types.filter((t) => t !== "null").map((t) => (t === "number" || t === "integer" ? `${t}${bounds(s)}` : t));
    if (types.includes("null")) {
        shown.push("null");
    }
    return shown.length > 0 ? shown.join(" or ") : "any";
}

/** The default column: the schema default as JSON, in backticks. */
export function defaultText(s: PropertySchema): string {
    return `\`${JSON.stringify(s.default)}\``;
}

/** One row of a config table, as written. */
export interface ConfigRow {
    readonly key: string;
    readonly type: string;
    readonly default: string;
    readonly meaning: string;
    /** The whole line, for rewriting. */
    readonly line: string;
}

/** The rows of the "## Config" section (rows whose first cell is a `key`). */
export function configRows(doc: string): ConfigRow[] {
    const start = doc.indexOf("\n## Config\n");
    if (start < 0) {
        return [];
    }
    const end = doc.indexOf("\n## ", start + 5);
    const section = doc.slice(start, end < 0 ? undefined : end);
    const rows: ConfigRow[] = [];
    for (const line of section.split("\n")) {
        const m = /^\| `([^`]+)` \| (.*?) \| (.*?) \| (.*) \|$/.exec(line);
        if (m) {
            rows.push({ key: m[1], type: m[2], default: m[3], meaning: m[4], line });
        }
    }
    return rows;
}

/** Whether a row's type cell agrees with the schema (an object's cell may describe its entries). */
export function typeAgrees(row: ConfigRow, s: PropertySchema): boolean {
    const expected = typeText(s);
    return expected === "object" ? row.type === "object" || row.type.startsWith("object:") : row.type === expected;
}

/** The doc with each row's type and default cells set from the schema (rows of unknown keys kept). */
export function withSchemaColumns(doc: string, properties: Readonly<Record<string, PropertySchema>>): string {
    let out = doc;
    for (const row of configRows(doc)) {
        const s = properties[row.key];
        if (!s) {
            continue;
        }
        const type = typeAgrees(row, s) ? row.type : typeText(s);
        out = out.replace(row.line, `| \`${row.key}\` | ${type} | ${defaultText(s)} | ${row.meaning} |`);
    }
    return out;
}
