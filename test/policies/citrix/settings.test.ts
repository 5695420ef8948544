/**
 * Settings once (issue 31): every Citrix default is written in its schema (policies/citrix/schemas.ts)
 * and read from there. The sources of the Citrix room and the CLI code reading Citrix settings
 * carry no numeric fallback of a configured value, no DEFAULT_* object and no comparison of a
 * setting against a literal default; comments and message text are not defaults.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { EVALUATION_DEFAULTS, throttleSettings } from "../../../policies/citrix/evaluation";
import { BROKER_THROTTLE_SCHEMA, BROKERING_CAPACITY_SCHEMA, SITE_DATABASE_SCHEMA, TARGET_SCHEMA } from "../../../policies/citrix/schemas";
import { citrixBrokerThrottle } from "../../../policies/citrix/citrix-broker-throttle";
import { citrixBrokeringCapacity } from "../../../policies/citrix/citrix-brokering-capacity";
import { citrixSiteDatabaseLoad } from "../../../policies/citrix/citrix-site-database-load";
import { citrixSiteLimits } from "../../../policies/citrix/citrix-site-limits";
import { citrixZoneRttLimit } from "../../../policies/citrix/citrix-zone-rtt-limit";
import { citrixZoneRttWarning } from "../../../policies/citrix/citrix-zone-rtt-warning";

const ROOT = path.resolve(__dirname, "../../..");
const CITRIX = path.join(ROOT, "policies", "citrix");
/** The CLI files that read Citrix settings (the diff's plots also draw other systems: only their Citrix settings are checked). */
const CLI = ["cli/report/citrix.ts", "cli/sizeCitrix.ts", "cli/sizeCitrixText.ts", "cli/citrixSizingSite.ts", "cli/diff/plots.ts", "cli/systems/citrix.ts"];

const POLICIES = [citrixBrokerThrottle, citrixBrokeringCapacity, citrixSiteDatabaseLoad, citrixSiteLimits, citrixZoneRttLimit, citrixZoneRttWarning];

function schemaOf(policy: unknown): Record<string, { default?: unknown }> {
    return (policy as { configSchema?: { properties?: Record<string, { default?: unknown }> } }).configSchema?.properties ?? {};
}

/** Every setting name of the Citrix policies, and every numeric default but 0 (a sum's start is no default). */
const SETTINGS = [...new Set(POLICIES.flatMap((p) => Object.keys(schemaOf(p))))].sort();
const NONZERO_DEFAULTS = [
    ...new Set(POLICIES.flatMap((p) => Object.values(schemaOf(p)).map((s) => s.default)).filter((d): d is number => typeof d === "number" && d !== 0)),
];

