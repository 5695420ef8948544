/**
 * Issue 19's Citrix cases (load that shares one resource concentrates: first-come throttles on one
 * Delivery Group's lock, one Site database, a group spanning zones) and issue 22's message details.
 * Each case is a compliant baseline with one change.
 */
import { describe, expect, it } from "vitest";
import type { Policy } from "@pulumi/policy";
import { citrixBrokerThrottle } from "../../../policies/citrix/citrix-broker-throttle";
import { citrixBrokeringCapacity } from "../../../policies/citrix/citrix-brokering-capacity";
import { citrixSiteDatabaseLoad } from "../../../policies/citrix/citrix-site-database-load";
import { citrixSiteLimits } from "../../../policies/citrix/citrix-site-limits";
import { citrixZoneRttLimit } from "../../../policies/citrix/citrix-zone-rtt-limit";
import { citrixZoneRttWarning } from "../../../policies/citrix/citrix-zone-rtt-warning";
import { parseMessage } from "../../../policies/pack/message";
import { runPolicies, TestResource, UNKNOWN_VALUE, verdicts } from "../../support/policyHarness";
import { CATALOG, VM, ZONE } from "./citrixFixtures";

const GROUP = "citrix:index/deliveryGroup:DeliveryGroup";
const POLICIES: Policy[] = [citrixZoneRttLimit, citrixZoneRttWarning, citrixBrokerThrottle, citrixBrokeringCapacity, citrixSiteLimits, citrixSiteDatabaseLoad];

function facts(f: Record<string, string>): Array<{ name: string; value: string }> {
    return Object.entries(f).map(([k, v]) => ({ name: `perfguard:${k}`, value: v }));
}
function zone(name: string, f: Record<string, string>): TestResource {
    return { type: ZONE, name: `${name}-zone`, props: { name, metadatas: facts(f) } };
}
function controllers(zoneName: string, throttles: Array<string | undefined>): TestResource[] {
    return throttles.map((t, i) => ({
        type: VM,
        name: `ddc-${zoneName}-${i + 1}`,
        props: {
            extraConfig: {
                "guestinfo.perfguard.citrixRole": "deliveryController",
                "guestinfo.perfguard.citrixZone": zoneName,
                ...(t ? { "guestinfo.perfguard.throttleMaxConcurrentTransactions": t } : {}),
            },
        },
    }));
}
function catalog(name: string, zoneName: string, machines: unknown): TestResource {
    return {
        type: CATALOG,
        name,
        props: { zone: UNKNOWN_VALUE, provisioningScheme: { numberOfTotalMachines: machines } },
        propertyDependencies: { zone: [`${zoneName}-zone`] },
    };
}
function group(name: string, catalogs: string[], machines: number, f: Record<string, string> = {}): TestResource {
    return {
        type: GROUP,
        name,
        props: {
            associatedMachineCatalogs: catalogs.map(() => ({ machineCatalog: UNKNOWN_VALUE, machineCount: machines / catalogs.length })),
            metadatas: facts(f),
        },
        propertyDependencies: { associatedMachineCatalogs: catalogs },
    };
}
/** A 160 ms zone of four department groups, two controllers at `throttle` each. */
function departments(throttle: string, groupFacts: Record<string, string> = {}): TestResource[] {
    return [
        zone("nordics", { rttMs: "160", peakConcurrentLaunches: "24", users: "4000" }),
        ...controllers("nordics", [throttle, throttle]),
        ...[1, 2, 3, 4].flatMap((i) => [catalog(`cat-${i}`, "nordics", 50), group(`dept-${i}`, [`cat-${i}`], 50, groupFacts)]),
    ];
}

