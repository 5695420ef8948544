/**
 * check --report's Violations: each verdict's message in a fenced `text` block under its item (as
 * `diff --format markdown` shows messages), so that GitHub keeps the problem, Fix: and Basis: lines
 * as lines; before, they were indented lines of the list item, which Markdown joins into one paragraph.
 */
import { describe, expect, it } from "vitest";
import { buildReport } from "../../cli/report";
import type { Violation } from "../../preview/types";

const ZONE_URN = "urn:pulumi:prod::site::citrix:index/zone:Zone::far-zone";

function violation(message: string, over: Partial<Violation> = {}): Violation {
    return {
        policyName: "citrix-zone-rtt-limit",
        policyPackName: "perfguard",
        policyPackVersion: "0.1.0",
        enforcementLevel: "mandatory",
        message,
        urn: ZONE_URN,
        resourceType: "citrix:index/zone:Zone",
        resourceName: "far-zone",
        ...over,
    } as Violation;
}

/** The report's Violations section (up to the next "## "), from a stack with no resources. */
function violationsSection(violations: Violation[]): string {
    const md = buildReport({ file: "x.json", packName: "perfguard", packVersion: "0.1.0", resources: [], violations, config: {} });
    const start = md.indexOf("## Violations\n");
    const end = md.indexOf("\n## ", start + 1);
    // Trailing blank lines aside: the report's end trims them.
    return md.slice(start, end < 0 ? undefined : end + 1).replace(/\n+$/, "\n");
}

const FENCE = "```";

describe("check --report: each message's lines stay lines", () => {
    it.each([
        [
            "a one-line message (baseline)",
            [violation("Zone far-zone: RTT 280 ms above 250 ms")],
            `## Violations\n\n### Mandatory (1)\n\n- **citrix-zone-rtt-limit** on \`citrix:index:Zone\` \`far-zone\`\n\n  ${FENCE}text\n  Zone far-zone: RTT 280 ms above 250 ms\n  ${FENCE}\n`,
        ],
        [
            "problem, Fix: and Basis: lines",
            [violation("Zone far-zone: RTT 280 ms above 250 ms\nFix: move the zone\nBasis: CTX 250 ms\n")],
            `## Violations\n\n### Mandatory (1)\n\n- **citrix-zone-rtt-limit** on \`citrix:index:Zone\` \`far-zone\`\n\n  ${FENCE}text\n  Zone far-zone: RTT 280 ms above 250 ms\n  Fix: move the zone\n  Basis: CTX 250 ms\n  ${FENCE}\n`,
        ],
        [
            "a fence inside a message cannot end the block",
            [violation(`a\n${FENCE}\nb`)],
            `## Violations\n\n### Mandatory (1)\n\n- **citrix-zone-rtt-limit** on \`citrix:index:Zone\` \`far-zone\`\n\n  ${FENCE}text\n  a\n  '''\n  b\n  ${FENCE}\n`,
        ],
        [
            "two verdicts, one of the stack, one advisory",
            [violation("one\nFix: x"), violation("two\nBasis: y", { enforcementLevel: "advisory", urn: "", policyName: "citrix-site-limits" })],
            `## Violations\n\n### Mandatory (1)\n\n- **citrix-zone-rtt-limit** on \`citrix:index:Zone\` \`far-zone\`\n\n  ${FENCE}text\n  one\n  Fix: x\n  ${FENCE}\n\n` +
                `### Advisory (1)\n\n- **citrix-site-limits**\n\n  ${FENCE}text\n  two\n  Basis: y\n  ${FENCE}\n`,
        ],
    ])("%s", (_label, violations, expected) => {
        expect(violationsSection(violations)).toBe(expected);
    });
});
