/**
 * xen-guest-network-share on a bonded host link (issue 30, "Xen bonds"): a bond is declared by its
 * aggregate (`linkMBps`) with `bond: { members, mode }` in the hosts config, or by the program's
 * bonded network (XoaBondedNetwork: bondMode, pifIds). One VIF's share is capped by one member's
 * rate (balance-slb, active-backup); many VIFs share the aggregate (active-backup: one member).
 *
 * Across stacks (PERFGUARD_INVENTORY): team A's stack (vms-a) puts three guests on host 7c1f3a52
 * (30, 30 and 50 MB/s); team B's stack (vms-b) adds b-api (30 MB/s). The 111 MB/s link shared by
 * four: 27.75 MB/s each, below the 30 b-api needs.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { xenDom0Workload } from "../../../policies/xen/xen-dom0-workload";
import { xenGuestNetworkShare } from "../../../policies/xen/xen-guest-network-share";
import { XEN_SHARE_SCHEMA } from "../../../policies/xen/hosts";
import { parseMessage } from "../../../policies/pack/message";
import { expectViolation, runStackPolicy, TestResource, UNKNOWN_VALUE, verdicts } from "../../support/policyHarness";
import { fixture, previewOf, withInventoryEnv } from "../../support/inventoryStacks";
import { VM } from "./xenFixtures";

const HOST = "xcp-bond";
const BOND = "xenorchestra:index/xoaBondedNetwork:XoaBondedNetwork";
/** 2 x 10 GbE declared by its aggregate: 2 x 1111 MB/s (1 Gb/s carries about 111 MB/s). */
const TWO_10G = 2222;
/** 2 x 25 GbE: 2 x 3125 MB/s. */
const TWO_25G = 6250;

function guest(name: string, needMBps: number, vifs = 1, network = "lan"): TestResource {
    return {
        type: VM,
        name,
        props: {
            nameLabel: name,
            affinityHost: HOST,
            networks: Array.from({ length: vifs }, () => ({ networkId: `${network}-id` })),
            tags: [`perfguard:networkMBps=${needMBps}`],
        },
        propertyDependencies: { networks: [network] },
    };
}

function bondedNetwork(name: string, bondMode: string, members: number): TestResource {
    return { type: BOND, name, props: { id: `${name}-id`, nameLabel: name, poolId: "pool-1", bondMode, pifIds: Array.from({ length: members }, (_, i) => `pif-${i}`) } };
}

function hosts(linkMBps: number, bond?: Record<string, unknown>): Record<string, unknown> {
    return { hosts: { [HOST]: { linkMBps, ...(bond ? { bond } : {}) } } };
}

const fifty = Array.from({ length: 50 }, (_, i) => guest(`app-${String(i).padStart(2, "0")}`, 100));

