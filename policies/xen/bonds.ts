/**
 * A Xen host's bonded link: its config (`hosts.<host>.bond`), the bonded network a program
 * declares (@vates/pulumi-xenorchestra `XoaBondedNetwork`: `bondMode`, `pifIds`), how many of a
 * guest's VIFs are on it, and what one guest can reach through it.
 *
 * XenServer bonds are Open vSwitch bonds (XenServer product documentation, "Networking: NIC bonds";
 * Open vSwitch Documentation/topics/bonding.rst):
 *   - balance-slb (XenServer's default) places each source MAC, so each VIF, on one member at a
 *     time and rebalances periodically: one VIF gets at most one member's rate, k VIFs at most
 *     min(k, members) members; many VIFs share the aggregate;
 *   - active-backup carries everything on one member: the host's link is one member;
 *   - lacp (balance-tcp) hashes each flow onto one member: one flow gets at most one member's rate,
 *     several flows of one VIF may spread over every member.
 * The member's rate is the configured aggregate (`linkMBps`) divided by the members: members of
 * equal speed are assumed (the config states the aggregate and the count, not each NIC).
 */
import type { ResourceView, StackView } from "../pack/resources";
import { field, isUnknown, UNKNOWN } from "../pack/values";
import { BOND_MODES, XenBondMode } from "./settings";

export { BOND_MODES, BOND_SCHEMA } from "./settings";
export type { XenBondConfig, XenBondMode } from "./settings";

/** The provider's bonded network (and the alias the provider keeps for its old name). */
export const BONDED_NETWORK_TYPES: readonly string[] = [
    "xenorchestra:index/xoaBondedNetwork:XoaBondedNetwork",
    "xenorchestra:index/bondedNetwork:BondedNetwork",
];

/** Where the bond behaviour comes from, for messages. */
export const BOND_SOURCE = "XenServer bonds are Open vSwitch bonds (XenServer docs, NIC bonds; Open vSwitch bonding.rst)";

/** A guest's VIFs as its `networks` input declares them. */
export interface GuestNetworks {
    /** Entries of `networks` (one VIF each), or undefined when the list is unknown in a preview or absent. */
    readonly vifs: number | undefined;
    /** The stack's bonded network its VIFs are on, and how many of them are on it. */
    readonly bond: { readonly resource: ResourceView; readonly vifs: number } | undefined;
}

function isBondType(type: string): boolean {
    return BONDED_NETWORK_TYPES.includes(type);
}

/**
 * Reads a VM's VIFs and the bonded network of the stack they are on: a `networkId` equal to the
 * bonded network's id, or (in a preview, where ids are unknown) the VM's `networks` depending on
 * exactly one bonded network. When that cannot be told per VIF, every VIF counts as on the bond
 * (the reading with the most VIFs: the one that flags least).
 * @returns the VIF count and the bond; never throws on odd props.
 */
export function guestNetworks(vm: ResourceView, stack: StackView): GuestNetworks {
    const list = field(vm.props, "networks");
    const vifs = Array.isArray(list) ? list.length : undefined;
    const bonds = BONDED_NETWORK_TYPES.flatMap((t) => stack.ofType(t));
    if (bonds.length === 0) {
        return { vifs, bond: undefined };
    }
    const deps = BONDED_NETWORK_TYPES.flatMap((t) => stack.dependencyOf(vm, "networks", t)).sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
    const byId = new Map<string, ResourceView>();
    for (const b of bonds) {
        const id = field(b.props, "id");
        if (typeof id === "string" && id !== "") {
            byId.set(id, b);
        }
    }
    const counts = new Map<ResourceView, number>();
    for (const entry of Array.isArray(list) ? list : []) {
        const id = field(entry, "networkId");
        const bond = typeof id === "string" && byId.has(id) ? byId.get(id) : (id === UNKNOWN || isUnknown(id)) && deps.length === 1 ? deps[0] : undefined;
        if (bond && isBondType(bond.type)) {
            counts.set(bond, (counts.get(bond) ?? 0) + 1);
        }
    }
    if (counts.size === 0 && deps.length > 0) {
        return { vifs, bond: { resource: deps[0], vifs: Math.max(1, vifs ?? 1) } };
    }
    const best = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0].urn < b[0].urn ? -1 : 1))[0];
    return { vifs, bond: best ? { resource: best[0], vifs: best[1] } : undefined };
}

/** A bonded network's mode and members as the program declares them (undefined where unknown or absent). */
export function declaredBond(resource: ResourceView): { mode: XenBondMode | undefined; members: number | undefined } {
    const mode = field(resource.props, "bondMode");
    const pifs = field(resource.props, "pifIds");
    const known = typeof mode === "string" ? BOND_MODES.find((m) => m === mode.trim().toLowerCase()) : undefined;
    return { mode: known, members: Array.isArray(pifs) && pifs.length > 0 ? pifs.length : undefined };
}

/** A host's bond as the model uses it. */
export interface HostBond {
    readonly members: number;
    readonly mode: XenBondMode;
    /** One member's rate: the aggregate link divided by the members (equal members assumed). */
    readonly memberMBps: number;
    /** Where the aggregate link figure comes from (a config path). */
    readonly linkWhere: string;
    /** Where members and mode come from (a config path or the program's bonded network). */
    readonly where: string;
    /** Set when the program's bonded network and the config disagree (the program's wins). */
    readonly conflict: string | undefined;
}

/**
 * What one guest can reach through the bond, or undefined when the bond does not bound it:
 * balance-slb min(VIFs, members) members, active-backup one member, lacp unbounded (several
 * flows may spread; one flow gets one member: oneFlowBound says so).
 * @param vifs - the guest's VIFs on the bond (>= 1), or undefined when unknown (not bounded).
 */
export function bondCapMBps(bond: HostBond | undefined, vifs: number | undefined): number | undefined {
    if (!bond || vifs === undefined) {
        return undefined;
    }
    switch (bond.mode) {
        case "balance-slb":
            return Math.min(Math.max(1, vifs), bond.members) * bond.memberMBps;
        case "active-backup":
            return bond.memberMBps;
        default:
            return undefined;
    }
}

/** The link the share model splits: one member under active-backup, the aggregate otherwise. */
export function bondedLinkMBps(linkMBps: number, bond: HostBond | undefined): number {
    return bond?.mode === "active-backup" ? bond.memberMBps : linkMBps;
}