describe("first-come throttles: a lock receives every feeding controller's throttle, bounded only by its group's own peak", () => {
    it.each([
        ["2 x 12 into four groups (baseline)", departments("12"), []],
        [
            "2 x 25 into four groups: each lock can receive 50, above the 25 it sustains",
            departments("25"),
            [1, 2, 3, 4].map((i) => `citrix-broker-throttle -> dept-${i}`),
        ],
        ["2 x 25, but each group declares its own peak of 12: bounded", departments("25", { peakConcurrentLaunches: "12" }), []],
        [
            "2 x 25, each group's own peak of 30: bounded at 30, still above 25",
            departments("25", { peakConcurrentLaunches: "30" }),
            [1, 2, 3, 4].map((i) => `citrix-broker-throttle -> dept-${i}`),
        ],
    ])("%s", async (_name, stack, expected) => {
        const found = await runPolicies(POLICIES, stack);
        expect(verdicts(found).filter((v) => v.startsWith("citrix-broker-throttle"))).toEqual(expected);
        for (const v of found.filter((x) => x.policyName === "citrix-broker-throttle")) {
            expect(v.enforcementLevel).toBe("mandatory");
        }
    });
    it("names the exposure and proposes the most exposed lock's safe concurrency over the controllers feeding it", async () => {
        const found = await runPolicies([citrixBrokerThrottle], departments("25"));
        const m = parseMessage(found[0].message);
        expect(m.problem).toBe(
            'Delivery Group "dept-1": the throttles of 2 Delivery Controllers can put 50 concurrent requests on its lock, above the 24 it sustains.',
        );
        expect(m.fix).toContain('to 12 on each of zone "nordics-zone"\'s 2 Delivery Controllers');
        expect(m.basis.join("\n")).toContain("first come, first served");
    });
});

describe("one Site database: each lock on its own; only a rate measured on this Site gates (issue 30)", () => {
    // Four 10 ms groups, each its own lock at 40: the locks alone broker about 4 x 20/s.
    const storms = (): TestResource[] => [
        zone("primary", { rttMs: "10" }),
        ...controllers("primary", [undefined, undefined]),
        ...[1, 2, 3, 4].flatMap((i) => [
            catalog(`cat-${i}`, "primary", 100),
            group(`dg-${i}`, [`cat-${i}`], 100, { peakConcurrentLaunches: "40", users: "30000" }),
        ]),
    ];
    it("concurrent storms at each lock's own rate: 30,000 users each within the hour, no verdict", async () => {
        // Before issue 30: each group got a quarter of the source's one-group plateau (86 min).
        const found = await runPolicies([citrixBrokeringCapacity, citrixSiteDatabaseLoad], storms());
        expect(verdicts(found)).toEqual([]);
    });
    it("a rate measured on this Site below the storms' sum gates in citrix-site-database-load, not per lock", async () => {
        const found = await runPolicies([citrixBrokeringCapacity, citrixSiteDatabaseLoad], storms(), {
            "citrix-site-database-load": { measuredSiteBrokeredPerS: 40 },
        });
        expect(verdicts(found)).toEqual(["citrix-site-database-load -> (stack)"]);
        expect(parseMessage(found[0].message).problem).toMatch(
            /^4 Delivery Groups' storms at once want [\d.]+ brokered\/s of the one Site database, above its measured 40\/s: responses ×[\d.]+\.$/,
        );
    });
});

describe("a Delivery Group spanning a primary zone and a satellite", () => {
    const spanning = (satelliteRtt: string): TestResource[] => [
        zone("primary", { rttMs: "2" }),
        ...controllers("primary", [undefined, undefined]),
        catalog("cat-p", "primary", 200),
        zone("satellite", { rttMs: satelliteRtt }),
        ...controllers("satellite", ["12", "12"]),
        catalog("cat-s", "satellite", 200),
        group("shared", ["cat-p", "cat-s"], 400, { peakConcurrentLaunches: "48" }),
    ];
    it("the primary zone's users at 11.3 s against 1.2 s alone: split the group per zone", async () => {
        const found = await runPolicies([citrixBrokeringCapacity], spanning("160"));
        const span = found.map((v) => parseMessage(v.message)).find((m) => m.fix === "split the group per zone (one lock each)");
        expect(span?.problem).toBe(
            'Delivery Group "shared": zone "primary-zone" (name "primary", 2 ms) waits 11.3 s on the lock it shares with slower zones, against 1.2 s alone.',
        );
        expect(span?.basis).toContain("a launch's RTT is that of the zone whose controllers broker it, taken as the VDA's zone");
    });
    it("two zones at the same RTT: no slower zone, no span advice", async () => {
        const found = await runPolicies([citrixBrokeringCapacity], spanning("2"));
        expect(found.map((v) => parseMessage(v.message).fix)).not.toContain("split the group per zone (one lock each)");
    });
});

