/**
 * A compliant Xen stack for table-driven policy tests: each failing case changes one thing.
 *
 * Host xcp-01 (named by its UUID in the VMs' affinityHost, link 110 MB/s in config):
 *   web needs 20 MB/s, db needs 45 MB/s, cache declares no need but is capped at 10 MB/s,
 *   dom0 runs a management agent sending 2 MB/s.
 *   Model: dom0 2, domUs share 108: cache 10, web 20, db 45 (75 <= 108): all met.
 * Host xcp-02 (named by the perfguard:xenHost fact, link 110 MB/s, dom0NetworkMBps 5):
 *   app needs 40 MB/s, ci needs 35 MB/s (ci's affinityHost says xcp-01, the fact wins).
 *   Model: dom0 5, domUs share 105: app 40, ci 35: all met.
 */
import { xenDom0Workload } from "../../../policies/xen/xen-dom0-workload";
import { xenGuestNetworkShare } from "../../../policies/xen/xen-guest-network-share";
import { runStackPolicy, TestResource, Violation } from "../../support/policyHarness";

export const VM = "xenorchestra:index/vm:Vm";
export const NETWORK = "xenorchestra:index/xoaNetwork:XoaNetwork";
/** The dom0 services' token (the example's local class). */
export const DOM0_SERVICE = "perfguard:example:Dom0Service";

export const XCP01_UUID = "0b6a4a5e-1f0c-4d1e-9a7f-3c2d1e0f9a01";
export const XCP02_UUID = "0b6a4a5e-1f0c-4d1e-9a7f-3c2d1e0f9a02";

function vm(name: string, affinityHost: string | undefined, tags: string[]): TestResource {
    return {
        type: VM,
        name,
        props: {
            nameLabel: name,
            cpus: 2,
            memoryMax: 4 * 1024 ** 3,
            template: "tmpl-ubuntu-2204",
            networks: [{ networkId: "net-lan" }],
            disks: [{ nameLabel: `${name}-root`, size: 20 * 1024 ** 3, srId: "sr-local" }],
            cloudConfig: "#cloud-config\npassword: SECRET-MARKER-XEN",
            ...(affinityHost === undefined ? {} : { affinityHost }),
            tags: ["env:lab", ...tags],
        },
        propertyDependencies: { networks: ["lan"] },
    };
}

/** A dom0 service on `host` with the given role (undefined = none) and traffic. */
export function dom0Service(name: string, host: string | undefined, role: string | undefined, networkMBps: string | undefined): TestResource {
    return {
        type: DOM0_SERVICE,
        name,
        props: {
            tags: [
                "perfguard:xenDomain=dom0",
                ...(host === undefined ? [] : [`perfguard:xenHost=${host}`]),
                ...(role === undefined ? [] : [`perfguard:xenDom0Role=${role}`]),
                ...(networkMBps === undefined ? [] : [`perfguard:networkMBps=${networkMBps}`]),
            ],
            command: "SECRET-MARKER-XEN",
        },
    };
}

/** The compliant baseline (see the file comment). */
export function xenBaseline(): TestResource[] {
    return [
        { type: NETWORK, name: "lan", props: { nameLabel: "LAN", poolId: "pool-1" } },
        vm("web", XCP01_UUID, ["perfguard:networkMBps=20"]),
        vm("db", XCP01_UUID, ["perfguard:networkMBps=45"]),
        vm("cache", XCP01_UUID, ["perfguard:vifCapMBps=10"]),
        dom0Service("xo-agent", XCP01_UUID, "management", "2"),
        vm("app", XCP02_UUID, ["perfguard:xenHost=xcp-02", "perfguard:networkMBps=40"]),
        vm("ci", XCP01_UUID, ["perfguard:xenHost=xcp-02", "perfguard:networkMBps=35"]),
    ];
}

/** The baseline's xen-guest-network-share config. */
export function xenBaselineConfig(): Record<string, unknown> {
    // Dedicated: the baseline is one stack's hosts (a shared host without an inventory is "not checked").
    return { hosts: { [XCP01_UUID]: { linkMBps: 110, dedicated: true }, "xcp-02": { linkMBps: 110, dom0NetworkMBps: 5, dedicated: true } } };
}

/** The baseline with one change applied to the named resource's props (or added resources). */
export function xenStack(change?: { name: string; edit: (props: Record<string, unknown>) => void } | { add: TestResource[] }): TestResource[] {
    const stack = xenBaseline();
    if (change && "add" in change) {
        return [...stack, ...change.add];
    }
    if (change) {
        const target = stack.find((r) => r.name === change.name);
        if (!target) {
            throw new Error(`no resource ${change.name} in the baseline`);
        }
        change.edit(target.props);
    }
    return stack;
}

/** Replaces the tags of a resource (keeping the non-fact ones). */
export function setTags(...tags: string[]): (props: Record<string, unknown>) => void {
    return (props) => {
        props.tags = ["env:lab", ...tags];
    };
}

export type Config = Record<string, unknown>;

/** Both policies, with the same host config (a stack policy sees only its own config). */
export async function runBoth(resources: TestResource[], shareConfig: Config = xenBaselineConfig(), dom0Config: Config = shareConfig): Promise<Violation[]> {
    return [...(await runStackPolicy(xenDom0Workload, resources, dom0Config)), ...(await runStackPolicy(xenGuestNetworkShare, resources, shareConfig))];
}

