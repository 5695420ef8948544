/**
 * Waivers that expire: perfguard:waiveUntil=YYYY-MM-DD holds through that day (UTC); after it the
 * verdict returns at its level and names the expired waiver (not a perfguard-facts problem); a
 * date that does not parse waives nothing and is one. The clock is fixed (setWaiverClock).
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { citrixZoneRttLimit } from "../../../policies/citrix/citrix-zone-rtt-limit";
import { perfguardFacts } from "../../../policies/perfguard-facts";
import { parseMessage } from "../../../policies/pack/message";
import { setWaiverClock, waiverEnd } from "../../../policies/pack/waivers";
import { runResourcePolicy, TestResource } from "../../support/policyHarness";
import { citrixStack } from "../citrix/citrixFixtures";

const restore = setWaiverClock(() => new Date("2026-06-30T12:00:00Z"));
afterEach(() => {
    setWaiverClock(() => new Date("2026-06-30T12:00:00Z"));
});

function stackWith(extra: Array<{ name: string; value: string }>): TestResource[] {
    const stack = citrixStack({ rttMs: "260", throttles: ["4", "4"] });
    (stack[0].props.metadatas as Array<{ name: string; value: string }>).push(
        { name: "perfguard:waive", value: "citrix-zone-rtt-limit" },
        { name: "perfguard:waiveReason", value: "CHG-1234: Site split planned for Q3" },
        ...extra,
    );
    return stack;
}

type Outcome = { level: string; waived: boolean; expired: string | undefined; facts: string[] };

async function outcome(now: string, extra: Array<{ name: string; value: string }>): Promise<Outcome> {
    setWaiverClock(() => new Date(now));
    const stack = stackWith(extra);
    const [v] = await runResourcePolicy(citrixZoneRttLimit, stack);
    const facts = (await runResourcePolicy(perfguardFacts, stack)).map((f) => parseMessage(f.message).problem);
    return {
        level: v.enforcementLevel,
        waived: v.message.includes("\nwaived ("),
        expired: v.message.split("\n").find((l) => l.startsWith("waiver expired")),
        facts,
    };
}

describe("waiveUntil: a compliant baseline (no date), then one change each", () => {
    const until = (value: string) => [{ name: "perfguard:waiveUntil", value }];
    it.each<[string, string, Array<{ name: string; value: string }>, Outcome]>([
        ["baseline: no date, the waiver holds", "2026-06-30T12:00:00Z", [], { level: "advisory", waived: true, expired: undefined, facts: [] }],
        ["before the date: holds", "2026-06-29T23:59:59Z", until("2026-06-30"), { level: "advisory", waived: true, expired: undefined, facts: [] }],
        [
            "the last second of the date (UTC): holds",
            "2026-06-30T23:59:59.999Z",
            until("2026-06-30"),
            { level: "advisory", waived: true, expired: undefined, facts: [] },
        ],
        [
            "the day after: the verdict returns at its level, naming the expired waiver",
            "2026-07-01T00:00:00Z",
            until("2026-06-30"),
            {
                level: "mandatory",
                waived: false,
                facts: [],
                expired: 'waiver expired after 2026-06-30 (perfguard:waiveReason in metadatas: "CHG-1234: Site split planned for Q3")',
            },
        ],
        [
            "an owner is named in the expired line",
            "2027-01-01T00:00:00Z",
            [...until("2026-06-30"), { name: "perfguard:waiveOwner", value: "network team" }],
            {
                level: "mandatory",
                waived: false,
                facts: [],
                expired: 'waiver expired after 2026-06-30 (owner "network team"; perfguard:waiveReason in metadatas: "CHG-1234: Site split planned for Q3")',
            },
        ],
        [
            "a date that does not parse: no waiver, a perfguard-facts problem",
            "2026-06-01T00:00:00Z",
            until("30/06/2026"),
            {
                level: "mandatory",
                waived: false,
                expired: undefined,
                facts: ['Zone "emea-zone": perfguard:waiveUntil is not a date (YYYY-MM-DD), so the waiver holds nowhere and the verdicts keep their level.'],
            },
        ],
        [
            "a calendar date that does not exist is not a date",
            "2026-01-01T00:00:00Z",
            until("2026-02-30"),
            {
                level: "mandatory",
                waived: false,
                expired: undefined,
                facts: ['Zone "emea-zone": perfguard:waiveUntil is not a date (YYYY-MM-DD), so the waiver holds nowhere and the verdicts keep their level.'],
            },
        ],
    ])("%s", async (_name, now, extra, expected) => {
        expect(await outcome(now, extra)).toEqual(expected);
    });

    it("waiverEnd: the first instant after the day, UTC", () => {
        expect(waiverEnd("2026-12-31")).toBe(Date.UTC(2027, 0, 1));
        expect(waiverEnd("2024-02-29")).toBe(Date.UTC(2024, 2, 1));
        expect(waiverEnd("2025-02-29")).toBeUndefined();
        expect(waiverEnd("2026-1-5")).toBeUndefined();
    });
});

// Other files in this worker read the real clock again.
afterAll(() => {
    setWaiverClock(restore);
});