describe("xen-guest-network-share: a bonded link caps one VIF at one member", () => {
    const cases: Array<[string, TestResource[], Record<string, unknown>, string[]]> = [
        // Without a bond the 1500 MB/s fits the 2222 MB/s link: the baseline the bond changes.
        ["backup target on a 2222 MB/s link, no bond", [guest("backup", 1500)], hosts(TWO_10G), []],
        // balance-slb (the default mode): its one VIF is on one member, 1111 < 1500.
        ["backup target, 1 VIF, 2 x 10 GbE balance-slb (default mode)", [guest("backup", 1500)], hosts(TWO_10G, { members: 2 }), ["xen-guest-network-share -> backup"]],
        ["backup target, 1 VIF, 2 x 10 GbE active-backup", [guest("backup", 1500)], hosts(TWO_10G, { members: 2, mode: "active-backup" }), ["xen-guest-network-share -> backup"]],
        // Two VIFs reach two members: 2222 >= 1500.
        ["backup target with 2 VIFs on balance-slb", [guest("backup", 1500, 2)], hosts(TWO_10G, { members: 2, mode: "balance-slb" }), []],
        // LACP: several flows may spread over both members; one flow is not declared, so no verdict.
        ["backup target, 1 VIF, LACP", [guest("backup", 1500)], hosts(TWO_10G, { members: 2, mode: "lacp" }), []],
        // Many VIFs share the aggregate: 5000 of 6250 MB/s, each 100 below one member's 3125.
        ["50 guests x 100 MB/s on 2 x 25 GbE balance-slb", fifty, hosts(TWO_25G, { members: 2 }), []],
        ["50 guests x 100 MB/s on 2 x 25 GbE LACP", fifty, hosts(TWO_25G, { members: 2, mode: "lacp" }), []],
        // active-backup carries all on one member: 5000 > 3125, 62.5 MB/s each.
        ["50 guests x 100 MB/s on 2 x 25 GbE active-backup", fifty, hosts(TWO_25G, { members: 2, mode: "active-backup" }), fifty.map((g) => `xen-guest-network-share -> ${g.name}`)],
        // The program's bonded network: read without any bond in the config.
        ["program declares a balance-slb bond of 2 PIFs", [bondedNetwork("lan", "balance-slb", 2), guest("backup", 1500)], hosts(TWO_10G), ["xen-guest-network-share -> backup"]],
        ["program declares a LACP bond of 2 PIFs", [bondedNetwork("lan", "lacp", 2), guest("backup", 1500)], hosts(TWO_10G), []],
        // The bond's mode unknown in a preview: one member may bound the guest, so it is not checked (grouped on the stack)...
        ["the program's bond mode is unknown in the preview", [{ ...bondedNetwork("lan", "balance-slb", 2), props: { ...bondedNetwork("lan", "balance-slb", 2).props, bondMode: UNKNOWN_VALUE } }, guest("backup", 1500)], hosts(TWO_10G), ["xen-guest-network-share -> (stack)"]],
        // ...unless the config states the bond.
        ["the program's bond mode unknown, the config's bond states it", [{ ...bondedNetwork("lan", "balance-slb", 2), props: { ...bondedNetwork("lan", "balance-slb", 2).props, bondMode: UNKNOWN_VALUE } }, guest("backup", 1500)], hosts(TWO_10G, { members: 2 }), ["xen-guest-network-share -> backup"]],
        // A guest whose VIF is on another network does not go through the program's bond.
        ["the guest's VIF is on another network than the bond", [bondedNetwork("bond0", "balance-slb", 2), guest("backup", 1500)], hosts(TWO_10G), []],
        // Above both members even with one VIF each: 3 VIFs on 2 members reach 2222 < 2500.
        ["2500 MB/s with 3 VIFs on 2 x 10 GbE balance-slb", [guest("backup", 2500, 3)], hosts(TWO_10G, { members: 2 }), ["xen-guest-network-share -> backup"]],
        // balance-slb places each VIF whole on one member: two 700 MB/s VIFs fit two 1111 MB/s members...
        ["two 700 MB/s guests on 2 x 10 GbE balance-slb", [guest("vm-a", 700), guest("vm-b", 700)], hosts(TWO_10G, { members: 2 }), []],
        // ...three do not: one member carries two (1400 > 1111), those two get 555.5 each (vm-a and vm-c, by URN).
        ["three 700 MB/s guests on 2 x 10 GbE balance-slb", [guest("vm-a", 700), guest("vm-b", 700), guest("vm-c", 700)], hosts(TWO_10G, { members: 2 }), ["xen-guest-network-share -> vm-a", "xen-guest-network-share -> vm-c"]],
        ["three 700 MB/s guests on the program's balance-slb bond", [bondedNetwork("lan", "balance-slb", 2), guest("vm-a", 700), guest("vm-b", 700), guest("vm-c", 700)], hosts(TWO_10G), ["xen-guest-network-share -> vm-a", "xen-guest-network-share -> vm-c"]],
        // Four at 555 MB/s: two per member, 1110 <= 1111.
        ["four 555 MB/s guests on 2 x 10 GbE balance-slb", ["vm-a", "vm-b", "vm-c", "vm-d"].map((n) => guest(n, 555)), hosts(TWO_10G, { members: 2 }), []],
        // LACP stays per flow: no verdict from the members.
        ["three 700 MB/s guests on 2 x 10 GbE LACP", [guest("vm-a", 700), guest("vm-b", 700), guest("vm-c", 700)], hosts(TWO_10G, { members: 2, mode: "lacp" }), []],
    ];
    it.each(cases)("%s", async (_name, resources, config, expected) => {
        expect(verdicts(await runStackPolicy(xenGuestNetworkShare, resources, config))).toEqual([...expected].sort());
    });

    it("balance-slb: the two guests on the busy member are each 144.5 MB/s short, and the Basis says how VIFs are placed", async () => {
        const v = expectViolation(await runStackPolicy(xenGuestNetworkShare, [guest("vm-a", 700), guest("vm-b", 700), guest("vm-c", 700)], hosts(TWO_10G, { members: 2 })), {
            policy: "xen-guest-network-share",
            resource: "vm-a",
            problem: ["predicted 555.5 of the 700 MB/s it needs: 144.5 MB/s short"],
        });
        expect(v.basis.join("\n")).toContain("bond: 2 x 1111 MB/s balance-slb (hosts[\"xcp-bond\"].bond): each VIF whole on one member");
    });

    it.each([
        // 3 x 400 on one 1111 MB/s member: 370.33 each; balance-slb puts at most 2 x 400 = 800 on a member.
        ["three 400 MB/s guests", 400, true],
        // 2 x 700 = 1400 > 1111 on the busy member: balance-slb would not fit, so it is not offered.
        ["three 700 MB/s guests", 700, false],
    ])("active-backup host, %s: switching to balance-slb is offered first only when it fits", async (_name, need, offered) => {
        const v = expectViolation(await runStackPolicy(xenGuestNetworkShare, [guest("vm-a", need), guest("vm-b", need), guest("vm-c", need)], hosts(TWO_10G, { members: 2, mode: "active-backup" })), {
            policy: "xen-guest-network-share",
            resource: "vm-a",
            fix: ["move a guest to another host, or give the host a faster link"],
        });
        const fix = v.fix;
        expect(fix.startsWith("switch the bond (hosts[\"xcp-bond\"].bond) from active-backup to balance-slb")).toBe(offered);
        expect(fix.includes("balance-slb")).toBe(offered);
    });

    it("the backup target's message names one member's rate and the fixes", async () => {
        const v = expectViolation(await runStackPolicy(xenGuestNetworkShare, [guest("backup", 1500)], hosts(TWO_10G, { members: 2 })), {
            policy: "xen-guest-network-share",
            resource: "backup",
            problem: ["needs 1500 MB/s on a 2 x 1111 MB/s balance-slb bond: it reaches 1111 MB/s (1 VIF, one member per VIF)"],
            fix: ["give it 2 VIFs on the bond", "LACP with several flows", "faster member NICs (each carrying at least 1500 MB/s; then update hosts[\"xcp-bond\"].linkMBps)"],
            level: "advisory",
        });
        expect(v.basis.join("\n")).toContain("bond: 2 members (hosts[\"xcp-bond\"].bond), balance-slb places each VIF (source MAC) on one member at a time");
    });

    it("active-backup's fix offers balance-slb or LACP; the message names one member", async () => {
        expectViolation(await runStackPolicy(xenGuestNetworkShare, [guest("backup", 1500)], hosts(TWO_10G, { members: 2, mode: "active-backup" })), {
            policy: "xen-guest-network-share",
            resource: "backup",
            problem: ["active-backup bond: it reaches 1111 MB/s (one member carries all)"],
            fix: ["switch the bond to balance-slb and give it 2 VIFs", "LACP with several flows"],
        });
    });

    it("above every member: the fix asks for faster or more members, not more VIFs", async () => {
        const v = expectViolation(await runStackPolicy(xenGuestNetworkShare, [guest("backup", 2500, 3)], hosts(TWO_10G, { members: 2 })), {
            policy: "xen-guest-network-share",
            resource: "backup",
            problem: ["it reaches 2222 MB/s (3 VIFs, one member per VIF)"],
            fix: ["even with one VIF per member", "more members"],
        });
        expect(v.fix).not.toContain("give it");
    });

    it("the program's bonded network wins over the config, and the disagreement is named", async () => {
        const v = expectViolation(await runStackPolicy(xenGuestNetworkShare, [bondedNetwork("lan", "balance-slb", 2), guest("backup", 1500)], hosts(TWO_10G, { members: 2, mode: "lacp" })), {
            policy: "xen-guest-network-share",
            resource: "backup",
            problem: ["balance-slb bond"],
        });
        expect(v.basis.join("\n")).toContain("hosts[\"xcp-bond\"].bond says 2 x lacp, the program's XoaBondedNetwork \"lan\" 2 x balance-slb: the program's is used");
    });
});

