import { describe, expect, it } from "vitest";
import { diffVerdicts, Verdict } from "../../cli/diff/compare";

const ZONE = "urn:pulumi:dev::p::citrix:index/zone:Zone::emea";

function v(policy: string, level: Verdict["level"], problem: string, urn = ZONE): Verdict {
    return { policy, urn, entity: "citrix:index/zone:Zone: emea", level, problem, message: problem };
}

/** The baseline: one unreadable fact on the zone, and a capacity advisory. */
const BASE: Verdict[] = [
    v("perfguard-facts", "mandatory", '"perfguard:bogusA" is not read as a fact'),
    v("citrix-brokering-capacity", "advisory", "at 40 concurrent launches, mean 18.9 s > 12 s"),
];

describe("perfguard diff: verdicts compared per (policy, resource, level) as a multiset", () => {
    it.each<[string, Verdict[], string[]]>([
        ["the same verdicts: no change", BASE, []],
        ["the same verdicts in another order: no change", [...BASE].reverse(), []],
        [
            "a second perfguard-facts verdict on the same zone appears",
            [...BASE, v("perfguard-facts", "mandatory", '"perfguard:rtMs" is not read as a fact (did you mean perfguard:rttMs?)')],
            ['appeared mandatory perfguard-facts "perfguard:rtMs" is not read as a fact (did you mean perfguard:rttMs?)'],
        ],
        [
            "new numbers in the same verdict: no change (the figures say it)",
            [BASE[0], v("citrix-brokering-capacity", "advisory", "at 48 concurrent launches, mean 22.1 s > 12 s")],
            [],
        ],
        [
            "advisory to mandatory: one new mandatory verdict",
            [BASE[0], v("citrix-brokering-capacity", "mandatory", "at 40 concurrent launches, mean 18.9 s > 12 s")],
            ["appeared mandatory citrix-brokering-capacity at 40 concurrent launches, mean 18.9 s > 12 s (was advisory)"],
        ],
        [
            "mandatory to advisory: one gone mandatory verdict",
            [v("perfguard-facts", "advisory", '"perfguard:bogusA" is not read as a fact'), BASE[1]],
            ['disappeared mandatory perfguard-facts "perfguard:bogusA" is not read as a fact'],
        ],
        ["one of two gone", [BASE[1]], ['disappeared mandatory perfguard-facts "perfguard:bogusA" is not read as a fact']],
        [
            "a new verdict whose line sorts before an old one with new numbers: the new one appears",
            [...BASE, v("citrix-brokering-capacity", "advisory", "3 satellite zones allow 62 concurrent launches, above the 60")].map((x) =>
                x === BASE[1] ? v("citrix-brokering-capacity", "advisory", "at 48 concurrent launches, mean 22.1 s > 12 s") : x,
            ),
            ["appeared advisory citrix-brokering-capacity 3 satellite zones allow 62 concurrent launches, above the 60"],
        ],
        [
            "the same problem on another resource appears",
            [...BASE, v("perfguard-facts", "mandatory", '"perfguard:bogusA" is not read as a fact', `${ZONE}-2`)],
            ['appeared mandatory perfguard-facts "perfguard:bogusA" is not read as a fact'],
        ],
    ])("%s", (_name, head, expected) => {
        const changes = diffVerdicts(BASE, head).map(
            (c) => `${c.change} ${c.verdict.level} ${c.verdict.policy} ${c.verdict.problem}${c.was ? ` (was ${c.was})` : ""}`,
        );
        expect(changes).toEqual(expected);
    });

    it("a first deploy: every head verdict is new, two of one policy on one resource included", () => {
        const head = [...BASE, v("perfguard-facts", "mandatory", '"perfguard:rtMs" is not read as a fact')];
        expect(diffVerdicts([], head).map((c) => c.change)).toEqual(["appeared", "appeared", "appeared"]);
    });
});
