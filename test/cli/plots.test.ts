/**
 * The `--plot` SVG renderers (cli/plots): realistic charts are well-formed SVG with the expected
 * labels and series, rasterise to PNG (for a person to look at), and importing the modules does
 * not load the optional charting library (ECharts).
 *
 * PNGs (and their SVGs) are written to $PERFGUARD_PLOTS_DIR, default <tmpdir>/perfguard-plots/,
 * overwritten on every run: brokering-160ms.png, brokering-250ms.png, se-capacity-2vcpu.png.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { Resvg } from "@resvg/resvg-js";
import {
    brokeringPlotOption,
    brokeringPlotSvg,
    measuredSeriesName,
    MODEL_SERIES_NAME,
    zoneSeriesName,
    type BrokeringPlotInput,
} from "../../cli/plots/brokeringPlot";
import { citrixPlotSvg, sizeCitrix } from "../../cli/sizeCitrix";
import { COLORS } from "../../cli/plots/render";
import { SE_BAR_SERIES, seCapacityPlotHeight, seCapacityPlotSvg, type SeCapacityPlotInput } from "../../cli/plots/seCapacityPlot";
import { maxSafeConcurrency, measuredAt, predictBrokering, seCapacity } from "../../model";

const REPO = path.resolve(__dirname, "..", "..");
const OUT_DIR = process.env.PERFGUARD_PLOTS_DIR ?? path.join(os.tmpdir(), "perfguard-plots");
const TARGET_RESPONSE_S = 12;
const ERROR_BUDGET = 0.001;

/** What `size citrix --plot` draws: the model at 1..60 requests, the source's cells at that RTT. */
function brokeringInput(rttMs: number): BrokeringPlotInput {
    const rows = [];
    for (let concurrency = 1; concurrency <= 60; concurrency++) {
        const p = predictBrokering({ rttMs, concurrency });
        rows.push({ concurrency, meanResponseS: p.meanResponseS, errorRate: p.errorRate });
    }
    const measured = measuredAt(rttMs).map((c) => ({ concurrency: c.concurrentRequests, meanResponseS: c.meanResponseS, errorPct: c.errorPct }));
    const safeConcurrency = maxSafeConcurrency({ rttMs, targetResponseS: TARGET_RESPONSE_S, errorBudget: ERROR_BUDGET });
    return { rttMs, targetResponseS: TARGET_RESPONSE_S, errorBudget: ERROR_BUDGET, rows, measured, safeConcurrency };
}

/** What `size nsx-alb --plot` draws for one 2 vCPU SE against 4000 RSA TPS and 60000 RPS. */
function seInput(): SeCapacityPlotInput {
    const cap = seCapacity({ vcpus: 2 });
    return {
        title: "SE group sg-web: 1 SE of 2 vCPUs (NSX ALB 20.1.6 per-SE table, 2 vCPU row)",
        headroomPct: 20,
        metrics: [
            { name: "SSL TPS (RSA-2048)", unit: "TPS", demand: 4000, capacity: cap.sslTpsRsa },
            { name: "L7 RPS", unit: "RPS", demand: 60000, capacity: cap.l7Rps },
            { name: "L7 SSL throughput", unit: "Gbps", demand: 1.5, capacity: cap.l7SslThroughputGbps },
            { name: "Open connections", unit: "connections", demand: 70000, capacity: cap.l4OpenConnections },
        ],
    };
}

/**
 * Minimal XML well-formedness check (no XML parser among the dependencies; resvg, below, parses
 * strictly as well): one root <svg>, balanced and properly nested tags, quoted attributes, no
 * raw "<" or bare "&" in text or attribute values.
 */
