/**
 * Shares on a balance-slb bond: each sender is placed whole on one member, and the share model
 * runs per member (link = one member's rate), so two VIFs on one 1,111 MB/s member split that
 * member, not the 2,222 MB/s aggregate.
 *
 * Vendor basis: balance-slb (XenServer's default bond mode) hashes each source MAC, so each VIF,
 * onto one member and periodically moves the heaviest hashes to the least-loaded member
 * (XenServer docs, "NIC bonds": "balance-slb ... rebalances based on load"; Open vSwitch
 * Documentation/topics/bonding.rst, "SLB Bonding"). The placement perfguard assumes is that
 * rebalanced state: senders heaviest first, each on the least-loaded member (ties: the lowest
 * member). With n equal VIFs over m members the busiest member carries ceil(n/m) of them.
 * A guest with k VIFs on the bond is k senders of need/k and cap/k (its traffic spread evenly over
 * its VIFs: the reading that lets it reach the most members). dom0's traffic leaves through dom0's
 * own interfaces (one MAC each), so each dom0 sender is placed whole too.
 */
import { predictXenShares, XenShareGuest } from "../../model/xenShares";

/** One sender to place: its demand (undefined = as much as it can), cap, and VIFs (>= 1). */
export interface SlbSender {
    readonly domain: "dom0" | "domU";
    readonly demandMBps: number | undefined;
    readonly capMBps: number | undefined;
    readonly vifs: number;
}

interface Unit {
    readonly owner: number;
    readonly demand: number | undefined;
    readonly cap: number | undefined;
    readonly domain: "dom0" | "domU";
}

/** Load of a member: unbounded senders first (each counts as heavier than any finite one), then MB/s. */
interface Load {
    unbounded: number;
    mbps: number;
    units: Unit[];
}

function lighter(a: Load, b: Load): boolean {
    return a.unbounded !== b.unbounded ? a.unbounded < b.unbounded : a.mbps < b.mbps - 1e-9;
}

/** The demand a unit loads its member with: min(demand, cap), undefined = unbounded. */
function weight(u: Unit): number | undefined {
    return u.demand === undefined ? u.cap : u.cap === undefined ? u.demand : Math.min(u.demand, u.cap);
}

/**
 * Each sender's predicted MB/s on a balance-slb bond of `members` members of `memberMBps` each.
 * @returns one figure per sender, in input order. Throws RangeError from the model for out-of-range input.
 */
export function predictSlbShares(senders: readonly SlbSender[], members: number, memberMBps: number, dom0Share: number): number[] {
    const units: Unit[] = senders.flatMap((s, owner) => {
        const k = Math.max(1, Math.floor(s.vifs));
        return Array.from({ length: k }, () => ({
            owner,
            domain: s.domain,
            demand: s.demandMBps === undefined ? undefined : s.demandMBps / k,
            cap: s.capMBps === undefined ? undefined : s.capMBps / k,
        }));
    });
    // Heaviest first (unbounded before any finite demand); the sort is stable, so ties keep input order.
    const key = (u: Unit) => weight(u) ?? Infinity;
    const order = [...units].sort((a, b) => key(b) - key(a) || 0);
    const loads: Load[] = Array.from({ length: Math.max(1, members) }, () => ({ unbounded: 0, mbps: 0, units: [] }));
    for (const u of order) {
        const target = loads.reduce((best, l) => (lighter(l, best) ? l : best), loads[0]);
        const w = weight(u);
        if (w === undefined) {
            target.unbounded += 1;
        } else {
            target.mbps += w;
        }
        target.units.push(u);
    }
    const out = senders.map(() => 0);
    for (const l of loads) {
        if (l.units.length === 0) {
            continue;
        }
        const guests = l.units.map((u, i): XenShareGuest => ({ name: `sender ${i}`, domain: u.domain, demandMBps: u.demand, capMBps: u.cap }));
        const shares = predictXenShares({ linkMBps: memberMBps, dom0Share, guests });
        l.units.forEach((u, i) => {
            out[u.owner] += shares[i].MBps;
        });
    }
    return out;
}
