// Config reconciliation and validation in the CLI's order: defaults < initial config < file.
import { describe, expect, it } from "vitest";
import { PreviewError } from "../../preview/errors";
import { AnalyzerInfo } from "../../preview/packClient";
import { missingLevelLine, parsePolicyConfig, reconcilePolicyConfig, validatePolicyProperties } from "../../preview/policyConfig";

const info: AnalyzerInfo = {
    name: "pack",
    displayName: "",
    version: "1.2.3",
    supportsConfig: true,
    policies: [
        {
            name: "rtt",
            displayName: "",
            description: "",
            enforcementLevel: "mandatory",
            policyType: "stack",
            configSchema: { properties: { maxRttMs: { type: "number", default: 90 }, site: { type: "string" } }, required: ["maxRttMs"] },
        },
        { name: "plain", displayName: "", description: "", enforcementLevel: "advisory", policyType: "resource" },
    ],
    initialConfig: { rtt: { enforcementLevel: "advisory", properties: { site: "east" } } },
};

describe("reconcilePolicyConfig", () => {
    it("layers schema defaults, the pack's initial config, then the file", () => {
        const { config } = reconcilePolicyConfig(info, parsePolicyConfig({ rtt: { maxRttMs: 45 } }));
        expect(config.rtt).toEqual({ enforcementLevel: "advisory", properties: { maxRttMs: 45, site: "east" } });
        expect(config.plain).toEqual({ enforcementLevel: "advisory" });
    });

    it("applies `all` to every level first, then per-policy keys", () => {
        const { config } = reconcilePolicyConfig(info, parsePolicyConfig({ all: "disabled", plain: "mandatory" }));
        expect(config.rtt.enforcementLevel).toBe("disabled");
        expect(config.plain.enforcementLevel).toBe("mandatory");
    });

    it("names the policy and field of every schema violation", () => {
        const run = () => reconcilePolicyConfig(info, parsePolicyConfig({ rtt: { maxRttMs: "slow", site: 3 } }));
        expect(run).toThrow(PreviewError);
        expect(run).toThrow("validating policy config: pack 1.2.3  rtt: maxRttMs: Invalid type. Expected: number, given: string");
        expect(run).toThrow("rtt: site: Invalid type. Expected: string, given: integer");
    });

    it("forwards unknown policy names with a level, as the CLI does, and lists them", () => {
        const { config, unknownPolicies } = reconcilePolicyConfig(info, parsePolicyConfig({ ghost: "mandatory" }));
        expect(unknownPolicies).toEqual(["ghost"]);
        expect(config.ghost).toEqual({ enforcementLevel: "mandatory" });
    });

    it("rejects an unknown policy name without a level, as the CLI's Configure does", () => {
        expect(() => reconcilePolicyConfig(info, parsePolicyConfig({ ghost: { x: 1 } }))).toThrow("invalid enforcement level");
    });

    it.each([
        ["pln", "mandatory", "plain"],
        ["Plain", "mandatory", "plain"],
        ["rttt", { enforcementLevel: "disabled" }, "rtt"],
        ["ghost", "mandatory", undefined],
    ] as const)("suggests the closest policy for the unknown name %s given with a level", (name, value, expected) => {
        const { unknownPolicies, suggestions } = reconcilePolicyConfig(info, parsePolicyConfig({ [name]: value }));
        expect(unknownPolicies).toEqual([name]);
        expect(suggestions[name]).toBe(expected);
    });

    // The CLI's line first, exactly (pulumi preview names the pack path; policy analyze does not),
    // then perfguard's own line, marked, with the key and the suggestion.
    it.each([
        [
            { pln: { x: 1 } },
            "/packs/p",
            'configuring policy pack "pack" at "/packs/p": invalid enforcement level ""',
            'perfguard: "pln" has no enforcementLevel and is not a policy of pack: did you mean "plain"?',
        ],
        [
            { pln: { x: 1 } },
            undefined,
            'configuring policy pack "pack": invalid enforcement level ""',
            'perfguard: "pln" has no enforcementLevel and is not a policy of pack: did you mean "plain"?',
        ],
        [
            { all: { x: 1 } },
            ".",
            'configuring policy pack "pack" at ".": invalid enforcement level ""',
            'perfguard: "all" has settings but no enforcementLevel ("all" takes only a level)',
        ],
        [
            { zz: { x: 1 }, ghost: { y: 2 } },
            ".",
            'configuring policy pack "pack" at ".": invalid enforcement level ""',
            'perfguard: "ghost" has no enforcementLevel and is not a policy of pack; "zz" has no enforcementLevel and is not a policy of pack',
        ],
    ] as const)("prints the CLI's Configure error for %j without a level, then perfguard's line", (config, packPath, cliLine, ownLine) => {
        let message = "";
        try {
            reconcilePolicyConfig(info, parsePolicyConfig(config), packPath);
        } catch (err) {
            message = (err as Error).message;
        }
        expect(message.split("\n")).toEqual([cliLine, ownLine]);
    });

    it("names a key too long to be a typo by its length only", () => {
        const long = "x".repeat(80);
        expect(missingLevelLine([long], "pack", ["plain"])).toBe("perfguard: a name of 80 characters has no enforcementLevel and is not a policy of pack");
    });
});

describe("validatePolicyProperties", () => {
    it("reports missing required properties by name", () => {
        expect(validatePolicyProperties({ properties: { n: { type: "integer" } }, required: ["n"] }, {})).toEqual(["n is required"]);
        expect(validatePolicyProperties({ properties: { n: { type: "integer" } }, required: ["n"] }, { n: 3 })).toEqual([]);
    });

    it("names an unknown nested key itself, as the CLI's validator does, not only the object holding it", () => {
        const schema = {
            properties: {
                hosts: {
                    type: "object",
                    additionalProperties: { type: "object", properties: { linkGbps: { type: "number" } }, additionalProperties: false },
                },
            },
            required: [],
        };
        expect(validatePolicyProperties(schema, { hosts: { h1: { linkMbps: 1000 } } })).toEqual(["hosts.h1: Additional property linkMbps is not allowed"]);
        expect(validatePolicyProperties(schema, { hosts: { h1: { linkGbps: 10 } } })).toEqual([]);
    });
});

describe("parsePolicyConfig", () => {
    it("rejects values that are neither a level nor an object", () => {
        expect(() => parsePolicyConfig({ rtt: 5 })).toThrow("must be a string or object");
        expect(() => parsePolicyConfig({ rtt: { enforcementLevel: "loud" } })).toThrow("is not a valid enforcement level");
    });
});
