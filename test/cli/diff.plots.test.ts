/**
 * `perfguard diff --plot`: per system, a base and a head with one change; the changed entity's
 * chart is written as one SVG holding both states (each state's series named "before: ..." and
 * "after: ...", read back from the SVG's text), and an unchanged entity gets no file.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { diffStates } from "../../cli/diff/compare";
import { SideConfig, stackFigures } from "../../cli/diff/figures";
import { writeDiffPlots } from "../../cli/diff/plots";
import type { EvaluatedSide } from "../../cli/diff/run";
import type { Side } from "../../cli/diff/sides";
import { MODEL_SERIES_NAME } from "../../cli/plots/brokeringPlot";
import { SE_BAR_SERIES } from "../../cli/plots/seCapacityPlot";
import { XEN_BAR_SERIES } from "../../cli/plots/xenSharePlot";
import { ResourceView, StackView } from "../../policies/pack/resources";
import { TestResource, urnOf } from "../support/policyHarness";
import { citrixStack } from "../policies/citrix/citrixFixtures";
import { nsxStack } from "../policies/nsx-alb/nsxFixtures";
import { dom0Service, XCP01_UUID, xenBaselineConfig, xenStack } from "../policies/xen/xenFixtures";

function viewOf(resources: TestResource[]): StackView {
    const urnByName = new Map(resources.map((r) => [r.name, r.urn ?? urnOf(r.type, r.name)]));
    return new StackView(resources.map((r) => new ResourceView(urnByName.get(r.name)!, r.type, r.name, structuredClone(r.props),
        Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urnByName.get(n) ?? n)])))));
}

/** A side as runDiff evaluates it, without the pack (the plots read the stack and the config only). */
function sideOf(resources: TestResource[], config: Record<string, Record<string, unknown>>): EvaluatedSide {
    const sideConfig = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { enforcementLevel: "advisory", properties: v }])) as unknown as SideConfig;
    const stack = viewOf(resources);
    return { side: { file: "x.json", kind: "stack export", resources: [], unknownValues: 0 } as unknown as Side, stack, config: sideConfig, verdicts: [], figures: stackFigures(stack, sideConfig) };
}

/** The texts of an SVG (legend entries, titles), unescaped. */
function texts(svg: string): string[] {
    return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#39;/g, "'"));
}

const xenConfig = { "xen-guest-network-share": xenBaselineConfig(), "xen-dom0-workload": xenBaselineConfig() };

const CASES = [
    // One Delivery Group: the chart is one lock's model, as `size citrix --plot` draws it.
    { system: "citrix", base: citrixStack(), head: citrixStack({ rttMs: "260" }), config: {}, file: "citrix-emea-zone.svg", series: MODEL_SERIES_NAME, title: "Citrix launch brokering at 160 ms RTT", headTitle: "Citrix launch brokering at 260 ms RTT" },
    { system: "nsx-alb", base: nsxStack(), head: nsxStack({ shop: { sslTps: "4000" } }), config: {}, file: "nsx-alb-web.svg", series: SE_BAR_SERIES.fits, title: "SE group web: the busiest SE", headTitle: "SE group web: the busiest SE" },
    { system: "xen", base: xenStack(), head: xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60")] }), config: xenConfig, file: `xen-${XCP01_UUID}.svg`, series: XEN_BAR_SERIES.met, title: "Xen host", headTitle: "Xen host" },
] as const;

describe("perfguard diff --plot: one SVG per changed entity, with both states", () => {
    it.each(CASES.map((c) => [c.system, c] as const))("%s", async (_system, c) => {
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
            expect(t.some((x) => x.startsWith(`Before: ${c.title}`)), t.join(" | ")).toBe(true);
            expect(t.some((x) => x.startsWith(`After: ${c.headTitle}`)), t.join(" | ")).toBe(true);
            // The same state on both sides: nothing changed, nothing drawn.
            expect(await writeDiffPlots(dir, base, sideOf([...c.base], c.config), diffStates(base, sideOf([...c.base], c.config)))).toEqual([]);
        } finally {
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }, 60000);

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