function expectWellFormedSvg(svg: string): void {
    // Comments and CDATA sections (ECharts puts its hover CSS in one) carry no markup.
    const body = svg
        .replace(/<!--[\s\S]*?-->/g, "")
        .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, "")
        .trim();
    expect(body.startsWith("<svg")).toBe(true);
    expect(body.endsWith("</svg>")).toBe(true);
    const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/y;
    const stack: string[] = [];
    let roots = 0;
    let i = 0;
    while (i < body.length) {
        const lt = body.indexOf("<", i);
        const text = body.slice(i, lt < 0 ? body.length : lt);
        expect(text.replace(/&(?:[a-zA-Z]+|#\d+|#x[0-9a-fA-F]+);/g, "")).not.toMatch(/[&>]/);
        if (lt < 0) {
            break;
        }
        tag.lastIndex = lt;
        const m = tag.exec(body);
        if (m === null) {
            throw new Error(`malformed tag at ${lt}: ${body.slice(lt, lt + 80)}`);
        }
        expect(m[3].replace(/="[^"]*"/g, "")).not.toMatch(/[&<>]/);
        const [, closing, name, , selfClosing] = m;
        if (closing === "/") {
            expect(stack.pop()).toBe(name);
        } else if (selfClosing !== "/") {
            if (stack.length === 0) {
                roots++;
            }
            stack.push(name);
        }
        i = tag.lastIndex;
    }
    expect(stack).toEqual([]);
    expect(roots).toBe(1);
}

/** Text content of every <text> element, entities decoded. */
function texts(svg: string): string[] {
    return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((m) =>
        m[1]
            .replace(/&lt;/g, "<")
            .replace(/&gt;/g, ">")
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'")
            .replace(/&amp;/g, "&"),
    );
}

/** Rasterises to PNG with resvg (system fonts; generic sans-serif mapped to DejaVu Sans when present). */
function writePng(name: string, svg: string): Buffer {
    fs.mkdirSync(OUT_DIR, { recursive: true });
    fs.writeFileSync(path.join(OUT_DIR, `${name}.svg`), svg);
    const png = new Resvg(svg, {
        background: "#ffffff",
        font: { loadSystemFonts: true, sansSerifFamily: "DejaVu Sans", defaultFontFamily: "DejaVu Sans" },
    })
        .render()
        .asPng();
    fs.writeFileSync(path.join(OUT_DIR, `${name}.png`), png);
    return png;
}

function pngSize(png: Buffer): { width: number; height: number } {
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe("brokeringPlotSvg", () => {
    it("draws the model at 160 ms with the source's five 160 ms cells, reference lines and labelled axes", async () => {
        const input = brokeringInput(160);
        expect(input.measured).toHaveLength(5);
        const svg = await brokeringPlotSvg(input);
        expectWellFormedSvg(svg);
        const labels = texts(svg);
        for (const expected of [
            "Citrix launch brokering at 160 ms RTT (Delivery Controller to Site database)",
            "mean response (s)",
            "error rate (%, log scale)",
            "concurrent brokering requests",
            "target 12 s",
            "error budget 0.1 %",
            `max safe ${input.safeConcurrency}`,
            MODEL_SERIES_NAME,
            "XenApp/XenDesktop 7.7 tests, 160 ms",
        ]) {
            expect(labels).toContain(expected);
        }
        expect(svg).toContain("font-family:sans-serif");
        // Two model lines (one per panel), two marker series of 5 diamonds each (ECharts marks chart
        // elements, as opposed to legend icons, with ecmeta_ssr_type="chart").
        const option = brokeringPlotOption(input);
        const series = option.series as Array<{ type: string; name: string; data: unknown[] }>;
        expect(series.map((s) => s.type)).toEqual(["line", "line", "scatter", "scatter"]);
        expect(series.map((s) => s.data.length)).toEqual([60, 60, 5, 5]);
        const diamonds = svg.match(new RegExp(`<path d="M0 -1L1 0L0 1L-1 0Z"[^>]*fill="${COLORS.measured}"[^>]*ecmeta_ssr_type="chart"`, "g")) ?? [];
        expect(diamonds).toHaveLength(10);
        expect(pngSize(writePng("brokering-160ms", svg))).toEqual({ width: 900, height: 680 });
    });

    it("skips unmeasured cells (250 ms, 48 and 60 requests have no response) and draws collapse at 100 % errors", async () => {
        const input = brokeringInput(250);
        const svg = await brokeringPlotSvg(input);
        expectWellFormedSvg(svg);
        const series = brokeringPlotOption(input).series as Array<{ data: number[][] }>;
        expect(series[2].data).toHaveLength(3);
        expect(series[3].data).toHaveLength(5);
        expect(Math.max(...series[1].data.map((p) => p[1]))).toBeCloseTo(100, 6);
        expect(texts(svg)).toContain(measuredSeriesName(250));
        pngSize(writePng("brokering-250ms", svg));
    });

    it("size citrix --delivery-groups 4 draws one group's lock taking the whole concurrency and, labelled, the zone spread evenly over the 4 locks", async () => {
        const base = { rttMs: 160, users: 6000, controllers: 2, targetResponseS: 12, errorBudgetPct: 0.1, from: 1, to: 120, step: 1 };
        const one = brokeringPlotOption({ ...brokeringInput(160) });
        expect((one.series as Array<{ name: string }>).map((s) => s.name)).not.toContain(zoneSeriesName(4));
        const svg = await citrixPlotSvg(sizeCitrix({ ...base, deliveryGroups: 4 }));
        expectWellFormedSvg(svg);
        const labels = texts(svg);
        expect(labels).toContain(zoneSeriesName(4));
        expect(labels).toContain(`one lock (${MODEL_SERIES_NAME})`);
        // The table and the model line are one lock taking the whole concurrency (first come,
        // first served), whatever the number of groups: the zone's spread line is the labelled extra.
        const single = sizeCitrix({ ...base, to: 25 });
        const zone = sizeCitrix({ ...base, deliveryGroups: 4, to: 25 });
        expect(zone.rows.map((r) => r.meanResponseS)).toEqual(single.rows.map((r) => r.meanResponseS));
    });

    it("has no source legend entry when the RTT was not measured", async () => {
        const svg = await brokeringPlotSvg({ ...brokeringInput(120), measured: [] });
        expectWellFormedSvg(svg);
        expect(texts(svg).some((t) => t.startsWith("XenApp/XenDesktop"))).toBe(false);
        expect(texts(svg)).toContain(MODEL_SERIES_NAME);
    });

    it("rejects empty rows and out-of-range numbers with a RangeError naming the field", async () => {
        const input = brokeringInput(160);
        await expect(brokeringPlotSvg({ ...input, rows: [] })).rejects.toThrow(RangeError);
        await expect(brokeringPlotSvg({ ...input, errorBudget: 2 })).rejects.toThrow(/errorBudget/);
        await expect(brokeringPlotSvg({ ...input, rows: [{ concurrency: 1, meanResponseS: Number.NaN, errorRate: 0 }] })).rejects.toThrow(
            /rows\[0\]\.meanResponseS/,
        );
    });
});

describe("seCapacityPlotSvg", () => {
    it("draws a 2 vCPU SE against 4000 RSA TPS / 60000 RPS as % of capacity with capacity and headroom lines", async () => {
        const input = seInput();
        const svg = await seCapacityPlotSvg(input);
        expectWellFormedSvg(svg);
        const labels = texts(svg);
        for (const expected of [
            input.title,
            "demand, % of capacity",
            "SSL TPS (RSA-2048) (TPS)",
            "L7 RPS (RPS)",
            "L7 SSL throughput (Gbps)",
            "Open connections (connections)",
            "4,000 of 1,800 TPS (222.2 %)",
            "60,000 of 80,000 RPS (75 %)",
            "70,000 of 80,000 connections (87.5 %)",
            "capacity (100 %)",
            "headroom limit (80 %)",
            SE_BAR_SERIES.fits,
            SE_BAR_SERIES.inHeadroom,
            SE_BAR_SERIES.over,
        ]) {
            expect(labels).toContain(expected);
        }
        // One bar per metric, coloured by status: 2 fit, 1 inside the headroom, 1 over capacity.
        const bars = (color: string) => (svg.match(new RegExp(`<path d="M[^"]*Z" fill="${color}"[^>]*ecmeta_ssr_type="chart"`, "g")) ?? []).length;
        expect([bars(COLORS.ok), bars(COLORS.warn), bars(COLORS.over)]).toEqual([2, 1, 1]);
        expect(pngSize(writePng("se-capacity-2vcpu", svg))).toEqual({ width: 900, height: seCapacityPlotHeight(4) });
    });

    it("escapes markup in the title and draws no headroom line without headroomPct", async () => {
        const svg = await seCapacityPlotSvg({ title: 'sg <a> & "b"', metrics: [{ name: "L4 CPS", unit: "CPS", demand: 10, capacity: 54000 }] });
        expectWellFormedSvg(svg);
        expect(texts(svg)).toContain('sg <a> & "b"');
        expect(texts(svg).some((t) => t.startsWith("headroom limit"))).toBe(false);
        // A title too long for one line wraps, and the chart grows by the extra lines.
        const long = await seCapacityPlotSvg({
            title: `SE group ${"sg-web-".repeat(20)}: 3 SEs of 6 vCPUs`,
            metrics: [{ name: "L4 CPS", unit: "CPS", demand: 10, capacity: 54000 }],
        });
        expectWellFormedSvg(long);
        expect(Number(/^<svg width="\d+" height="(\d+)"/.exec(long)?.[1])).toBeGreaterThan(seCapacityPlotHeight(1));
    });

    it("rejects an empty metric list, a zero capacity and headroomPct >= 100", async () => {
        const metric = { name: "L7 RPS", unit: "RPS", demand: 1, capacity: 1 };
        await expect(seCapacityPlotSvg({ title: "t", metrics: [] })).rejects.toThrow(RangeError);
        await expect(seCapacityPlotSvg({ title: "t", metrics: [{ ...metric, capacity: 0 }] })).rejects.toThrow(/metrics\[0\]\.capacity/);
        await expect(seCapacityPlotSvg({ title: "t", metrics: [metric], headroomPct: 100 })).rejects.toThrow(/headroomPct/);
    });
});

describe("lazy loading of the charting library", () => {
    it("importing the compiled modules loads no echarts; a call does; a missing echarts gives the install hint", () => {
        // Compile cli/plots with the build's compiler options (CommonJS), as `tsc` would emit them.
        const config = ts.readConfigFile(path.join(REPO, "tsconfig.build.json"), ts.sys.readFile);
        const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO);
        const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-plots-cjs-"));
        try {
            for (const file of fs.readdirSync(path.join(REPO, "cli", "plots")).filter((f) => f.endsWith(".ts"))) {
                const source = fs.readFileSync(path.join(REPO, "cli", "plots", file), "utf8");
                const { outputText } = ts.transpileModule(source, { compilerOptions: options, fileName: file });
                fs.writeFileSync(path.join(outDir, file.replace(/\.ts$/, ".js")), outputText);
            }
            const script = `
                const Module = require("module");
                const dir = process.argv[1];
                const loaded = () => Object.keys(require.cache).filter((k) => /[\\\\/]node_modules[\\\\/](echarts|zrender)[\\\\/]/.test(k)).length;
                const brokering = require(dir + "/brokeringPlot.js");
                const se = require(dir + "/seCapacityPlot.js");
                const out = { afterImport: loaded() };
                const resolve = Module._resolveFilename;
                Module._resolveFilename = function (request, ...rest) {
                    if (request === "echarts") {
                        const error = new Error("Cannot find module 'echarts'");
                        error.code = "MODULE_NOT_FOUND";
                        throw error;
                    }
                    return resolve.call(this, request, ...rest);
                };
                const input = { title: "t", metrics: [{ name: "L7 RPS", unit: "RPS", demand: 1, capacity: 2 }] };
                (async () => {
                    try { await se.seCapacityPlotSvg(input); out.missing = "no error"; } catch (e) { out.missing = e.message; }
                    Module._resolveFilename = resolve;
                    out.svg = (await se.seCapacityPlotSvg(input)).slice(0, 4);
                    out.brokering = (await brokering.brokeringPlotSvg({ rttMs: 10, targetResponseS: 12, errorBudget: 0.001,
                        rows: [{ concurrency: 1, meanResponseS: 0.9, errorRate: 0 }] })).slice(0, 4);
                    out.afterCall = loaded();
                    console.log(JSON.stringify(out));
                })().catch((e) => { console.error(e); process.exit(1); });`;
            const child = spawnSync(process.execPath, ["-e", script, outDir], {
                encoding: "utf8",
                env: { ...process.env, NODE_PATH: path.join(REPO, "node_modules") },
            });
            expect(child.stderr).toBe("");
            expect(child.status).toBe(0);
            const out = JSON.parse(child.stdout) as { afterImport: number; missing: string; svg: string; brokering: string; afterCall: number };
            expect(out.afterImport).toBe(0);
            expect(out.missing).toMatch(/^install the optional dependency echarts to use --plot/);
            expect(out.svg).toBe("<svg");
            expect(out.brokering).toBe("<svg");
            expect(out.afterCall).toBeGreaterThan(0);
        } finally {
            fs.rmSync(outDir, { recursive: true, force: true });
        }
    });
});

describe("xenSharePlot (size xen --plot)", () => {
    const input = {
        title: "Xen host: 111 MB/s link, 2 guests, dom0 60 MB/s",
        linkMBps: 111,
        senders: [
            { name: "dom0", predictedMBps: 55.5 },
            { name: "guest 1", predictedMBps: 27.75, needMBps: 40 },
            { name: "guest 2", predictedMBps: 27.75, needMBps: 20 },
        ],
    };
    it("draws one bar per sender, coloured by need met, with the needs and the link", async () => {
        const { xenSharePlotOption, XEN_BAR_SERIES } = await import("../../cli/plots/xenSharePlot");
        const option = xenSharePlotOption(input) as { yAxis: { data: string[] }; series: Array<{ name: string; data: unknown[] }> };
        // Listed top to bottom: ECharts' category axis starts at the bottom.
        expect(option.yAxis.data).toEqual(["guest 2", "guest 1", "dom0"]);
        const byName = (n: string) => option.series.find((s) => s.name === n)?.data;
        expect(byName(XEN_BAR_SERIES.short)).toEqual(["-", 27.75, "-"]);
        expect(byName(XEN_BAR_SERIES.met)).toEqual([27.75, "-", "-"]);
        expect(byName(XEN_BAR_SERIES.other)).toEqual(["-", "-", 55.5]);
        expect(byName("need")).toEqual([[20, 0], [40, 1], "-"]);
    });
    it("rejects an empty sender list and a negative figure", async () => {
        const { xenSharePlotSvg } = await import("../../cli/plots/xenSharePlot");
        await expect(xenSharePlotSvg({ ...input, senders: [] })).rejects.toThrow(/senders must not be empty/);
        await expect(xenSharePlotSvg({ ...input, senders: [{ name: "x", predictedMBps: -1 }] })).rejects.toThrow(/senders\[0\]\.predictedMBps/);
    });
});
