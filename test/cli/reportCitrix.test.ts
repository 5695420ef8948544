/**
 * Figures are computed once (issue 18): for every example and fixture with Citrix resources, each
 * figure `perfguard check --report` prints for a zone or Delivery Group equals the one the
 * verdicts on that same entity print, and both are citrixFigures' text.
 */
import * as fs from "fs";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildReport } from "../../cli/report";
import { citrixFigures } from "../../policies/citrix/evaluation";
import { citrixBrokerThrottle } from "../../policies/citrix/citrix-broker-throttle";
import { citrixBrokeringCapacity } from "../../policies/citrix/citrix-brokering-capacity";
import { citrixSiteDatabaseLoad } from "../../policies/citrix/citrix-site-database-load";
import { citrixSiteLimits } from "../../policies/citrix/citrix-site-limits";
import { StackView, ResourceView } from "../../policies/pack/resources";
import { runPreview } from "../../preview/runPreview";
import type { RecordedResource, Violation } from "../../preview/types";
import { runPolicies, TestResource, urnOf } from "../support/policyHarness";
import { citrixStack } from "../policies/citrix/citrixFixtures";
import { ROOT } from "./cliHarness";

const ZONE = "citrix:index/zone:Zone";

interface Case {
    readonly resources: readonly RecordedResource[];
    readonly violations: ReadonlyArray<Pick<Violation, "policyName" | "message" | "urn" | "enforcementLevel">>;
}

/** Where each figure appears in a verdict's problem line or fix: key -> pattern of its text. */
const IN_VERDICT: Record<string, Record<string, RegExp>> = {
    zone: {
        lockLimit: /(?:exceeds|within) the (\d+) (?:one lock|its most exposed lock) sustains/,
    },
    group: {
        concurrency: /: at ([\d.]+) concurrent launches, /,
        meanResponseS: /concurrent launches, mean ([\d.]+ s) > /,
        timedOutPct: /(?:launches, |; )([<\d.]+%) timed out > /,
        launchTimeS: /\d+ users in (.+?) > \d+ min/,
        throttleExposure: /can put ([\d.]+) concurrent requests on its lock/,
        safe: /above the (\d+) it sustains\./,
    },
};

/** The report's table rows by their first cell, as header -> cell. */
function tableRows(md: string): Map<string, Record<string, string>> {
    const rows = new Map<string, Record<string, string>>();
    let header: string[] | undefined;
    for (const line of md.split("\n")) {
        if (!line.startsWith("|")) {
            header = undefined;
            continue;
        }
        const cells = line
            .slice(1, -1)
            .split(" | ")
            .map((c) => c.trim());
        if (!header) {
            header = cells;
        } else if (!cells[0].startsWith("---")) {
            rows.set(cells[0], Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""])));
        }
    }
    return rows;
}

const COLUMN: Record<string, string> = {
    lockLimit: "most exposed lock sustains",
    concurrency: "concurrency",
    meanResponseS: "mean response",
    timedOutPct: "timed out",
    launchTimeS: "launch",
    throttleExposure: "throttles into its lock",
    safe: "safe concurrency",
    perController: "throttle per controller",
};

