/**
 * Findings of the new-user and Citrix-expert reviews (2026-12-02, second round): each a compliant
 * baseline and one change per case, asserting the values the verdicts, figures and report print.
 */
import { describe, expect, it } from "vitest";
import { citrixBrokerThrottle } from "../../../policies/citrix/citrix-broker-throttle";
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
        // Only a rate measured on this Site gates (issue 30): here 23.2/s.
        const db = await runStackPolicy(citrixSiteDatabaseLoad, resources, { maxSiteConcurrentRequests: 60, satelliteAtRttMs: 90, measuredSiteBrokeredPerS: 23.2 });
        expect(db.map((v) => parseMessage(v.message).problem)).toEqual([`${storms} at once want 61.4 brokered/s of the one Site database, above its measured 23.2/s: responses ×2.65.`]);
        // Zone b's lock is judged on its own: no verdict from the Site's sum.
        const cap = (await runPolicies([citrixBrokeringCapacity], resources)).filter((v) => v.urn?.endsWith(spec.groups.length === 4 ? "::gb-group" : "::b-zone"));
        expect(cap).toEqual([]);
        expect(citrixSection(viewOf(resources), {})).toContain(`\n- ${storms} at once: not measured (one Delivery Group was tested)\n`);
    });
});

/** Zone a at 160 ms, peak 24, two controllers at 12: one lock at its 24, every target met. */
const ONE_ZONE: SiteSpec = { zones: [{ name: "a", rtt: 160, peak: 24, users: 2000 }], groups: [{ name: "g", zone: "a" }], controllers: [{ name: "d1", zone: "a", throttle: 12 }, { name: "d2", zone: "a", throttle: 12 }] };

describe("4a. a group in one zone is not told to split where a split moves no load off its lock", () => {
    it.each([
        ["peak 24 within throttles of 24 (baseline)", ONE_ZONE, "g-group", undefined],
        // First come, first served: either half of a split group could receive all 48.
        ["peak 48 under throttles of 48: the throttles, not a split", changed(ONE_ZONE, (s) => { s.zones[0].peak = 48; s.controllers.forEach((c) => { c.throttle = 24; }); }), "g-group",
            "cap its lock at 24 concurrent requests (its zone's throttles adding up to 24) or launch fewer at once"],
        // A zone with no Delivery Group: a long launch spreads its users over groups, it has no group to split.
        ["no Delivery Group, 20000 users: spread them over Delivery Groups", changed(ONE_ZONE, (s) => { s.groups = []; s.zones[0].users = 20000; }), "a-zone",
            "even at 24 concurrent requests its lock takes 2 h 37 min: spread its users over several Delivery Groups (one lock each) or spread the logon storm over time"],
    ] as const)("%s", async (_name, spec, resource, fix) => {
        const found = (await runPolicies([citrixBrokeringCapacity], siteOf(spec))).filter((v) => v.urn?.endsWith(`::${resource}`));
        expect(found.map((v) => parseMessage(v.message).fix)).toEqual(fix === undefined ? [] : [fix]);
        expect(found.every((v) => !/split the Delivery Group/.test(v.message))).toBe(true);
    });
});

/** Two 10 ms zones, one group each at 60 with throttles of 60: 40.8/s wanted of 23.2/s. */
const TWO_STORMS: SiteSpec = {
    zones: [{ name: "a", rtt: 10, peak: 60, users: 20000 }, { name: "b", rtt: 10, peak: 60, users: 20000 }],
    groups: [{ name: "g1", zone: "a" }, { name: "g2", zone: "b" }],
    controllers: [{ name: "d1", zone: "a", throttle: 60 }, { name: "d2", zone: "b", throttle: 60 }],
};

describe("4b. the Site database's fix sets throttles where none is set, with the value that makes the storms fit", () => {
    // The fix of a rate measured on this Site (issue 30: only a measured figure gates).
    const config = { maxSiteConcurrentRequests: 60, satelliteAtRttMs: 90, measuredSiteBrokeredPerS: 23.2 };
    it.each([
        ["one storm alone (baseline)", changed(TWO_STORMS, (s) => { s.zones.pop(); s.groups.pop(); s.controllers.pop(); }), undefined],
        ["two storms, throttled at 60: lower them to 2", TWO_STORMS,
            "stagger the storms, lower the throttles of zone \"a-zone\" to 2 each (the busiest lock then wants 2.8/s of its 20.4/s), or split the Site"],
        ["two storms, no throttle set: set them to 2", changed(TWO_STORMS, (s) => { s.controllers.forEach((c) => { delete c.throttle; }); }),
            "stagger the storms, set the throttles of zone \"a-zone\" (none set) to 2 each (the busiest lock then wants 2.8/s of its 20.4/s), or split the Site"],
        // Three more storms: the excess is more than the busiest lock brokers, so no throttle of it fits them.
        ["five storms: no throttle of one lock makes them fit", changed(TWO_STORMS, (s) => {
            for (const n of ["c", "d", "e"]) {
                s.zones.push({ name: n, rtt: 10, peak: 60, users: 20000 });
                s.groups.push({ name: `g${n}`, zone: n });
                s.controllers.push({ name: `d${n}`, zone: n, throttle: 60 });
            }
        }), "stagger the storms or split the Site (throttling the busiest lock alone cannot make them fit)"],
    ] as const)("%s", async (_name, spec, fix) => {
        const found = await runStackPolicy(citrixSiteDatabaseLoad, siteOf(spec), config);
        expect(found.map((v) => parseMessage(v.message).fix)).toEqual(fix === undefined ? [] : [fix]);
        if (fix?.includes(" to 2 each")) {
            // The value holds: both controllers at 2, the storms fit the measured rate.
            const after = changed(spec, (s) => { s.controllers[0].throttle = 2; });
            expect(citrixEvaluation(viewOf(siteOf(after)), { measuredSiteBrokeredPerS: 23.2 }).database.capped).toBe(false);
        }
    });
});

