/**
 * `perfguard size xen` on a bonded link: --bond-members, --bond-mode (default as the config
 * schema's, balance-slb) and --guest-vifs apply the bond bounds of the Xen host model, so the
 * guests it calls short are the ones xen-guest-network-share reports.
 */
import { describe, expect, it } from "vitest";
import { sizeXen, xenBondOf } from "../../cli/sizeXen";
import { xenGuestNetworkShare } from "../../policies/xen/xen-guest-network-share";
import { runStackPolicy, TestResource } from "../support/policyHarness";
import { perfguard } from "./cliHarness";

const VM = "xenorchestra:index/vm:Vm";

function shortCount(link: number, guests: number, need: number, bond: Record<string, unknown>): Promise<number> {
    const stack: TestResource[] = Array.from({ length: guests }, (_, i) => ({
        type: VM,
        name: `g${i}`,
        props: { affinityHost: "h", networks: [{ networkId: "n" }], tags: [`perfguard:networkMBps=${need}`] },
    }));
    return runStackPolicy(xenGuestNetworkShare, stack, { hosts: { h: { linkMBps: link, bond, dedicated: true } } }).then((v) => v.length);
}

describe("size xen with a bond", () => {
    const cases: Array<[string, number, number, number, { members: number; mode?: string }, number | undefined, number]> = [
        // name, link (aggregate), guests, need, bond, VIFs, guests short
        ["2 x 10 GbE, one 1500 MB/s guest, 1 VIF (balance-slb by default)", 2222, 1, 1500, { members: 2 }, undefined, 1],
        ["2 x 10 GbE, one 1500 MB/s guest, 2 VIFs", 2222, 1, 1500, { members: 2 }, 2, 0],
        ["2 x 10 GbE, LACP", 2222, 1, 1500, { members: 2, mode: "lacp" }, undefined, 0],
        ["2 x 25 GbE, 50 x 100 MB/s", 6250, 50, 100, { members: 2 }, undefined, 0],
        ["2 x 25 GbE active-backup, 50 x 100 MB/s", 6250, 50, 100, { members: 2, mode: "active-backup" }, undefined, 50],
        // balance-slb places each VIF whole on one member: 2 x 700 fit 2 x 1111, a third shares a member (1400 > 1111).
        ["2 x 10 GbE balance-slb, 2 x 700 MB/s", 2222, 2, 700, { members: 2 }, undefined, 0],
        ["2 x 10 GbE balance-slb, 3 x 700 MB/s", 2222, 3, 700, { members: 2 }, undefined, 2],
        ["2 x 10 GbE active-backup, 3 x 400 MB/s", 2222, 3, 400, { members: 2, mode: "active-backup" }, undefined, 3],
        ["2 x 10 GbE balance-slb, 3 x 400 MB/s", 2222, 3, 400, { members: 2 }, undefined, 0],
    ];
    it.each(cases)("%s", async (_name, link, guests, need, bond, vifs, short) => {
        const sizing = sizeXen({ linkMBps: link, guests, guestMBps: need, dom0Share: 0.5, ...xenBondOf(bond.members, bond.mode, vifs) });
        expect(sizing.lines.filter((l) => l.meetsNeed === false)).toHaveLength(short);
        if (vifs === undefined) {
            expect(await shortCount(link, guests, need, bond)).toBe(short);
        }
    });

    it("balance-slb, 3 x 700 MB/s on 2 x 10 GbE: the two guests sharing a member get 555.5 MB/s each", () => {
        const sizing = sizeXen({ linkMBps: 2222, guests: 3, guestMBps: 700, dom0Share: 0.5, ...xenBondOf(2, undefined, undefined) });
        expect(sizing.lines.map((l) => l.predictedMBps)).toEqual([555.5, 700, 555.5]);
    });

    it("states one member's reach for the 2 x 10 GbE backup target", () => {
        const sizing = sizeXen({ linkMBps: 2222, guests: 1, guestMBps: 1500, dom0Share: 0.5, ...xenBondOf(2, undefined, undefined) });
        expect(sizing.bond).toEqual({
            memberMBps: 1111,
            guestReachMBps: 1111,
            text: "2 x 1111 MB/s balance-slb bond: each guest's 1 VIF reaches at most 1111 MB/s (one member per VIF)",
        });
        expect(sizing.lines[0].predictedMBps).toBe(1111);
    });

    it.each([
        [["--bond-mode", "lacp"], "give --bond-members too"],
        [["--guest-vifs", "2"], "give --bond-members too"],
        [["--bond-members", "2", "--bond-mode", "balance-tcp"], "--bond-mode must be one of balance-slb, active-backup, lacp"],
        [["--bond-members", "1"], "--bond-members"],
    ])("rejects %j", async (args, text) => {
        const run = await perfguard(["size", "xen", "--link-mb-per-s", "2222", "--guests", "1", ...args]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(text);
    });

    it("prints the bond line", async () => {
        const run = await perfguard(["size", "xen", "--link-mb-per-s", "2222", "--guests", "1", "--guest-mb-per-s", "1500", "--bond-members", "2"]);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain(
            "Bond: 2 x 1111 MB/s balance-slb bond: each guest's 1 VIF reaches at most 1111 MB/s (one member per VIF); XenServer bonds are Open vSwitch bonds.",
        );
        expect(run.stdout).toContain("1 of 1 guests get less than they need");
    });
});
