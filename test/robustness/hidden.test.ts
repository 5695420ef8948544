/**
 * A fact hidden by an unknown entry of its carrier (one element of a tags list, metadatas or
 * markers) or by an unresolved vSphere tag join (a tag id of another stack) is not known to be
 * undeclared: the policy that needs it reports "not checked", never not applicable or a pass
 * (facts.ts `incomplete`). Table-driven per family: a compliant baseline whose outcome is known,
 * then one change per case, with the exact "not checked" outcome asserted.
 */
import { describe, expect, it } from "vitest";
import { policies } from "../../policies";
import { AFTER_APPLY } from "../../policies/citrix/site";
import { RTT_HIDDEN } from "../../policies/citrix/decisions";
import { parseMessage } from "../../policies/pack/message";
import { citrixStack } from "../policies/citrix/citrixFixtures";
import { nsxStack } from "../policies/nsx-alb/nsxFixtures";
import { XCP01_UUID, xenStack } from "../policies/xen/xenFixtures";
import { UNKNOWN_STRING } from "../support/arbitraries";
import type { TestResource } from "../support/policyHarness";
import { runStackPolicy } from "../support/policyHarness";
import { sdkServer } from "../support/sdkServerPath";
import { xenGuestNetworkShare } from "../../policies/xen/xen-guest-network-share";

const server = sdkServer(policies);

/** A diagnostic as both paths give it. */
interface Diagnostic {
    readonly policyName: string;
    readonly message: string;
    readonly urn?: string;
    readonly enforcementLevel: string;
}

/** Every policy through the SDK server with default config, or one stack policy with `config`. */
async function run(stack: TestResource[], config?: Record<string, unknown>): Promise<readonly Diagnostic[]> {
    return config ? runStackPolicy(xenGuestNetworkShare, stack, config) : (await server.preview(stack)).diagnostics;
}

/** `stack` with `resource`'s props changed by `edit`. */
function change(stack: TestResource[], resource: string, edit: (props: Record<string, unknown>) => Record<string, unknown>): TestResource[] {
    expect(stack.some((r) => r.name === resource)).toBe(true);
    return stack.map((r) => (r.name === resource ? { ...r, props: edit(structuredClone(r.props)) } : r));
}

/** The list `key` of props with the entry `match` picks replaced by an unknown (the whole entry). */
function hideEntry(keys: string | readonly string[], match: (entry: unknown) => boolean): (props: Record<string, unknown>) => Record<string, unknown> {
    return (props) => {
        const key = [keys].flat().find((k) => Array.isArray(props[k])) as string;
        const list = props[key] as unknown[];
        expect(list.filter(match)).toHaveLength(1);
        return { ...props, [key]: list.map((e) => (match(e) ? UNKNOWN_STRING : e)) };
    };
}

function about(diagnostics: readonly Diagnostic[], policy: string, resource: string | undefined): Diagnostic[] {
    return diagnostics.filter((d) => d.policyName === policy && (resource === undefined ? d.urn === undefined : d.urn?.endsWith(`::${resource}`)));
}

interface Case {
    readonly label: string;
    readonly baseline: TestResource[];
    /** What the baseline yields on `resource` (a verdict, or nothing: a pass or not applicable). */
    readonly baselineProblem: RegExp | undefined;
    readonly changed: TestResource[];
    readonly policy: string;
    /** The resource the "not checked" is on; undefined for a stack policy's grouped report. */
    readonly resource: string;
    readonly grouped: boolean;
    readonly reason: string;
    readonly remedy: string;
    /** Config for xen-guest-network-share (the Xen cases need a link figure). */
    readonly config?: Record<string, unknown>;
}

const citrix = citrixStack({ rttMs: "300" });
const throttled = citrixStack({ rttMs: "260", throttles: ["8", "8", undefined] });
const xen = xenStack();
/** The baseline's hosts (dedicated to the stack) on a default link. */
const XEN_CONFIG = { defaultLinkMBps: 111, hosts: { [XCP01_UUID]: { dedicated: true }, "xcp-02": { dedicated: true } } };
const nsx = nsxStack();
const isNeed = (e: unknown) => typeof e === "string" && e.startsWith("perfguard:networkMBps=");
const isRtt = (e: unknown) => (e as { name?: string }).name === "perfguard:rttMs";

