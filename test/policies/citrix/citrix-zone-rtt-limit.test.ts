/**
 * citrix-zone-rtt-limit: a zone at or above maxRttMs (default 250 ms, Citrix guidance) is a
 * mandatory verdict. A compliant baseline (160 ms), one change per case.
 */
import { describe, expect, it } from "vitest";
import { citrixZoneRttLimit } from "../../../policies/citrix/citrix-zone-rtt-limit";
import { parseMessage } from "../../../policies/pack/message";
import { runPolicies } from "../../support/policyHarness";
import { citrixStack } from "./citrixFixtures";

describe("citrix-zone-rtt-limit: a compliant baseline and one change per case", () => {
    it.each([
        ["160 ms (baseline)", "160", {}, undefined],
        ["249 ms: below the limit", "249", {}, undefined],
        [
            "250 ms: at the default limit",
            "250",
            {},
            'Zone "emea-zone" (name "emea") is 250 ms from the Site database, at or above the 250 ms limit: launches time out under load.',
        ],
        [
            "160 ms against maxRttMs 150",
            "160",
            { maxRttMs: 150 },
            'Zone "emea-zone" (name "emea") is 160 ms from the Site database, at or above the 150 ms limit: launches time out under load.',
        ],
    ] as const)("%s", async (_name, rttMs, config, problem) => {
        const found = await runPolicies([citrixZoneRttLimit], citrixStack({ rttMs }), { "citrix-zone-rtt-limit": config });
        expect(found.map((v) => parseMessage(v.message).problem)).toEqual(problem === undefined ? [] : [problem]);
        expect(found.every((v) => v.enforcementLevel === "mandatory")).toBe(true);
        if (problem !== undefined) {
            // The basis says whether the limit is the default (the schema's) or configured.
            expect(parseMessage(found[0].message).basis[0]).toMatch(
                Object.keys(config).length === 0
                    ? /^maxRttMs 250 ms \(default: Citrix guidance\)/
                    : /^maxRttMs 150 ms, set in the policy config; default 250 ms \(Citrix guidance\)/,
            );
        }
    });
});
