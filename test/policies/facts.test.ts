import { describe, expect, it } from "vitest";
import { readFacts } from "../../policies/support/facts";
import { numVs } from "../../policies/support/format";
import { describeValue, parseGoBool, parseGoInt, parsePlainDecimal } from "../../policies/support/values";
import { UNKNOWN_VALUE } from "../support/policyHarness";

describe("parsePlainDecimal", () => {
    it.each([
        ["12", 12], ["12.5", 12.5], [" 12 ", 12], ["0", 0], ["-5", -5], [".5", 0.5], [7, 7],
    ])("accepts %j as %j", (input, expected) => {
        expect(parsePlainDecimal(input)).toBe(expected);
    });
    it.each(["1e3", "160ms", "NaN", "Infinity", "", " ", "0x10", "1,5", "12.", null, true, {}, Number.NaN, Number.POSITIVE_INFINITY])("rejects %j", (input) => {
        expect(parsePlainDecimal(input)).toBeUndefined();
    });
});

describe("Go strconv parsing", () => {
    it.each([["4", 4], ["+4", 4], ["-3", -3], ["0", 0], [8, 8]])("ParseInt accepts %j", (input, expected) => {
        expect(parseGoInt(input)).toBe(expected);
    });
    it.each([" 4", "4.0", "4 ", "1e3", "", "0x10", "9223372036854775808", 4.5])("ParseInt rejects %j", (input) => {
        expect(parseGoInt(input)).toBeUndefined();
    });
    it.each([["true", true], ["True", true], ["TRUE", true], ["t", true], ["1", true], ["false", false], ["F", false], ["0", false], [true, true]])("ParseBool accepts %j", (input, expected) => {
        expect(parseGoBool(input)).toBe(expected);
    });
    it.each(["yes", "tRuE", " true", "", "2"])("ParseBool rejects %j", (input) => {
        expect(parseGoBool(input)).toBeUndefined();
    });
});

describe("describeValue never echoes long or odd values", () => {
    it.each([
        ["160ms", "\"160ms\""],
        ["s3cr3t-password-that-is-long", "a value of 28 characters"],
        ["a=b", "a value of 3 characters"],
        [[1, 2], "a list of 2 items"],
    ])("%j -> %s", (input, expected) => {
        expect(describeValue(input)).toBe(expected);
    });
});

