/**
 * citrix-site-database-load, issue 30: only a Site rate measured on this Site gates
 * (measuredSiteBrokeredPerS, whose one home is this policy's config); without it the storms at
 * once and their database work are shown, never judged. A config that still sets the rate on
 * citrix-brokering-capacity keeps working (read as a fallback) and `config check` names its home.
 */
import { describe, expect, it } from "vitest";
import { citrixSiteDatabaseLoad } from "../../../policies/citrix/citrix-site-database-load";
import { citrixEvaluation, citrixRoom, MOVED_SETTINGS, ONE_GROUP_TESTED, packEvaluation, stormsText } from "../../../policies/citrix/evaluation";
import { rememberConfig } from "../../../policies/pack/policyConfigs";
import { parseMessage } from "../../../policies/pack/message";
import { ResourceView, StackView } from "../../../policies/pack/resources";
import { runPolicies, runStackPolicy, TestResource, UNKNOWN_VALUE, urnOf } from "../../support/policyHarness";
import { onProvider, ProviderProps } from "./citrixSites";
import { changed, siteOf, SiteSpec } from "./citrixSpec";
import { citrixBrokeringCapacity } from "../../../policies/citrix/citrix-brokering-capacity";
import { cappedList } from "../../../policies/pack/format";
import { citrixSection } from "../../../cli/report/citrix";
import { CROWDED, FOUR_GROUPS, on, SATELLITE, TWO_STORMS } from "./citrixCases";

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

/** Eight Delivery Groups in one 2 ms zone, 30 concurrent each: about 163/s in all. */
const EIGHT_GROUPS: SiteSpec = {
    zones: [{ name: "hq", rtt: 2, users: 40000 }],
    groups: Array.from({ length: 8 }, (_, i) => ({ name: `g${i + 1}`, zone: "hq", peak: 30, users: 5000 })),
    controllers: [
        { name: "ddc-1", zone: "hq", throttle: 120 },
        { name: "ddc-2", zone: "hq", throttle: 120 },
    ],
};

const DEFAULTS = { maxSiteConcurrentRequests: 60, satelliteAtRttMs: 90, measuredSiteBrokeredPerS: 0 };

describe("the Site's brokered/s gates only against a rate measured on this Site", () => {
    it.each([
        ["not measured (baseline): shown, not judged", 0, undefined],
        ["measured at 200/s, above the storms' sum", 200, undefined],
        [
            "measured at 100/s, below the storms' sum: the Site database verdict gates",
            100,
            /^8 Delivery Groups' storms at once want 16\d\.\d brokered\/s of the one Site database, above its measured 100\/s: responses ×1\.6\d\.$/,
        ],
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
        // `check --report` and `diff` read the pack config: the room's one evaluation with that rate.
        const config = {
            "citrix-site-database-load": { properties: { measuredSiteBrokeredPerS: home } },
            ...(old === undefined ? {} : { "citrix-brokering-capacity": { properties: { measuredSiteBrokeredPerS: old } } }),
        };
        const db = citrixRoom(viewOf(siteOf(EIGHT_GROUPS)), config).evaluation.database;
        expect(db.capPerS).toBe(expected === 0 ? undefined : expected);
        // In a pack run: both policies have run on the same stack (or Configure carried their settings).
        const stack = viewOf(siteOf(EIGHT_GROUPS));
        rememberConfig(stack, "citrix-site-database-load", { measuredSiteBrokeredPerS: home });
        if (old !== undefined) {
            rememberConfig(stack, "citrix-brokering-capacity", { measuredSiteBrokeredPerS: old });
        }
        expect(packEvaluation(stack).database.capPerS).toBe(expected === 0 ? undefined : expected);
    });

    it("is declared in exactly one policy's schema as its home; the old copy says it is deprecated", async () => {
        expect(MOVED_SETTINGS.filter((m) => m.key === "measuredSiteBrokeredPerS")).toEqual([
            { policy: "citrix-brokering-capacity", key: "measuredSiteBrokeredPerS", home: "citrix-site-database-load" },
        ]);
        const { citrixBrokeringCapacity } = await import("../../../policies/citrix/citrix-brokering-capacity");
        expect(citrixSiteDatabaseLoad.configSchema?.properties.measuredSiteBrokeredPerS).toBeDefined();
        expect(String(citrixBrokeringCapacity.configSchema?.properties.measuredSiteBrokeredPerS?.description)).toMatch(
            /^Deprecated here: set it on citrix-site-database-load/,
        );
    });
});

