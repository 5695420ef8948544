/**
 * How one Xen host's network link is shared between dom0 and the guests (domUs).
 *
 * Source: xen-dom0-domU-network.ja.txt (Xen, wget of 10 MiB files over a ~100 Mb/s link);
 * measured scenarios in model/data/xen-network.json.
 *
 * Mechanism: every guest packet passes netback in dom0, in both directions: what a guest sends
 * goes netfront -> netback -> bridge -> NIC; what it receives (the direction the source measured)
 * goes NIC -> bridge -> netback -> netfront, so a guest's receive is netback's transmit into its
 * VIF. dom0's own traffic competes with the guests' at the NIC and in netback.
 *
 * Rule (all figures in MB/s, one direction: the source measured receiving, wget downloads to
 * /dev/null, by dom0 and the domUs alike, so dom0's share is of receive too; a XenServer VIF rate
 * limit caps what the VM transmits only, not what netback transmits to it, so a capped need is
 * assumed to be the guest's transmit, a direction the source did not measure):
 *   - each entry's demand is min(demandMBps, capMBps); absent = as much as it can get;
 *   - the link is split between two groups, dom0 and the domUs, by weighted max-min fairness:
 *     while dom0 transfers it keeps at least dom0Share of the link (scenario "dom0 and two domUs":
 *     5.86 of 11.36 MB/s, >= 50%), the domUs share the rest, and what one group does not use goes
 *     to the other (scenario "dom0 and two domUs", afterDom0DoneMeanMBps: the domUs recover to
 *     ~5.6 MB/s each once dom0 stops);
 *   - within a group the share is split evenly, max-min fair (scenario "two domUs": 5.56 and
 *     5.52 MB/s); several dom0 entries (dom0 services) share dom0's part the same way;
 *   - caps (VIF rate limits) are hard bounds; an entry with no demand left takes nothing.
 * dom0Share = 0.5 rests on that one test (old split-driver netback, Fast Ethernet): no public
 * guidance states it, so it is a parameter.
 */

/** dom0's guaranteed share of the link while it transfers (xen-network.json, "dom0 and two domUs"). */
export const MEASURED_DOM0_SHARE = 0.5;

/** Usable throughput of the source's ~100 Mb/s link, MB/s (xen-network.json: ~11.1 MB/s in all). */
export const SOURCE_LINK_MBPS = 11.1;

/**
 * The fastest link the rule was measured on, MB/s: the source's ~100 Mb/s link. On a faster link
 * (1 GbE, 10 GbE, a newer netback) every figure of the rule is an extrapolation.
 */
export const MEASURED_LINK_MAX_MBPS = SOURCE_LINK_MBPS;

/**
 * The label of a figure computed on a link beyond the measured one, or undefined within it.
 * @param linkMBps - the host link's usable MB/s.
 */
export function xenExtrapolation(linkMBps: number): string | undefined {
    return linkMBps > MEASURED_LINK_MAX_MBPS
        ? `extrapolated: the dom0/domU split was not measured beyond ${MEASURED_LINK_MAX_MBPS} MB/s (~100 Mb/s link, old netback)`
        : undefined;
}

/** Where the share rule comes from, for messages. */
export const XEN_SHARE_SOURCE =
    "measured with wget downloads (receive; a guest's receive passes netback in dom0) over a ~100 Mb/s link with dom0 and two domUs receiving at once (xen-dom0-domU-network.ja.txt, model/data/xen-network.json)";

/** The domain a traffic source runs in: the host's control domain or a guest. */
export type XenDomain = "dom0" | "domU";

/** One traffic source on the host: a guest (domU) or a dom0 service. */
export interface XenShareGuest {
    /** Unique within one call; returned as is. */
    readonly name: string;
    readonly domain: XenDomain;
    /** Bandwidth it wants, MB/s (>= 0); absent or +Infinity = as much as it can get. */
    readonly demandMBps?: number;
    /** Its VIF rate limit, MB/s (>= 0); absent or +Infinity = none. */
    readonly capMBps?: number;
}

/** Input of {@link predictXenShares}. */
export interface XenShareInput {
    /** The link's usable throughput, MB/s (> 0, finite). The source's ~100 Mb/s link: ~11.1. */
    readonly linkMBps: number;
    /** dom0's guaranteed fraction of the link while it transfers, 0..1 (default 0.5). */
    readonly dom0Share?: number;
    readonly guests: readonly XenShareGuest[];
}

/** One entry's predicted throughput. */
export interface XenShare {
    readonly name: string;
    /** Predicted throughput, MB/s (finite, >= 0). */
    readonly MBps: number;
}

function checkAmount(value: number | undefined, fieldName: string): void {
    if (value === undefined) {
        return;
    }
    if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
        throw new RangeError(`${fieldName} must be a number >= 0 MB/s (absent = unlimited), got ${String(value)}`);
    }
}

