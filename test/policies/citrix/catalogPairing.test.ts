/**
 * Machines per catalog from what is known (issue 33): one Delivery Group over a 900-VDA catalog in
 * a 2 ms zone and a 100-VDA catalog in a 160 ms zone, and reversed. A preview does not say which
 * machineCount is whose (the refs are unknown; a property dependency is per top-level property):
 * counts that equal the catalogs' own numberOfTotalMachines one to one are theirs, else each
 * catalog's own size capped at the group's total, an even split only where no size is known. The
 * literal counts (either order), counts through apply() (unknown) and the deployed state (joined by
 * id) give the same machines per zone, so the same verdicts, message text included.
 */
import { describe, expect, it } from "vitest";
import type { Policy } from "@pulumi/policy";
import { citrixBrokerThrottle } from "../../../policies/citrix/citrix-broker-throttle";
import { citrixBrokeringCapacity } from "../../../policies/citrix/citrix-brokering-capacity";
import { citrixSiteDatabaseLoad } from "../../../policies/citrix/citrix-site-database-load";
import { citrixSiteLimits } from "../../../policies/citrix/citrix-site-limits";
import { citrixSite } from "../../../policies/citrix/site";
import { stackOf } from "../../../policies/pack/resources";
import { runPolicies, TestResource, UNKNOWN_VALUE, urnOf } from "../../support/policyHarness";
import { CATALOG, VM, ZONE } from "./citrixFixtures";

const GROUP = "citrix:index/deliveryGroup:DeliveryGroup";
const POLICIES: Policy[] = [citrixBrokerThrottle, citrixBrokeringCapacity, citrixSiteLimits, citrixSiteDatabaseLoad];

type Form = "literal" | "literal, entries reversed" | "apply()" | "state (by id)";
const FORMS: Form[] = ["literal", "literal, entries reversed", "apply()", "state (by id)"];

/** Zone "primary" at 2 ms and "latam" at 160 ms (controllers throttled at 12); group "office" (peak 60) over a catalog in each. */
function site(primaryVdas: number, latamVdas: number, form: Form, catalogSizes: [number | string, number | string] = [primaryVdas, latamVdas]): TestResource[] {
    const state = form === "state (by id)";
    const zone = (name: string, rtt: string): TestResource => ({
        type: ZONE,
        name: `${name}-zone`,
        props: { name, ...(state ? { id: `zone-${name}` } : {}), metadatas: [{ name: "perfguard:rttMs", value: rtt }] },
    });
    const ddc = (zoneName: string, i: number): TestResource => ({
        type: VM,
        name: `ddc-${zoneName}-${i}`,
        props: {
            extraConfig: {
                "guestinfo.perfguard.citrixRole": "deliveryController",
                "guestinfo.perfguard.citrixZone": zoneName,
                "guestinfo.perfguard.throttleMaxConcurrentTransactions": "12",
            },
        },
    });
    const catalog = (name: string, zoneName: string, size: number | string): TestResource => ({
        type: CATALOG,
        name,
        props: { ...(state ? { id: `id-${name}`, zone: `zone-${zoneName}` } : { zone: UNKNOWN_VALUE }), provisioningScheme: { numberOfTotalMachines: size } },
        propertyDependencies: { zone: [`${zoneName}-zone`] },
    });
    const entries = [
        { machineCatalog: state ? "id-primary-catalog" : UNKNOWN_VALUE, machineCount: form === "apply()" ? UNKNOWN_VALUE : primaryVdas },
        { machineCatalog: state ? "id-latam-catalog" : UNKNOWN_VALUE, machineCount: form === "apply()" ? UNKNOWN_VALUE : latamVdas },
    ];
    return [
        zone("primary", "2"),
        ddc("primary", 1),
        ddc("primary", 2),
        catalog("primary-catalog", "primary", catalogSizes[0]),
        zone("latam", "160"),
        ddc("latam", 1),
        ddc("latam", 2),
        catalog("latam-catalog", "latam", catalogSizes[1]),
        {
            type: GROUP,
            name: "office",
            // The group's own peak, split over its zones by machines: the pairing decides each zone's share.
            props: {
                associatedMachineCatalogs: form === "literal, entries reversed" ? [...entries].reverse() : entries,
                metadatas: [{ name: "perfguard:peakConcurrentLaunches", value: "60" }],
            },
            propertyDependencies: { associatedMachineCatalogs: ["primary-catalog", "latam-catalog"] },
        },
    ];
}

