/**
 * citrix-site-limits per Site (issue 32): a Site is its provider's endpoint (hostname, or
 * customerId in Citrix Cloud), so two Sites in one stack are judged apart; providers whose
 * endpoints cannot be told apart are "not checked", never summed silently.
 */
import { describe, expect, it } from "vitest";
import { citrixSiteLimits } from "../../../policies/citrix/citrix-site-limits";
import { parseMessage } from "../../../policies/pack/message";
import { runStackPolicy, TestResource, UNKNOWN_VALUE, verdicts } from "../../support/policyHarness";
import { onProvider, ProviderProps, vdaSite } from "./citrixSites";

const DEFAULTS = { maxZonesPerSite: 50, maxVdasPerZone: 10000, maxVdasPerSite: 40000 };

/** 20,500 VDAs per Site: within 40,000 alone, 41,000 summed. */
const HALF = [10000, 10000, 500];

function twoSites(a: ProviderProps | undefined, b: ProviderProps | undefined, machinesA = HALF): TestResource[] {
    return [...onProvider(vdaSite("a", machinesA), "site-a", a), ...onProvider(vdaSite("b", HALF), "site-b", b)];
}

describe("citrix-site-limits: VDAs per Site, each Site by its provider's endpoint", () => {
    it.each([
        [
            "two Sites by hostname, 20,500 VDAs each (baseline): no per-Site verdict",
            twoSites({ hostname: "ddc.emea.example.com" }, { hostname: "ddc.apac.example.com" }),
            [],
            undefined,
        ],
        [
            "one by hostname, one a Citrix Cloud customer: two Sites",
            twoSites({ hostname: "ddc.emea.example.com" }, { customerId: "acme", hostname: "api.cloud.com" }),
            [],
            undefined,
        ],
        [
            "two Citrix Cloud customers through one API host: two Sites",
            twoSites({ customerId: "acme", hostname: "api.cloud.com" }, { customerId: "globex", hostname: "api.cloud.com" }),
            [],
            undefined,
        ],
        [
            "endpoints under cvadConfig (its JSON text, as the engine stores it): two Sites",
            twoSites(
                { cvadConfig: JSON.stringify({ hostname: "ddc.emea.example.com" }) },
                { cvadConfig: JSON.stringify({ hostname: "ddc.apac.example.com" }) },
            ),
            [],
            undefined,
        ],
        [
            "one Site of 41,000 (no provider declares an endpoint): the verdict",
            twoSites(undefined, undefined),
            ["citrix-site-limits -> (stack)"],
            /^This stack's 6 Citrix zones hold 41000 machines, more than the 40000 VDAs per Site/,
        ],
        [
            "two providers of one Site (same hostname, other case): the verdict",
            twoSites({ hostname: "ddc.example.com" }, { hostname: "DDC.example.com" }),
            ["citrix-site-limits -> (stack)"],
            /^This stack's 6 Citrix zones hold 41000 machines, more than the 40000 VDAs per Site/,
        ],
        [
            "Site A alone above 40,000: the verdict names its provider",
            twoSites({ hostname: "ddc.emea.example.com" }, { hostname: "ddc.apac.example.com" }, [10000, 10000, 10000, 10000, 500]),
            ["citrix-site-limits -> (stack)"],
            /^The 5 Citrix zones of the Site of citrix provider "site-a" hold 40500 machines, more than the 40000 VDAs per Site/,
        ],
        [
            "two providers with unknown endpoints: not checked, naming why",
            twoSites({ hostname: UNKNOWN_VALUE }, { hostname: UNKNOWN_VALUE }),
            ["citrix-site-limits -> (stack)"],
            /41000 machines in 6 Citrix zones against maxVdasPerSite 40000: the Citrix Sites cannot be told apart: the endpoint of providers "site-a", "site-b" is unknown/,
        ],
        [
            "a hostname and a provider without one: not checked",
            twoSites({ hostname: "ddc.emea.example.com" }, {}),
            ["citrix-site-limits -> (stack)"],
            /Sites cannot be told apart: some zones' provider declares hostname or customerId, others' none/,
        ],
    ] as const)("%s", async (_name, resources, expected, problem) => {
        const found = await runStackPolicy(citrixSiteLimits, [...resources], DEFAULTS);
        expect(verdicts(found)).toEqual(expected);
        if (problem !== undefined) {
            // A verdict's problem line; a "not checked" message's reason is in its Basis.
            const message = found[0].message;
            expect(message.includes("not checked, for") ? message : parseMessage(message).problem).toMatch(problem);
        }
        // The endpoint is the Site's identity, never echoed.
        expect(found.map((v) => v.message).join("\n")).not.toMatch(/example\.com|acme|globex/);
    });

    it("unknown endpoints within the limit summed: a pass (the sum bounds every Site)", async () => {
        const found = await runStackPolicy(citrixSiteLimits, twoSites({ hostname: UNKNOWN_VALUE }, { hostname: UNKNOWN_VALUE }, [500]), DEFAULTS);
        expect(verdicts(found)).toEqual([]);
    });
});
