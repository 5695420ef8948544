/**
 * Where the NSX ALB (Avi) Controller places the virtual services (VSs) of one Service Engine (SE)
 * group, and the load on the busiest SE that follows; and the group changes that make it fit.
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
    ExtrapolationReading,
    NO_UTILISATION,
    PROVIDER_RANGES,
    SE_MEMORY_MIN_GB,
    perSeCapacity,
    SeCapacity,
    SeGroupSpec,
    seGroupCapacity,
    seUtilisation,
    SeUtilisation,
    testedSeSize,
    utilisationOf,
    VsDemand,
} from "./seCapacity";

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
const EPSILON = 1e-9;

function checkRange(name: string, value: number, min: number, max: number): void {
    if (!Number.isInteger(value) || value < min || value > max) {
        throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
    }
}

type Part = "sslTps" | "l7Rps" | "l4Cps" | "sslThroughput" | "throughput" | "ingress" | "openConnections";
const CPU_PARTS: readonly Part[] = ["sslTps", "l7Rps", "l4Cps", "sslThroughput"];

/** Sum of the `count` largest shares by `key`, taking all parts of `pick` from the same shares. */
function topSum(shares: readonly SeUtilisation[], count: number, key: (u: SeUtilisation) => number, pick: readonly Part[]): Record<Part, number> {
    const sorted = [...shares].sort((a, b) => key(b) - key(a)).slice(0, count);
    const out: Record<Part, number> = { sslTps: 0, l7Rps: 0, l4Cps: 0, sslThroughput: 0, throughput: 0, ingress: 0, openConnections: 0 };
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
    const load = (i: number) => sumOf(loads[i]).peak;
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
        sslTps: cpu.sslTps, l7Rps: cpu.l7Rps, l4Cps: cpu.l4Cps, sslThroughput: cpu.sslThroughput,
        throughput: throughput.throughput, ingress: throughput.ingress, openConnections: connections.openConnections,
    });
    return { worst, count: loads[peakAt].length };
}

/** Load of `shares` spread evenly over `ses` SEs (legacy active/standby's steady state with distributeLoadActiveStandby). */
function spreadWorst(shares: readonly SeUtilisation[], ses: number): SeUtilisation {
    return distributedWorst(shares, 1, ses).worst;
}