/** Machines of group "office" per zone, as the stack reader pairs them. */
function machinesPerZone(stack: TestResource[]): Record<string, number> {
    const view = stackOf(stack.map((r) => ({ ...r, urn: urnOf(r.type, r.name), ...depsOf(r, stack) })) as never);
    const group = citrixSite(view).groups.find((g) => g.resource.name === "office");
    return Object.fromEntries((group?.shares ?? []).map((s) => [s.zone.zoneName, s.machines]));
}

/** The harness's propertyDependencies (names) as the resource objects stackOf reads. */
function depsOf(r: TestResource, stack: TestResource[]): { propertyDependencies: Record<string, unknown[]> } {
    const byName = new Map(stack.map((x) => [x.name, x]));
    return {
        propertyDependencies: Object.fromEntries(
            Object.entries(r.propertyDependencies ?? {}).map(([k, names]) => [
                k,
                names.map((n) => {
                    const d = byName.get(n) as TestResource;
                    return { urn: urnOf(d.type, d.name), type: d.type, name: d.name, props: d.props };
                }),
            ]),
        ),
    };
}

async function policiesText(stack: TestResource[]): Promise<string[]> {
    return (await runPolicies(POLICIES, stack))
        .map((v) => `${v.policyName} ${v.urn?.split("::").pop() ?? "(stack)"} ${v.enforcementLevel}\n${v.message}`)
        .sort();
}

describe("machines per catalog from what is known", () => {
    describe.each([
        ["900 VDAs at 2 ms, 100 at 160 ms", 900, 100],
        ["reversed: 100 VDAs at 2 ms, 900 at 160 ms", 100, 900],
    ])("%s", (_label, primary, latam) => {
        it.each(FORMS)("%s: each zone gets its catalog's machines, not an even split", (form) => {
            expect(machinesPerZone(site(primary, latam, form))).toEqual({ primary, latam });
        });

        it("every form gives the same verdicts, message text included, and none says the machines were split evenly", async () => {
            const texts = await Promise.all(FORMS.map(async (form) => policiesText(site(primary, latam, form))));
            for (const t of texts.slice(1)) {
                expect(t).toEqual(texts[0]);
            }
            expect(texts[0].join("\n")).not.toContain("split evenly");
        });
    });

    it("the 900 VDAs at 160 ms block (mandatory), the 100 there only advise or pass: the pairing decides", async () => {
        const heavy = await runPolicies(POLICIES, site(100, 900, "literal"));
        const light = await runPolicies(POLICIES, site(900, 100, "literal"));
        const mandatory = (vs: typeof heavy) =>
            vs
                .filter((v) => v.enforcementLevel === "mandatory")
                .map((v) => v.policyName)
                .sort();
        expect(mandatory(heavy).length).toBeGreaterThan(0);
        expect(mandatory(light)).toEqual([]);
    });

    const cases: Array<[string, [number | string, number | string], number, number, Record<string, number>, boolean]> = [
        // Counts that do not match the sizes: each catalog's own size, capped at the group's total.
        ["sizes 900 and 300, counts 500 + 100: own sizes capped at 600", [900, 300], 500, 100, { primary: 600, latam: 300 }, false],
        // One size unknown: that catalog takes an even share of the total, named as an even split.
        ["sizes unknown and 100, counts 900 + 100", [UNKNOWN_VALUE, 100], 900, 100, { primary: 500, latam: 100 }, true],
        ["both sizes unknown, counts 900 + 100: an even split", [UNKNOWN_VALUE, UNKNOWN_VALUE], 900, 100, { primary: 500, latam: 500 }, true],
    ];
    it.each(cases)("%s", (_label, sizes, primary, latam, expected, even) => {
        const stack = site(primary, latam, "literal", sizes);
        expect(machinesPerZone(stack)).toEqual(expected);
        const view = stackOf(stack.map((r) => ({ ...r, urn: urnOf(r.type, r.name), ...depsOf(r, stack) })) as never);
        expect(citrixSite(view).groups.find((g) => g.resource.name === "office")?.evenSplit).toBe(even);
    });
});
