/**
 * The NSX ALB room's settings are written once: in one policy's configSchema, with the default
 * there. The config module's defaults are the schema's; no NSX source restates a configured
 * value as a fallback (`?? 20`, `: 20` after a check, `!== 20`, a `DEFAULT_*` object); the
 * advisory's copies are deprecated (null: not set) and `config check` names their one home.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import {
    ADVISORY_SCHEMA,
    advisorySettings,
    MOVED_SETTINGS,
    SE_CAPACITY_DEFAULTS,
    SE_CAPACITY_SCHEMA,
    seCapacityConfigOf,
    SETTINGS_HOME,
} from "../../../policies/nsx-alb/config";
import { rememberConfig } from "../../../policies/pack/policyConfigs";
import { StackView } from "../../../policies/pack/resources";

const ROOT = path.resolve(__dirname, "../../..");
const ROOM = policies.filter((p) => p.name.startsWith("nsx-alb-"));

/** Every NSX ALB source: the room, its model, and the CLI code that prints it. */
function nsxSources(): string[] {
    const room = fs
        .readdirSync(path.join(ROOT, "policies", "nsx-alb"))
        .filter((f) => f.endsWith(".ts"))
        .map((f) => path.join("policies", "nsx-alb", f));
    const model = fs
        .readdirSync(path.join(ROOT, "model"))
        .filter((f) => /^se[A-Z].*\.ts$/.test(f))
        .map((f) => path.join("model", f));
    return [...room, ...model, path.join("cli", "sizeNsxAlb.ts"), path.join("cli", "report", "nsxAlb.ts")].sort();
}

/**
 * The code of a TypeScript source without comments and without the text of string literals
 * (message text is not a default); a template literal keeps its `${...}` expressions.
 */
export function codeOnly(text: string): string {
    let out = "";
    let i = 0;
    const templates: number[] = []; // brace depth at which each open template's `${` began
    let depth = 0;
    while (i < text.length) {
        const c = text[i];
        const next = text[i + 1];
        if (c === "/" && next === "/") {
            while (i < text.length && text[i] !== "\n") i++;
            continue;
        }
        if (c === "/" && next === "*") {
            const end = text.indexOf("*/", i + 2);
            i = end < 0 ? text.length : end + 2;
            continue;
        }
        if (c === '"' || c === "'") {
            i++;
            while (i < text.length && text[i] !== c) i += text[i] === "\\" ? 2 : 1;
            i++;
            out += '""';
            continue;
        }
        if (c === "`" || (c === "}" && templates.length > 0 && templates[templates.length - 1] === depth)) {
            // A template's text, up to its end or its next `${`.
            if (c === "}") {
                templates.pop();
            }
            i++;
            while (i < text.length && text[i] !== "`" && !(text[i] === "$" && text[i + 1] === "{")) i += text[i] === "\\" ? 2 : 1;
            if (text[i] === "$") {
                templates.push(depth);
                out += "`${";
                i += 2;
            } else {
                out += "``";
                i++;
            }
            continue;
        }
        if (c === "{") depth++;
        if (c === "}") depth--;
        out += c;
        i++;
    }
    return out;
}

const LITERAL = String.raw`(?:-?\d+(?:\.\d+)?|true|false|\{\s*\})`;

/**
 * The lines of `code` that fall back to, or compare with, a literal for one of `keys`:
 * `x.key ?? 20`, `x.key || 20`, `ok ? x.key : 20`, `x.key !== 20`, `{ key: 20 }`, and any `DEFAULT_*` object.
 */
