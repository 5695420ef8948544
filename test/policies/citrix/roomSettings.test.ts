/**
 * Settings once (issue 31): each Citrix room setting has one home policy (roomSettings.ts), a
 * deprecated copy still set on its old policy keeps working, the home wins where both are set,
 * and one stack under one pack config has one evaluation that every Citrix policy and the CLI read.
 */
import { afterEach, describe, expect, it } from "vitest";
import { citrixBrokerThrottle } from "../../../policies/citrix/citrix-broker-throttle";
import { citrixBrokeringCapacity } from "../../../policies/citrix/citrix-brokering-capacity";
import { citrixRoom, EVALUATION_DEFAULTS, MOVED_SETTINGS, packEvaluation } from "../../../policies/citrix/evaluation";
import { roomConfig } from "../../../policies/citrix/roomSettings";
import { recordConfiguredProperties, rememberConfig } from "../../../policies/pack/policyConfigs";
import { parseMessage } from "../../../policies/pack/message";
import { runStackPolicy } from "../../support/policyHarness";
import { SATELLITE, viewOf } from "./citrixCases";
import { siteOf } from "./citrixSpec";

const CAP = "citrix-brokering-capacity";
const THR = "citrix-broker-throttle";
const DB = "citrix-site-database-load";

afterEach(() => recordConfiguredProperties(new Map()));

describe("each room setting has one home", () => {
    it("the targets live on citrix-brokering-capacity, measuredSiteBrokeredPerS on citrix-site-database-load; each old copy is named", () => {
        expect(MOVED_SETTINGS).toEqual([
            { policy: THR, key: "targetResponseS", home: CAP },
            { policy: THR, key: "errorBudgetPct", home: CAP },
            { policy: CAP, key: "measuredSiteBrokeredPerS", home: DB },
        ]);
        expect(String(citrixBrokerThrottle.configSchema?.properties.targetResponseS?.description)).toMatch(
            /^Deprecated here: set it on citrix-brokering-capacity/,
        );
        expect(String(citrixBrokeringCapacity.configSchema?.properties.targetResponseS?.description)).not.toMatch(/Deprecated/);
    });

    it.each([
        ["nothing set (baseline): the schemas' defaults", {}, { targetResponseS: 12, errorBudgetPct: 0.1 }],
        ["the home alone", { [CAP]: { targetResponseS: 20 } }, { targetResponseS: 20, errorBudgetPct: 0.1 }],
        ["the deprecated copy alone: still honoured", { [THR]: { targetResponseS: 20, errorBudgetPct: 0.5 } }, { targetResponseS: 20, errorBudgetPct: 0.5 }],
        [
            "both set and different: the home wins",
            { [CAP]: { targetResponseS: 20 }, [THR]: { targetResponseS: 6 } },
            { targetResponseS: 20, errorBudgetPct: 0.1 },
        ],
        // The engine fills defaults in: a home at its default reads as not set, so the copy applies (config check says so).
        [
            "the home at its default, the copy set: the copy",
            { [CAP]: { targetResponseS: 12 }, [THR]: { targetResponseS: 6 } },
            { targetResponseS: 6, errorBudgetPct: 0.1 },
        ],
        ["a value of the wrong type is not read: the default", { [CAP]: { targetResponseS: "20" } }, { targetResponseS: 12, errorBudgetPct: 0.1 }],
    ] as const)("targets: %s", (_label, props, expected) => {
        const config = roomConfig((policy) => (props as Record<string, Record<string, unknown>>)[policy]);
        expect({ targetResponseS: config.targetResponseS, errorBudgetPct: config.errorBudgetPct }).toEqual(expected);
    });
});