const CASES: Case[] = [
    {
        label: "citrix: the zone's perfguard:rttMs metadata entry unknown as a whole",
        baseline: citrix,
        baselineProblem: /^Zone "emea-zone" \(name "emea"\) is 300 ms from the Site database/,
        changed: change(citrix, "emea-zone", hideEntry(["metadatas", "metadata"], isRtt)),
        policy: "citrix-zone-rtt-limit",
        resource: "emea-zone",
        grouped: false,
        reason: RTT_HIDDEN.reason,
        remedy: RTT_HIDDEN.remedy,
    },
    {
        label: "citrix: the same, in the stack policy that needs the zone's RTT",
        baseline: citrix,
        baselineProblem: undefined,
        changed: change(citrix, "emea-zone", hideEntry(["metadatas", "metadata"], isRtt)),
        policy: "citrix-broker-throttle",
        resource: "emea-zone",
        grouped: true,
        reason: RTT_HIDDEN.reason,
        remedy: RTT_HIDDEN.remedy,
    },
    {
        label: "citrix: a controller without a throttle fact with a vSphere tag of another stack attached (unresolved join)",
        baseline: throttled,
        baselineProblem: /ddc-3/,
        changed: change(throttled, "ddc-3", (p) => ({ ...p, tags: ["urn:vmomi:InventoryServiceTag:0f3e-other-stack:GLOBAL"] })),
        policy: "citrix-broker-throttle",
        resource: "ddc-3",
        grouped: true,
        reason: "its perfguard:throttleMaxConcurrentTransactions is unknown in this preview",
        remedy: AFTER_APPLY,
    },
    {
        label: "xen: a guest on its perfguard:xenHost, its perfguard:networkMBps tag (one element of its tags list) unknown",
        baseline: xen,
        baselineProblem: undefined,
        changed: change(xen, "app", hideEntry("tags", isNeed)),
        policy: "xen-guest-network-share",
        resource: "app",
        grouped: true,
        config: XEN_CONFIG,
        reason: "its perfguard:networkMBps or perfguard:vifCapMBps is unknown in this preview or invalid",
        remedy: "known after apply: run `pulumi policy analyze` after the update, or set the fact literally",
    },
    {
        label: "xen: a guest placed by affinityHost, an unknown tag (it may be a perfguard:xenHost naming another host)",
        baseline: xen,
        baselineProblem: undefined,
        changed: change(xen, "web", hideEntry("tags", isNeed)),
        policy: "xen-guest-network-share",
        resource: "web",
        grouped: true,
        config: XEN_CONFIG,
        reason: "its host (perfguard:xenHost or affinityHost) is unknown in this preview or invalid",
        remedy: "known after apply: run `pulumi policy analyze` after the update, or declare perfguard:xenHost literally",
    },
    {
        label: "nsx: one of a VS's demand markers unknown as a whole (the others known)",
        baseline: nsx,
        baselineProblem: undefined,
        changed: change(
            nsx,
            "api-vs",
            hideEntry("markers", (e) => (e as { key?: string }).key === "perfguard:l4Cps"),
        ),
        policy: "nsx-alb-se-capacity",
        resource: "api-vs",
        grouped: true,
        reason: "a demand fact is unknown in this preview",
        remedy: "known after apply: run `pulumi policy analyze` after the update, or set the fact literally",
    },
];

describe('a hidden fact makes the policy that needs it "not checked"', () => {
    it.each(CASES)("$label", async (c) => {
        const base = await run(c.baseline, c.config);
        const before = about(base, c.policy, c.resource).map((d) => parseMessage(d.message).problem);
        if (c.baselineProblem) {
            expect(before.some((p) => c.baselineProblem!.test(p))).toBe(true);
        }
        const label = `${c.changed
            .find((r) => r.name === c.resource)!
            .type.split(":")
            .pop()} "${c.resource}"`;
        const text = (d: Diagnostic) => {
            const m = parseMessage(d.message);
            return `${m.problem}\n${m.basis.join("\n")}`;
        };
        // The baseline does not say it was not checked (a stack policy's grouped report may name others).
        expect(
            about(base, c.policy, c.grouped ? undefined : c.resource)
                .map(text)
                .filter((t) => t.includes("not checked") && t.includes(label)),
        ).toEqual([]);

        const preview = await run(c.changed, c.config);
        // No verdict on the resource any more (it rested on the fact now hidden), and its "not checked".
        expect(about(preview, c.policy, c.resource).filter((d) => c.grouped || !parseMessage(d.message).problem.includes("not checked"))).toEqual([]);
        const reports = about(preview, c.policy, c.grouped ? undefined : c.resource).filter((d) => parseMessage(d.message).problem.includes("not checked"));
        expect(reports).toHaveLength(1);
        expect(reports[0].enforcementLevel).toBe("advisory");
        const m = parseMessage(reports[0].message);
        if (c.grouped) {
            // One line (the problem, or a basis line when there are several reasons) gives the reason and names it.
            expect(
                text(reports[0])
                    .split("\n")
                    .some((l) => l.includes(c.reason) && l.includes(label)),
            ).toBe(true);
        } else {
            expect(m.problem).toBe(`Zone "${c.resource}" not checked: ${c.reason}.`);
        }
        expect((m.fix ?? "").split("; ")).toContain(c.remedy);
    });
});
