/**
 * Where the NSX ALB (Avi) Controller places the virtual services (VSs) of one Service Engine (SE)
 * group, and the load on the busiest SE that follows (seFixes.ts: the group changes that make it fit).
 *
 * Rules, as the vendor defines them (each cited where it is applied):
 * - HA modes: Avi "Elastic HA for Avi Service Engines"
 *   (https://avinetworks.com/docs/latest/elastic-ha-for-avi-service-engines/) and the VMware Avi
 *   Load Balancer Configuration Guide, SE group Placement tab
 *   (https://docs.vmware.com/en/VMware-Avi-Load-Balancer/30.2/Configuration-Guide/GUID-A5E32D48-34FC-420B-AFD1-1D1497158491.html).
 * - Placement (`algo`, `max_vs_per_se`) and the documented ranges: vmware/terraform-provider-avi
 *   website/docs/r/avi_serviceenginegroup.html.markdown and avi/resource_avi_serviceenginegroup.go
 *   (defaults: PLACEMENT_ALGO_PACKED, max_vs_per_se 10, ha_mode HA_MODE_SHARED, buffer_se 1).
 * - Per-SE figures: seCapacity (the published 20.1.6 table; beyond 6 vCPUs not measured).
 *
 * Pure TypeScript: no Pulumi.
 */
import {
    DEFAULT_ALGO,
    DEFAULT_MAX_VS_PER_SE,
    NO_UTILISATION,
    PROVIDER_RANGES,
    seGroupCapacity,
    SeGroupSpec,
    seUtilisation,
    SeUtilisation,
    utilisationOf,
    VsDemand,
} from "./seCapacity";
import { ExtrapolationReading, perSeCapacity, SeCapacity } from "./seTable";

/** The largest SE size the table measured (6 vCPUs); beyond it figures are extrapolated. */
export const MEASURED_VCPUS_MAX = 6;

/** One placed VS: its own demand and those of its SNI children (they run on the parent's SEs). */
export type PlacedUnit = readonly VsDemand[];

/** Options of {@link placeGroup}. */
export interface PlacementOptions {
    /** Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs (N+M and active/active). */
    readonly assumeScaleOut?: boolean;
    /** Use the 6 vCPU row's figures for a larger SE (what was measured), not the extrapolation. */
    readonly measuredOnly?: boolean;
    /** Beyond the 6 vCPU row: the reading of the CPU-bound figures (seCapacity; default "slope"). */
    readonly reading?: ExtrapolationReading;
}

/** How the VSs were assumed to be spread, for messages. */
export type PlacementRule = "packed" | "distributed" | "active-standby" | "active-standby-distributed";

/** Where the VSs of one group run and how loaded that leaves its SEs. */
export interface GroupPlacement {
    readonly perSe: SeCapacity;
    readonly rule: PlacementRule;
    /** SEs each VS is placed on. */
    readonly sesPerVs: number;
    /**
     * SEs' capacity one VS can count on: N+M all it is placed on (the buffer SEs take over a failed
     * one); active/active one fewer (it must fit after one fails); active/standby one (the active).
     */
    readonly vsSes: number;
    /** SEs the placements need: N of N+M, ceil(placements / maxVsPerSe) and at least sesPerVs. */
    readonly sesNeeded: number;
    /** The most SEs the group runs: maxSe; 2 in legacy active/standby. */
    readonly sesMax: number;
    readonly maxVsPerSe: number;
    readonly vsCount: number;
    /** The placements fit within sesMax SEs of maxVsPerSe VSs each. */
    readonly placeable: boolean;
    /** N+M only: sesNeeded + bufferSe <= maxSe, i.e. the buffer can be kept (true in the other modes). */
    readonly bufferKept: boolean;
    /** Each VS (with its SNI children) on vsSes SEs, in input order. */
    readonly perVs: readonly SeUtilisation[];
    /**
     * The busiest SE. In legacy active/standby the SE that carries every VS of the group after a
     * failover, whatever distributeLoadActiveStandby says (Avi 21.1, Legacy HA for Service
     * Engines: "the surviving SE takes over traffic for all virtual services previously active
     * on the failed SE").
     */
    readonly worstSe: SeUtilisation;
    /** Legacy active/standby with distributeLoadActiveStandby: the busier SE while both run (steady state, not what sizes). */
    readonly steadyStateSe?: SeUtilisation;
    /** VS shares on the busiest SE (packed: min(maxVsPerSe, VSs)). */
    readonly worstSeShares: number;
}

