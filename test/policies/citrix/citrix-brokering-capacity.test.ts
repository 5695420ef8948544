/**
 * citrix-brokering-capacity, issue 30: each Delivery Group's lock is judged on its own with the
 * calibrated single-lock model. The source's 23.2/s plateau is one lock's saturation, not a Site
 * database ceiling: designs whose every lock meets its targets exit clean, with no Site
 * multiplier and no throttle fix; the Site's shared database work is shown, never judged.
 * A compliant baseline per design, one change per case.
 */
import { describe, expect, it } from "vitest";
import { citrixBrokerThrottle } from "../../../policies/citrix/citrix-broker-throttle";
import { citrixBrokeringCapacity } from "../../../policies/citrix/citrix-brokering-capacity";
import { citrixSiteDatabaseLoad } from "../../../policies/citrix/citrix-site-database-load";
import { citrixSiteLimits } from "../../../policies/citrix/citrix-site-limits";
import { citrixZoneRttLimit } from "../../../policies/citrix/citrix-zone-rtt-limit";
import { citrixZoneRttWarning } from "../../../policies/citrix/citrix-zone-rtt-warning";
import { citrixEvaluation, SITE_WORK_NOT_MEASURED } from "../../../policies/citrix/evaluation";
import { citrixSection } from "../../../cli/report/citrix";
import { parseMessage } from "../../../policies/pack/message";
import { ResourceView, StackView } from "../../../policies/pack/resources";
import { runPolicies, TestResource, urnOf, verdicts, Violation } from "../../support/policyHarness";
import { changed, siteOf, SiteSpec } from "./citrixSpec";

const ALL = [citrixZoneRttLimit, citrixZoneRttWarning, citrixBrokerThrottle, citrixBrokeringCapacity, citrixSiteLimits, citrixSiteDatabaseLoad];

function viewOf(resources: TestResource[]): StackView {
    const urns = new Map(resources.map((r) => [r.name, r.urn ?? urnOf(r.type, r.name)]));
    return new StackView(resources.map((r) => new ResourceView(urns.get(r.name)!, r.type, r.name, structuredClone(r.props),
        Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urns.get(n)!)])))));
}

