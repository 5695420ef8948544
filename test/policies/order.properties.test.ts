/**
 * The engine ranges over a Go sync.Map to send AnalyzeStack's resources, so their order varies
 * from run to run (issue 33: a "not checked" summary listed its zones in arrival order). Property:
 * for generated Citrix, NSX ALB and Xen stacks with unknowns, waivers and unparseable facts, any
 * shuffle of the resources gives the same `Policies:` section, byte for byte (the preview's own
 * renderer), not only the same verdict set.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { policies } from "../../policies";
import { formatPoliciesSection } from "../../preview/printViolations";
import type { Violation as PreviewViolation } from "../../preview/types";
import { runPolicies, TestResource, UNKNOWN_VALUE, urnOf } from "../support/policyHarness";
import { CATALOG, VM, ZONE } from "./citrix/citrixFixtures";
import { nsxStack, VS } from "./nsx-alb/nsxFixtures";
import { xenBaselineConfig, xenStack } from "./xen/xenFixtures";

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

/** A zone's RTT as a program may declare it: known, unknown in the preview, unparseable, absent. */
const rttArb = fc.constantFrom<string | undefined>("45", "160", "260", "300", UNKNOWN_VALUE, "160ms", undefined);
/** A controller's throttle: set, unknown, absent. */
const throttleArb = fc.constantFrom<string | undefined>("4", "12", UNKNOWN_VALUE, undefined);

interface ZoneSpec {
    rtt: string | undefined;
    peak: string | undefined;
    throttles: Array<string | undefined>;
    machines: number | string;
    waived: boolean;
}

const zoneArb: fc.Arbitrary<ZoneSpec> = fc.record({
    rtt: rttArb,
    peak: fc.constantFrom<string | undefined>("20", "80", UNKNOWN_VALUE, undefined),
    throttles: fc.array(throttleArb, { minLength: 0, maxLength: 2 }),
    machines: fc.constantFrom<number | string>(100, 900, UNKNOWN_VALUE),
    waived: fc.boolean(),
});

/** Zone names whose label order differs from their URN order (z160 < z90 as text, not as numbers). */
const ZONE_NAMES = ["z90", "z160", "Zeta", "alpha", "z2", "b-zone"];

function citrixZones(specs: ZoneSpec[]): TestResource[] {
    return specs.flatMap((z, i): TestResource[] => {
        const name = ZONE_NAMES[i];
        const metadatas = [
            ...(z.rtt === undefined ? [] : [{ name: "perfguard:rttMs", value: z.rtt }]),
            ...(z.peak === undefined ? [] : [{ name: "perfguard:peakConcurrentLaunches", value: z.peak }]),
            ...(z.waived ? [{ name: "perfguard:waive", value: "citrix-zone-rtt-warning: accepted until the link upgrade" }] : []),
        ];
        return [
            { type: ZONE, name: `${name}-zone`, props: { name, metadatas } },
            {
                type: CATALOG,
                name: `${name}-catalog`,
                props: { name: `${name}-catalog`, zone: UNKNOWN_VALUE, provisioningScheme: { numberOfTotalMachines: z.machines } },
                propertyDependencies: { zone: [`${name}-zone`] },
            },
            ...z.throttles.map((throttle, c): TestResource => ({
                type: VM,
                name: `${name}-ddc-${c + 1}`,
                props: {
                    name: `${name}-ddc-${c + 1}`,
                    extraConfig: {
                        "guestinfo.perfguard.citrixRole": "deliveryController",
                        "guestinfo.perfguard.citrixZone": name,
                        ...(throttle === undefined ? {} : { "guestinfo.perfguard.throttleMaxConcurrentTransactions": throttle }),
                    },
                },
            })),
        ];
    });
}

/** Extra virtual services whose SE group is unknown (each a "not checked" of the NSX policies). */
function unknownVss(count: number): TestResource[] {
    return Array.from({ length: count }, (_, i): TestResource => ({
        type: VS,
        name: `vs-${["q", "b", "m", "a"][i]}`,
        props: {
            name: `vs-${["q", "b", "m", "a"][i]}`,
            seGroupRef: UNKNOWN_VALUE,
            services: [{ port: "80" }],
            markers: [{ key: "perfguard:l7Rps", values: ["20000"] }],
        },
    }));
}

const stackArb = fc
    .record({
        zones: fc.array(zoneArb, { minLength: 1, maxLength: ZONE_NAMES.length }),
        vss: fc.integer({ min: 0, max: 4 }),
        nsx: fc.boolean(),
        xen: fc.boolean(),
    })
    .map(({ zones, vss, nsx, xen }) =>
        [...citrixZones(zones), ...(nsx ? nsxStack() : []), ...unknownVss(vss), ...(xen ? xenStack() : [])].map((r) => ({ ...r, urn: urnOf(r.type, r.name) })),
    );

/** The whole `Policies:` section the preview prints for these violations. */
async function policiesText(stack: TestResource[], config: Record<string, Record<string, unknown>>): Promise<string> {
    const violations = await runPolicies(policies, stack, config);
    const shown: PreviewViolation[] = violations.map((v) => ({
        policyName: v.policyName,
        policyPackName: "perfguard",
        policyPackVersion: "0.1.0",
        enforcementLevel: v.enforcementLevel,
        message: v.message,
        urn: v.urn,
        phase: "analyzeStack",
    }));
    return formatPoliciesSection([{ name: "perfguard", version: "0.1.0", localPath: "." }], shown, []);
}

describe("the Policies: text does not depend on resource order", () => {
    it("any shuffle of a generated stack prints the same section", async () => {
        const config = { "xen-guest-network-share": xenBaselineConfig(), "xen-dom0-workload": xenBaselineConfig() };
        await fc.assert(
            fc.asyncProperty(
                stackArb.chain((stack) => fc.tuple(fc.constant(stack), fc.shuffledSubarray(stack, { minLength: stack.length, maxLength: stack.length }))),
                async ([stack, shuffled]) => {
                    const forward = await policiesText(stack, config);
                    expect(forward).toContain("Policies:");
                    expect(await policiesText(shuffled, config)).toBe(forward);
                },
            ),
            { numRuns: RUNS },
        );
    });

    it("a not-checked summary lists its zones sorted whatever their order (the reported case)", async () => {
        const zones = citrixZones([
            { rtt: UNKNOWN_VALUE, peak: "20", throttles: ["12"], machines: 100, waived: false },
            { rtt: UNKNOWN_VALUE, peak: "20", throttles: ["12"], machines: 100, waived: false },
        ]).map((r) => ({ ...r, urn: urnOf(r.type, r.name) }));
        const forward = await policiesText(zones, {});
        const reversed = await policiesText([...zones].reverse(), {});
        expect(reversed).toBe(forward);
        // "z160" sorts before "z90" as text: the summary names them in that order.
        expect(forward).toMatch(/z160[^\n]*z90/);
    });
});