describe("issue 32: each Site's database on its own (a Site is its provider's endpoint)", () => {
    /** Four Delivery Groups in one 2 ms zone, 30 concurrent each: about 80/s, within 100/s alone. */
    const half = (prefix: string): SiteSpec => ({
        zones: [{ name: `${prefix}hq`, rtt: 2, users: 20000 }],
        groups: Array.from({ length: 4 }, (_, i) => ({ name: `${prefix}g${i + 1}`, zone: `${prefix}hq`, peak: 30, users: 5000 })),
        controllers: [
            { name: `${prefix}ddc-1`, zone: `${prefix}hq`, throttle: 120 },
            { name: `${prefix}ddc-2`, zone: `${prefix}hq`, throttle: 120 },
        ],
    });
    const two = (a: ProviderProps | undefined, b: ProviderProps | undefined) => [...onProvider(half("a"), "site-a", a), ...onProvider(half("b"), "site-b", b)];
    it.each([
        [
            "two Sites by hostname (baseline): no summed database figure",
            two({ hostname: "ddc.emea.example.com" }, { hostname: "ddc.apac.example.com" }),
            undefined,
        ],
        [
            "one Site (no endpoint declared): 8 storms summed against the measured 100/s",
            two(undefined, undefined),
            /^8 Delivery Groups' storms at once want 16\d\.\d brokered\/s of the one Site database, above its measured 100\/s/,
        ],
        [
            "two providers with unknown endpoints: not checked, naming why",
            two({ hostname: UNKNOWN_VALUE }, { customerId: UNKNOWN_VALUE }),
            /8 Delivery Groups' storms at once want 16\d\.\d brokered\/s against the measured 100\/s: the Citrix Sites cannot be told apart: the endpoint of providers "site-a", "site-b" is unknown in this preview/,
        ],
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
        const e = citrixRoom(stack, {}).evaluation;
        expect(e.sitesUnclear).toBeUndefined();
        expect(e.sites.map((s) => [s.name, s.database.storms, s.zones.map((z) => z.zone.resource.name)])).toEqual([
            ["site-a", 4, ["ahq-zone"]],
            ["site-b", 4, ["bhq-zone"]],
        ]);
    });
});

describe("citrix-site-database-load judges the Site's brokered/s only against a rate measured on this Site", () => {
    it.each([
        ["one 45 ms storm (baseline)", SATELLITE, {}, undefined],
        ["three storms below 90 ms at once, not measured: shown, not judged", CROWDED, {}, undefined],
        [
            "three storms, the Site measured at 23.2/s: 35.2/s wanted",
            CROWDED,
            { measuredSiteBrokeredPerS: 23.2 },
            "3 Delivery Groups' storms at once want 35.2 brokered/s of the one Site database, above its measured 23.2/s: responses ×1.52.",
        ],
        ["three storms, the Site measured at 40/s", CROWDED, { measuredSiteBrokeredPerS: 40 }, undefined],
    ] as const)("%s", async (_name, spec, config, problem) => {
        const found = await runStackPolicy(citrixSiteDatabaseLoad, siteOf(spec), {
            maxSiteConcurrentRequests: 60,
            satelliteAtRttMs: 90,
            measuredSiteBrokeredPerS: 0,
            ...config,
        });
        if (problem === undefined) {
            expect(found).toEqual([]);
            return;
        }
        expect(found).toHaveLength(1);
        expect(found[0].enforcementLevel).toBe("advisory");
        const m = parseMessage(found[0].message);
        expect(m.problem).toBe(problem);
        // "not measured (one Delivery Group was tested)" on its own line.
        expect(m.basis).toEqual([
            "measuredSiteBrokeredPerS 23.2/s, set in the policy config (measured on this Site)",
            `several Delivery Groups at once: ${ONE_GROUP_TESTED}`,
        ]);
        expect(m.fix).toBe(
            'stagger the storms, lower the throttles of zone "primary-zone" to 7 each (the busiest lock then wants 8.4/s of its 20.4/s), or split the Site',
        );
    });
});