function validate(input: XenShareInput): number {
    const { linkMBps } = input;
    if (typeof linkMBps !== "number" || !Number.isFinite(linkMBps) || linkMBps <= 0) {
        throw new RangeError(`linkMBps must be a finite number > 0 MB/s, got ${String(linkMBps)}`);
    }
    const share = input.dom0Share ?? MEASURED_DOM0_SHARE;
    if (typeof share !== "number" || Number.isNaN(share) || share < 0 || share > 1) {
        throw new RangeError(`dom0Share must be a fraction from 0 to 1, got ${String(share)}`);
    }
    if (!Array.isArray(input.guests)) {
        throw new RangeError("guests must be a list");
    }
    const names = new Set<string>();
    input.guests.forEach((g, i) => {
        if (typeof g.name !== "string" || names.has(g.name)) {
            throw new RangeError(`guests[${i}].name must be a unique string, got ${typeof g.name === "string" ? `"${g.name}" twice` : typeof g.name}`);
        }
        names.add(g.name);
        if (g.domain !== "dom0" && g.domain !== "domU") {
            throw new RangeError(`guests[${i}].domain must be "dom0" or "domU", got ${String(g.domain)}`);
        }
        checkAmount(g.demandMBps, `guests[${i}].demandMBps`);
        checkAmount(g.capMBps, `guests[${i}].capMBps`);
    });
    return share;
}

/**
 * Max-min fair split of `capacity` between demands (water filling): demands below the even share
 * are met, the rest is split evenly among the others. Entries with equal demands get exactly
 * equal shares (once the even share is below a demand, every remaining entry gets that share).
 * @returns allocations in input order; their sum is <= capacity.
 */
function waterFill(capacity: number, demands: readonly number[]): number[] {
    const out = new Array<number>(demands.length).fill(0);
    const order = demands.map((_, i) => i).sort((a, b) => demands[a] - demands[b]);
    let remaining = capacity;
    let k = 0;
    while (k < order.length) {
        const even = remaining / (order.length - k);
        const demand = demands[order[k]];
        if (demand <= even) {
            // Meet every equal demand at once, so rounding in `remaining` cannot split a tie.
            let end = k;
            while (end < order.length && demands[order[end]] === demand) {
                out[order[end]] = demand;
                end++;
            }
            remaining = Math.max(0, remaining - demand * (end - k));
            k = end;
            continue;
        }
        for (let j = k; j < order.length; j++) {
            out[order[j]] = even;
        }
        break;
    }
    return out;
}

function sum(values: readonly number[]): number {
    return values.reduce((a, b) => a + b, 0);
}

/**
 * Predicts each traffic source's throughput (the direction measured: receive) on one host's link.
 * @param input - `{ linkMBps, dom0Share?, guests: [{ name, domain: "dom0" | "domU", demandMBps?, capMBps? }] }`
 *   (MB/s; demand or cap absent = unlimited; dom0Share default 0.5, see MEASURED_DOM0_SHARE).
 * @returns `[{ name, MBps }]` in input order: finite, >= 0, never above the entry's demand or cap,
 *   summing to at most linkMBps. O(n log n) in the number of entries.
 * @throws RangeError naming the field: linkMBps <= 0 or not finite, dom0Share outside [0, 1],
 *   a negative or NaN demandMBps/capMBps, an unknown domain, a duplicate name.
 */
export function predictXenShares(input: XenShareInput): XenShare[] {
    const dom0Share = validate(input);
    const link = input.linkMBps;
    const wants = input.guests.map((g) => Math.min(g.demandMBps ?? Infinity, g.capMBps ?? Infinity));
    const dom0Idx: number[] = [];
    const domUIdx: number[] = [];
    input.guests.forEach((g, i) => (g.domain === "dom0" ? dom0Idx : domUIdx).push(i));
    const dom0Demand = sum(dom0Idx.map((i) => wants[i]));
    const domUDemand = sum(domUIdx.map((i) => wants[i]));
    // Two-group weighted max-min: dom0 is guaranteed dom0Share of the link and also takes what the
    // domUs leave; the domUs take what dom0 leaves (an idle dom0 releases everything).
    const dom0Part = Math.min(dom0Demand, Math.max(dom0Share * link, link - domUDemand));
    const domUPart = Math.max(0, Math.min(domUDemand, link - dom0Part));
    const out = new Array<number>(input.guests.length).fill(0);
    const dom0Alloc = waterFill(
        dom0Part,
        dom0Idx.map((i) => wants[i]),
    );
    dom0Idx.forEach((i, k) => (out[i] = dom0Alloc[k]));
    const domUAlloc = waterFill(
        domUPart,
        domUIdx.map((i) => wants[i]),
    );
    domUIdx.forEach((i, k) => (out[i] = domUAlloc[k]));
    return input.guests.map((g, i) => ({ name: g.name, MBps: out[i] }));
}