// Rounding guard: 0.8 x 2600 computed in floating point must still meet a demand of 2080.
export const EPSILON = 1e-9;

function checkRange(name: string, value: number, min: number, max: number): void {
    if (!Number.isInteger(value) || value < min || value > max) {
        throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
    }
}

type Part = "sslTps" | "l7Rps" | "l4Cps" | "sslThroughput" | "throughput" | "ingress" | "openConnections";
const CPU_PARTS: readonly Part[] = ["sslTps", "l7Rps", "l4Cps", "sslThroughput"];
const ALL_PARTS: readonly Part[] = [...CPU_PARTS, "throughput", "ingress", "openConnections"];
const NO_PARTS: Readonly<Record<Part, number>> = { sslTps: 0, l7Rps: 0, l4Cps: 0, sslThroughput: 0, throughput: 0, ingress: 0, openConnections: 0 };

/** Sum of the `count` largest shares by `key`, taking all parts of `pick` from the same shares. */
function topSum(shares: readonly SeUtilisation[], count: number, key: (u: SeUtilisation) => number, pick: readonly Part[]): Record<Part, number> {
    const sorted = [...shares].sort((a, b) => key(b) - key(a)).slice(0, count);
    const out: Record<Part, number> = { ...NO_PARTS };
    for (const u of sorted) {
        for (const part of pick) {
            out[part] += u[part];
        }
    }
    return out;
}

/**
 * Packed placement (Avi "compact": a new VS goes onto an SE already running until it holds
 * max_vs_per_se VSs): the busiest SE holds the `count` heaviest shares (one per VS: a VS's shares
 * are on different SEs). Each limit (CPU, throughput, open connections) takes its own heaviest set.
 */
function packedWorst(shares: readonly SeUtilisation[], count: number): SeUtilisation {
    const cpu = topSum(shares, count, (u) => u.cpu, CPU_PARTS);
    const throughput = topSum(shares, count, (u) => u.throughput, ["throughput", "ingress"]);
    const connections = topSum(shares, count, (u) => u.openConnections, ["openConnections"]);
    return utilisationOf({ ...cpu, throughput: throughput.throughput, ingress: throughput.ingress, openConnections: connections.openConnections });
}

/**
 * Distributed placement, whole VSs. This is Avi's PLACEMENT_ALGO_DISTRIBUTED as documented: it
 * spreads new VSs over the SEs, each onto the least-loaded SE (terraform-provider-avi
 * avi_serviceenginegroup `algo`; VMware Avi Configuration Guide, SE group Placement tab; the
 * project's reference notes: "PLACEMENT_ALGO_DISTRIBUTED spreads them"). The unit is the VS, not a
 * fraction of it: a VS on minScaleoutPerVs 1 runs whole on one SE (the 20.1.6 per-SE table measures
 * a VS on one SE), so a VS scaled out to n SEs puts one share (1/n) on each of n different SEs. The
 * shares are assigned greedily, heaviest first, each to the least-loaded SE not already holding
 * that VS (least-loaded of all when the VS needs more SEs than there are). Returns the busiest SE
 * (each limit on the SE where it is highest) and how many shares it holds.
 */
