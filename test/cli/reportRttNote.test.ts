import { describe, expect, it } from "vitest";
import { citrixSection } from "../../cli/report/citrix";
import { ResourceView, StackView } from "../../policies/pack/resources";
import { TestResource, urnOf } from "../support/policyHarness";
import { siteOf, SiteSpec } from "../policies/citrix/citrixSpec";

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

const spec = (rtt: number): SiteSpec => ({
    zones: [{ name: "z", rtt, peak: 12 }],
    groups: [{ name: "g", zone: "z" }],
    controllers: [
        { name: "ddc-1", zone: "z", throttle: 6 },
        { name: "ddc-2", zone: "z", throttle: 6 },
    ],
});

describe("check --report carries the RTT coverage the verdicts' Basis gives", () => {
    it.each([
        ["160 ms, measured: no note", 160, undefined],
        ["120 ms: interpolated", 120, "120 ms (interpolated between 90 and 160 ms)"],
        ["300 ms: extrapolated", 300, "300 ms (extrapolated beyond 250 ms)"],
    ] as const)("%s", (_name, rtt, expected) => {
        const section = citrixSection(viewOf(siteOf(spec(rtt))), {});
        if (expected === undefined) {
            expect(section).not.toMatch(/interpolated|extrapolated/);
            expect(section).toContain("| 160 ms |");
        } else {
            expect(section).toContain(expected);
        }
    });
});