/** Compares; returns how many figures were compared (so a case that compares nothing is seen). */
function compare(c: Case, config: Record<string, { properties?: Record<string, unknown> }> = {}): number {
    const md = buildReport({
        file: "x.json",
        packName: "perfguard",
        packVersion: "0",
        resources: c.resources,
        violations: c.violations as Violation[],
        config: config as never,
    });
    const stack = new StackView(c.resources.map((r) => new ResourceView(r.urn, r.type, r.name, r.outputs, r.propertyDependencies)));
    const rows = tableRows(md);
    let compared = 0;
    for (const entity of citrixFigures(stack, config)) {
        const row = rows.get(entity.label);
        if (entity.kind === "site") {
            continue;
        }
        expect(row, `${entity.label} has a row in the report`).toBeDefined();
        // Every figure the report prints is the evaluation's text.
        for (const f of entity.figures) {
            const column = COLUMN[f.key];
            if (column && row && row[column] !== undefined && f.value !== undefined) {
                expect(row[column].startsWith(f.text), `${entity.label} ${f.key}`).toBe(true);
            }
        }
        // Every figure a verdict on this entity prints equals the report's.
        const patterns = IN_VERDICT[entity.kind === "zone" ? "zone" : "group"];
        for (const v of c.violations.filter((x) => x.urn === entity.urn)) {
            for (const [key, pattern] of Object.entries(patterns)) {
                const found = pattern.exec(v.message)?.[1];
                if (found !== undefined) {
                    const printed = row?.[COLUMN[key]] ?? "";
                    expect(printed.startsWith(found), `${v.policyName} on ${entity.label}: ${key} ${found} vs report ${printed}`).toBe(true);
                    compared += 1;
                }
            }
            // The proposed per-controller throttle of each zone named in a fix.
            for (const m of v.message.matchAll(/to (\d+) on (?:each of )?zone "([^"]+)"/g)) {
                const zone = citrixFigures(stack, config).find((e) => e.kind === "zone" && e.id === m[2]);
                if (zone && v.policyName === "citrix-broker-throttle") {
                    expect(rows.get(zone.label)?.[COLUMN.perController], `${zone.label} per controller`).toBe(m[1]);
                    compared += 1;
                }
            }
        }
    }
    return compared;
}

function recorded(resources: TestResource[]): RecordedResource[] {
    const urns = new Map(resources.map((r) => [r.name, r.urn ?? urnOf(r.type, r.name)]));
    return resources.map((r): RecordedResource => ({
        options: {} as RecordedResource["options"],
        urn: urns.get(r.name)!,
        type: r.type,
        name: r.name,
        custom: true,
        parent: "",
        inputs: r.props as never,
        outputs: r.props as never,
        dependencies: [],
        propertyDependencies: Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, v]) => [k, v.map((n) => urns.get(n) ?? n)])),
    }));
}

const POLICIES = [citrixBrokerThrottle, citrixBrokeringCapacity, citrixSiteLimits, citrixSiteDatabaseLoad];

const programs = [
    ...fs.readdirSync(path.join(ROOT, "examples")).map((d) => path.join(ROOT, "examples", d)),
    ...fs.readdirSync(path.join(ROOT, "test", "fixtures", "programs")).map((d) => path.join(ROOT, "test", "fixtures", "programs", d)),
].filter(
    (d) =>
        fs.existsSync(path.join(d, "Pulumi.yaml")) &&
        fs.existsSync(path.join(d, "index.ts")) &&
        /\bZone\(/.test(fs.readFileSync(path.join(d, "index.ts"), "utf8")),
);

const previews = new Map<string, Case>();

beforeAll(async () => {
    for (const dir of programs) {
        try {
            const result = await runPreview({ programDir: dir, packDir: ROOT, onLog: () => undefined });
            if (result.resources.some((r) => r.type === ZONE)) {
                previews.set(path.relative(ROOT, dir), { resources: result.resources, violations: result.violations });
            }
        } catch {
            // A fixture whose program fails on purpose has no stack to report.
        }
    }
}, 600_000);

describe("check --report prints the Citrix figures of the verdicts", () => {
    it("covers the Citrix examples", () => {
        expect([...previews.keys()]).toEqual(expect.arrayContaining(["examples/citrix-delivery-groups", "examples/citrix-satellite-zones"]));
    });
    it("every example and fixture program with Citrix resources", () => {
        let compared = 0;
        for (const [name, c] of previews) {
            compared += compare(c);
            expect(name).toBeTruthy();
        }
        expect(compared).toBeGreaterThan(4);
    });
    it.each([
        ["the policy fixture's baseline", citrixStack(), {}],
        ["throttles above the safe concurrency", citrixStack({ throttles: ["20", "20"] }), {}],
        ["an unthrottled controller, peak 40", citrixStack({ peak: "40", throttles: ["12", undefined] }), {}],
        ["a storm too long for the window", citrixStack({ users: "20000" }), {}],
        [
            "stricter targets in the config",
            citrixStack({ peak: "16" }),
            { "citrix-brokering-capacity": { targetResponseS: 6 }, "citrix-broker-throttle": { targetResponseS: 6 } },
        ],
    ])("%s", async (_name, stack, config) => {
        const violations = await runPolicies(POLICIES, stack, config);
        const props = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { properties: v }]));
        compare({ resources: recorded(stack), violations }, props);
    });
});