/** A 10 ms primary and a 160 ms satellite sharing one group, throttles 10 and 5: within what the lock sustains. */
const SPANNING: SiteSpec = {
    zones: [{ name: "p", rtt: 10, peak: 20, users: 1000 }, { name: "s", rtt: 160, peak: 10, users: 500 }],
    groups: [{ name: "g", zone: "p", zones: ["p", "s"] }],
    controllers: [{ name: "d1", zone: "p", throttle: 10 }, { name: "d2", zone: "s", throttle: 5 }],
};

describe("4c. check --report proposes a per-controller throttle only where a verdict does, else labels it a suggestion", () => {
    const cells = (spec: SiteSpec) => {
        const lines = citrixSection(viewOf(siteOf(spec)), {}).split("\n");
        // The "throttle per controller" column: the zone table's 7th, the lock table's 10th (the last).
        const column = (prefix: string, i: number) => lines.find((l) => l.startsWith(prefix))?.slice(2, -2).split(" | ")[i];
        return { zone: column("| zone \"s-zone\"", 6), group: column("| Delivery Group \"g-group\"", 9) };
    };
    it.each([
        ["a spanning group within its lock: no verdict, suggestions", SPANNING, { zone: "24 (suggestion)", group: "24 (suggestion)" }],
        // Throttles of 40 + 40 put 80 on a lock that sustains 65: citrix-broker-throttle's verdict proposes it.
        ["its throttles above what the lock sustains: the verdict's value", changed(SPANNING, (s) => { s.controllers.forEach((c) => { c.throttle = 40; }); s.zones.forEach((z) => { z.peak = 80; }); }),
            undefined],
    ] as const)("%s", async (_name, spec, expected) => {
        const got = cells(spec);
        const verdicts = (await runPolicies([citrixBrokerThrottle], siteOf(spec))).filter((v) => v.enforcementLevel === "mandatory");
        if (expected) {
            expect(verdicts).toEqual([]);
            expect(got).toEqual(expected);
        } else {
            expect(verdicts.map((v) => v.urn?.split("::").pop())).toEqual(["g-group"]);
            expect(got.group).toMatch(/^\d+$/);
            expect(parseMessage(verdicts[0].message).fix).toContain(` ${got.group} `);
        }
    });
});

describe("4d. several unthrottled controllers of a zone within its limit: one cause, one mandatory verdict", () => {
    const ZONE_LOCK: SiteSpec = { zones: [{ name: "a", rtt: 160, peak: 20, users: 1000 }], groups: [], controllers: [{ name: "d1", zone: "a", throttle: 12 }, { name: "d2", zone: "a", throttle: 12 }] };
    it.each([
        ["both throttled (baseline)", ZONE_LOCK, []],
        ["d2 unthrottled: the verdict is on d2", changed(ZONE_LOCK, (s) => { delete s.controllers[1].throttle; }), ["d2"]],
        ["both unthrottled: one verdict, on the zone, naming them", changed(ZONE_LOCK, (s) => { s.controllers.forEach((c) => { delete c.throttle; }); }), ["a-zone"]],
    ] as const)("%s", async (_name, spec, on) => {
        const found = (await runPolicies([citrixBrokerThrottle], siteOf(spec))).filter((v) => v.enforcementLevel === "mandatory");
        expect(found.map((v) => v.urn?.split("::").pop())).toEqual(on);
        for (const v of found) {
            const m = parseMessage(v.message);
            expect(m.fix).toBe("set the DWORD HKLM\\Software\\Citrix\\DesktopServer\\ThrottledRequestAddressMaxConcurrentTransactions to 12 on each of zone \"a-zone\"'s 2 Delivery Controllers (and declare it: extraConfig \"guestinfo.perfguard.throttleMaxConcurrentTransactions\": \"12\")");
            expect(m.basis).toContain("the declared peak of 20 is within the 24 its most exposed lock sustains" + (on[0] === "a-zone" ? ": nothing caps a storm above it" : ""));
            if (on[0] === "a-zone") {
                expect(m.basis).toContain("without a throttle: \"d1\", \"d2\"");
            }
        }
    });
});
