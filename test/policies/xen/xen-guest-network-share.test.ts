/**
 * xen-guest-network-share across stacks (PERFGUARD_INVENTORY): team A's stack (vms-a) puts three
 * guests on host 7c1f3a52 (30, 30 and 50 MB/s); team B's stack (vms-b) adds b-api (30 MB/s).
 * The 111 MB/s link shared by four: 27.75 MB/s each, below the 30 b-api needs.
 */
import { describe, expect, it } from "vitest";
import { xenGuestNetworkShare } from "../../../policies/xen/xen-guest-network-share";
import { parseMessage } from "../../../policies/pack/message";
import { runStackPolicy } from "../../support/policyHarness";
import { fixture, previewOf, withInventoryEnv } from "../../support/inventoryStacks";

const HOST = "7c1f3a52-5d0e-4b8a-9f21-6a0e2b4c8d11";
const LINE = `Vm "b-api" on Xen host "${HOST}" is predicted 27.75 of the 30 MB/s it needs: 2.25 MB/s short.`;
const CONFIG = { hosts: { [HOST]: { linkMBps: 111 } } };

describe("team B's guest on a host team A's guests fill", () => {
    it.each([
        ["no inventory: b-api alone on the link fits", undefined, []],
        ["with team A's export: b-api reported, team A's guests in the basis", fixture("vms-a.json"), [["b-api", LINE]]],
        ["with team B's own earlier deployment too: counted once", `${fixture("vms-a.json")},${fixture("vms-b.json")}`, [["b-api", LINE]]],
    ] as const)("%s", async (_name, spec, expected) => {
        const out = await withInventoryEnv(spec, () => runStackPolicy(xenGuestNetworkShare, previewOf("vms-b.json"), CONFIG));
        expect(out.map((v) => [v.urn?.split("::").pop(), parseMessage(v.message).problem])).toEqual(expected);
        for (const v of out) {
            expect(v.message).not.toMatch(/SECRETCIPHERTEXT|\[secret\]/);
        }
    });

    it("names the demand on the link and the other stack's guests", async () => {
        const out = await withInventoryEnv(fixture("vms-a.json"), () => runStackPolicy(xenGuestNetworkShare, previewOf("vms-b.json"), CONFIG));
        const text = out.map((v) => v.message).join("\n");
        expect(text).toMatch(/140 MB\/s/);
        expect(text).toMatch(/111 MB\/s/);
        expect(text).toContain("Vm \"a-db\" 50 MB/s (stack vms-a/prod, deployed 2026-12-04T21:30:00Z)");
    });
});
