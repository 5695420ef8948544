/**
 * Issue 30: the source's plateau is one Delivery Group's lock, not the Site database's cap, so
 * each lock's figures are its own whatever the other groups do; only a rate measured on this Site
 * caps the storms' sum, and then as citrix-site-database-load's verdict (responseScale, Little's
 * law), never by scaling the locks' own figures. A baseline (one group) and one change per case.
 */
import { describe, expect, it } from "vitest";
import { predictGroupBrokering } from "../../../model/deliveryGroupBrokering";
import { citrixEvaluation } from "../../../policies/citrix/evaluation";
import { ResourceView, StackView } from "../../../policies/pack/resources";
import { TestResource, UNKNOWN_VALUE, urnOf } from "../../support/policyHarness";
import { CATALOG, VM, ZONE } from "./citrixFixtures";

const GROUP = "citrix:index/deliveryGroup:DeliveryGroup";

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

/** A 10 ms zone, peak 60, four controllers at 15, `groups` Delivery Groups of 50 machines each. */
function hub(groups: number): TestResource[] {
    return [
        {
            type: ZONE,
            name: "hub-zone",
            props: {
                name: "hub",
                metadatas: [
                    { name: "perfguard:rttMs", value: "10" },
                    { name: "perfguard:peakConcurrentLaunches", value: "60" },
                    { name: "perfguard:users", value: "10000" },
                ],
            },
        },
        ...[1, 2, 3, 4].map((i): TestResource => ({
            type: VM,
            name: `ddc-hub-${i}`,
            props: {
                extraConfig: {
                    "guestinfo.perfguard.citrixRole": "deliveryController",
                    "guestinfo.perfguard.citrixZone": "hub",
                    "guestinfo.perfguard.throttleMaxConcurrentTransactions": "15",
                },
            },
        })),
        ...Array.from({ length: groups }, (_, k) => k + 1).flatMap((i): TestResource[] => [
            {
                type: CATALOG,
                name: `cat-${i}`,
                props: { zone: UNKNOWN_VALUE, provisioningScheme: { numberOfTotalMachines: 50 } },
                propertyDependencies: { zone: ["hub-zone"] },
            },
            {
                type: GROUP,
                name: `dg-${i}`,
                props: { associatedMachineCatalogs: [{ machineCatalog: UNKNOWN_VALUE, machineCount: 50 }] },
                propertyDependencies: { associatedMachineCatalogs: [`cat-${i}`] },
            },
        ]),
    ];
}

describe("Site database: each lock's own figures, capped only by a measured rate's verdict", () => {
    it.each([
        ["one group (baseline)", 1, 0, false],
        ["four groups at once, not measured: no cap", 4, 0, false],
        ["four groups at once, the Site measured at 23.2/s: capped, the locks' figures unchanged", 4, 23.2, true],
    ])("%s", (_name, groups, measured, capped) => {
        const e = citrixEvaluation(viewOf(hub(groups)), { measuredSiteBrokeredPerS: measured });
        expect(e.database.capped).toBe(capped);
        const judged = e.groups.filter((g) => g.prediction !== undefined);
        expect(judged).toHaveLength(groups);
        for (const g of judged) {
            const p = g.prediction!;
            const raw = predictGroupBrokering({ classes: p.classes.map((c) => ({ rttMs: c.rttMs, concurrency: c.concurrency })) });
            expect(p.worstMeanResponseS).toBeCloseTo(raw.worstMeanResponseS, 9);
            expect(g.brokeredPerS!).toBeCloseTo(raw.brokeredPerS, 9);
        }
        // The Site's sum is the locks' own rates added up; the database work is that sum times c.
        const sum = judged.reduce((total, g) => total + g.brokeredPerS!, 0);
        expect(e.database.brokeredPerS).toBeCloseTo(sum, 9);
        expect(e.database.databaseWorkS).toBeCloseTo(sum * e.database.workPerRequestS, 9);
        // Closed loop (Little's law): what a measured cap would multiply each response by.
        expect(e.database.responseScale).toBeCloseTo(capped ? sum / measured : 1, 9);
    });
});
