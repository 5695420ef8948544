/**
 * `perfguard diff` and the one Site database (issue 30): each Delivery Group's lock is judged on
 * its own, so when one group's storm goes (or comes) no other group's figure moves; only the Site's
 * own sums do (its brokered/s and database work). The source's one-group plateau is no Site cap,
 * so nothing is marked "Site database share" (the evaluation's responseScale stays 1). On
 * examples/citrix-satellite-zones: four groups' storms, and the same without the primary zone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { diffStates, DiffResult } from "../../cli/diff/compare";
import { stackFigures } from "../../cli/diff/figures";
import { sideScales } from "../../cli/diff/run";
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
const apacAt = (rttMs: number) => (rs: RecordedResource[]) =>
    rs.map((r) =>
        r.urn.endsWith("::apac-zone")
            ? (JSON.parse(JSON.stringify(r).replace(/("name":"perfguard:rttMs","value":)"45"/g, `$1"${rttMs}"`)) as RecordedResource)
            : r,
    );

function side(rs: RecordedResource[]) {
    const stack = stackViewOf(rs);
    return { stack, config: {}, figures: stackFigures(stack, {}), verdicts: [] };
}

function diffOf(head: RecordedResource[]): { r: DiffResult; scales: { base: number; head: number } } {
    const b = side(all);
    const h = side(head);
    const perSystem = sideScales(b, h);
    return { r: diffStates(b, h, perSystem), scales: perSystem.citrix };
}

/** "group key: before → after (direction[, cause])" for the changed figures of the Delivery Groups. */
function groupFigures(r: DiffResult): string[] {
    return r.entities
        .filter((e) => e.kind === "deliveryGroup" && e.status === "changed")
        .flatMap((e) => e.figures.map((f) => `${e.id} ${f.key}: ${f.before?.text} → ${f.after?.text} (${f.direction}${f.cause ? `, ${f.cause}` : ""})`));
}

describe("figures of one group never move with another group's storm (issue 30)", () => {
    it.each([
        ["the same stack (baseline): nothing moves", (rs: RecordedResource[]) => rs, []],
        // Before issue 30: the other three groups' response, launch time and brokered/s moved by the cap alone.
        ["without the primary zone: the other groups' figures stay; the Site's sums fall", withoutPrimary, ["site brokeredPerS worse"]],
    ] as const)("%s", (_label, head, site) => {
        const { r, scales } = diffOf(head(all));
        expect(scales).toEqual({ base: 1, head: 1 });
        expect(groupFigures(r)).toEqual([]);
        expect(r.counts).toMatchObject({ siteShare: 0 });
        const siteEntity = r.entities.find((e) => e.kind === "site");
        expect((siteEntity?.figures ?? []).map((f) => `site ${f.key} ${f.direction}`)).toEqual(site);
    });

    it("a group whose own figure changes moves alone: apac at 100 ms without the primary zone", () => {
        const { r } = diffOf(apacAt(100)(withoutPrimary(all)));
        const apac = r.entities.find((e) => e.id === "apac-delivery-group")!;
        expect(apac.figures.find((f) => f.key === "meanResponseS")).toMatchObject({ direction: "worse" });
        expect(apac.figures.some((f) => f.cause !== undefined)).toBe(false);
        expect(r.entities.find((e) => e.id === "emea-east-delivery-group")?.status).not.toBe("changed");
    });
});
