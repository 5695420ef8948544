/**
 * `perfguard config check` and the two Xen policies' `hosts` (policies/xen/hostsAgreement.ts):
 * xen-guest-network-share and xen-dom0-workload take the same table and each reads only its own,
 * so a host given different values in each is judged with different figures: one note per host
 * and field, naming both policies, as a Citrix setting set in its home and a deprecated copy is.
 * Checked against the pack's own GetAnalyzerInfo.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkPolicyConfig } from "../../cli/configCheck";
import type { AnalyzerInfo } from "../../preview/packClient";
import { packAnalyzerInfo } from "./cliHarness";

let info: AnalyzerInfo;

beforeAll(async () => {
    info = await packAnalyzerInfo();
});

const SAME = "each Xen policy reads only its own hosts, so the two judge this host with different figures; set the same on both";

/** The same hosts on both policies but `dom0` on xen-dom0-workload and `share` on xen-guest-network-share. */
function both(dom0: Record<string, unknown>, share: Record<string, unknown>): Record<string, unknown> {
    return { "xen-dom0-workload": { hosts: dom0 }, "xen-guest-network-share": { hosts: share } };
}

const XCP = { linkMBps: 111, bond: { members: 2 } };

describe("config check: the two Xen policies' hosts", () => {
    it.each([
        ["the same host entry on both (baseline)", both({ "xcp-01": XCP }, { "xcp-01": XCP }), []],
        [
            "defaults written out on one only: the same figures",
            both({ "xcp-01": XCP }, { "xcp-01": { ...XCP, dedicated: false, dom0NetworkMBps: 0, bond: { members: 2, mode: "balance-slb" } } }),
            [],
        ],
        [
            "a host in one table only: judged by the other policy with its defaults (no defaultLinkMBps: no link)",
            both({ "xcp-01": XCP }, { "xcp-01": XCP, "xcp-02": { linkMBps: 222 } }),
            [`hosts["xcp-02"].linkMBps is not set (no defaultLinkMBps either) here (not in its hosts) and 222 on xen-guest-network-share: ${SAME}`],
        ],
        [
            "a host in one table only, at the other policy's defaultLinkMBps: the same figures",
            {
                "xen-dom0-workload": { hosts: { "xcp-01": XCP }, defaultLinkMBps: 222 },
                "xen-guest-network-share": { hosts: { "xcp-01": XCP, "xcp-02": { linkMBps: 222 } }, defaultLinkMBps: 222 },
            },
            [],
        ],
        [
            "linkMBps on one, the other's defaultLinkMBps the same value: the same figures",
            {
                "xen-dom0-workload": { hosts: { "xcp-01": { bond: { members: 2 } } }, defaultLinkMBps: 111 },
                "xen-guest-network-share": { hosts: { "xcp-01": XCP }, defaultLinkMBps: 111 },
            },
            [],
        ],
        [
            "linkMBps differs",
            both({ "xcp-01": { ...XCP, linkMBps: 222 } }, { "xcp-01": XCP }),
            [`hosts["xcp-01"].linkMBps is 222 here and 111 on xen-guest-network-share: ${SAME}`],
        ],
        [
            "linkMBps on one only (the other takes defaultLinkMBps)",
            both({ "xcp-01": { bond: { members: 2 } } }, { "xcp-01": XCP }),
            [`hosts["xcp-01"].linkMBps is not set (no defaultLinkMBps either) here and 111 on xen-guest-network-share: ${SAME}`],
        ],
        [
            "the bond's mode differs",
            both({ "xcp-01": { ...XCP, bond: { members: 2, mode: "active-backup" } } }, { "xcp-01": XCP }),
            [`hosts["xcp-01"].bond is {"members":2,"mode":"active-backup"} here and {"members":2,"mode":"balance-slb"} on xen-guest-network-share: ${SAME}`],
        ],
        [
            "dedicated on one only",
            both({ "xcp-01": XCP }, { "xcp-01": { ...XCP, dedicated: true } }),
            [`hosts["xcp-01"].dedicated is false here and true on xen-guest-network-share: ${SAME}`],
        ],
        [
            "the key spelt otherwise (the policies compare keys trimmed, case-insensitively): named both ways",
            both({ "XCP-01": { ...XCP, dom0NetworkMBps: 20 } }, { "xcp-01": XCP }),
            [`hosts["XCP-01"].dom0NetworkMBps is 20 here and 0 on xen-guest-network-share (as hosts["xcp-01"]): ${SAME}`],
        ],
        [
            "two hosts, two fields: sorted by host, then field",
            both({ "xcp-02": { linkMBps: 50, dedicated: true }, "xcp-01": { ...XCP, linkMBps: 100 } }, { "xcp-01": XCP, "xcp-02": { linkMBps: 111 } }),
            [
                `hosts["xcp-01"].linkMBps is 100 here and 111 on xen-guest-network-share: ${SAME}`,
                `hosts["xcp-02"].dedicated is true here and false on xen-guest-network-share: ${SAME}`,
                `hosts["xcp-02"].linkMBps is 50 here and 111 on xen-guest-network-share: ${SAME}`,
            ],
        ],
    ] as const)("%s", (_name, config, expected) => {
        const found = checkPolicyConfig(config, info);
        expect(found.problems).toEqual([]);
        expect(found.notes.filter((n) => n.message.startsWith("hosts[")).map((n) => [n.policy, n.message])).toEqual(
            expected.map((m) => ["xen-dom0-workload", m]),
        );
    });

    it.each([
        ["the same settings (baseline)", { defaultLinkMBps: 111 }, { defaultLinkMBps: 111 }, []],
        [
            "defaultLinkMBps differs",
            { defaultLinkMBps: 100 },
            { defaultLinkMBps: 1000 },
            [
                "defaultLinkMBps is 100 here and 1000 on xen-guest-network-share: each Xen policy reads only its own settings, so the two judge the hosts with different figures; set the same on both",
            ],
        ],
        [
            "dom0Share differs",
            { dom0Share: 0.3 },
            {},
            [
                "dom0Share is 0.3 here and 0.5 on xen-guest-network-share: each Xen policy reads only its own settings, so the two judge the hosts with different figures; set the same on both",
            ],
        ],
    ] as const)("settings both take: %s", (_name, dom0, share, expected) => {
        const found = checkPolicyConfig({ "xen-dom0-workload": dom0, "xen-guest-network-share": share }, info);
        expect(found.problems).toEqual([]);
        expect(found.notes.filter((n) => /^(defaultLinkMBps|dom0Share) /.test(n.message)).map((n) => [n.policy, n.message])).toEqual(
            expected.map((m) => ["xen-dom0-workload", m]),
        );
    });
});
