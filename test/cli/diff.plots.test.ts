/**
 * `perfguard diff --plot`: per system, a base and a head with one change; the changed entity's
 * chart is written as one SVG holding both states (each state's series named "before: ..." and
 * "after: ...", read back from the SVG's text), and an unchanged entity gets no file.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { diffStates } from "../../cli/diff/compare";
import { SideConfig, stackFigures } from "../../cli/diff/figures";
import { diffPanels, writeDiffPlots } from "../../cli/diff/plots";
import type { EvaluatedSide } from "../../cli/diff/run";
import type { Side } from "../../cli/diff/sides";
import { MODEL_SERIES_NAME, siteCapSeriesName } from "../../cli/plots/brokeringPlot";
import { shareValueAxes, StatePanel } from "../../cli/plots/states";
import { stackViewOf } from "../../cli/report";
import { readStackExport } from "../../cli/stackExport";
import type { EChartsOption } from "echarts";
import { citrixRoom } from "../../policies/citrix/evaluation";
import type { RecordedResource } from "../../preview/types";
import { examplePreview } from "../support/examplePreviews";
import { SE_BAR_SERIES } from "../../cli/plots/seCapacityPlot";
import { XEN_BAR_SERIES } from "../../cli/plots/xenSharePlot";
import { ResourceView, StackView } from "../../policies/pack/resources";
import { TestResource, urnOf } from "../support/policyHarness";
import { citrixStack } from "../policies/citrix/citrixFixtures";
import { nsxStack } from "../policies/nsx-alb/nsxFixtures";
import { dom0Service, XCP01_UUID, xenBaselineConfig, xenStack } from "../policies/xen/xenFixtures";

function viewOf(resources: TestResource[]): StackView {
    const urnByName = new Map(resources.map((r) => [r.name, r.urn ?? urnOf(r.type, r.name)]));
    return new StackView(
        resources.map(
            (r) =>
                new ResourceView(
                    urnByName.get(r.name)!,
                    r.type,
                    r.name,
                    structuredClone(r.props),
                    Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urnByName.get(n) ?? n)])),
                ),
        ),
    );
}

/** A side as runDiff evaluates it, without the pack (the plots read the stack and the config only). */
function sideOf(resources: TestResource[], config: Record<string, Record<string, unknown>>): EvaluatedSide {
    const sideConfig = Object.fromEntries(
        Object.entries(config).map(([k, v]) => [k, { enforcementLevel: "advisory", properties: v }]),
    ) as unknown as SideConfig;
    const stack = viewOf(resources);
    return {
        side: { file: "x.json", kind: "stack export", resources: [], unknownValues: 0 } as unknown as Side,
        stack,
        config: sideConfig,
        verdicts: [],
        figures: stackFigures(stack, sideConfig),
    };
}

/** The texts of an SVG (legend entries, titles), unescaped. */
function texts(svg: string): string[] {
    return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
        m[1]
            .replace(/&amp;/g, "&")
            .replace(/&lt;/g, "<")
            .replace(/&gt;/g, ">")
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'"),
    );
}

const xenConfig = { "xen-guest-network-share": xenBaselineConfig(), "xen-dom0-workload": xenBaselineConfig() };

const CASES = [
    // One Delivery Group: the chart is one lock's model, as `size citrix --plot` draws it.
    {
        system: "citrix",
        base: citrixStack(),
        head: citrixStack({ rttMs: "260" }),
        config: {},
        file: "citrix-emea-zone.svg",
        series: MODEL_SERIES_NAME,
        title: "Citrix launch brokering at 160 ms RTT",
        headTitle: "Citrix launch brokering at 260 ms RTT",
    },
    {
        system: "nsx-alb",
        base: nsxStack(),
        head: nsxStack({ shop: { sslTps: "4000" } }),
        config: {},
        file: "nsx-alb-web.svg",
        series: SE_BAR_SERIES.fits,
        title: "SE group web: the busiest SE",
        headTitle: "SE group web: the busiest SE",
    },
    {
        system: "xen",
        base: xenStack(),
        head: xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60")] }),
        config: xenConfig,
        file: `xen-${XCP01_UUID}.svg`,
        series: XEN_BAR_SERIES.met,
        title: "Xen host",
        headTitle: "Xen host",
    },
] as const;

