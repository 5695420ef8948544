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
import { runStackPolicy, TestResource, UNKNOWN_VALUE, urnOf } from "../../support/policyHarness";
import { onProvider, ProviderProps } from "./citrixSites";
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

describe("issue 32: each Site's database on its own (a Site is its provider's endpoint)", () => {
    /** Four Delivery Groups in one 2 ms zone, 30 concurrent each: about 80/s, within 100/s alone. */
    const half = (prefix: string): SiteSpec => ({
        zones: [{ name: `${prefix}hq`, rtt: 2, users: 20000 }],
        groups: Array.from({ length: 4 }, (_, i) => ({ name: `${prefix}g${i + 1}`, zone: `${prefix}hq`, peak: 30, users: 5000 })),
        controllers: [{ name: `${prefix}ddc-1`, zone: `${prefix}hq`, throttle: 120 }, { name: `${prefix}ddc-2`, zone: `${prefix}hq`, throttle: 120 }],
    });
    const two = (a: ProviderProps | undefined, b: ProviderProps | undefined) => [...onProvider(half("a"), "site-a", a), ...onProvider(half("b"), "site-b", b)];
    it.each([
        ["two Sites by hostname (baseline): no summed database figure", two({ hostname: "ddc.emea.example.com" }, { hostname: "ddc.apac.example.com" }), undefined],
        ["one Site (no endpoint declared): 8 storms summed against the measured 100/s", two(undefined, undefined), /^8 Delivery Groups' storms at once want 16\d\.\d brokered\/s of the one Site database, above its measured 100\/s/],
        ["two providers with unknown endpoints: not checked, naming why", two({ hostname: UNKNOWN_VALUE }, { customerId: UNKNOWN_VALUE }), /8 Delivery Groups' storms at once want 16\d\.\d brokered\/s against the measured 100\/s: the Citrix Sites cannot be told apart: the endpoint of providers "site-a", "site-b" is unknown in this preview/],
    ] as const)("%s", async (_name, resources, problem) => {
        const found = await runStackPolicy(citrixSiteDatabaseLoad, [...resources], { ...DEFAULTS, measuredSiteBrokeredPerS: 100 });
        expect(found).toHaveLength(problem === undefined ? 0 : 1);
        if (problem !== undefined) {
            const message = found[0].message;
            expect(message.includes("not checked, for") ? message : parseMessage(message).problem).toMatch(problem);
        }
    });

    it("each Site's figures are its own: 4 storms on each Site's database", () => {
        const resources = two({ hostname: "ddc.emea.example.com" }, { hostname: "ddc.apac.example.com" });
        const stack = viewOf(resources);
        stack.resources.forEach((view, i) => {
            const p = resources[i].provider;
            view.provider = p ? { urn: p.urn, props: p.props } : undefined;
        });
        const e = citrixEvaluations(stack, {}).database;
        expect(e.sitesUnclear).toBeUndefined();
        expect(e.sites.map((s) => [s.name, s.database.storms, s.zones.map((z) => z.zone.resource.name)])).toEqual([["site-a", 4, ["ahq-zone"]], ["site-b", 4, ["bhq-zone"]]]);
    });
});