describe("the deprecated copy through the policies' verdicts", () => {
    // SATELLITE: one 45 ms lock at 60 concurrent, 8.1 s: within the default 12 s, above a 6 s target.
    it.each([
        ["nothing set (baseline): both pass", undefined, 0, 0],
        ["targetResponseS 6 on citrix-broker-throttle's copy: both policies judge at 6 s", 6, 1, 1],
    ] as const)("%s", async (_label, copy, capacityFound, throttleFound) => {
        // A pack run: Configure carried every policy's properties (the engine fills in the defaults).
        recordConfiguredProperties(new Map([[THR, copy === undefined ? {} : { targetResponseS: copy }]]));
        const capacity = await runStackPolicy(citrixBrokeringCapacity, siteOf(SATELLITE), {});
        expect(capacity.map((v) => v.urn?.split("::").pop())).toEqual(capacityFound === 0 ? [] : ["ag-group"]);
        // requireAtRttMs 40: the 45 ms zone is judged.
        const throttle = await runStackPolicy(citrixBrokerThrottle, siteOf(SATELLITE), {
            requireAtRttMs: 40,
            ...(copy === undefined ? {} : { targetResponseS: copy }),
        });
        expect(throttle.map((v) => v.urn?.split("::").pop())).toEqual(throttleFound === 0 ? [] : ["ag-group"]);
        if (copy !== undefined) {
            // One evaluation at 6 s: both policies find the same 44 the lock sustains.
            expect(parseMessage(capacity[0].message).problem).toBe('Delivery Group "ag-group" (name "ag"): at 60 concurrent launches, mean 8.1 s > 6 s.');
            expect(parseMessage(capacity[0].message).fix).toMatch(/^cap its lock at 44 concurrent requests/);
            expect(parseMessage(throttle[0].message).problem).toMatch(/can put 60 concurrent requests on its lock, above the 44 it sustains\.$/);
            expect(parseMessage(throttle[0].message).basis.join("\n")).toContain("6 s / 0.1% (targetResponseS, errorBudgetPct, set in the policy config");
        }
    });

    it("both set and different: citrix-broker-throttle judges with the home's targets, not its own copy", async () => {
        recordConfiguredProperties(new Map([[CAP, { targetResponseS: 20 }]]));
        expect(await runStackPolicy(citrixBrokerThrottle, siteOf(SATELLITE), { requireAtRttMs: 40, targetResponseS: 6 })).toEqual([]);
        // The change that fails it: the home at 6 s.
        recordConfiguredProperties(new Map([[CAP, { targetResponseS: 6 }]]));
        expect(await runStackPolicy(citrixBrokerThrottle, siteOf(SATELLITE), { requireAtRttMs: 40, targetResponseS: 20 })).toHaveLength(1);
    });
});

describe("one evaluation per stack and config", () => {
    const PACK = {
        [CAP]: { targetResponseS: 20, errorBudgetPct: 0.5, launchWindowMinutes: 60, measuredSiteBrokeredPerS: 0 },
        [THR]: {
            requireAtRttMs: 90,
            targetResponseS: 12,
            errorBudgetPct: 0.1,
            requireControllersInStack: false,
            externalControllers: { a45: [{ name: "ddc-x", throttle: 10 }] },
        },
        [DB]: { maxSiteConcurrentRequests: 60, satelliteAtRttMs: 120, measuredSiteBrokeredPerS: 40 },
    };

    it("every Citrix policy reads the same object, with every home's setting, whichever ran first", () => {
        const stack = viewOf(siteOf(SATELLITE));
        // citrix-broker-throttle runs first in the pack: the later homes' settings come from Configure.
        recordConfiguredProperties(new Map(Object.entries(PACK)));
        rememberConfig(stack, THR, PACK[THR]);
        const first = packEvaluation(stack);
        rememberConfig(stack, CAP, PACK[CAP]);
        rememberConfig(stack, DB, PACK[DB]);
        expect(packEvaluation(stack)).toBe(first);
        expect(first.config).toEqual({
            targetResponseS: 20,
            errorBudgetPct: 0.5,
            externalControllers: { a45: [{ name: "ddc-x", throttle: 10 }] },
            measuredSiteBrokeredPerS: 40,
            satelliteAtRttMs: 120,
        });
        // `check --report`, `size` and `diff` read the pack config: the very same evaluation.
        const cli = citrixRoom(stack, Object.fromEntries(Object.entries(PACK).map(([k, properties]) => [k, { properties }])));
        expect(cli.evaluation).toBe(first);
        // One zone, its external controller among its controllers for every reader (no copy without it).
        expect(first.zones.map((z) => z.zone.controllers.length)).toEqual([2]);
    });

    it("without a config the one evaluation is the schemas' defaults", () => {
        expect(packEvaluation(viewOf(siteOf(SATELLITE))).config).toEqual(EVALUATION_DEFAULTS);
    });
});