describe("the bond config", () => {
    const bond = (XEN_SHARE_SCHEMA.hosts.additionalProperties as { properties: Record<string, { properties?: Record<string, { default?: unknown; minimum?: number }> }> }).properties.bond;
    it("defaults the mode to balance-slb (XenServer's default) in the schema, and a bond has at least 2 members", () => {
        expect(bond.properties?.mode.default).toBe("balance-slb");
        expect(bond.properties?.members.minimum).toBe(2);
    });
    it("xen-dom0-workload takes the same bond config and states the cost on the active-backup member", async () => {
        const dom0: TestResource = { type: "perfguard:example:Dom0Service", name: "restic", props: { tags: ["perfguard:xenDomain=dom0", `perfguard:xenHost=${HOST}`, "perfguard:networkMBps=2000"] } };
        const v = expectViolation(await runStackPolicy(xenDom0Workload, [guest("backup", 1000), dom0], hosts(TWO_10G, { members: 2, mode: "active-backup" })), {
            policy: "xen-dom0-workload",
            resource: "restic",
            // One member, 1111 MB/s: dom0 keeps 555.5, the guest gets 555.5 instead of 1000.
            problem: ["cuts its 1 guest from 1000 to 555.5 MB/s"],
        });
        expect(v.basis.join("\n")).toContain("on a 1111 MB/s link (hosts[\"xcp-bond\"].linkMBps / 2 members: active-backup carries all on one member)");
    });
});

