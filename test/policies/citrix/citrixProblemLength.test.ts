/**
 * Every Citrix problem line stays within 160 characters whatever the length of the names it gives
 * (up to NAME_MAX, 40: longer ones are shortened by shortName): a property over name lengths, on
 * Sites that bring out every Citrix verdict, not one hand-picked stack.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { parseMessage } from "../../../policies/pack/message";
import { runPolicies, TestResource } from "../../support/policyHarness";
import { changed, siteOf, SiteSpec } from "./citrixSpec";

/** Sites, each bringing out some Citrix verdicts (the names are replaced per run). */
const SITES: Record<string, SiteSpec> = {
    // A group over its lock (broker-throttle), slow (capacity), long launch; a 260 ms zone (rtt limit).
    overExposed: {
        zones: [
            { name: "za", rtt: 160, peak: 48, users: 40000 },
            { name: "zb", rtt: 260, peak: 20, users: 1000 },
        ],
        groups: [
            { name: "ga", zone: "za" },
            { name: "gb", zone: "zb" },
        ],
        controllers: [
            { name: "ca", zone: "za", throttle: 24 },
            { name: "cb", zone: "za", throttle: 24 },
            { name: "cc", zone: "zb", throttle: 20 },
        ],
    },
    // One unthrottled controller over the limit, and one within it; a 240 ms zone (rtt warning).
    unthrottled: {
        zones: [
            { name: "za", rtt: 160, peak: 40, users: 1000 },
            { name: "zb", rtt: 240, peak: 10, users: 500 },
        ],
        groups: [],
        controllers: [
            { name: "ca", zone: "za", throttle: 12 },
            { name: "cb", zone: "za" },
            { name: "cc", zone: "zb" },
            { name: "cd", zone: "zb", throttle: 5 },
        ],
    },
    // Several unthrottled controllers of one zone: one verdict on the zone.
    severalUnthrottled: {
        zones: [{ name: "za", rtt: 160, peak: 20, users: 1000 }],
        groups: [],
        controllers: [
            { name: "ca", zone: "za" },
            { name: "cb", zone: "za" },
            { name: "cc", zone: "za" },
        ],
    },
    // A group spanning a primary and a satellite zone (span advisory), storms over the Site's cap, satellites over 60.
    spanning: {
        zones: [
            { name: "za", rtt: 10, peak: 60, users: 20000 },
            { name: "zb", rtt: 160, peak: 40, users: 5000 },
            { name: "zc", rtt: 120, peak: 40, users: 5000 },
        ],
        groups: [
            { name: "ga", zone: "za", zones: ["za", "zb"] },
            { name: "gc", zone: "zc" },
        ],
        controllers: [
            { name: "ca", zone: "za", throttle: 60 },
            { name: "cb", zone: "zb", throttle: 40 },
            { name: "cc", zone: "zc", throttle: 40 },
        ],
    },
    // A zone with no controller in the stack (requireControllersInStack).
    noControllers: { zones: [{ name: "za", rtt: 160, peak: 20, users: 1000 }], groups: [{ name: "ga", zone: "za", machines: 12000 }], controllers: [] },
};

const CONFIG = { "citrix-broker-throttle": { requireControllersInStack: true } };

/** The spec with its short names ("za", "ga", "ca") replaced by `names` (their resource names get "-zone", "-group"). */
function renamed(spec: SiteSpec, names: Record<string, string>): SiteSpec {
    const n = (x: string) => names[x] ?? x;
    return changed(spec, (s) => {
        s.zones.forEach((z) => {
            z.name = n(z.name);
        });
        s.groups.forEach((g) => {
            g.name = n(g.name);
            g.zone = n(g.zone);
            if (g.zones) g.zones = g.zones.map(n);
        });
        s.controllers.forEach((c) => {
            c.name = n(c.name);
            c.zone = n(c.zone);
        });
    });
}

/** A name of 1..40 characters (a DNS-like alphabet: quotes and control characters are escaped elsewhere). */
const nameArb = fc
    .constantFrom(1, 8, 20, 30, 36, 38, 39, 40)
    .chain((length) => fc.string({ unit: fc.constantFrom(...Array.from("abcdefghijklmnopqrstuvwxyz0123456789-")), minLength: length, maxLength: length }));
const KEYS = ["za", "zb", "zc", "ga", "gb", "gc", "ca", "cb", "cc", "cd"];

async function problems(resources: TestResource[]): Promise<string[]> {
    return (await runPolicies(policies, resources, CONFIG)).filter((v) => v.policyName.startsWith("citrix-")).map((v) => parseMessage(v.message).problem);
}

describe("every Citrix problem line is at most 160 characters with names up to 40 characters", () => {
    it.each(Object.keys(SITES))("%s, every name 40 characters (the longest)", async (site) => {
        const names = Object.fromEntries(KEYS.map((k, i) => [k, `${k}${String(i).repeat(38)}`.slice(0, 40)]));
        const found = await problems(siteOf(renamed(SITES[site], names)));
        expect(found.length).toBeGreaterThan(0);
        for (const p of found) {
            expect(p.length, p).toBeLessThanOrEqual(160);
        }
    });
    it("any mix of name lengths, on every site", async () => {
        await fc.assert(
            fc.asyncProperty(fc.constantFrom(...Object.keys(SITES)), fc.tuple(...KEYS.map(() => nameArb)), async (site, list) => {
                // Distinct names: two zones sharing one would be one zone.
                const names = Object.fromEntries(KEYS.map((k, i) => [k, list[i].slice(0, 38) + String.fromCharCode(97 + i)]));
                for (const p of await problems(siteOf(renamed(SITES[site], names)))) {
                    expect(p.length, p).toBeLessThanOrEqual(160);
                }
            }),
            { numRuns: 40 },
        );
    }, 120_000);
});
