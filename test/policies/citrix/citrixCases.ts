/**
 * Site designs the Citrix policy tests share (folded from the review rounds' files): each a
 * compliant or named starting point that a test changes once per case.
 */
import { ResourceView, StackView } from "../../../policies/pack/resources";
import { TestResource, urnOf, Violation } from "../../support/policyHarness";
import { changed, SiteSpec } from "./citrixSpec";

/** The resources as one stack's view (what the evaluation reads). */
export function viewOf(resources: TestResource[]): StackView {
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

/** `policy`'s violations on `resource` ("(stack)": on the stack). */
export function on(found: Violation[], policy: string, resource: string): Violation[] {
    return found.filter(
        (v) =>
            v.policyName === policy &&
            (resource === "(stack)" ? !v.urn || v.urn.endsWith("::perfguard-test") || !v.urn.includes("citrix") : v.urn?.endsWith(`::${resource}`)),
    );
}

/** One 45 ms zone, peak 60, one controller at 60: one lock at 60 meets the targets (8.1 s). */
export const SATELLITE: SiteSpec = {
    zones: [{ name: "a45", rtt: 45, peak: 60, users: 8000 }],
    groups: [{ name: "ag", zone: "a45" }],
    controllers: [{ name: "ddc-a1", zone: "a45", throttle: 60 }],
};

/** The same with a 2 ms primary zone and a second 45 ms zone storming at once: 35.2/s wanted of 23.2/s. */
export const CROWDED = changed(SATELLITE, (s) => {
    s.zones.push({ name: "primary", rtt: 2, peak: 60, users: 50000 }, { name: "b45", rtt: 45, peak: 60, users: 8000 });
    s.groups.push({ name: "pg", zone: "primary" }, { name: "bg", zone: "b45" });
    s.controllers.push({ name: "ddc-p1", zone: "primary", throttle: 60 }, { name: "ddc-b1", zone: "b45", throttle: 60 });
});

/** Three 10 ms groups in zone a and one 45 ms group in zone b storming at once: 61.4/s wanted of 23.2/s. */
export const FOUR_GROUPS: SiteSpec = {
    zones: [
        { name: "a", rtt: 10, peak: 60, users: 20000 },
        { name: "b", rtt: 45, peak: 40, users: 9000 },
    ],
    groups: [
        { name: "g1", zone: "a" },
        { name: "g2", zone: "a" },
        { name: "g3", zone: "a" },
        { name: "gb", zone: "b" },
    ],
    controllers: [
        { name: "d1", zone: "a", throttle: 60 },
        { name: "d2", zone: "b", throttle: 40 },
    ],
};

/** Zone a at 160 ms, peak 24, two controllers at 12: one lock at its 24, every target met. */
export const ONE_ZONE: SiteSpec = {
    zones: [{ name: "a", rtt: 160, peak: 24, users: 2000 }],
    groups: [{ name: "g", zone: "a" }],
    controllers: [
        { name: "d1", zone: "a", throttle: 12 },
        { name: "d2", zone: "a", throttle: 12 },
    ],
};

/** Two 10 ms zones, one group each at 60 with throttles of 60: 40.8/s wanted of 23.2/s. */
export const TWO_STORMS: SiteSpec = {
    zones: [
        { name: "a", rtt: 10, peak: 60, users: 20000 },
        { name: "b", rtt: 10, peak: 60, users: 20000 },
    ],
    groups: [
        { name: "g1", zone: "a" },
        { name: "g2", zone: "b" },
    ],
    controllers: [
        { name: "d1", zone: "a", throttle: 60 },
        { name: "d2", zone: "b", throttle: 60 },
    ],
};

/** A 10 ms primary and a 160 ms satellite sharing one group, throttles 10 and 5: within what the lock sustains. */
export const SPANNING: SiteSpec = {
    zones: [
        { name: "p", rtt: 10, peak: 20, users: 1000 },
        { name: "s", rtt: 160, peak: 10, users: 500 },
    ],
    groups: [{ name: "g", zone: "p", zones: ["p", "s"] }],
    controllers: [
        { name: "d1", zone: "p", throttle: 10 },
        { name: "d2", zone: "s", throttle: 5 },
    ],
};
