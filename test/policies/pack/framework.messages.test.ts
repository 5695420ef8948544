// The framework's own messages (definePolicy.ts, config.ts): config problems and internal errors in
// the Message shape, "did you mean" for unknown config keys, and the decisions --explain derives from.
import { describe, expect, it } from "vitest";
import { nsxAlbSeDedicatedDispatcher } from "../../../policies/nsx-alb/nsx-alb-se-dedicated-dispatcher";
import { didYouMean, editDistance, unknownKeysMessage } from "../../../policies/pack/config";
import { invalidConfigMessage, isolate, Report, resourcePolicy } from "../../../policies/pack/definePolicy";
import { parseMessage, renderMessage } from "../../../policies/pack/message";
import { viewOf } from "../../../policies/pack/resources";
import { expectMessageShape, expectViolation, notApplicableLog, runPolicies, runResourcePolicy } from "../../support/policyHarness";
import { nsxStack } from "../nsx-alb/nsxFixtures";

describe("did you mean", () => {
    it.each([
        ["maxRtt", ["maxRttMs", "unverified"], "maxRttMs"],
        ["maxrttms", ["maxRttMs", "unverified"], "maxRttMs"],
        ["minVcpu", ["minVcpus", "unverified"], "minVcpus"],
        ["unverifed", ["minVcpus", "unverified"], "unverified"],
        ["headroom", ["headroomPct", "assumeScaleOut", "seGroups"], "headroomPct"],
        ["color", ["minVcpus", "unverified"], undefined],
        ["x".repeat(80), ["minVcpus"], undefined],
    ] as const)("%s -> %s", (given, candidates, expected) => {
        expect(didYouMean(given, candidates)).toBe(expected);
    });
    it("measures edit distance case-insensitively", () => {
        expect(editDistance("kitten", "sitting")).toBe(3);
        expect(editDistance("maxRTTms", "maxRttMs")).toBe(0);
        expect(editDistance("", "abc")).toBe(3);
    });
    it("puts the suggestion in the fix and keeps the problem line short", () => {
        const message = unknownKeysMessage("nsx-alb-se-dedicated-dispatcher", { properties: { minVcpus: {}, unverified: {} } }, ["minVcpu", "colour"]);
        expect(message.problem).toBe(
            'unknown config keys "minVcpu" and 1 more for policy nsx-alb-se-dedicated-dispatcher: ignored, the checks ran with the other settings.',
        );
        expect(message.fix).toBe('"minVcpu": did you mean "minVcpus"?; remove "colour" (accepted keys are minVcpus, unverified, plus enforcementLevel)');
    });
});

describe("config problems are Messages", () => {
    it("an unknown key: mandatory, once, with did you mean", async () => {
        const found = await runResourcePolicy(nsxAlbSeDedicatedDispatcher, nsxStack(), { minVcpu: 6 });
        const typo = found.filter((v) => v.message.includes("unknown config key"));
        expect(typo).toHaveLength(1);
        expect(typo[0].enforcementLevel).toBe("mandatory");
        const { problem, fix } = expectMessageShape(typo[0]);
        expect(problem).toContain('"minVcpu" for policy nsx-alb-se-dedicated-dispatcher');
        expect(fix).toContain('did you mean "minVcpus"?');
    });
    it("an invalid value: the first problem on the problem line, each field in the fix, all in the basis", async () => {
        const found = await runResourcePolicy(nsxAlbSeDedicatedDispatcher, nsxStack(), { minVcpus: 0, unverified: "loud" });
        expect(found).toHaveLength(1);
        const { problem, fix, basis } = expectMessageShape(found[0]);
        expect(problem).toMatch(
            /^invalid config for policy nsx-alb-se-dedicated-dispatcher: field (minVcpus|unverified) .* \(and 1 more, below\); none of this policy's checks ran\.$/,
        );
        expect(fix).toContain("minVcpus");
        expect(fix).toContain("unverified");
        expect(fix).toContain("docs/policies/nsx-alb-se-dedicated-dispatcher.md");
        expect(basis).toHaveLength(2);
        expect(basis.join("\n")).toContain("field minVcpus must be >= 1 (got 0)");
    });
});

describe("invalidConfigMessage", () => {
    it("keeps the problem line within 160 characters when a field path is long", () => {
        const error = `invalid config for policy xen-guest-network-share: field hosts.${"h".repeat(120)}.linkMBps must be > 0 (got 0)`;
        const message = invalidConfigMessage("xen-guest-network-share", [error], [`hosts.${"h".repeat(120)}.linkMBps`]);
        expect(message.problem).toBe("invalid config for policy xen-guest-network-share: 1 problem (below); none of this policy's checks ran.");
        expect(message.basis).toEqual([error]);
        expect(message.fix.length).toBeLessThan(200);
    });
});

describe("isolate", () => {
    it("turns an internal error into one Message about the resource, naming the error class", () => {
        const sent: string[] = [];
        const report = ((m: unknown) => sent.push(renderMessage(m as never))) as unknown as Report;
        const resource = viewOf({ type: "avi:index/serviceenginegroup:Serviceenginegroup", name: "a".repeat(60), urn: "urn:x", props: {} });
        isolate(resource, report, () => {
            throw new RangeError("bad index 7");
        });
        expect(sent).toHaveLength(1);
        const parsed = parseMessage(sent[0]);
        expect(parsed.problem.length).toBeLessThanOrEqual(160);
        expect(parsed.problem).toContain("internal error RangeError");
        expect(parsed.problem).toContain(`Serviceenginegroup "${"a".repeat(39)}…"`);
        expect(parsed.fix).toContain("avi:index/serviceenginegroup:Serviceenginegroup");
        expect(parsed.basis).toEqual(["internal error RangeError: bad index 7"]);
    });
});

describe("decisions", () => {
    const TYPE = "test:index/thing:Thing";
    const decide = resourcePolicy<Record<string, never>>({
        name: "test-decisions",
        description: "A test policy that records one decision per resource.",
        enforcementLevel: "advisory",
        types: [TYPE],
        check(resource, _config, report) {
            const mode = (resource.props as { mode?: string }).mode;
            if (mode === "na") {
                report.notApplicable("nothing declared", resource);
            } else if (mode === "unknown") {
                report.notChecked({ reason: "size is unknown in this preview", remedy: "make size known" }, resource);
            } else {
                report.applied("size 3 against 2", resource);
                report({ problem: `${resource.label} is too big.`, fix: 'set size "2"' }, resource);
            }
        },
    });
    it("sends not applicable through the SDK channel, not checked at the unverified level, verdicts as violations", async () => {
        const found = await runPolicies(
            [decide],
            [
                { type: TYPE, name: "a", props: { mode: "na" } },
                { type: TYPE, name: "b", props: { mode: "unknown" } },
                { type: TYPE, name: "c", props: {} },
            ],
            { "test-decisions": { unverified: "mandatory" } },
        );
        expect(notApplicableLog.map((n) => [n.urn.split("::").pop(), n.reason])).toEqual([["a", "nothing declared"]]);
        expectViolation(found, {
            policy: "test-decisions",
            resource: "b",
            problem: ['Thing "b" not checked', "size is unknown in this preview"],
            fix: ["make size known"],
            level: "mandatory",
        });
        expectViolation(found, { policy: "test-decisions", resource: "c", problem: ["too big"], fix: ['size "2"'] });
        expect(found).toHaveLength(2);
    });
});
