/**
 * xen-dom0-workload (policies/xen/xen-dom0-workload.ts): a compliant baseline and one change per
 * case (the Xen table, xenFixtures.ts), its messages, its config (the one Xen schema), and what it
 * shares with xen-guest-network-share: one model, verdicts independent of resource order, problem
 * lines within 160 characters, no echoed property values.
 */
import { describe, expect, it } from "vitest";
import { parseMessage, PROBLEM_LINE_MAX } from "../../../policies/pack/message";
import { xenDom0Workload } from "../../../policies/xen/xen-dom0-workload";
import { xenGuestNetworkShare } from "../../../policies/xen/xen-guest-network-share";
import { runStackPolicy, TestResource, UNKNOWN_VALUE, verdicts, Violation } from "../../support/policyHarness";
import { backupOn01, dom0Service, runBoth, XCP01_UUID, xenBaselineConfig, xenCasesFor, xenStack } from "./xenFixtures";

const POLICY = "xen-dom0-workload";

describe("xen-dom0-workload: a compliant baseline and one change per case", () => {
    it.each(xenCasesFor(POLICY))("%s", async (_name, resources, expected, config) => {
        expect(verdicts(await runStackPolicy(xenDom0Workload, resources, config ?? xenBaselineConfig()))).toEqual([...expected].sort());
    });
    it("is an advisory stack policy", async () => {
        const found = await runStackPolicy(xenDom0Workload, xenStack(backupOn01), xenBaselineConfig());
        expect(found.map((v) => v.enforcementLevel)).toEqual(["advisory"]);
        expect(typeof xenDom0Workload.validateStack).toBe("function");
    });
    it("an unknown role of a dom0 service: not judged, traffic not counted", async () => {
        // Unknowns are per value (docs/facts.md#not-checked): an unknown list item hides only itself,
        // so the role's value itself is what is unknown here (a tags map).
        const backup = dom0Service("backup", XCP01_UUID, undefined, undefined);
        backup.props.tags = { "perfguard:xenDomain": "dom0", "perfguard:xenHost": XCP01_UUID, "perfguard:xenDom0Role": UNKNOWN_VALUE };
        // Its role is unknown: xen-dom0-workload cannot judge it; it declares no traffic, so the
        // guests' shares are still checked (an undeclared sender counts as idle there).
        expect(verdicts(await runBoth(xenStack({ add: [backup] })))).toEqual(["xen-dom0-workload -> (stack)"]);
    });
});

describe("xen-dom0-workload: config", () => {
    it("xen-dom0-workload takes the same config as xen-guest-network-share", () => {
        expect(xenDom0Workload.configSchema?.properties).toEqual(xenGuestNetworkShare.configSchema?.properties);
        const props = xenGuestNetworkShare.configSchema?.properties ?? {};
        expect(props.dom0Share).toMatchObject({ type: "number", minimum: 0, maximum: 1, default: 0.5 });
        expect(props.defaultLinkMBps).toMatchObject({ type: ["number", "null"], exclusiveMinimum: 0, default: null });
        expect(props.hosts).toMatchObject({ type: "object", default: {} });
    });
});

describe("xen-dom0-workload: messages give the numbers, their source, the threshold and the fix", () => {
    it("xen-dom0-workload: the guests' loss from the same model as xen-guest-network-share", async () => {
        const [v] = await runStackPolicy(xenDom0Workload, xenStack(backupOn01), xenBaselineConfig());
        // Without backup: dom0 (xo-agent 2) and web 20 + db 45 fit 110. With it: web 20 + db 35 = 55 (as the share policy predicts).
        const m = parseMessage(v.message);
        expect(m.problem).toBe(`Dom0Service "backup" runs a workload in dom0 of Xen host "${XCP01_UUID}": at 60 MB/s it cuts its 2 guests from 65 to 55 MB/s.`);
        expect(m.fix).toBe("move it into a domU, or declare perfguard:xenDom0Role=management if it is a management tool.");
        const [share] = await runStackPolicy(xenGuestNetworkShare, xenStack(backupOn01), xenBaselineConfig());
        expect(parseMessage(share.message).problem).toContain("is predicted 35 of the 45 MB/s"); // 20 + 35 = 55
    });
    it("xen-dom0-workload without a host, undeclared traffic, a named role", async () => {
        const [noHost] = await runStackPolicy(xenDom0Workload, xenStack({ add: [dom0Service("backup", undefined, undefined, "60")] }), xenBaselineConfig());
        expect(parseMessage(noHost.message).problem).toBe('Dom0Service "backup" runs a workload in a Xen host\'s dom0.');
        expect(parseMessage(noHost.message).basis.join(" ")).toContain("no valid perfguard:xenHost on it");
        const [undeclared] = await runStackPolicy(
            xenDom0Workload,
            xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, undefined)] }),
            xenBaselineConfig(),
        );
        expect(parseMessage(undeclared.message).basis.join(" ")).toContain("it declares no perfguard:networkMBps: both Xen policies count it idle");
        const [named] = await runStackPolicy(xenDom0Workload, xenStack({ add: [dom0Service("backup", "xcp-02", "backup", "0")] }), xenBaselineConfig());
        expect(parseMessage(named.message).basis[0]).toBe('perfguard:xenDom0Role in tags list is not "management" (only "management" belongs in dom0)');
        const [noLink] = await runStackPolicy(xenDom0Workload, xenStack(backupOn01), {});
        expect(parseMessage(noLink.message).basis.join(" ")).toContain("has no link figure");
    });
});

describe("both Xen policies on stacks with dom0 workloads", () => {
    it("never echoes other property values", async () => {
        const stack = xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60"), dom0Service("nfs", "xcp-02", "nfs", "80")] });
        const found = await runBoth(stack, { hosts: { [XCP01_UUID]: { linkMBps: 110 } } });
        expect(found.length).toBeGreaterThanOrEqual(4);
        for (const v of found) {
            expect(v.message).not.toContain("SECRET-MARKER");
            expect(v.message).not.toContain("tmpl-ubuntu");
        }
    });
});

describe("order", () => {
    it("gives the same violations for every rotation and reversal of the stack", async () => {
        const stack = xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60"), dom0Service("nfs", "xcp-02", "nfs", "80")] });
        const key = (vs: Violation[]) => vs.map((v) => `${v.policyName} ${v.urn} ${v.message}`).sort();
        const baseline = key(await runBoth(stack));
        expect(baseline.length).toBeGreaterThan(2);
        for (let shift = 1; shift < stack.length; shift++) {
            const rotated = [...stack.slice(shift), ...stack.slice(0, shift)];
            for (const order of [rotated, [...rotated].reverse()]) {
                expect(key(await runBoth(order))).toEqual(baseline);
            }
        }
    });
});

describe("long names", () => {
    it("keep every problem line within 160 characters", async () => {
        const long = "h".repeat(60);
        const stack = xenStack({ add: [dom0Service(`backup-${long}`, XCP01_UUID, undefined, "60")] });
        (stack.find((r) => r.name === "db") as TestResource).name = `db-${long}`;
        const found = await runBoth(stack);
        expect(found.length).toBeGreaterThanOrEqual(2);
        for (const v of found) {
            expect(parseMessage(v.message).problem.length).toBeLessThanOrEqual(PROBLEM_LINE_MAX);
        }
    });
});
