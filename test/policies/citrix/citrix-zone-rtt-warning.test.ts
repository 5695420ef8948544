/**
 * citrix-zone-rtt-warning: the advisory band below citrix-zone-rtt-limit's limit (default
 * 225-250 ms). A compliant baseline (160 ms), one change per case; with the limit policy running
 * first, the band ends at its configured maxRttMs so a zone gets one verdict.
 */
import { describe, expect, it } from "vitest";
import { citrixZoneRttLimit } from "../../../policies/citrix/citrix-zone-rtt-limit";
import { citrixZoneRttWarning } from "../../../policies/citrix/citrix-zone-rtt-warning";
import { parseMessage } from "../../../policies/pack/message";
import { runPolicies } from "../../support/policyHarness";
import { citrixStack } from "./citrixFixtures";

describe("citrix-zone-rtt-warning: a compliant baseline and one change per case", () => {
    it.each([
        ["160 ms (baseline)", "160", {}, []],
        [
            "230 ms: in the band",
            "230",
            {},
            ['citrix-zone-rtt-warning: Zone "emea-zone" (name "emea") is 230 ms from the Site database, within 20 ms of the 250 ms limit.'],
        ],
        [
            "250 ms: the limit's verdict alone",
            "250",
            {},
            [
                'citrix-zone-rtt-limit: Zone "emea-zone" (name "emea") is 250 ms from the Site database, at or above the 250 ms limit: launches time out under load.',
            ],
        ],
        ["230 ms with warnAtRttMs 235: below the band", "230", { "citrix-zone-rtt-warning": { warnAtRttMs: 235 } }, []],
        [
            "230 ms with the limit at 230: the limit's verdict alone",
            "230",
            { "citrix-zone-rtt-limit": { maxRttMs: 230 } },
            [
                'citrix-zone-rtt-limit: Zone "emea-zone" (name "emea") is 230 ms from the Site database, at or above the 230 ms limit: launches time out under load.',
            ],
        ],
    ] as const)("%s", async (_name, rttMs, config, expected) => {
        const found = await runPolicies([citrixZoneRttLimit, citrixZoneRttWarning], citrixStack({ rttMs }), config);
        expect(found.map((v) => `${v.policyName}: ${parseMessage(v.message).problem}`)).toEqual(expected);
    });
    it("the band's basis names its ends, with the schema's default", async () => {
        const [v] = await runPolicies([citrixZoneRttWarning], citrixStack({ rttMs: "230" }));
        expect(parseMessage(v.message).basis[0]).toBe("band: warnAtRttMs 225 ms (default) to belowRttMs 250 ms (default)");
    });
});
