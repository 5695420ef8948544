// The Configure tap: config keys that name no policy (the CLI sends them unvalidated) are recorded
// sorted, with the closest policy; "all" is never one; the SDK's handler still runs, once.
import { describe, expect, it } from "vitest";
import { unknownPolicyNamesMessage } from "../../../policies/pack/configMessages";
import { recordConfiguredNames, tapConfigure, unknownPolicyNames } from "../../../policies/pack/configuredNames";
import { recordConfiguredProperties, rememberConfig, settingsOf } from "../../../policies/pack/policyConfigs";
import { StackView } from "../../../policies/pack/resources";

const POLICIES = ["xen-dom0-workload", "citrix-zone-rtt-limit"];

function fakeServer() {
    const added: Array<{ configure?: (call: unknown, cb: unknown) => unknown }> = [];
    class Server {
        addService(_service: unknown, implementation: { configure?: (call: unknown, cb: unknown) => unknown }): void {
            added.push(implementation);
        }
    }
    return { Server, added };
}

function call(keys: string[]) {
    return { request: { getPolicyconfigMap: () => ({ keys: () => keys[Symbol.iterator]() }) } };
}

describe("recordConfiguredNames", () => {
    it.each([
        [["xen-dom0-workload", "all"], []],
        [["xen-dom0-workoad", "all", "citrix-zone-rtt-limit"], [{ name: "xen-dom0-workoad", suggestion: "xen-dom0-workload" }]],
        [
            ["zeta", "alpha"],
            [{ name: "alpha" }, { name: "zeta" }],
        ],
    ])("%j", (keys, expected) => {
        recordConfiguredNames(keys, POLICIES);
        expect(unknownPolicyNames()).toEqual(expected);
    });
});

describe("tapConfigure", () => {
    it("records the keys Configure carries, calls the SDK's handler once, and restores addService", () => {
        const { Server, added } = fakeServer();
        const original = Server.prototype.addService;
        const seen: unknown[] = [];
        tapConfigure(Server, POLICIES, () => new Server().addService({}, { configure: (c) => seen.push(c) }));
        expect(Server.prototype.addService).toBe(original);
        const request = call(["xen-dom0-workoad", "xen-dom0-workload"]);
        added[0].configure?.(request, () => undefined);
        expect(seen).toEqual([request]);
        expect(unknownPolicyNames()).toEqual([{ name: "xen-dom0-workoad", suggestion: "xen-dom0-workload" }]);
    });

    it("records each policy's properties, which a policy reads when the other has not run on the stack", () => {
        const { Server, added } = fakeServer();
        tapConfigure(Server, POLICIES, () => new Server().addService({}, { configure: () => undefined }));
        const props: Record<string, unknown> = { "citrix-zone-rtt-limit": { maxRttMs: 200 }, "xen-dom0-workload": undefined };
        const map = {
            keys: () => Object.keys(props)[Symbol.iterator](),
            get: (k: string) => ({ getProperties: () => ({ toJavaScript: () => props[k] }) }),
        };
        added[0].configure?.({ request: { getPolicyconfigMap: () => map } }, () => undefined);
        const stack = new StackView([]);
        expect([settingsOf(stack, "citrix-zone-rtt-limit"), settingsOf(stack, "xen-dom0-workload")]).toEqual([{ maxRttMs: 200 }, undefined]);
        // A policy that has run on the stack: its validated config, not Configure's.
        rememberConfig(stack, "citrix-zone-rtt-limit", { maxRttMs: 180 });
        expect(settingsOf(stack, "citrix-zone-rtt-limit")).toEqual({ maxRttMs: 180 });
        recordConfiguredProperties(new Map());
        expect(settingsOf(new StackView([]), "citrix-zone-rtt-limit")).toBeUndefined();
    });

    it("records nothing on a request shape it does not know, and still calls the handler", () => {
        const { Server, added } = fakeServer();
        let called = 0;
        tapConfigure(Server, POLICIES, () => new Server().addService({}, { configure: () => (called += 1) }));
        added[0].configure?.({ request: {} }, () => undefined);
        expect(called).toBe(1);
        expect(unknownPolicyNames()).toEqual([]);
    });
});

describe("unknownPolicyNamesMessage", () => {
    it("names the first key, counts the others, and gives one fix per key", () => {
        const m = unknownPolicyNamesMessage([{ name: "a-b", suggestion: "a-c" }, { name: "x" }, { name: "y" }], "perfguard");
        expect(m.problem).toBe('policy pack config names "a-b" and 2 more keys, not policies of perfguard: ignored, so the policy meant keeps its defaults.');
        expect(m.fix).toBe(
            'rename "a-b" to "a-c"; remove "x" or rename it to a policy of perfguard (README, Policies); remove "y" or rename it to a policy of perfguard (README, Policies) in the --policy-pack-config file (`perfguard config check <file>` lists every problem)',
        );
        expect(m.problem.length).toBeLessThanOrEqual(160);
    });

    it("never echoes a control character or a long key", () => {
        const m = unknownPolicyNamesMessage([{ name: "x".repeat(70) }, { name: "a\nb" }], "perfguard");
        expect(m.problem).toContain("a name of 70 characters");
        // The longest name still shown, with more keys after it: within the 160-character problem line.
        const longest = unknownPolicyNamesMessage([{ name: "y".repeat(40) }, { name: "z1" }, { name: "z2" }], "perfguard");
        expect(longest.problem).toContain(`"${"y".repeat(40)}"`);
        expect(longest.problem.length).toBeLessThanOrEqual(160);
        expect(m.fix).not.toContain("\n");
    });
});
