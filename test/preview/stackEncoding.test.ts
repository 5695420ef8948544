// prepareAnalyzeStackShared: the AnalyzeStack request built from each resource's cached encoding
// must be the request prepareAnalyzeStack encodes, byte for byte (the pack sees the same bytes).
import { describe, expect, it } from "vitest";
import { AnalyzeStackResourceInput, prepareAnalyzeStack, prepareAnalyzeStackShared } from "../../preview/packClient";

const urn = (type: string, name: string) => `urn:pulumi:t::p::${type}::${name}`;
const ZONE = "citrix:index/zone:Zone";
const VM = "xenorchestra:index/vm:Vm";

function stack(rtt: string, guests: number): AnalyzeStackResourceInput[] {
    const root = urn("pulumi:pulumi:Stack", "p-t");
    return [
        { urn: root, type: "pulumi:pulumi:Stack", name: "p-t", properties: {} },
        {
            urn: urn(ZONE, "emea"),
            type: ZONE,
            name: "emea",
            parent: root,
            properties: { name: "emea", metadatas: [{ name: "perfguard:rttMs", value: rtt }], nested: { list: [1, 2.5, true, null, "x"] } },
            options: { protect: true, ignoreChanges: ["name"], customTimeouts: { create: 60, update: 0, delete: 0, read: 0 } },
            provider: { urn: urn("pulumi:providers:citrix", "default"), type: "pulumi:providers:citrix", name: "default", properties: { region: "eu" } },
            dependencies: [root],
            propertyDependencies: { name: [root], empty: [] },
        },
        // Lengths past one and two varint bytes.
        ...Array.from({ length: guests }, (_, i): AnalyzeStackResourceInput => ({
            urn: urn(VM, `guest-${i}`),
            type: VM,
            name: `guest-${i}`,
            parent: root,
            properties: { nameLabel: `guest-${i}`, tags: [`perfguard:networkMBps=${i}`], blob: "y".repeat(i * 97) },
        })),
    ];
}

describe("prepareAnalyzeStackShared", () => {
    it.each([
        ["an empty stack", [] as AnalyzeStackResourceInput[]],
        ["one root stack", stack("45", 0).slice(0, 1)],
        ["options, a provider, property dependencies and long resources", stack("45", 200)],
    ])("encodes %s exactly as prepareAnalyzeStack", (_name, resources) => {
        expect(prepareAnalyzeStackShared(resources, new Map()).bytes.equals(prepareAnalyzeStack(resources).bytes)).toBe(true);
    });

    it("shares the encoding of resources two stacks hold in common, and only those", () => {
        const cache = new Map<string, Uint8Array>();
        const base = stack("45", 50);
        const head = stack("160", 50);
        expect(prepareAnalyzeStackShared(base, cache).bytes.equals(prepareAnalyzeStack(base).bytes)).toBe(true);
        expect(cache.size).toBe(base.length);
        // Only the zone differs (its RTT): one more entry, and head's bytes are head's own.
        expect(prepareAnalyzeStackShared(head, cache).bytes.equals(prepareAnalyzeStack(head).bytes)).toBe(true);
        expect(cache.size).toBe(base.length + 1);
        expect(prepareAnalyzeStack(head).bytes.equals(prepareAnalyzeStack(base).bytes)).toBe(false);
    });
});
