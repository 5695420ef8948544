/**
 * Under the Site database's cap a closed loop keeps its requests in flight: each lock's mean
 * response = concurrency / throughput (Little's law), so lowering brokered/s raises the response.
 * A compliant baseline (one group, below the cap) and one change (four groups, capped).
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
    return new StackView(resources.map((r) => new ResourceView(urns.get(r.name)!, r.type, r.name, structuredClone(r.props),
        Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [k, names.map((n) => urns.get(n)!)])))));
}

/** A 10 ms zone, peak 60, four controllers at 15, `groups` Delivery Groups of 50 machines each. */
function hub(groups: number): TestResource[] {
    return [
        { type: ZONE, name: "hub-zone", props: { name: "hub", metadatas: [{ name: "perfguard:rttMs", value: "10" }, { name: "perfguard:peakConcurrentLaunches", value: "60" }, { name: "perfguard:users", value: "10000" }] } },
        ...[1, 2, 3, 4].map((i): TestResource => ({ type: VM, name: `ddc-hub-${i}`, props: { extraConfig: {
            "guestinfo.perfguard.citrixRole": "deliveryController", "guestinfo.perfguard.citrixZone": "hub", "guestinfo.perfguard.throttleMaxConcurrentTransactions": "15",
        } } })),
        ...Array.from({ length: groups }, (_, k) => k + 1).flatMap((i): TestResource[] => [
            { type: CATALOG, name: `cat-${i}`, props: { zone: UNKNOWN_VALUE, provisioningScheme: { numberOfTotalMachines: 50 } }, propertyDependencies: { zone: ["hub-zone"] } },
            { type: GROUP, name: `dg-${i}`, props: { associatedMachineCatalogs: [{ machineCatalog: UNKNOWN_VALUE, machineCount: 50 }] }, propertyDependencies: { associatedMachineCatalogs: [`cat-${i}`] } },
        ]),
    ];
}

describe("Site database cap: the mean response follows Little's law", () => {
    it.each([
        ["one group, below the cap (baseline)", 1, false],
        ["four groups at once: capped, each response raised by uncapped / capped brokered/s", 4, true],
    ])("%s", (_name, groups, capped) => {
        const e = citrixEvaluation(viewOf(hub(groups)));
        expect(e.database.capped).toBe(capped);
        const judged = e.groups.filter((g) => g.prediction !== undefined);
        expect(judged).toHaveLength(groups);
        const scale = capped ? e.database.uncappedPerS / e.database.brokeredPerS : 1;
        expect(scale).toBeGreaterThanOrEqual(1);
        for (const g of judged) {
            const p = g.prediction!;
            const raw = predictGroupBrokering({ classes: p.classes.map((c) => ({ rttMs: c.rttMs, concurrency: c.concurrency })) });
            expect(p.worstMeanResponseS).toBeCloseTo(raw.worstMeanResponseS * scale, 6);
            // The prediction's throughput is the capped one the group reports.
            expect(p.brokeredPerS).toBeCloseTo(g.brokeredPerS!, 6);
            if (capped) {
                // Closed loop: concurrency / throughput, within the model's own N = X R (10%).
                expect(p.worstMeanResponseS).toBeGreaterThan(0.9 * p.concurrency / p.brokeredPerS);
                expect(p.worstMeanResponseS).toBeLessThan(1.1 * p.concurrency / p.brokeredPerS);
            }
        }
    });
});