export function numericFallbacks(code: string, keys: readonly string[]): string[] {
    const restated = /\bDEFAULT_[A-Z0-9_]*\s*(?::[^=\n]*)?=\s*(?:Object\.freeze\()?\{/;
    const patterns = keys.map(
        (k) =>
            new RegExp(
                [
                    String.raw`\b${k}\s*\)?\s*(?:\?\?|\|\|)\s*${LITERAL}(?![\w.])`,
                    String.raw`\?\s*[\w.]*\b${k}\s*:\s*${LITERAL}(?![\w.])`,
                    String.raw`\b${k}\s*[!=]==?\s*${LITERAL}(?![\w.])`,
                    String.raw`${LITERAL}\s*[!=]==?\s*[\w.]*\b${k}\b`,
                    String.raw`(?:^|[{,]\s*)${k}\s*:\s*${LITERAL}\s*[,}]`,
                ].join("|"),
            ),
    );
    // A schema's own lines (type, bounds, default) are where a default belongs.
    const schema = /\b(?:type|minimum|maximum|default)\s*:/;
    return code.split("\n").filter((line) => restated.test(line) || (!schema.test(line) && patterns.some((p) => p.test(line))));
}

/** The configured values: every NSX ALB policy's config keys, and the size command's inputs that carry them. */
const CONFIGURED = [...new Set([...ROOM.flatMap((p) => Object.keys(p.configSchema?.properties ?? {})), "maxVsPerSe"])].filter((k) => k !== "unverified").sort();

describe("NSX ALB settings: written once, in a schema", () => {
    it("the room has the four policies and the settings the schema declares", () => {
        expect(ROOM.map((p) => p.name).sort()).toEqual([
            "nsx-alb-se-capacity",
            "nsx-alb-se-capacity-advisory",
            "nsx-alb-se-dedicated-dispatcher",
            "nsx-alb-se-minimum-resources",
        ]);
        expect(CONFIGURED).toEqual(["assumeScaleOut", "headroomPct", "maxVsPerSe", "minVcpus", "seGroups"]);
    });
    it("the config module's defaults are the home schema's, and an empty config reads them", () => {
        const home = ROOM.find((p) => p.name === SETTINGS_HOME);
        const defaults = Object.fromEntries(
            Object.entries(home?.configSchema?.properties ?? {})
                .filter(([k]) => k !== "unverified")
                .map(([k, s]) => [k, (s as { default?: unknown }).default]),
        );
        expect(defaults).toEqual({ headroomPct: 20, assumeScaleOut: false, seGroups: {} });
        expect({ ...SE_CAPACITY_DEFAULTS }).toEqual(defaults);
        expect(seCapacityConfigOf(undefined)).toEqual(defaults);
        expect(seCapacityConfigOf({ headroomPct: "30", assumeScaleOut: "yes", seGroups: [] })).toEqual(defaults);
        expect(seCapacityConfigOf({ headroomPct: 35, assumeScaleOut: true })).toEqual({ ...defaults, headroomPct: 35, assumeScaleOut: true });
    });
    it("each room setting has one home: declared with a default in one policy; the advisory's copies are deprecated and unset", () => {
        for (const key of Object.keys(SE_CAPACITY_SCHEMA.properties)) {
            const homes = ROOM.filter((p) => {
                const s = p.configSchema?.properties?.[key] as { default?: unknown } | undefined;
                return s !== undefined && s.default !== null;
            }).map((p) => p.name);
            expect(homes, key).toEqual([SETTINGS_HOME]);
            const copy = ADVISORY_SCHEMA.properties[key as keyof typeof ADVISORY_SCHEMA.properties] as { default?: unknown; description?: string };
            expect(copy.default, key).toBeNull();
            expect(copy.description).toContain(`Deprecated here: set it on ${SETTINGS_HOME}, its one home`);
        }
        expect(MOVED_SETTINGS.map((m) => [m.policy, m.key, m.home])).toEqual([
            ["nsx-alb-se-capacity-advisory", "headroomPct", SETTINGS_HOME],
            ["nsx-alb-se-capacity-advisory", "assumeScaleOut", SETTINGS_HOME],
            ["nsx-alb-se-capacity-advisory", "seGroups", SETTINGS_HOME],
        ]);
    });
    it("the advisory reads the home's settings on the same stack; a copy still set on it applies to it alone", () => {
        const unset = { headroomPct: null, assumeScaleOut: null, seGroups: null };
        const stack = new StackView([]);
        expect(advisorySettings(stack, unset)).toEqual(SE_CAPACITY_DEFAULTS);
        const groups = { "Default-Group": { vcpusPerSe: "4" } };
        rememberConfig(stack, SETTINGS_HOME, { headroomPct: 35, assumeScaleOut: true, seGroups: groups });
        expect(advisorySettings(stack, unset)).toEqual({ headroomPct: 35, assumeScaleOut: true, seGroups: groups });
        expect(advisorySettings(stack, { ...unset, headroomPct: 10, seGroups: {} })).toEqual({ headroomPct: 10, assumeScaleOut: true, seGroups: {} });
        // Another stack: the home has not run there.
        expect(advisorySettings(new StackView([]), { ...unset, assumeScaleOut: true })).toEqual({ ...SE_CAPACITY_DEFAULTS, assumeScaleOut: true });
    });
    it("the check finds a restated default (so it can fail)", () => {
        const old = [
            'const headroomPct = typeof p.headroomPct === "number" && Number.isFinite(p.headroomPct) ? p.headroomPct : 20;',
            "const tail = `bufferSe ${g.bufferSe}, maxVsPerSe ${g.maxVsPerSe ?? 10}`;",
            "if (config.headroomPct !== 20) {",
            "return { headroomPct: config.headroomPct || 20 };",
            "export const DEFAULT_EVALUATION_CONFIG: Config = { headroomPct: 20 };",
        ].join("\n");
        expect(numericFallbacks(codeOnly(old), CONFIGURED)).toHaveLength(5);
        // Message text and comments are not defaults.
        expect(
            numericFallbacks(codeOnly('// headroomPct ?? 20\nconst s = "headroomPct (default 20)";\nconst t = `headroomPct: ${pct(0.2)}`;'), CONFIGURED),
        ).toEqual([]);
    });
    it.each(nsxSources().map((f) => [f] as const))("%s restates no configured value's default", (file) => {
        const code = codeOnly(fs.readFileSync(path.join(ROOT, file), "utf8"));
        expect(numericFallbacks(code, CONFIGURED)).toEqual([]);
    });
    it("perfguard size nsx-alb takes its option defaults from the schema and the provider's table, not literals", () => {
        // One `.option(...)` call per entry, however the formatter wraps it.
        const main = codeOnly(fs.readFileSync(path.join(ROOT, "cli", "sizeCommands.ts"), "utf8")).replace(/\s*\n\s*/g, " ");
        const options = main
            .split(/\.(?=option\(|requiredOption\(|action\(|command\()/)
            .filter((o) => o.startsWith("option(") && /headroomPct|maxVsPerSe|SE_CAPACITY_DEFAULTS|DEFAULT_MAX_VS_PER_SE/.test(o))
            .map((o) => o.trim());
        expect(options.length).toBe(2);
        for (const option of options) {
            expect(option).not.toMatch(/,\s*-?\d+(\.\d+)?,?\s*\)\s*$/);
            expect(option).toMatch(/(SE_CAPACITY_DEFAULTS\.\w+|DEFAULT_MAX_VS_PER_SE),?\s*\)\s*$/);
        }
    });
});