describe("readFacts: the four places", () => {
    const cases: Array<[string, Record<string, unknown>]> = [
        ["tags map", { tags: { "perfguard:rttMs": "160" } }],
        ["tags list", { tags: ["owner=team", "perfguard:rttMs=160"] }],
        ["metadata", { metadata: [{ name: "perfguard:rttMs", value: "160" }] }],
        ["metadatas", { metadatas: [{ name: "perfguard:rttMs", value: "160" }] }],
        ["markers", { markers: [{ key: "perfguard:rttMs", values: ["160"] }] }],
        ["underscore prefix, any case", { tags: { "PERFGUARD_RTTMS": " 160 " } }],
    ];
    it.each(cases)("%s", (_name, props) => {
        const facts = readFacts(props);
        expect(facts.problems).toEqual([]);
        const rtt = facts.number("rttMs");
        expect(rtt.state).toBe("ok");
        expect(rtt.state === "ok" && rtt.value).toBe(160);
    });

    it("absent when no fact, unknown when a container is unknown", () => {
        expect(readFacts({ tags: { owner: "x" } }).number("rttMs").state).toBe("absent");
        expect(readFacts({ tags: UNKNOWN_VALUE }).number("rttMs").state).toBe("unknown");
        expect(readFacts({ tags: { "perfguard:rttMs": UNKNOWN_VALUE } }).number("rttMs").state).toBe("unknown");
    });

    it.each([
        ["unit suffix", { tags: { "perfguard:rttMs": "160ms" } }, /perfguard:rttMs in tags has "160ms", which is not a plain decimal of ms from 0 to 10000/],
        ["exponent", { tags: ["perfguard:rttMs=1e3"] }, /"1e3"/],
        ["negative", { tags: ["perfguard:rttMs=-5"] }, /"-5"/],
        ["out of range", { tags: ["perfguard:rttMs=20000"] }, /from 0 to 10000/],
        ["fraction for a count", { tags: ["perfguard:users=12.5"] }, /perfguard:users .* a whole number/],
        ["long value shown by length", { tags: { "perfguard:rttMs": "x".repeat(40) } }, /a value of 40 characters/],
        ["conflict", { tags: { "perfguard:rttMs": "160" }, metadata: [{ name: "perfguard:rttMs", value: "200" }] }, /2 different values \(160 in tags, 200 in metadata\)/],
        ["no value in a list entry", { tags: ["perfguard:rttMs"] }, /has no "=value"/],
        ["unknown key", { tags: { "perfguard:rtt": "160" } }, /unknown fact key "perfguard:rtt"/],
        ["bad enum", { tags: { "perfguard:sslKeyType": "dsa" } }, /one of ecc, rsa/],
        ["empty marker values", { markers: [{ key: "perfguard:l7Rps", values: [] }] }, /has no value/],
    ])("reports %s", (_name, props, pattern) => {
        const facts = readFacts(props);
        expect(facts.problems.map((p) => p.message).join("\n")).toMatch(pattern);
    });

    it("same value twice is not a conflict", () => {
        const facts = readFacts({ tags: { "perfguard:rttMs": "160" }, metadata: [{ name: "perfguard_rttms", value: "160.0" }] });
        expect(facts.problems).toEqual([]);
    });

    it("never throws on junk", () => {
        for (const junk of [null, 5, "x", [], { tags: 5 }, { tags: [null, 5, {}] }, { metadata: [null, { name: 5 }] }, { markers: [{ key: "perfguard:l7Rps", values: "x" }] }]) {
            expect(() => readFacts(junk)).not.toThrow();
        }
    });
});

describe("readFacts: keys that were meant as facts", () => {
    it.each([
        ["spaces around the key", { tags: { " perfguard:rttMs ": "160" } }],
        ["spaces in a metadata name", { metadata: [{ name: "perfguard:rttMs ", value: "160" }] }],
        ["spaces in a tags list entry", { tags: ["perfguard:rttMs = 160"] }],
    ])("accepts %s", (_name, props) => {
        const facts = readFacts(props);
        expect(facts.problems).toEqual([]);
        expect(facts.number("rttMs")).toMatchObject({ state: "ok", value: 160 });
    });
    it.each([
        ["perfgaurd:rttMs", { tags: { "perfgaurd:rttMs": "300" } }],
        ["perfguard-rttMs", { tags: ["perfguard-rttMs=300"] }],
        ["PerfGuard.rttMs", { metadata: [{ name: "PerfGuard.rttMs", value: "300" }] }],
        ["prefguard:l7Rps", { markers: [{ key: "prefguard:l7Rps", values: ["300"] }] }],
    ])("reports the near miss %s", (key, props) => {
        const facts = readFacts(props);
        expect(facts.problems.map((p) => p.message)).toEqual([expect.stringContaining(`key "${key}"`)]);
        expect(facts.problems[0].message).toContain("looks like a perfguard fact");
    });
    it.each(["performance:tier", "owner", "project", "pci-scope", "perf"])("leaves the ordinary tag %s alone", (key) => {
        expect(readFacts({ tags: { [key]: "x" } }).problems).toEqual([]);
    });
});

describe("readFacts: a misspelt enum value gets a suggestion, without echoing it", () => {
    it("suggests deliveryController", () => {
        const [problem] = readFacts({ tags: ["perfguard:citrixRole=deliveryControler"] }).problems;
        expect(problem.message).toBe("fact perfguard:citrixRole in tags list has a value of 17 characters, which is not one of deliveryController (did you mean deliveryController?)");
    });
});

describe("numVs", () => {
    it.each([
        [12.03, 12, "12.03"],
        [12.4, 12, "12.4"],
        [11.99, 12, "11.99"],
        [12, 12, "12"],
    ])("%s against %s prints %s", (value, threshold, shown) => {
        expect(numVs(value, threshold)).toBe(shown);
    });
});