function sumOf(shares: readonly SeUtilisation[]): SeUtilisation {
    const parts = {} as Record<Part, number>;
    for (const part of [...CPU_PARTS, "throughput", "ingress", "openConnections"] as Part[]) {
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
            perSe, rule: distribute ? "active-standby-distributed" : "active-standby", sesPerVs: 1, vsSes: 1,
            sesNeeded: n === 0 ? 0 : distribute ? Math.min(2, n) : 1, sesMax: 2, maxVsPerSe, vsCount: n,
            // Each SE holds every VS, active or standby, so at most maxVsPerSe VSs in the group.
            placeable: n <= maxVsPerSe, bufferKept: true, perVs: shares,
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
        perSe, rule: algo === "PLACEMENT_ALGO_PACKED" ? "packed" : "distributed", sesPerVs, vsSes, sesNeeded, sesMax: spec.maxSe,
        maxVsPerSe, vsCount: n, placeable, bufferKept: pair || sesNeeded + spec.bufferSe <= spec.maxSe, perVs: shares, worstSe, worstSeShares,
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

/** Options of {@link placementFixes}. */
export interface FixOptions {
    readonly headroomPct: number;
    readonly assumeScaleOut?: boolean;
}

/** The units with BGP/ECMP scale-out on every VS (scaleoutEcmp true): ingress spreads too. */
function withEcmp(units: readonly PlacedUnit[]): PlacedUnit[] {
    return units.map((u) => u.map((d) => ({ ...d, scaleoutEcmp: true })));
}

/** One way to make a group fit: the whole new spec (unchanged fields kept). */
export interface PlacementFix {
    readonly spec: SeGroupSpec;
    /**
     * "placement": distributed placement or fewer VSs per SE at the same size and SEs per VS; "up": a
     * larger SE; "out": more SEs per VS (and fewer VSs per SE); "mode": another HA mode (N+M, with scale-out).
     */
    readonly kind: "placement" | "up" | "out" | "mode";
    /** The fit needs scaleoutEcmp "true" on the VSs: their ingress is what binds, and only BGP/ECMP spreads it. */
    readonly ecmp: boolean;
    /** False when the fit rests on figures extrapolated beyond the 6 vCPU row (not measured). */
    readonly measured: boolean;
    readonly placement: GroupPlacement;
}

function fitsWith(units: readonly PlacedUnit[], spec: SeGroupSpec, options: FixOptions): GroupPlacement | undefined {
    const p = placeGroup(units, spec, { assumeScaleOut: options.assumeScaleOut });
    return placementFits(p, options.headroomPct) ? p : undefined;
}

/** memoryPerSe (MB) at `vcpus` that carries the open connections of the placement (never lowered, within range). */
function memoryFor(units: readonly PlacedUnit[], spec: SeGroupSpec, vcpus: number, options: FixOptions): number {
    const tested = vcpus === spec.vcpusPerSe ? spec.memoryPerSeMb : Math.max(spec.memoryPerSeMb, Math.max(testedSeSize(vcpus).memoryGb, SE_MEMORY_MIN_GB) * 1024);
    const rowGb = testedSeSize(vcpus).memoryGb;
    // Open connections at the row's own memory (factor 1), then the memory that brings them within the limit.
    const atRow = placeGroup(units, { ...spec, vcpusPerSe: vcpus, memoryPerSeMb: rowGb * 1024 }, { assumeScaleOut: options.assumeScaleOut });
    const worst = Math.max(atRow.worstSe.openConnections, ...atRow.perVs.map((u) => u.openConnections));
    const needed = Math.ceil((worst / allowed(options.headroomPct)) * rowGb * 1024 - EPSILON);
    return Math.max(tested, needed, PROVIDER_RANGES.memoryPerSeMb.min);
}

/** Scale-up: the smallest vcpusPerSe in [from, to] (memory raised as needed) that fits. */
function scaleUp(units: readonly PlacedUnit[], spec: SeGroupSpec, from: number, to: number, options: FixOptions): PlacementFix | undefined {
    const at = (v: number): PlacementFix | undefined => {
        const memory = memoryFor(units, spec, v, options);
        if (memory > PROVIDER_RANGES.memoryPerSeMb.max || (v === spec.vcpusPerSe && memory === spec.memoryPerSeMb)) {
            return undefined;
        }
        const candidate = { ...spec, vcpusPerSe: v, memoryPerSeMb: memory };
        const placement = fitsWith(units, candidate, options);
        return placement ? { spec: candidate, kind: "up", measured: v <= MEASURED_VCPUS_MAX, ecmp: false, placement } : undefined;
    };
    // Capacity never falls with vcpusPerSe (seCapacity is monotone), so the fewest that fit is found by bisection.
    let lo = from;
    let hi = to;
    let best: PlacementFix | undefined;
    while (lo <= hi) {
        const v = Math.floor((lo + hi) / 2);
        const fix = at(v);
        if (fix) {
            best = fix;
            hi = v - 1;
        } else {
            lo = v + 1;
        }
    }
    return best;
}

/** maxVsPerSe values to try under packed placement: the current one, then halved down to 1. */
function maxVsPerSeSteps(current: number): number[] {
    const steps = [current];
    for (let m = Math.floor(current / 2); m >= 1; m = Math.floor(m / 2)) {
        steps.push(m);
    }
    if (steps[steps.length - 1] !== 1) {
        steps.push(1);
    }
    return steps;
}

/**
 * Scale-out at `vcpus` (N+M or active/active, `haMode` as given): the fewest SEs per VS from the
 * current count up to 64 (the documented range) and, under packed placement, the most VSs per SE
 * that fit; maxSe raised to the SEs the placements need plus bufferSe (at most 1000).
 */
function scaleOut(units: readonly PlacedUnit[], spec: SeGroupSpec, vcpus: number, options: FixOptions): PlacementFix | undefined {
    // Native scale-out spreads CPU work and egress only; ingress-bound load needs BGP/ECMP too.
    const native = scaleOutWith(units, spec, vcpus, options);
    if (native) {
        return native;
    }
    const ecmp = scaleOutWith(withEcmp(units), spec, vcpus, options);
    return ecmp ? { ...ecmp, ecmp: true } : undefined;
}

function scaleOutWith(units: readonly PlacedUnit[], spec: SeGroupSpec, vcpus: number, options: FixOptions): PlacementFix | undefined {
    const memory = memoryFor(units, spec, vcpus, options);
    if (memory > PROVIDER_RANGES.memoryPerSeMb.max) {
        return undefined;
    }
    const field = options.assumeScaleOut ? "maxScaleoutPerVs" : "minScaleoutPerVs";
    const currentVsPerSe = spec.maxVsPerSe ?? DEFAULT_MAX_VS_PER_SE;
    const steps = (spec.algo ?? DEFAULT_ALGO) === "PLACEMENT_ALGO_PACKED" ? maxVsPerSeSteps(currentVsPerSe) : [currentVsPerSe];
    for (const maxVsPerSe of steps) {
        const candidateAt = (k: number): SeGroupSpec | undefined => {
            const scaled: SeGroupSpec = {
                ...spec, vcpusPerSe: vcpus, memoryPerSeMb: memory, maxVsPerSe: spec.maxVsPerSe === undefined && maxVsPerSe === DEFAULT_MAX_VS_PER_SE ? undefined : maxVsPerSe,
                minScaleoutPerVs: field === "minScaleoutPerVs" ? k : spec.minScaleoutPerVs,
                maxScaleoutPerVs: Math.max(spec.maxScaleoutPerVs, k),
            };
            // SEs the placements need (as placeGroup counts them), plus the N+M buffer.
            const perVs = scaled.haMode === "HA_MODE_SHARED_PAIR" ? Math.max(k, 2) : k;
            const needed = units.length === 0 ? 0 : Math.max(perVs, Math.ceil((units.length * perVs) / maxVsPerSe));
            const maxSe = Math.max(spec.maxSe, needed + (scaled.haMode === "HA_MODE_SHARED" ? spec.bufferSe : 0));
            return maxSe > PROVIDER_RANGES.maxSe.max ? undefined : { ...scaled, maxSe };
        };
        // More SEs per VS only lower each share (and the busiest SE's load): search the fewest that fit.
        let lo = Math.max(spec[field], 1);
        let hi = PROVIDER_RANGES.scaleoutPerVs.max;
        let best: { spec: SeGroupSpec; placement: GroupPlacement } | undefined;
        while (lo <= hi) {
            const k = Math.floor((lo + hi) / 2);
            const candidate = candidateAt(k);
            if (!candidate) {
                hi = k - 1; // more SEs than maxSe allows: fewer per VS, or none fits
                continue;
            }
            const placement = fitsWith(units, candidate, options);
            if (placement) {
                best = { spec: candidate, placement };
                hi = k - 1;
            } else {
                lo = k + 1;
            }
        }
        if (best) {
            return { spec: best.spec, kind: spec.haMode === best.spec.haMode ? "out" : "mode", measured: vcpus <= MEASURED_VCPUS_MAX, ecmp: false, placement: best.placement };
        }
    }
    return undefined;
}

/**
 * algo PLACEMENT_ALGO_DISTRIBUTED, judged on the same whole-VS placement as any distributed group,
 * at the current maxSe or else the fewest maxSe (up to one SE per placement plus the reserve, at
 * most 1000) at which it fits; undefined when none does.
 */
function distributedFix(units: readonly PlacedUnit[], spec: SeGroupSpec, options: FixOptions): Omit<PlacementFix, "measured"> | undefined {
    const distributed: SeGroupSpec = { ...spec, algo: "PLACEMENT_ALGO_DISTRIBUTED" };
    const at = (maxSe: number) => {
        const candidate = { ...distributed, maxSe };
        const placement = fitsWith(units, candidate, options);
        return placement ? { spec: candidate, kind: "placement" as const, ecmp: false, placement } : undefined;
    };
    const current = at(spec.maxSe);
    if (current) {
        return current;
    }
    // More SEs than placements add nothing: each SE then holds at most one share.
    const perVs = Math.max(options.assumeScaleOut ? spec.maxScaleoutPerVs : spec.minScaleoutPerVs, spec.haMode === "HA_MODE_SHARED_PAIR" ? 2 : 1);
    const reserve = spec.haMode === "HA_MODE_SHARED_PAIR" ? 1 : spec.bufferSe;
    let lo = spec.maxSe + 1;
    let hi = Math.min(PROVIDER_RANGES.maxSe.max, units.length * perVs + reserve);
    let best: Omit<PlacementFix, "measured"> | undefined;
    // The busiest SE's load does not rise with more SEs to place on: the fewest that fit, by bisection.
    while (lo <= hi) {
        const m = Math.floor((lo + hi) / 2);
        const fix = at(m);
        if (fix) {
            best = fix;
            hi = m - 1;
        } else {
            lo = m + 1;
        }
    }
    return best;
}

/**
 * Under packed placement, the changes that move VSs apart without a larger SE or more SEs per VS,
 * on the same figures: algo PLACEMENT_ALGO_DISTRIBUTED (whole VSs on the least-loaded SEs the group
 * may run: an N+M group of three 50% VSs packed on one SE at 150% carries 50% per SE on three; maxSe
 * raised when it needs more SEs: distributedFix), and the
 * largest maxVsPerSe below the current one that fits (maxSe raised to the SEs the placements then
 * need, plus the N+M buffer). Legacy active/standby runs its two SEs whatever these say: none.
 */
function placementOnly(units: readonly PlacedUnit[], spec: SeGroupSpec, options: FixOptions): PlacementFix[] {
    if ((spec.algo ?? DEFAULT_ALGO) !== "PLACEMENT_ALGO_PACKED" || spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY" || units.length === 0) {
        return [];
    }
    const out: PlacementFix[] = [];
    const measured = spec.vcpusPerSe <= MEASURED_VCPUS_MAX;
    const spread = distributedFix(units, spec, options);
    if (spread) {
        out.push({ ...spread, measured });
    }
    // Fewer VSs per SE only lowers the busiest SE's load: the largest that fits, by bisection.
    const candidateAt = (m: number): SeGroupSpec | undefined => {
        const withM = { ...spec, maxVsPerSe: m };
        const maxSe = Math.max(spec.maxSe, maxSeFloor(units, withM, options));
        return maxSe > PROVIDER_RANGES.maxSe.max ? undefined : { ...withM, maxSe };
    };
    let lo = 1;
    let hi = (spec.maxVsPerSe ?? DEFAULT_MAX_VS_PER_SE) - 1;
    let best: PlacementFix | undefined;
    while (lo <= hi) {
        const m = Math.floor((lo + hi) / 2);
        const candidate = candidateAt(m);
        const placement = candidate ? fitsWith(units, candidate, options) : undefined;
        if (candidate && placement) {
            best = { spec: candidate, kind: "placement", measured, ecmp: false, placement };
            lo = m + 1;
        } else if (!candidate) {
            lo = m + 1; // too many SEs at this few per SE: more per SE
        } else {
            hi = m - 1;
        }
    }
    return best ? [...out, best] : out;
}

/**
 * The fewest maxSe that places the units as the spec asks: the SEs the placements need at
 * maxVsPerSe (at least the SEs per VS; two in active/active), plus bufferSe in N+M; at least 1.
 * Legacy active/standby runs its two SEs whatever maxSe says: its spec's maxSe is kept.
 */
export function maxSeFloor(units: readonly PlacedUnit[], spec: SeGroupSpec, options: Pick<FixOptions, "assumeScaleOut"> = {}): number {
    if (spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY" || units.length === 0) {
        return spec.maxSe;
    }
    const base = options.assumeScaleOut ? spec.maxScaleoutPerVs : spec.minScaleoutPerVs;
    const perVs = spec.haMode === "HA_MODE_SHARED_PAIR" ? Math.max(base, 2) : base;
    const maxVsPerSe = spec.maxVsPerSe ?? DEFAULT_MAX_VS_PER_SE;
    const needed = Math.max(perVs, Math.ceil((units.length * perVs) / maxVsPerSe));
    return Math.max(1, needed + (spec.haMode === "HA_MODE_SHARED" ? spec.bufferSe : 0));
}

/**
 * Ways to make a group fit every VS placed on it and its busiest SE, each a whole spec within the
 * provider's documented ranges that passes placeGroup, preferred first:
 * - under packed placement, distributed placement, then fewer VSs per SE (placementOnly);
 * - a larger SE within the measured rows (up to 6 vCPUs);
 * - more SEs per VS at a measured size (the current one or the smallest larger measured one that
 *   fits; 6 vCPUs for an SE beyond the measured rows), with scaleoutEcmp on the VSs when their
 *   ingress binds (native scale-out does not spread it); in legacy active/standby, which has no
 *   scale-out, HA_MODE_SHARED (N+M, not in the Essentials/Basic editions) with scale-out.
 *   distributeLoadActiveStandby is never a fix: after a failover one SE carries every VS anyway;
 * - a larger SE beyond 6 vCPUs (extrapolated, not measured), only when no measured larger SE fits.
 * @returns the fixes; empty when the group fits or when nothing within the ranges fits.
 */
export function placementFixes(units: readonly PlacedUnit[], given: SeGroupSpec, options: FixOptions): PlacementFix[] {
    if (fitsWith(units, given, options)) {
        return [];
    }
    // A maxSe below the SEs the placements need (maxSe "0" runs none) is itself the cause: every
    // option raises it to that many (plus the N+M buffer), and raising it alone comes first when
    // it is enough. No option ever has maxSe below 1.
    const floor = maxSeFloor(units, given, options);
    const spec = floor > given.maxSe && floor <= PROVIDER_RANGES.maxSe.max ? { ...given, maxSe: floor } : given;
    if (spec !== given) {
        const placement = fitsWith(units, spec, options);
        if (placement) {
            return [{ spec, kind: "out", measured: spec.vcpusPerSe <= MEASURED_VCPUS_MAX, ecmp: false, placement }];
        }
    }
    // The cheapest change first: where the VSs go, on the same SE size and SEs per VS.
    const out: PlacementFix[] = placementOnly(units, spec, options);
    const upMeasured = spec.vcpusPerSe <= MEASURED_VCPUS_MAX ? scaleUp(units, spec, spec.vcpusPerSe, MEASURED_VCPUS_MAX, options) : undefined;
    if (upMeasured) {
        out.push(upMeasured);
    }
    const at = Math.min(spec.vcpusPerSe, MEASURED_VCPUS_MAX);
    if (spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY") {
        // Legacy HA has no buffer (its bufferSe is often "0"): N+M needs at least one spare SE to
        // survive an SE failure, so the option keeps bufferSe >= 1 and maxSe counts it.
        const shared = scaleOut(units, { ...spec, haMode: "HA_MODE_SHARED", bufferSe: Math.max(spec.bufferSe, 1), maxSe: Math.max(spec.maxSe, 2) }, at, options);
        if (shared) {
            out.push({ ...shared, kind: "mode" });
        }
    } else {
        // More SEs per VS at the current size, else at the smallest larger measured size that fits.
        for (let v = at; v <= MEASURED_VCPUS_MAX; v++) {
            const wider = scaleOut(units, spec, v, options);
            if (wider) {
                out.push(wider);
                break;
            }
        }
    }
    if (!upMeasured) {
        const upExtrapolated = scaleUp(units, spec, Math.max(spec.vcpusPerSe, MEASURED_VCPUS_MAX + 1), PROVIDER_RANGES.vcpusPerSe.max, options);
        if (upExtrapolated) {
            out.push(upExtrapolated);
        }
    }
    return out;
}