describe("count-based checks: not checked when unknown counts could cross the limit", () => {
    it.each([
        ["9,000 known machines, no unknown catalog", 9000, false, []],
        ["10,000 known machines and a catalog of unknown size", 10000, true, ["citrix-site-limits -> (stack)"]],
        ["10,001 known machines: the known ones decide", 10001, true, ["citrix-site-limits -> emea-zone"]],
    ])("%s", async (_name, known, unknownCatalog, expected) => {
        const stack = [zone("emea", { rttMs: "10" }), catalog("cat-a", "emea", known), ...(unknownCatalog ? [catalog("cat-b", "emea", UNKNOWN_VALUE)] : [])];
        const found = await runPolicies([citrixSiteLimits], stack);
        expect(verdicts(found)).toEqual(expected);
        if (expected[0] === "citrix-site-limits -> (stack)") {
            expect(found[0].message).toContain("could cross maxVdasPerZone 10000");
        }
    });
});

describe("issue 22: the RTT band ends at the configured limit, and basis lines cite the configured value", () => {
    it.each([
        ["230 ms, maxRttMs 200: the limit's verdict alone", "230", { "citrix-zone-rtt-limit": { maxRttMs: 200 } }, ["citrix-zone-rtt-limit -> emea-zone"]],
        ["230 ms, defaults: the warning", "230", {}, ["citrix-zone-rtt-warning -> emea-zone"]],
        [
            "190 ms, maxRttMs 200, warnAtRttMs 180: the warning up to the configured limit",
            "190",
            { "citrix-zone-rtt-limit": { maxRttMs: 200 }, "citrix-zone-rtt-warning": { warnAtRttMs: 180 } },
            ["citrix-zone-rtt-warning -> emea-zone"],
        ],
    ])("%s", async (_name, rtt, config, expected) => {
        const found = await runPolicies([citrixZoneRttLimit, citrixZoneRttWarning], [zone("emea", { rttMs: rtt })], config);
        expect(verdicts(found)).toEqual(expected);
    });
    it("the limit's basis says where its value was set", async () => {
        const [set] = await runPolicies([citrixZoneRttLimit], [zone("emea", { rttMs: "230" })], { "citrix-zone-rtt-limit": { maxRttMs: 200 } });
        expect(parseMessage(set.message).basis[0]).toMatch(/^maxRttMs 200 ms, set in the policy config; default 250 ms \(Citrix guidance\); /);
        const [warn] = await runPolicies([citrixZoneRttLimit, citrixZoneRttWarning], [zone("emea", { rttMs: "190" })], {
            "citrix-zone-rtt-limit": { maxRttMs: 200 },
            "citrix-zone-rtt-warning": { warnAtRttMs: 180 },
        });
        expect(parseMessage(warn.message).problem).toBe('Zone "emea-zone" (name "emea") is 190 ms from the Site database, within 10 ms of the 200 ms limit.');
        expect(parseMessage(warn.message).basis[0]).toBe(
            "band: warnAtRttMs 180 ms, set in the policy config; default 225 ms to citrix-zone-rtt-limit's maxRttMs 200 ms, set in the policy config; default 250 ms",
        );
    });
});