describe("citrix-site-database-load's split of the 60 never gives a zone more than its own lock sustains", () => {
    /** Two 160 ms satellites declaring peaks of 60 and 12 (unthrottled): 72 against the 60 measured. */
    const TWO_160: SiteSpec = {
        zones: [
            { name: "s1", rtt: 160, peak: 60 },
            { name: "s2", rtt: 160, peak: 12 },
        ],
        groups: [
            { name: "g1", zone: "s1" },
            { name: "g2", zone: "s2" },
        ],
        controllers: [
            { name: "ddc-s1", zone: "s1" },
            { name: "ddc-s2", zone: "s2" },
        ],
    };
    it.each([
        ["two 160 ms zones: 30 each would exceed the 24 each lock sustains", TWO_160, "(about 24 per zone, each within what its zone's lock sustains)"],
        [
            "a 160 ms and a 90 ms zone: the 160 ms one 24, the 90 ms one the even 30",
            changed(TWO_160, (s) => {
                s.zones[1] = { name: "s2", rtt: 90, peak: 12 };
            }),
            '(zone "s1-zone" 24, zone "s2-zone" 30, each within what its zone\'s lock sustains)',
        ],
    ] as const)("%s", async (_name, spec, share) => {
        const found = on(await runPolicies([citrixSiteDatabaseLoad], siteOf(spec)), "citrix-site-database-load", "(stack)");
        const fixes = found.map((v) => parseMessage(v.message).fix).filter((f): f is string => f !== undefined && f.startsWith("split the 60"));
        expect(fixes).toHaveLength(1);
        expect(fixes[0]).toContain(share);
    });
});

describe("the Site database's storms count Delivery Groups and zones (a zone's own lock) apart", () => {
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
        [
            "zone b without its group: judged as its own lock",
            changed(FOUR_GROUPS, (s) => {
                s.groups = s.groups.filter((g) => g.zone !== "b");
            }),
            "3 Delivery Groups' and 1 zone's storms",
        ],
    ] as const)("%s", async (_name, spec, storms) => {
        const resources = siteOf(spec);
        const e = citrixEvaluation(viewOf(resources));
        expect(e.database.storms).toBe(4);
        expect(e.database.notMeasured).toEqual([`${storms} at once, 61.4 brokered/s in all: not measured (one Delivery Group was tested)`]);
        // Only a rate measured on this Site gates (issue 30): here 23.2/s.
        const db = await runStackPolicy(citrixSiteDatabaseLoad, resources, {
            maxSiteConcurrentRequests: 60,
            satelliteAtRttMs: 90,
            measuredSiteBrokeredPerS: 23.2,
        });
        expect(db.map((v) => parseMessage(v.message).problem)).toEqual([
            `${storms} at once want 61.4 brokered/s of the one Site database, above its measured 23.2/s: responses ×2.65.`,
        ]);
        // Zone b's lock is judged on its own: no verdict from the Site's sum.
        const cap = (await runPolicies([citrixBrokeringCapacity], resources)).filter((v) =>
            v.urn?.endsWith(spec.groups.length === 4 ? "::gb-group" : "::b-zone"),
        );
        expect(cap).toEqual([]);
        expect(citrixSection(viewOf(resources), {})).toContain(`\n- ${storms} at once: not measured (one Delivery Group was tested)\n`);
    });
});