function distributedWorst(shares: readonly SeUtilisation[], copies: number, ses: number): { worst: SeUtilisation; count: number } {
    const loads: SeUtilisation[][] = Array.from({ length: Math.max(1, ses) }, () => []);
    // Each SE's running sum, added to in the order of loads[i] (so equal to sumOf(loads[i]) bit
    // for bit): the least-loaded search is then O(SEs) per share, not O(shares).
    const running: Array<Record<Part, number>> = loads.map(() => ({ ...NO_PARTS }));
    const peaks: number[] = loads.map(() => utilisationOf(NO_PARTS).peak);
    const load = (i: number) => peaks[i];
    // Heaviest first; ties keep input order (equal shares give equal loads, whatever the order).
    const order = shares.map((u, i) => ({ u, i })).sort((a, b) => b.u.peak - a.u.peak || a.i - b.i);
    for (const { u } of order) {
        const used = new Set<number>();
        for (let c = 0; c < copies; c++) {
            let best = -1;
            for (let i = 0; i < loads.length; i++) {
                if (used.has(i) && used.size < loads.length) {
                    continue;
                }
                if (best < 0 || load(i) < load(best) - EPSILON) {
                    best = i;
                }
            }
            used.add(best);
            loads[best].push(u);
            for (const part of ALL_PARTS) {
                running[best][part] += u[part];
            }
            peaks[best] = utilisationOf(running[best]).peak;
        }
    }
    // As under packed placement, each limit (CPU, throughput, open connections) is taken from the
    // SE where it is highest; the share count is that of the SE with the highest peak.
    const sums = loads.map(sumOf);
    const most = (key: (u: SeUtilisation) => number) => sums.reduce((a, b) => (key(b) > key(a) + EPSILON ? b : a), sums[0]);
    const cpu = most((u) => u.cpu);
    const throughput = most((u) => u.throughput);
    const connections = most((u) => u.openConnections);
    const peakAt = sums.indexOf(most((u) => u.peak));
    const worst = utilisationOf({
        sslTps: cpu.sslTps,
        l7Rps: cpu.l7Rps,
        l4Cps: cpu.l4Cps,
        sslThroughput: cpu.sslThroughput,
        throughput: throughput.throughput,
        ingress: throughput.ingress,
        openConnections: connections.openConnections,
    });
    return { worst, count: loads[peakAt].length };
}

/** Load of `shares` spread evenly over `ses` SEs (legacy active/standby's steady state with distributeLoadActiveStandby). */
function spreadWorst(shares: readonly SeUtilisation[], ses: number): SeUtilisation {
    return distributedWorst(shares, 1, ses).worst;
}

function sumOf(shares: readonly SeUtilisation[]): SeUtilisation {
    const parts = {} as Record<Part, number>;
    for (const part of ALL_PARTS) {
        parts[part] = shares.reduce((t, u) => t + u[part], 0);
    }
    return utilisationOf(parts);
}

/**
 * Places the VSs of one SE group as the Controller does and returns the load on each VS's SEs
 * and on the busiest SE.
 * - HA_MODE_SHARED (elastic N+M, the provider's default): a VS is placed on minScaleoutPerVs SEs
 *   (maxScaleoutPerVs with assumeScaleOut; at most maxSe); N = the SEs the placements need at
 *   maxVsPerSe VSs per SE, and the group keeps bufferSe SEs spare on top ("N+M"), so
 *   N + bufferSe <= maxSe must hold for the buffer to be kept (Avi Elastic HA: "the N is the
 *   minimum number of SEs required to place virtual services ... based on Virtual Services per
 *   Service Engine"; "M ... additional SEs to handle up to M SE failures").
 * - HA_MODE_SHARED_PAIR (elastic active/active): a VS runs on at least two active SEs and must
 *   fit after one of them fails, i.e. on max(minScaleoutPerVs, 2) - 1 SEs.
 * - HA_MODE_LEGACY_ACTIVE_STANDBY: two SEs, one active, no scale-out (VMware Avi Configuration
 *   Guide: "Only two Service Engines may be created ... There is no Service Engine scale out");
 *   every VS of the group runs on the active SE. distributeLoadActiveStandby spreads them over
 *   both while both run ("use both the active and standby Service Engines for virtual service
 *   placement"), but after a failover "the surviving SE takes over traffic for all virtual
 *   services previously active on the failed SE" (Avi 21.1, Legacy HA for Service Engines): the
 *   busiest SE carries them all in both settings; the spread is only the steady state.
 * - algo PLACEMENT_ALGO_PACKED: the busiest SE holds the maxVsPerSe heaviest VS shares;
 *   PLACEMENT_ALGO_DISTRIBUTED: whole VS shares, heaviest first, each onto the least-loaded of the
 *   SEs the group may run (maxSe less the buffer; one fewer in active/active): distributedWorst.
 * @param units - each VS with its SNI children (demands as VsDemand).
 * @param spec - the group (SeGroupSpec; absent algo / maxVsPerSe take the provider defaults).
 * @returns the placement; never throws for a valid spec.
 * @throws RangeError naming the field for a spec outside its range (see seGroupCapacity).
 */
