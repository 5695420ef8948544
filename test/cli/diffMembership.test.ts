/**
 * `perfguard diff` on a zone whose Delivery Groups (or whose peak's or users' declarer) change:
 * the zone is changed, with the membership before → after (names sorted), even where every figure
 * rounds the same. A compliant base, one change per case; figures from the command's adapter.
 */
import { describe, expect, it } from "vitest";
import { diffStates, DiffResult } from "../../cli/diff/compare";
import { stackFigures } from "../../cli/diff/figures";
import { DiffReport, renderMarkdown, renderText, summaryLine } from "../../cli/diff/render";
import { ResourceView, StackView } from "../../policies/pack/resources";
import { TestResource, urnOf } from "../support/policyHarness";
import { changed, siteOf, SiteSpec } from "../policies/citrix/citrixSpec";

function viewOf(resources: TestResource[]): StackView {
    const urns = new Map(resources.map((r) => [r.name, r.urn ?? urnOf(r.type, r.name)]));
    return new StackView(
        resources.map(
            (r) =>
                new ResourceView(
                    urns.get(r.name)!,
                    r.type,
                    r.name,
                    structuredClone(r.props),
                    Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urns.get(n)!)])),
                ),
        ),
    );
}

function diff(base: SiteSpec, head: SiteSpec): DiffResult {
    return diffStates({ figures: stackFigures(viewOf(siteOf(base)), {}), verdicts: [] }, { figures: stackFigures(viewOf(siteOf(head)), {}), verdicts: [] });
}

/** "kind:id: label before → after" per membership change (the groups' figures follow from their load, asserted elsewhere). */
function changes(r: DiffResult): string[] {
    return r.entities
        .filter((e) => e.status === "changed")
        .flatMap((e) => e.members.map((m) => `${e.kind}:${e.id}: ${m.label} ${m.before?.join(", ") || "none"} → ${m.after?.join(", ") || "none"}`));
}

/** Zone a (10 ms) with g1; zone b (160 ms, peak 20 and 1000 users on the zone) with g2; throttles 12 + 12 in b. */
const BASE: SiteSpec = {
    zones: [
        { name: "a", rtt: 10, peak: 10, users: 500 },
        { name: "b", rtt: 160, peak: 20, users: 1000 },
    ],
    groups: [
        { name: "g1", zone: "a" },
        { name: "g2", zone: "b" },
    ],
    controllers: [
        { name: "d1", zone: "a", throttle: 10 },
        { name: "d2", zone: "b", throttle: 12 },
        { name: "d3", zone: "b", throttle: 12 },
    ],
};

describe("perfguard diff: a zone's membership is part of what changed", () => {
    it.each([
        ["no change (baseline)", BASE, []],
        // Zone b is then its own lock at the same peak, throttles and RTT: every zone figure rounds the same.
        [
            "g2 removed: zone b keeps its figures but lost its Delivery Group",
            changed(BASE, (s) => {
                s.groups = s.groups.filter((g) => g.name !== "g2");
            }),
            ['zone:b-zone: Delivery Groups Delivery Group "g2-group" → none', "+ zoneLock:b-zone", "- deliveryGroup:g2-group"],
        ],
        [
            "g2 moved to zone a: both zones change, and the group's zones",
            changed(BASE, (s) => {
                s.groups[1].zone = "a";
            }),
            [
                'zone:a-zone: Delivery Groups Delivery Group "g1-group" → Delivery Group "g1-group", Delivery Group "g2-group"',
                'zone:b-zone: Delivery Groups Delivery Group "g2-group" → none',
                'deliveryGroup:g2-group: zones zone "b-zone" → zone "a-zone"',
                "+ zoneLock:b-zone",
            ],
        ],
        // The same 20 declared on g2 instead of the zone: the figures are the same, who declares them is not.
        [
            "zone b's peak declared on g2 instead",
            changed(BASE, (s) => {
                delete s.zones[1].peak;
                s.groups[1].peak = 20;
            }),
            ['zone:b-zone: peak declared by zone "b-zone" → Delivery Group "g2-group"'],
        ],
        [
            "zone b's users declared on g2 instead",
            changed(BASE, (s) => {
                delete s.zones[1].users;
                s.groups[1].users = 1000;
            }),
            ['zone:b-zone: users declared by zone "b-zone" → Delivery Group "g2-group"'],
        ],
    ] as const)("%s", (_name, head, expected) => {
        const r = diff(BASE, head);
        const added = r.entities
            .filter((e) => e.status === "added" || e.status === "removed")
            .map((e) => `${e.status === "added" ? "+" : "-"} ${e.kind}:${e.id}`);
        const zoneOf = (id: string) => r.entities.find((e) => e.kind === "zone" && e.id === id);
        // The zones' figures round the same in every case: only the membership says what changed.
        expect(r.entities.filter((e) => e.kind === "zone").flatMap((e) => e.figures)).toEqual([]);
        expect([...changes(r), ...added].sort()).toEqual([...expected].sort());
        expect(zoneOf("b-zone")?.status).toBe(expected.some((x) => x.startsWith("zone:b-zone")) ? "changed" : "unchanged");
    });

    it("text and Markdown show the membership before → after with the names that left and joined; the summary counts it", () => {
        const r = diff(
            BASE,
            changed(BASE, (s) => {
                s.groups[1].zone = "a";
            }),
        );
        const report: DiffReport = {
            base: { file: "base.json", kind: "export", resources: 9, unknownValues: 0 },
            head: { file: "head.json", kind: "export", resources: 9, unknownValues: 0 },
            result: r,
            exitCode: 0,
            failOn: "new-mandatory",
            plots: [],
        };
        expect(summaryLine(r)).toContain(", 3 memberships changed;");
        const text = renderText(report);
        expect(text).toContain('  ~ zone "b-zone" (name "b")\n      Delivery Groups: Delivery Group "g2-group" → none (−Delivery Group "g2-group")\n');
        expect(text).toContain(
            '      Delivery Groups: Delivery Group "g1-group" → Delivery Group "g1-group", Delivery Group "g2-group" (+Delivery Group "g2-group")\n',
        );
        expect(renderMarkdown(report)).toContain(
            '| zone "b-zone" (name "b") | Delivery Groups | Delivery Group "g2-group" | none | −Delivery Group "g2-group" |',
        );
    });
});
