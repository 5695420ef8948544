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
import type { TestResource } from "../../support/policyHarness";

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
    return { hosts: { [XCP01_UUID]: { linkMBps: 110 }, "xcp-02": { linkMBps: 110, dom0NetworkMBps: 5 } } };
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