/** A source line without its comments and string literals (message text is not a default). */
function code(line: string): string {
    return line
        .replace(/\/\/.*$/, "")
        .replace(/`(?:[^`\\]|\\.)*`|"(?:[^"\\]|\\.)*"/g, '""')
        .replace(/^\s*\*.*$/, "")
        .replace(/\/\*.*?\*\//g, "");
}

function findings(file: string, citrixOnly: boolean): string[] {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const names = SETTINGS.join("|");
    const rules: RegExp[] = [
        /DEFAULT_/,
        // a setting falling back to, or compared for (in)equality with, a number literal ("> 0" is a sign test)
        new RegExp(`\\b(${names})\\b\\s*(\\?\\?|[!=]==?|<=|>=)\\s*-?\\d`),
        // a number passed as a setting's fallback
        /\b(numberOr|orDefault)\s*\([^)]*,\s*-?\d/,
        // a literal default handed to a basis line's "default N" (targets.ts's configured)
        /\bconfigured\s*\([^,]+,\s*-?\d/,
    ];
    if (citrixOnly) {
        // a fallback to one of the schemas' defaults (90, 12, 0.1, 60, ...)
        const defaults = NONZERO_DEFAULTS.map((d) => String(d).replace(".", "\\.")).join("|");
        rules.push(new RegExp(`\\?\\?\\s*(${defaults})(?![\\d.])`));
        // ... or the same as a ternary's other branch ("Number.isFinite(v) ? v : 90")
        rules.push(new RegExp(`\\?\\s*[\\w.]+\\s*:\\s*(${defaults})(?![\\d.])`));
    }
    const out: string[] = [];
    text.split("\n").forEach((line, i) => {
        const c = code(line);
        if (rules.some((r) => r.test(c))) {
            out.push(`${file}:${i + 1}: ${line.trim()}`);
        }
    });
    return out;
}

describe("Citrix settings are written once, in their schemas", () => {
    it("finds the settings and defaults it checks (the scan is not empty)", () => {
        expect(SETTINGS).toEqual(
            expect.arrayContaining(["errorBudgetPct", "measuredSiteBrokeredPerS", "requireAtRttMs", "satelliteAtRttMs", "targetResponseS"]),
        );
        expect(NONZERO_DEFAULTS).toEqual(expect.arrayContaining([90, 12, 0.1, 60]));
    });

    it("the scan catches each kind of fallback it looks for", () => {
        const dir = fs.mkdtempSync(path.join(ROOT, "test", ".tmp-settings-"));
        try {
            const samples = [
                'const f = configured(config.warnAtRttMs, 225, " ms");',
                "const a = x.satelliteAtRttMs ?? 90;",
                "const e = ok(v) ? v : 90;",
                "const b = t.targetResponseS !== 12;",
                "const c = numberOr(v, 0.1);",
                "const DEFAULT_X = 1;",
                "const d = y ?? 90;",
            ];
            const file = path.join(dir, "sample.ts");
            fs.writeFileSync(file, samples.join("\n") + '\n// a comment: ?? 90\nconst ok = "default 90 ?? 90";\n');
            expect(findings(path.relative(ROOT, file), true)).toHaveLength(samples.length);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    });

    it("no Citrix source or CLI reader of Citrix settings restates a default", () => {
        const files = fs
            .readdirSync(CITRIX)
            .filter((f) => f.endsWith(".ts"))
            .map((f) => path.join("policies", "citrix", f));
        const found = [...files.flatMap((f) => findings(f, true)), ...CLI.map((f) => findings(f, !f.includes("diff"))).flat()];
        expect(found).toEqual([]);
    });

    it("the policies declare the schemas' properties, and the defaults used are the schemas'", () => {
        // (the framework adds its own `unverified` level to each)
        expect(schemaOf(citrixBrokerThrottle)).toMatchObject(BROKER_THROTTLE_SCHEMA);
        expect(schemaOf(citrixBrokeringCapacity)).toMatchObject(BROKERING_CAPACITY_SCHEMA);
        expect(schemaOf(citrixSiteDatabaseLoad)).toMatchObject(SITE_DATABASE_SCHEMA);
        expect(EVALUATION_DEFAULTS).toEqual({
            targetResponseS: TARGET_SCHEMA.targetResponseS.default,
            errorBudgetPct: TARGET_SCHEMA.errorBudgetPct.default,
            externalControllers: BROKER_THROTTLE_SCHEMA.externalControllers.default,
            measuredSiteBrokeredPerS: SITE_DATABASE_SCHEMA.measuredSiteBrokeredPerS.default,
            satelliteAtRttMs: SITE_DATABASE_SCHEMA.satelliteAtRttMs.default,
        });
        expect(throttleSettings()).toEqual({
            requireAtRttMs: BROKER_THROTTLE_SCHEMA.requireAtRttMs.default,
            requireControllersInStack: BROKER_THROTTLE_SCHEMA.requireControllersInStack.default,
        });
        // A configured value wins over the schema's.
        expect(throttleSettings({ "citrix-broker-throttle": { properties: { requireAtRttMs: 45 } } }).requireAtRttMs).toBe(45);
    });
});
