/**
 * citrix-site-database-load, issue 30: only a Site rate measured on this Site gates
 * (measuredSiteBrokeredPerS, whose one home is this policy's config); without it the storms at
 * once and their database work are shown, never judged. A config that still sets the rate on
 * citrix-brokering-capacity keeps working (read as a fallback) and `config check` names its home.
 */
import { describe, expect, it } from "vitest";
import { citrixSiteDatabaseLoad } from "../../../policies/citrix/citrix-site-database-load";
import { citrixEvaluations } from "../../../policies/citrix/evaluation";
import { measuredSiteRate, MOVED_SETTINGS, siteRateOf } from "../../../policies/citrix/siteSetting";
import { rememberConfig } from "../../../policies/pack/policyConfigs";
import { parseMessage } from "../../../policies/pack/message";
import { ResourceView, StackView } from "../../../policies/pack/resources";
import { runStackPolicy, TestResource, urnOf } from "../../support/policyHarness";
import { siteOf, SiteSpec } from "./citrixSpec";

function viewOf(resources: TestResource[]): StackView {
    const urns = new Map(resources.map((r) => [r.name, r.urn ?? urnOf(r.type, r.name)]));
    return new StackView(resources.map((r) => new ResourceView(urns.get(r.name)!, r.type, r.name, structuredClone(r.props),
        Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urns.get(n)!)])))));
}

/** Eight Delivery Groups in one 2 ms zone, 30 concurrent each: about 163/s in all. */
const EIGHT_GROUPS: SiteSpec = {
    zones: [{ name: "hq", rtt: 2, users: 40000 }],
    groups: Array.from({ length: 8 }, (_, i) => ({ name: `g${i + 1}`, zone: "hq", peak: 30, users: 5000 })),
    controllers: [{ name: "ddc-1", zone: "hq", throttle: 120 }, { name: "ddc-2", zone: "hq", throttle: 120 }],
};

const DEFAULTS = { maxSiteConcurrentRequests: 60, satelliteAtRttMs: 90, measuredSiteBrokeredPerS: 0 };

describe("the Site's brokered/s gates only against a rate measured on this Site", () => {
    it.each([
        ["not measured (baseline): shown, not judged", 0, undefined],
        ["measured at 200/s, above the storms' sum", 200, undefined],
        ["measured at 100/s, below the storms' sum: the Site database verdict gates", 100, /^8 Delivery Groups' storms at once want 16\d\.\d brokered\/s of the one Site database, above its measured 100\/s: responses ×1\.6\d\.$/],
    ] as const)("%s", async (_name, measured, problem) => {
        const found = await runStackPolicy(citrixSiteDatabaseLoad, siteOf(EIGHT_GROUPS), { ...DEFAULTS, measuredSiteBrokeredPerS: measured });
        if (problem === undefined) {
            expect(found).toEqual([]);
            return;
        }
        expect(found).toHaveLength(1);
        const m = parseMessage(found[0].message);
        expect(m.problem).toMatch(problem);
        expect(m.basis[0]).toBe("measuredSiteBrokeredPerS 100/s, set in the policy config (measured on this Site)");
    });
});

describe("measuredSiteBrokeredPerS: one home, the old copy a fallback", () => {
    it.each([
        ["the home alone (baseline)", 100, undefined, 100],
        ["the old copy alone: read as a fallback", 0, 80, 80],
        ["both: the home wins", 100, 80, 100],
        ["neither: not measured", 0, undefined, 0],
    ] as const)("%s", (_name, home, old, expected) => {
        expect(siteRateOf(home, old)).toBe(expected);
        // `check --report` and `diff` read the pack config: one Site database evaluation with that rate.
        const config = { "citrix-site-database-load": { properties: { measuredSiteBrokeredPerS: home } }, ...(old === undefined ? {} : { "citrix-brokering-capacity": { properties: { measuredSiteBrokeredPerS: old } } }) };
        const db = citrixEvaluations(viewOf(siteOf(EIGHT_GROUPS)), config).database.database;
        expect(db.capPerS).toBe(expected === 0 ? undefined : expected);
        // In a pack run: citrix-brokering-capacity (earlier in the pack) has run on the same stack.
        const stack = viewOf(siteOf(EIGHT_GROUPS));
        if (old !== undefined) {
            rememberConfig(stack, "citrix-brokering-capacity", { measuredSiteBrokeredPerS: old });
        }
        expect(measuredSiteRate(stack, home)).toBe(expected);
    });

    it("is declared in exactly one policy's schema as its home; the old copy says it is deprecated", async () => {
        expect(MOVED_SETTINGS).toEqual([{ policy: "citrix-brokering-capacity", key: "measuredSiteBrokeredPerS", home: "citrix-site-database-load" }]);
        const { citrixBrokeringCapacity } = await import("../../../policies/citrix/citrix-brokering-capacity");
        expect(citrixSiteDatabaseLoad.configSchema?.properties.measuredSiteBrokeredPerS).toBeDefined();
        expect(String(citrixBrokeringCapacity.configSchema?.properties.measuredSiteBrokeredPerS?.description)).toMatch(/^Deprecated here: set it on citrix-site-database-load/);
    });
});