describe("the Site database's fix sets throttles where none is set, with the value that makes the storms fit", () => {
    // The fix of a rate measured on this Site (issue 30: only a measured figure gates).
    const config = { maxSiteConcurrentRequests: 60, satelliteAtRttMs: 90, measuredSiteBrokeredPerS: 23.2 };
    it.each([
        [
            "one storm alone (baseline)",
            changed(TWO_STORMS, (s) => {
                s.zones.pop();
                s.groups.pop();
                s.controllers.pop();
            }),
            undefined,
        ],
        [
            "two storms, throttled at 60: lower them to 2",
            TWO_STORMS,
            'stagger the storms, lower the throttles of zone "a-zone" to 2 each (the busiest lock then wants 2.8/s of its 20.4/s), or split the Site',
        ],
        [
            "two storms, no throttle set: set them to 2",
            changed(TWO_STORMS, (s) => {
                s.controllers.forEach((c) => {
                    delete c.throttle;
                });
            }),
            'stagger the storms, set the throttles of zone "a-zone" (none set) to 2 each (the busiest lock then wants 2.8/s of its 20.4/s), or split the Site',
        ],
        // Three more storms: the excess is more than the busiest lock brokers, so no throttle of it fits them.
        [
            "five storms: no throttle of one lock makes them fit",
            changed(TWO_STORMS, (s) => {
                for (const n of ["c", "d", "e"]) {
                    s.zones.push({ name: n, rtt: 10, peak: 60, users: 20000 });
                    s.groups.push({ name: `g${n}`, zone: n });
                    s.controllers.push({ name: `d${n}`, zone: n, throttle: 60 });
                }
            }),
            "stagger the storms or split the Site (throttling the busiest lock alone cannot make them fit)",
        ],
    ] as const)("%s", async (_name, spec, fix) => {
        const found = await runStackPolicy(citrixSiteDatabaseLoad, siteOf(spec), config);
        expect(found.map((v) => parseMessage(v.message).fix)).toEqual(fix === undefined ? [] : [fix]);
        if (fix?.includes(" to 2 each")) {
            // The value holds: both controllers at 2, the storms fit the measured rate.
            const after = changed(spec, (s) => {
                s.controllers[0].throttle = 2;
            });
            expect(citrixEvaluation(viewOf(siteOf(after)), { measuredSiteBrokeredPerS: 23.2 }).database.capped).toBe(false);
        }
    });
});

describe("cosmetics: long lists are sorted and capped", () => {
    it.each([
        [3, "a0, a1, a2"],
        [51, "a0, a1, a10, a11, a12 and 46 more"],
    ] as const)("a list of %s names: sorted, at most five", (n, text) => {
        expect(cappedList(Array.from({ length: n }, (_, i) => `a${i}`))).toBe(text);
    });
    it("51 satellite zones: the Site-database basis names five and counts the rest", async () => {
        const spec: SiteSpec = { zones: [], groups: [], controllers: [] };
        for (let i = 0; i < 51; i++) {
            const name = `satellite-zone-number-${String(i).padStart(2, "0")}-emea-east-warsaw`;
            spec.zones.push({ name, rtt: 90 + i, peak: 10, users: 500 });
            spec.groups.push({ name: `dept-${i}`, zone: name });
            spec.controllers.push({ name: `ddc${i}`, zone: name, throttle: 5 });
        }
        const found = await runStackPolicy(citrixSiteDatabaseLoad, siteOf(spec), {
            maxSiteConcurrentRequests: 60,
            satelliteAtRttMs: 90,
            measuredSiteBrokeredPerS: 0,
        });
        const concurrency = found.map((v) => parseMessage(v.message)).find((m) => m.problem.startsWith("51 satellite zones"))!;
        const line = concurrency.basis.find((b) => b.startsWith("per zone: "))!;
        expect(line).toMatch(/ and 46 more$/);
        // Before: 3,340 characters.
        expect(line.length).toBeLessThan(500);
    });
});
