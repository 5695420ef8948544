/**
 * Secrets a run could not decrypt: `pulumi policy analyze` (and `perfguard check`) hand the pack
 * "[secret]" in their place. A fact behind one is not known, never absent and never invalid: a
 * compliant baseline, then one carrier, entry or value redacted per case.
 */
import { describe, expect, it } from "vitest";
import { readFacts, REDACTED_SECRET } from "../../../policies/pack/facts";

const S = REDACTED_SECRET;

describe("facts behind [secret]", () => {
    const cases: Array<[string, Record<string, unknown>, { redacted: boolean; incomplete: boolean; rtt: string }]> = [
        ["baseline: metadatas in plain text", { metadatas: [{ name: "perfguard:rttMs", value: "160" }] }, { redacted: false, incomplete: false, rtt: "ok" }],
        ["the metadatas list is a secret", { metadatas: S }, { redacted: true, incomplete: true, rtt: "unknown" }],
        ["one metadatas entry is a secret", { metadatas: [S, { name: "owner", value: "vdi" }] }, { redacted: true, incomplete: true, rtt: "absent" }],
        ["the value is a secret", { metadatas: [{ name: "perfguard:rttMs", value: S }] }, { redacted: true, incomplete: false, rtt: "unknown" }],
        ["the tags map is a secret", { tags: S }, { redacted: true, incomplete: true, rtt: "unknown" }],
        ["one tags list element is a secret", { tags: ["pulumi", S] }, { redacted: true, incomplete: true, rtt: "absent" }],
        ["the markers list is a secret", { markers: S }, { redacted: true, incomplete: true, rtt: "unknown" }],
        ["one marker is a secret", { markers: [S] }, { redacted: true, incomplete: true, rtt: "absent" }],
        ["extraConfig is a secret", { extraConfig: S }, { redacted: true, incomplete: true, rtt: "unknown" }],
        ["a plain tag that merely says [secret] in a map value is not a fact", { tags: { owner: S } }, { redacted: false, incomplete: false, rtt: "absent" }],
    ];
    it.each(cases)("%s", (_name, props, expected) => {
        const facts = readFacts(props, "citrix:index/zone:Zone");
        expect({ redacted: facts.redacted, incomplete: facts.incomplete, rtt: facts.number("rttMs").state }).toEqual(expected);
        expect(facts.problems).toEqual([]);
    });
});