const INVENTORY_HOST = "7c1f3a52-5d0e-4b8a-9f21-6a0e2b4c8d11";
const INVENTORY_LINE = `Vm "b-api" on Xen host "${INVENTORY_HOST}" is predicted 27.75 of the 30 MB/s it needs: 2.25 MB/s short.`;
const INVENTORY_CONFIG = { hosts: { [INVENTORY_HOST]: { linkMBps: 111 } } };

describe("team B's guest on a host team A's guests fill", () => {
    it.each([
        ["no inventory: b-api alone on the link fits", undefined, []],
        ["with team A's export: b-api reported, team A's guests in the basis", fixture("vms-a.json"), [["b-api", INVENTORY_LINE]]],
        ["with team B's own earlier deployment too: counted once", `${fixture("vms-a.json")},${fixture("vms-b.json")}`, [["b-api", INVENTORY_LINE]]],
    ] as const)("%s", async (_name, spec, expected) => {
        const out = await withInventoryEnv(spec, () => runStackPolicy(xenGuestNetworkShare, previewOf("vms-b.json"), INVENTORY_CONFIG));
        expect(out.map((v) => [v.urn?.split("::").pop(), parseMessage(v.message).problem])).toEqual(expected);
        for (const v of out) {
            expect(v.message).not.toMatch(/SECRETCIPHERTEXT|\[secret\]/);
        }
    });

    it("names the demand on the link and the other stack's guests", async () => {
        const out = await withInventoryEnv(fixture("vms-a.json"), () => runStackPolicy(xenGuestNetworkShare, previewOf("vms-b.json"), INVENTORY_CONFIG));
        const text = out.map((v) => v.message).join("\n");
        expect(text).toMatch(/140 MB\/s/);
        expect(text).toMatch(/111 MB\/s/);
        expect(text).toContain("Vm \"a-db\" 50 MB/s (stack vms-a/prod, deployed 2026-12-04T21:30:00Z)");
    });
});