/** No verdict multiplies a response by the Site's sum, or throttles a zone or splits the Site for it. */
function noSiteCapWording(found: readonly Violation[]): void {
    for (const v of found) {
        expect(v.message).not.toMatch(/×\d|capped at|Site database's cap|split the Site|stagger the storms/);
    }
}

/**
 * Four zones at 2 / 45 / 90 / 160 ms, one Delivery Group each, each within the source's safe
 * concurrency (2 ms: 60 of 244; 45 ms: 30 of 88; 90 ms: 30 of 44; 160 ms: 24, the source's advice),
 * the satellites' throttles adding up to 54 (within the 60 measured against one database).
 * Their locks' own rates add up to about 31/s, above the one-group plateau of 23.2/s.
 */
const FOUR_ZONES: SiteSpec = {
    zones: [
        { name: "primary", rtt: 2, peak: 60, users: 20000 },
        { name: "apac", rtt: 45, peak: 30, users: 4000 },
        { name: "emea", rtt: 90, peak: 30, users: 3000 },
        { name: "americas", rtt: 160, peak: 24, users: 2000 },
    ],
    groups: [{ name: "pg", zone: "primary" }, { name: "ag", zone: "apac" }, { name: "eg", zone: "emea" }, { name: "mg", zone: "americas" }],
    controllers: [
        { name: "ddc-p1", zone: "primary" }, { name: "ddc-p2", zone: "primary" },
        { name: "ddc-a1", zone: "apac" }, { name: "ddc-a2", zone: "apac" },
        { name: "ddc-e1", zone: "emea", throttle: 15 }, { name: "ddc-e2", zone: "emea", throttle: 15 },
        { name: "ddc-m1", zone: "americas", throttle: 12 }, { name: "ddc-m2", zone: "americas", throttle: 12 },
    ],
};

/** Eight Delivery Groups in one 2 ms zone, 30 concurrent each (eight locks, each about 1.5 s in the source's 10 ms row). */
const EIGHT_GROUPS: SiteSpec = {
    zones: [{ name: "hq", rtt: 2, users: 40000 }],
    groups: Array.from({ length: 8 }, (_, i) => ({ name: `g${i + 1}`, zone: "hq", peak: 30, users: 5000 })),
    controllers: [{ name: "ddc-1", zone: "hq", throttle: 120 }, { name: "ddc-2", zone: "hq", throttle: 120 }],
};

describe("a four-zone design within each zone's safe concurrency (issue 30)", () => {
    it.each([
        ["as designed (baseline)", FOUR_ZONES],
        ["the primary zone's storm doubled to 40,000 users: still its own lock's rate", changed(FOUR_ZONES, (s) => { s.zones[0].users = 40000; })],
    ] as const)("%s: exits clean, no Site multiplier, no throttle fix", async (_name, spec) => {
        const found = await runPolicies(ALL, siteOf(spec));
        expect(verdicts(found)).toEqual([]);
        const e = citrixEvaluation(viewOf(siteOf(spec)));
        expect(e.database.capped).toBe(false);
        expect(e.database.responseScale).toBe(1);
        // The locks' own rates added up are above the one-group plateau, and no figure is cut to it.
        expect(e.database.brokeredPerS).toBeGreaterThan(23.2);
        expect(e.database.brokeredPerS).toBeCloseTo(e.groups.reduce((sum, g) => sum + (g.brokeredPerS ?? 0), 0), 9);
    });

    it("a zone over its lock's safe concurrency is judged on its own lock (the one change)", async () => {
        // 160 ms at a peak of 40 with throttles of 20 each: the lock's own 40, above the 24 it sustains.
        const spec = changed(FOUR_ZONES, (s) => { s.zones[3].peak = 40; s.controllers.filter((c) => c.zone === "americas").forEach((c) => { c.throttle = 20; }); });
        const found = (await runPolicies([citrixBrokeringCapacity], siteOf(spec)));
        expect(verdicts(found)).toEqual(["citrix-brokering-capacity -> mg-group"]);
        noSiteCapWording(found);
        const m = parseMessage(found[0].message);
        expect(m.problem).toMatch(/^Delivery Group "mg-group" \(name "mg"\): at 40 concurrent launches, mean [\d.]+ s > 12 s/);
        // The Site's shared database work is in the Basis of a verdict raised for another reason.
        expect(m.basis.some((b) => b.startsWith("Site database: 4 Delivery Groups' storms at once, ") && b.endsWith(`: ${SITE_WORK_NOT_MEASURED}`))).toBe(true);
    });
});

describe("eight Delivery Groups at 2 ms, 30 concurrent each (issue 30)", () => {
    it.each([
        ["eight groups (baseline)", EIGHT_GROUPS, 8],
        ["one group (the source's case)", changed(EIGHT_GROUPS, (s) => { s.groups = s.groups.slice(0, 1); }), 1],
    ] as const)("%s: no Site-cap verdict, the sum is the locks' own rates", async (_name, spec, groups) => {
        const found = await runPolicies(ALL, siteOf(spec));
        expect(verdicts(found)).toEqual([]);
        const e = citrixEvaluation(viewOf(siteOf(spec)));
        const own = e.groups.map((g) => g.judged!.worstMeanResponseS);
        // Each lock at 30 concurrent, 2 ms: about 1.5 s, whatever the other seven do.
        expect(own).toHaveLength(groups);
        for (const r of own) {
            expect(r).toBeCloseTo(own[0], 9);
            expect(r).toBeGreaterThan(1.2);
            expect(r).toBeLessThan(1.8);
        }
        expect(e.database.capped).toBe(false);
        if (groups === 8) {
            // The 163/s: eight locks at their own rates (about 20/s each).
            expect(e.database.brokeredPerS).toBeGreaterThan(150);
            const report = citrixSection(viewOf(siteOf(spec)), {});
            expect(report).toMatch(/\n- database work: [\d.]+ s per s \([\d.]+ ms each\): not measured beyond one Delivery Group: measure the Site database under a storm\n/);
            expect(report).toContain("- measured Site rate: none (measuredSiteBrokeredPerS of citrix-site-database-load): nothing gates on the Site's sum\n");
        }
    });
});

describe("Site limits keep their verdicts without cap advisories (issue 30)", () => {
    // Five 10 ms zones, one group each, storms of 40 concurrent: each lock about 20/s, about 100/s in all.
    const LHC: SiteSpec = {
        zones: ["a", "b", "c", "d", "e"].map((name) => ({ name, rtt: 10, peak: 40, users: 20000 })),
        groups: ["a", "b", "c", "d", "e"].map((zone) => ({ name: `g${zone}`, zone, machines: 8000 })),
        controllers: [],
    };
    it.each([
        ["40,000 VDAs in five zones of 8,000 (baseline)", LHC, []],
        ["12,000 VDAs in zone a, 44,000 in the Site", changed(LHC, (s) => { s.groups[0].machines = 12000; }), ["citrix-site-limits -> (stack)", "citrix-site-limits -> a-zone"]],
    ] as const)("%s", async (_name, spec, expected) => {
        const found = await runPolicies(ALL, siteOf(spec));
        expect(verdicts(found)).toEqual(expected);
        noSiteCapWording(found);
    });

    // 51 zones at 10 ms, each its own lock (no Delivery Group) at 10 concurrent: about 127/s in all.
    const zones = (n: number): SiteSpec => ({ zones: Array.from({ length: n }, (_, i) => ({ name: `z${String(i + 1).padStart(2, "0")}`, rtt: 10, peak: 10, users: 1000 })), groups: [], controllers: [] });
    it.each([
        ["50 zones (baseline)", zones(50), []],
        ["51 zones: the zone-count verdict alone", zones(51), ["citrix-site-limits -> (stack)"]],
    ] as const)("%s", async (_name, spec, expected) => {
        const found = await runPolicies(ALL, siteOf(spec));
        expect(verdicts(found)).toEqual(expected);
        noSiteCapWording(found);
    });
});