export const backupOn01 = { add: [dom0Service("backup", XCP01_UUID, undefined, "60")] };
/** A small guest on xcp-02 that declares neither a need nor a VIF cap. */
export const TINY: TestResource = {
    type: VM,
    name: "tiny",
    props: { nameLabel: "tiny", affinityHost: XCP02_UUID, tags: ["env:lab", "perfguard:xenHost=xcp-02"] },
};
export const withoutXcp02 = { hosts: { [XCP01_UUID]: { linkMBps: 110, dedicated: true } } };

/**
 * The Xen policies' table: a compliant baseline and one change per case, with the verdicts of
 * both policies; each policy's test file runs it for its own (xenCasesFor).
 */
export const XEN_CASES: Array<[string, TestResource[], string[], Config?]> = [
    ["baseline (both hosts fit their links)", xenStack(), []],
    // xcp-01: dom0 wants 62, keeps 55 (>= 50% of 110); domUs share 55: cache 10, web 20, db 25 < 45.
    ["a backup service in dom0 of xcp-01", xenStack(backupOn01), ["xen-dom0-workload -> backup", "xen-guest-network-share -> db"]],
    // A management tool is allowed in dom0, but its traffic still counts: dom0 keeps 55, db gets 25.
    [
        "the management agent sending 100 MB/s",
        xenStack({
            name: "xo-agent",
            edit: setTags("perfguard:xenDomain=dom0", `perfguard:xenHost=${XCP01_UUID}`, "perfguard:xenDom0Role=management", "perfguard:networkMBps=100"),
        }),
        ["xen-guest-network-share -> db"],
    ],
    // cache declares no need: assumed idle whether or not it has a VIF cap (before: it sent as much as it could
    // and made db short, a false alarm wherever few guests declare a need).
    ["cache loses its VIF rate limit (no declared need: not counted)", xenStack({ name: "cache", edit: setTags() }), []],
    // A tiny guest on xcp-02 with no declared need and no cap: not counted, so app and ci still fit.
    ["an undeclared guest on xcp-02 is assumed idle", xenStack({ add: [TINY] }), []],
    [
        "app's own VIF cap below its need",
        xenStack({ name: "app", edit: setTags("perfguard:xenHost=xcp-02", "perfguard:networkMBps=40", "perfguard:vifCapMBps=30") }),
        ["xen-guest-network-share -> app"],
    ],
    // Without its fact ci falls back to affinityHost (xcp-01): domUs share 108 (cache not counted): web 20, then db and ci 44 each < 45.
    [
        "ci without its xenHost fact lands on its affinityHost",
        xenStack({ name: "ci", edit: setTags("perfguard:networkMBps=45") }),
        ["xen-guest-network-share -> ci", "xen-guest-network-share -> db"],
    ],
    // Not checked, grouped once on the stack (app and ci).
    ["no link figure for xcp-02: not checked", xenStack(), ["xen-guest-network-share -> (stack)"], withoutXcp02],
    ["defaultLinkMBps null (the default) is no figure", xenStack(), ["xen-guest-network-share -> (stack)"], { ...withoutXcp02, defaultLinkMBps: null }],
    ["defaultLinkMBps gives xcp-02 its link", xenStack(), [], { hosts: { ...withoutXcp02.hosts, "xcp-02": { dedicated: true } }, defaultLinkMBps: 110 }],
    // app 40 + ci 35 on 60 MB/s: 30 each.
    [
        "defaultLinkMBps too small for xcp-02",
        xenStack(),
        ["xen-guest-network-share -> app", "xen-guest-network-share -> ci"],
        { ...withoutXcp02, defaultLinkMBps: 60 },
    ],
    // xcp-02 by name: dom0 wants 5 + 60, keeps 55; app and ci share 55: 27.5 each.
    [
        "a backup service in dom0 of xcp-02 (host by fact)",
        xenStack({ add: [dom0Service("backup", "xcp-02", "backup", "60")] }),
        ["xen-dom0-workload -> backup", "xen-guest-network-share -> app", "xen-guest-network-share -> ci"],
    ],
    ["a dom0 workload with no host", xenStack({ add: [dom0Service("backup", undefined, undefined, "60")] }), ["xen-dom0-workload -> backup"]],
    // dom0Share 0.2: dom0 keeps max(22, 110 - 75) = 35, the domUs get their 75.
    ["a smaller dom0Share in config", xenStack(backupOn01), ["xen-dom0-workload -> backup"], { ...xenBaselineConfig(), dom0Share: 0.2 }],
    [
        "config host keys match case-insensitively",
        xenStack(),
        [],
        { hosts: { [XCP01_UUID.toUpperCase()]: { linkMBps: 110, dedicated: true }, "XCP-02": { linkMBps: 110, dedicated: true } } },
    ],
    [
        "a guest with a need but no host is not checked",
        xenStack({
            name: "db",
            edit: (p) => {
                delete p.affinityHost;
            },
        }),
        ["xen-guest-network-share -> (stack)"],
    ],
    [
        "a guest with no host and no need is not reported",
        xenStack({
            name: "cache",
            edit: (p) => {
                delete p.affinityHost;
            },
        }),
        [],
    ],
    // An undeclared dom0 workload: reported as a workload, assumed idle by the share check (as an undeclared guest).
    ["an undeclared dom0 workload on xcp-01", xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, undefined)] }), ["xen-dom0-workload -> backup"]],
];

/** XEN_CASES for one policy: each case's verdicts of that policy only. */
export function xenCasesFor(policy: string): Array<[string, TestResource[], string[], Config | undefined]> {
    return XEN_CASES.map(([name, resources, expected, config]) => [name, resources, expected.filter((v) => v.startsWith(`${policy} -> `)), config]);
}
