/**
 * `perfguard diff` and the one Site database: when one group's storm goes (or comes), every other
 * capped group's mean response, launch time and brokered/s move, because the Site database's cap
 * is shared (policies/citrix/evaluation.ts: each capped lock's response × responseScale, its
 * throughput ÷ it). That is right arithmetic; the diff marks each figure that moves only through
 * the shared cap ("Site database share") and counts them apart from worse and better. On
 * examples/citrix-satellite-zones: four groups' 31.2/s capped at the Site's 23.2/s (scale 1.35);
 * without the primary zone (its 15.16/s storm) the others' 16.0/s are under the cap (scale 1).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { diffStates, DiffResult } from "../../cli/diff/compare";
import { stackFigures } from "../../cli/diff/figures";
import { renderMarkdown, renderText } from "../../cli/diff/render";
import { siteResponseScale } from "../../cli/diff/run";
import { stackViewOf } from "../../cli/report";
import { readStackExport } from "../../cli/stackExport";
import type { RecordedResource } from "../../preview/types";
import { examplePreview } from "../support/examplePreviews";

let all: RecordedResource[];
beforeAll(async () => {
    all = readStackExport((await examplePreview("citrix-satellite-zones")).record).resources;
});

const withoutPrimary = (rs: RecordedResource[]) => rs.filter((r) => !/::(ddc-)?primary-[^:]*$/.test(r.urn));
/** The apac zone at another RTT (its perfguard:rttMs fact, in inputs and outputs). */
const apacAt = (rttMs: number) => (rs: RecordedResource[]) => rs.map((r) => r.urn.endsWith("::apac-zone")
    ? JSON.parse(JSON.stringify(r).replace(/("name":"perfguard:rttMs","value":)"45"/g, `$1"${rttMs}"`)) as RecordedResource : r);

function side(rs: RecordedResource[]) {
    const stack = stackViewOf(rs);
    return { stack, config: {}, figures: stackFigures(stack, {}), verdicts: [] };
}

function diffOf(head: RecordedResource[]): { r: DiffResult; scales: { base: number; head: number } } {
    const b = side(all);
    const h = side(head);
    const scales = { base: siteResponseScale(b), head: siteResponseScale(h) };
    return { r: diffStates(b, h, scales), scales };
}

/** "group key: before → after (direction[, cause])" for the changed figures of the Delivery Groups. */
function groupFigures(r: DiffResult): string[] {
    return r.entities.filter((e) => e.kind === "deliveryGroup" && e.status === "changed")
        .flatMap((e) => e.figures.map((f) => `${e.id} ${f.key}: ${f.before?.text} → ${f.after?.text} (${f.direction}${f.cause ? `, ${f.cause}` : ""})`));
}

describe("figures moved by the shared Site database", () => {
    it.each([
        ["the same stack (baseline): nothing moves", (rs: RecordedResource[]) => rs, [1.346, 1.346], [], { worse: 0, better: 0, siteShare: 0 }],
        ["without the primary zone: the other three groups' response, launch time and brokered/s move by the cap alone",
            withoutPrimary, [1.346, 1], [
                "apac-delivery-group meanResponseS: 5.5 s → 4.1 s (better, site-database-share)",
                "apac-delivery-group brokeredPerS: 5.49 → 7.38 (better, site-database-share)",
                "apac-delivery-group launchTimeS: 12 min → 9 min (better, site-database-share)",
                "emea-east-delivery-group meanResponseS: 25.4 s → 18.9 s (better, site-database-share)",
                "emea-east-delivery-group brokeredPerS: 1.58 → 2.12 (better, site-database-share)",
                "emea-east-delivery-group launchTimeS: 64 min → 47 min (better, site-database-share)",
                "latam-delivery-group meanResponseS: 8.2 s → 6.1 s (better, site-database-share)",
                "latam-delivery-group brokeredPerS: 0.97 → 1.31 (better, site-database-share)",
                "latam-delivery-group launchTimeS: 26 min → 19 min (better, site-database-share)",
            // The Site's own brokered/s over all groups falls: a figure of its own, not a share.
            ], { worse: 1, better: 0, siteShare: 9 }],
    ] as const)("%s", (_label, head, scales, figures, counts) => {
        const { r, scales: got } = diffOf(head(all));
        expect([got.base, got.head].map((s) => Number(s.toFixed(3)))).toEqual(scales);
        expect(groupFigures(r)).toEqual(figures);
        expect(r.counts).toMatchObject(counts);
        // Each marked figure is its own uncapped value times the scale: mean response ÷ 1.346.
        for (const e of r.entities.filter((x) => x.kind === "deliveryGroup" && x.status === "changed")) {
            const mean = e.figures.find((f) => f.key === "meanResponseS")!;
            expect((mean.before!.value as number) / got.base).toBeCloseTo((mean.after!.value as number) / got.head, 9);
        }
    });

    it("a group whose own figure changes too is not marked: apac at 100 ms without the primary zone", () => {
        const { r } = diffOf(apacAt(100)(withoutPrimary(all)));
        const apac = r.entities.find((e) => e.id === "apac-delivery-group")!;
        expect(apac.figures.find((f) => f.key === "meanResponseS")).toMatchObject({ direction: "worse" });
        expect(apac.figures.some((f) => f.cause !== undefined)).toBe(false);
        const emea = r.entities.find((e) => e.id === "emea-east-delivery-group")!;
        expect(emea.figures.map((f) => `${f.key} ${f.cause ?? "-"}`)).toEqual(["meanResponseS site-database-share", "brokeredPerS site-database-share", "launchTimeS site-database-share"]);
    });

    it("the outputs: each marked row says Site database share, the summary counts them apart", () => {
        const { r } = diffOf(withoutPrimary(all));
        const side0 = { file: "base.json", kind: "stack export", resources: 27, unknownValues: 0 };
        const report = { base: side0, head: { ...side0, file: "head.json", resources: 20 }, result: r, exitCode: 0, failOn: "new-mandatory", plots: [] };
        const text = renderText(report);
        expect(text).toContain("perfguard diff: 1 figure worse, 0 better, 9 figures moved only by the shared Site database; entities 2 removed\n");
        expect(text).toContain("      mean response (worst zone): 25.4 s → 18.9 s (−6.52 s, better, Site database share)\n");
        const md = renderMarkdown(report);
        expect(md).toContain("| Delivery Group \"emea-east-delivery-group\" (name \"emea-east-desktops\") | launch time | 64 min | 47 min | −16.3 min 🟢 better (Site database share) |");
        // Worse only for the Site's own figure: the icon is the warning one.
        expect(md).toContain("## perfguard diff: ⚠️ 1 figure worse, 0 better, 9 figures moved only by the shared Site database");
    });
});
