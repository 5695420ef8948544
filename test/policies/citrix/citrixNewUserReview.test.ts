/**
 * Findings of the new-user and Citrix-expert reviews (2026-12-02, second round): each a compliant
 * baseline and one change per case, asserting the values the verdicts, figures and report print.
 */
import { describe, expect, it } from "vitest";
import { citrixBrokeringCapacity } from "../../../policies/citrix/citrix-brokering-capacity";
import { citrixSiteDatabaseLoad } from "../../../policies/citrix/citrix-site-database-load";
import { citrixEvaluation, stormsText } from "../../../policies/citrix/evaluation";
import { citrixSection } from "../../../cli/report/citrix";
import { ResourceView, StackView } from "../../../policies/pack/resources";
import { parseMessage } from "../../../policies/pack/message";
import { runPolicies, runStackPolicy, TestResource, urnOf } from "../../support/policyHarness";
import { changed, siteOf, SiteSpec } from "./citrixSpec";

function viewOf(resources: TestResource[]): StackView {
    const urns = new Map(resources.map((r) => [r.name, r.urn ?? urnOf(r.type, r.name)]));
    return new StackView(resources.map((r) => new ResourceView(urns.get(r.name)!, r.type, r.name, structuredClone(r.props),
        Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urns.get(n)!)])))));
}

/** Three 10 ms groups in zone a and one 45 ms group in zone b storming at once: 61.4/s wanted of 23.2/s. */
const FOUR_GROUPS: SiteSpec = {
    zones: [{ name: "a", rtt: 10, peak: 60, users: 20000 }, { name: "b", rtt: 45, peak: 40, users: 9000 }],
    groups: [{ name: "g1", zone: "a" }, { name: "g2", zone: "a" }, { name: "g3", zone: "a" }, { name: "gb", zone: "b" }],
    controllers: [{ name: "d1", zone: "a", throttle: 60 }, { name: "d2", zone: "b", throttle: 40 }],
};

describe("1. the Site database's storms count Delivery Groups and zones (a zone's own lock) apart", () => {
    it.each([
        [{ stormGroups: 1, stormZones: 0 }, "1 Delivery Group's storm"],
        [{ stormGroups: 3, stormZones: 0 }, "3 Delivery Groups' storms"],
        [{ stormGroups: 0, stormZones: 1 }, "1 zone's storm"],
        [{ stormGroups: 0, stormZones: 2 }, "2 zones' storms"],
        [{ stormGroups: 3, stormZones: 1 }, "3 Delivery Groups' and 1 zone's storms"],
        [{ stormGroups: 1, stormZones: 2 }, "1 Delivery Group's and 2 zones' storms"],
    ] as const)("%o reads %s", (counts, text) => {
        expect(stormsText(counts)).toBe(text);
    });

    it.each([
        ["four Delivery Groups (baseline)", FOUR_GROUPS, "4 Delivery Groups' storms"],
        ["zone b without its group: judged as its own lock", changed(FOUR_GROUPS, (s) => { s.groups = s.groups.filter((g) => g.zone !== "b"); }), "3 Delivery Groups' and 1 zone's storms"],
    ] as const)("%s", async (_name, spec, storms) => {
        const resources = siteOf(spec);
        const e = citrixEvaluation(viewOf(resources));
        expect(e.database.storms).toBe(4);
        expect(e.database.notMeasured).toEqual([`${storms} at once, 61.4 brokered/s in all: not measured (one Delivery Group was tested)`]);
        const db = await runStackPolicy(citrixSiteDatabaseLoad, resources, { maxSiteConcurrentRequests: 60, satelliteAtRttMs: 90, measuredSiteBrokeredPerS: 0 });
        expect(db.map((v) => parseMessage(v.message).problem)).toEqual([`${storms} at once want 61.4 brokered/s of the one Site database, above its 23.2/s: responses ×2.65.`]);
        // Zone b's lock misses only through the Site database's cap: its fix and basis count the same way.
        const cap = (await runPolicies([citrixBrokeringCapacity], resources)).filter((v) => v.urn?.endsWith(spec.groups.length === 4 ? "::gb-group" : "::b-zone"));
        expect(cap).toHaveLength(1);
        const m = parseMessage(cap[0].message);
        expect(m.fix).toContain(`(${storms} want 61.4/s at once, above 23.2/s)`);
        expect(m.basis).toContain(`Site database: ${storms} want 61.4/s, capped at 23.2/s, response ×2.65: not measured (one Delivery Group was tested)`);
        expect(citrixSection(viewOf(resources), {})).toContain(`\n- ${storms} at once: not measured (one Delivery Group was tested)\n`);
    });
});