describe("perfguard diff --plot: one SVG per changed entity, with both states", () => {
    it.each(CASES.map((c) => [c.system, c] as const))(
        "%s",
        async (_system, c) => {
            const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-diff-plots-"));
            try {
                const base = sideOf([...c.base], c.config);
                const head = sideOf([...c.head], c.config);
                const written = await writeDiffPlots(dir, base, head, diffStates(base, head));
                expect(written.map((f) => path.basename(f))).toEqual([c.file]);
                const svg = fs.readFileSync(written[0], "utf8");
                expect(svg.startsWith("<svg")).toBe(true);
                const t = texts(svg);
                // Both states' series, each named with its state, and each state's own title.
                expect(t).toContain(`before: ${c.series}`);
                expect(t).toContain(`after: ${c.series}`);
                expect(
                    t.some((x) => x.startsWith(`Before: ${c.title}`)),
                    t.join(" | "),
                ).toBe(true);
                expect(
                    t.some((x) => x.startsWith(`After: ${c.headTitle}`)),
                    t.join(" | "),
                ).toBe(true);
                // The same state on both sides: nothing changed, nothing drawn.
                expect(await writeDiffPlots(dir, base, sideOf([...c.base], c.config), diffStates(base, sideOf([...c.base], c.config)))).toEqual([]);
            } finally {
                fs.rmSync(dir, { recursive: true, force: true });
            }
        },
        60000,
    );

    it("a state without the entity says so in its panel", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-diff-plots-"));
        try {
            const base = sideOf([], {});
            const head = sideOf(nsxStack(), {});
            const [file] = await writeDiffPlots(dir, base, head, diffStates(base, head));
            const t = texts(fs.readFileSync(file, "utf8"));
            expect(t).toContain("Before: no SE group web");
            expect(t).toContain(`after: ${SE_BAR_SERIES.fits}`);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }, 60000);
});

/** Each value axis's [type, min, max] of a chart option, x axes then y axes. */
function ranges(option: EChartsOption): Array<[string, unknown, unknown]> {
    const list = (k: "xAxis" | "yAxis") => {
        const a = (option as Record<string, unknown>)[k];
        return (Array.isArray(a) ? a : [a]) as Array<Record<string, unknown>>;
    };
    return [...list("xAxis"), ...list("yAxis")].map((a) => [String(a.type ?? "-"), a.min, a.max]);
}

describe("perfguard diff --plot: before and after share their value axes", () => {
    it.each([
        // Citrix at 160 then 260 ms over one range of concurrency (the higher peak's): the response axis to 40 s on both.
        [
            "citrix",
            "zone",
            "emea-zone",
            [
                ["value", 0, 60],
                ["value", 0, 60],
                ["value", 0, 40],
                ["log", 0.001, 100],
            ],
        ],
        [
            "nsx-alb",
            "seGroup",
            "web",
            [
                ["value", 0, 200],
                ["category", undefined, undefined],
            ],
        ],
        [
            "xen",
            "host",
            XCP01_UUID,
            [
                ["value", 0, 150],
                ["category", undefined, undefined],
            ],
        ],
    ] as const)(
        "%s: one range per value axis for both states",
        async (system, kind, id, expected) => {
            const c = CASES.find((x) => x.system === system)!;
            const panels = await diffPanels(system, kind, sideOf([...c.base], c.config), sideOf([...c.head], c.config), id);
            const before = panels!.before as StatePanel;
            const after = panels!.after as StatePanel;
            expect(ranges(before.option)).toEqual(expected);
            expect(ranges(after.option)).toEqual(expected);
        },
        60000,
    );

    const line = (data: number[][], extra: Record<string, unknown> = {}) => ({ type: "line", data, ...extra });
    it.each([
        [
            "fixed maximums: the higher",
            { xAxis: { type: "value", min: 0, max: 50 }, yAxis: { type: "category" }, series: [] },
            { xAxis: { type: "value", min: 0, max: 80 }, yAxis: { type: "category" }, series: [] },
            [
                ["value", 0, 80],
                ["category", undefined, undefined],
            ],
        ],
        [
            "a maximum computed from the data's extent: each state's, then the higher",
            {
                xAxis: { type: "value", min: 0, max: 10 },
                yAxis: { type: "value", min: 0, max: (e: { max: number }) => Math.max(e.max, 12) },
                series: [
                    line([
                        [1, 5],
                        [2, 9],
                    ]),
                ],
            },
            {
                xAxis: { type: "value", min: 0, max: 10 },
                yAxis: { type: "value", min: 0, max: (e: { max: number }) => Math.max(e.max, 12) },
                series: [
                    line([
                        [1, 5],
                        [2, 30],
                    ]),
                ],
            },
            [
                ["value", 0, 10],
                ["value", 0, 30],
            ],
        ],
        [
            "no bounds: the data's, with a nice ceiling, from 0",
            { xAxis: { type: "category" }, yAxis: {}, series: [{ type: "bar", data: [3, 7] }] },
            { xAxis: { type: "category" }, yAxis: {}, series: [{ type: "bar", data: [11] }] },
            [
                ["category", undefined, undefined],
                ["-", 0, 12],
            ],
        ],
        [
            "a mark line counts as drawn",
            { xAxis: { type: "value" }, yAxis: { type: "category" }, series: [{ type: "bar", data: [3], markLine: { data: [{ xAxis: 45 }] } }] },
            { xAxis: { type: "value" }, yAxis: { type: "category" }, series: [{ type: "bar", data: [4] }] },
            [
                ["value", 0, 50],
                ["category", undefined, undefined],
            ],
        ],
        [
            "log axes: the lower minimum and the higher maximum",
            { xAxis: { type: "value", min: 0, max: 1 }, yAxis: { type: "log", min: 0.01, max: 10 }, series: [] },
            { xAxis: { type: "value", min: 0, max: 1 }, yAxis: { type: "log", min: 0.001, max: 1 }, series: [] },
            [
                ["value", 0, 1],
                ["log", 0.001, 10],
            ],
        ],
    ] as const)("shareValueAxes: %s", (_label, before, after, expected) => {
        const shared = shareValueAxes(before as unknown as EChartsOption, after as unknown as EChartsOption);
        expect(ranges(shared.before)).toEqual(expected);
        expect(ranges(shared.after)).toEqual(expected);
    });
});