export function placeGroup(units: readonly PlacedUnit[], spec: SeGroupSpec, options: PlacementOptions = {}): GroupPlacement {
    seGroupCapacity(spec); // validates the fields it shares
    const maxVsPerSe = spec.maxVsPerSe ?? DEFAULT_MAX_VS_PER_SE;
    checkRange("maxVsPerSe", maxVsPerSe, PROVIDER_RANGES.maxVsPerSe.min, PROVIDER_RANGES.maxVsPerSe.max);
    const vcpus = options.measuredOnly ? Math.min(spec.vcpusPerSe, MEASURED_VCPUS_MAX) : spec.vcpusPerSe;
    const perSe = perSeCapacity(vcpus, spec.memoryPerSeMb / 1024, spec.dedicatedDispatcher, options.reading);
    const n = units.length;
    const base = options.assumeScaleOut ? spec.maxScaleoutPerVs : spec.minScaleoutPerVs;
    const algo = spec.algo ?? DEFAULT_ALGO;
    if (spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY") {
        const shares = units.map((u) => seUtilisation(u, perSe, 1));
        const distribute = spec.distributeLoadActiveStandby === true;
        const total = sumOf(shares);
        return {
            perSe,
            rule: distribute ? "active-standby-distributed" : "active-standby",
            sesPerVs: 1,
            vsSes: 1,
            sesNeeded: n === 0 ? 0 : distribute ? Math.min(2, n) : 1,
            sesMax: 2,
            maxVsPerSe,
            vsCount: n,
            // Each SE holds every VS, active or standby, so at most maxVsPerSe VSs in the group.
            placeable: n <= maxVsPerSe,
            bufferKept: true,
            perVs: shares,
            // After a failover the surviving SE carries every VS of the pair, in both settings.
            worstSe: n === 0 ? NO_UTILISATION : total,
            ...(distribute ? { steadyStateSe: n === 0 ? NO_UTILISATION : spreadWorst(shares, 2) } : {}),
            worstSeShares: n,
        };
    }
    const pair = spec.haMode === "HA_MODE_SHARED_PAIR";
    const wanted = pair ? Math.max(base, 2) : base;
    const sesPerVs = Math.max(1, Math.min(wanted, Math.max(spec.maxSe, 1)));
    const vsSes = pair ? Math.max(1, sesPerVs - 1) : sesPerVs;
    const shares = units.map((u) => seUtilisation(u, perSe, vsSes));
    const placements = n * sesPerVs;
    const sesNeeded = n === 0 ? 0 : Math.max(sesPerVs, Math.ceil(placements / maxVsPerSe));
    const placeable = n === 0 || (sesNeeded <= spec.maxSe && wanted <= spec.maxSe);
    let worstSe: SeUtilisation;
    let worstSeShares: number;
    if (n === 0) {
        worstSe = NO_UTILISATION;
        worstSeShares = 0;
    } else if (algo === "PLACEMENT_ALGO_PACKED") {
        worstSeShares = Math.min(maxVsPerSe, n);
        worstSe = packedWorst(shares, worstSeShares);
    } else {
        // Whole VSs (each share on its own SE) over the SEs the group may run with its reserve.
        // At least one SE: a buffer the group cannot keep is nsx-alb-se-capacity-advisory's concern.
        const ses = Math.max(1, Math.min(pair ? spec.maxSe - 1 : spec.maxSe - spec.bufferSe, placements));
        // Active/active: each VS must fit on its SEs less one, so vsSes shares of 1/vsSes each.
        const placed = distributedWorst(shares, vsSes, ses);
        worstSe = placed.worst;
        worstSeShares = placed.count;
    }
    return {
        perSe,
        rule: algo === "PLACEMENT_ALGO_PACKED" ? "packed" : "distributed",
        sesPerVs,
        vsSes,
        sesNeeded,
        sesMax: spec.maxSe,
        maxVsPerSe,
        vsCount: n,
        placeable,
        bufferKept: pair || sesNeeded + spec.bufferSe <= spec.maxSe,
        perVs: shares,
        worstSe,
        worstSeShares,
    };
}

/** The utilisation allowed with `headroomPct` kept. */
export function allowed(headroomPct: number): number {
    return 1 - headroomPct / 100;
}

/** Whether every VS fits its SEs, the busiest SE fits, and the placements fit the group. */
export function placementFits(p: GroupPlacement, headroomPct: number): boolean {
    const limit = allowed(headroomPct) + EPSILON;
    return p.placeable && p.worstSe.peak <= limit && p.perVs.every((u) => u.peak <= limit);
}