/**
 * A host named (not by uuid) across stacks (issue 32): another Xen Orchestra's host of the same
 * name is another pool's, never joined; where the Xen Orchestras cannot be compared, team A's
 * guests cannot be placed, and b-api is not checked rather than judged alone.
 */
describe("team B's guest on a host named xcp-01 in both stacks", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-xenjoin-"));
    afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

    /** Team A's export with its guests on host `xcp-01`, its provider's url `url` (null: none). */
    function teamA(url: string | null): string {
        const doc = JSON.parse(fs.readFileSync(fixture("vms-a.json"), "utf8").split(INVENTORY_HOST).join("xcp-01")) as { deployment: { resources: Array<{ type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }> } };
        for (const r of doc.deployment.resources.filter((x) => x.type === "pulumi:providers:xenorchestra")) {
            for (const props of [r.inputs, r.outputs]) {
                if (props) {
                    if (url === null) {
                        delete props.url;
                    } else {
                        props.url = url;
                    }
                }
            }
        }
        const file = path.join(tmp, `vms-a-${url === null ? "none" : url.replace(/\W+/g, "_")}.json`);
        fs.writeFileSync(file, JSON.stringify(doc));
        return file;
    }
    const provider = { urn: "urn:pulumi:prod::vms-b::pulumi:providers:xenorchestra::xo", props: { url: "wss://xo.example.com" } };
    const teamB = (withProvider: boolean) => previewOf("vms-b.json", (r) => ({
        ...r,
        props: JSON.parse(JSON.stringify(r.props).split(INVENTORY_HOST).join("xcp-01")) as Record<string, unknown>,
        ...(withProvider && r.type.startsWith("xenorchestra:") ? { provider } : {}),
    }));
    const config = { hosts: { "xcp-01": { linkMBps: 111 } } };
    const UNCLEAR = [["(stack)", "Basis: other stacks' guests name its host, but their Xen Orchestra cannot be told from this stack's, so its share may be lower (stacks vms-a/prod): 1 (Vm \"b-api\")"]];
    const SHORT = `Vm "b-api" on Xen host "xcp-01" is predicted 27.75 of the 30 MB/s it needs: 2.25 MB/s short.`;

    it.each([
        ["baseline: one Xen Orchestra, both stacks declare it: joined", () => teamA("wss://xo.example.com"), true, [["b-api", SHORT]]],
        ["team A on another Xen Orchestra: another pool's xcp-01, b-api alone fits", () => teamA("wss://xo-other.example.com"), true, []],
        ["team B's Xen Orchestra unknown: not checked, never judged alone", () => teamA("wss://xo.example.com"), false, UNCLEAR],
        ["team A's Xen Orchestra unknown: not checked", () => teamA(null), true, UNCLEAR],
    ] as const)("%s", async (_name, spec, withProvider, expected) => {
        const out = await withInventoryEnv(spec(), () => runStackPolicy(xenGuestNetworkShare, teamB(withProvider), config));
        expect(out.map((v) => [v.urn?.split("::").pop() ?? "(stack)", v.message])).toEqual(expected.map(([urn, text]) => [urn, expect.stringContaining(text)]));
    });
});