describe("perfguard diff --plot: the Citrix response under a measured Site database rate", () => {
    let all: RecordedResource[];
    beforeAll(async () => {
        all = readStackExport((await examplePreview("citrix-satellite-zones")).record).resources;
    });
    const evaluated = (rs: RecordedResource[]): EvaluatedSide => {
        const stack = stackViewOf(rs);
        // Only a rate measured on this Site caps it (issue 30): 23.2/s, set in its one home.
        const config = { "citrix-site-database-load": { properties: { measuredSiteBrokeredPerS: 23.2 } } };
        return {
            side: { file: "x.json", kind: "stack export", resources: rs, unknownValues: 0 } as unknown as Side,
            stack,
            config,
            verdicts: [],
            figures: stackFigures(stack, config),
        };
    };
    const apacAt = (rttMs: number) =>
        all.map((r) =>
            r.urn.endsWith("::apac-zone")
                ? (JSON.parse(JSON.stringify(r).replace(/("name":"perfguard:rttMs","value":)"45"/g, `$1"${rttMs}"`)) as RecordedResource)
                : r,
        );

    it("four groups' storms over the measured Site rate: each state draws the lock's response × its responseScale", async () => {
        const base = evaluated(all);
        const head = evaluated(apacAt(100));
        const panels = await diffPanels("citrix", "zone", base, head, "apac-zone");
        for (const [state, side] of [
            ["before", base],
            ["after", head],
        ] as const) {
            const db = citrixRoom(side.stack, side.config).evaluation.database;
            expect(db.capped).toBe(true);
            const series = (panels![state] as StatePanel).option.series as Array<{ name: string; data: number[][]; yAxisIndex: number }>;
            const model = series.find((x) => x.name === MODEL_SERIES_NAME && x.yAxisIndex === 0)!;
            const capped = series.find(
                (x) => x.name === siteCapSeriesName({ responseScale: db.responseScale, capPerS: db.capPerS!, uncappedPerS: db.uncappedPerS }),
            )!;
            expect(capped.yAxisIndex).toBe(0);
            expect(capped.data.map(([c, r]) => [c, r / db.responseScale])).toEqual(model.data.map(([c, r]) => [c, expect.closeTo(r, 9)]));
        }
        // Before: 31.2/s over 23.2/s, ×1.35.
        const db = citrixRoom(base.stack, base.config).evaluation.database;
        expect(siteCapSeriesName({ responseScale: db.responseScale, capPerS: db.capPerS!, uncappedPerS: db.uncappedPerS })).toBe(
            "under the Site database cap (×1.35: 31.2/s over 23.2/s)",
        );
    }, 60000);

    it("one group under the cap (baseline): no capped line", async () => {
        const c = CASES[0];
        const panels = await diffPanels("citrix", "zone", sideOf([...c.base], {}), sideOf([...c.head], {}), "emea-zone");
        const names = ((panels!.before as StatePanel).option.series as Array<{ name: string }>).map((x) => x.name);
        expect(names.some((n) => n.startsWith("under the Site database cap"))).toBe(false);
    }, 60000);
});