/** A group spanning a 2 ms primary (unthrottled) and a 160 ms satellite (two controllers at `throttle`), 200 machines in each, peak 48. */
function spanning(throttle: string): TestResource[] {
    return [
        zone("primary", { rttMs: "2" }),
        ...controllers("primary", [undefined, undefined]),
        zone("nordics", { rttMs: "160" }),
        ...controllers("nordics", [throttle, throttle]),
        catalog("span-pri", "primary", 200),
        catalog("span-nor", "nordics", 200),
        group("span-apps", ["span-pri", "span-nor"], 400, { peakConcurrentLaunches: "48" }),
    ];
}

describe("first-come throttles on a group spanning zones: the lock is judged at the worst mix the throttles allow", () => {
    it.each([
        ["satellite at 2 x 12 (baseline)", spanning("12"), undefined],
        ["satellite at 2 x 25: one storm can put all 48 through the 160 ms controllers", spanning("25"), "above the 25 it sustains"],
    ])("%s", async (_name, stack, problem) => {
        const found = (await runPolicies(POLICIES, stack)).filter((v) => v.policyName === "citrix-broker-throttle" && (v.urn ?? "").endsWith("span-apps"));
        if (problem === undefined) {
            expect(found).toEqual([]);
            return;
        }
        expect(found).toHaveLength(1);
        const m = parseMessage(found[0].message);
        expect(m.problem).toContain("can put 48 concurrent requests on its lock, above the 24 it sustains");
        expect(m.fix).toContain('to 12 on each of zone "nordics-zone"\'s 2 Delivery Controllers');
        expect(m.fix).not.toContain("primary-zone");
    });
});

/** A group on catalogs in zones at 45, 90 and 160 ms, peak 60 (the throttles given per zone). */
function threeZones(t: { z45: string[]; z90: string[]; z160: string[] }): TestResource[] {
    return [
        zone("z45", { rttMs: "45" }),
        ...controllers("z45", t.z45),
        zone("z90", { rttMs: "90" }),
        ...controllers("z90", t.z90),
        zone("z160", { rttMs: "160" }),
        ...controllers("z160", t.z160),
        catalog("c45", "z45", 100),
        catalog("c90", "z90", 100),
        catalog("c160", "z160", 100),
        group("three", ["c45", "c90", "c160"], 300, { peakConcurrentLaunches: "60", users: "6000" }),
    ];
}

async function throttleVerdict(stack: TestResource[]): Promise<ReturnType<typeof parseMessage> | undefined> {
    const found = (await runPolicies(POLICIES, stack)).filter((v) => v.policyName === "citrix-broker-throttle" && (v.urn ?? "").endsWith("three"));
    return found.length > 0 ? parseMessage(found[0].message) : undefined;
}

describe("the throttle fix for a group spanning three zones converges: applied once, the lock passes", () => {
    it.each([
        ["20 / 20 / 10 + 10", { z45: ["20"], z90: ["20"], z160: ["10", "10"] }],
        ["13 everywhere", { z45: ["13"], z90: ["13"], z160: ["13", "13"] }],
    ])("%s", async (_name, throttles) => {
        const before = await throttleVerdict(threeZones(throttles));
        expect(before?.problem).toMatch(/above the \d+ it sustains/);
        expect(before?.fix).not.toMatch(/^Fix: ;|^;/);
        // Apply the values the Fix names, zone by zone; a zone it does not name keeps its throttles.
        const proposed = new Map([...(before?.fix ?? "").matchAll(/(\d+) on (?:each of )?zone "(z\d+)-zone"/g)].map((m) => [m[2], m[1]]));
        expect(proposed.size).toBeGreaterThan(0);
        const after = {
            z45: throttles.z45.map((t) => proposed.get("z45") ?? t),
            z90: throttles.z90.map((t) => proposed.get("z90") ?? t),
            z160: throttles.z160.map((t) => proposed.get("z160") ?? t),
        };
        expect(await throttleVerdict(threeZones(after))).toBeUndefined();
    });
});
