/**
 * NSX Advanced Load Balancer (Avi) Service Engine (SE) groups and the virtual services (VSs) on
 * them: an SE group's sizing fields (the provider's names and ranges), a VS's peak demand, the
 * utilisation of SEs' capacity, and the vcpusPerSe a demand requires. One SE's figures come from
 * the published per-SE table (seTable.ts, which states the rules of reading it).
 */
import { checkVcpus, perSeCapacity, SE_VCPU_MAX, SE_VCPU_MIN, SeCapacity, seCapacity, testedSeSize } from "./seTable";

/**
 * Avi SE group HA modes (otherPublishedFacts.haModes; vmware/terraform-provider-avi
 * website/docs/r/avi_serviceenginegroup.html.markdown `ha_mode`, default HA_MODE_SHARED; the
 * Essentials and Basic editions allow only HA_MODE_LEGACY_ACTIVE_STANDBY).
 */
export type HaMode = "HA_MODE_SHARED" | "HA_MODE_SHARED_PAIR" | "HA_MODE_LEGACY_ACTIVE_STANDBY";
export const HA_MODES: readonly HaMode[] = ["HA_MODE_SHARED", "HA_MODE_SHARED_PAIR", "HA_MODE_LEGACY_ACTIVE_STANDBY"];

/**
 * Virtual service placement across an SE group's SEs (provider `algo`, default
 * PLACEMENT_ALGO_PACKED: "in compact placement, virtual services are placed on existing SEs until
 * max_vs_per_se is reached; in distributed placement, on new SEs until max_se is reached").
 */
export type PlacementAlgo = "PLACEMENT_ALGO_PACKED" | "PLACEMENT_ALGO_DISTRIBUTED";
export const PLACEMENT_ALGOS: readonly PlacementAlgo[] = ["PLACEMENT_ALGO_PACKED", "PLACEMENT_ALGO_DISTRIBUTED"];

/**
 * The ranges the provider documents and validates (website/docs/r/avi_serviceenginegroup.html.markdown):
 * min/max_scaleout_per_vs 1-64, max_se 0-1000, max_vs_per_se 1-1000, memory_per_se 2048-262144 MB;
 * vcpus_per_se up to the published SE size range (64). A fix never leaves them.
 */
export const PROVIDER_RANGES = {
    scaleoutPerVs: { min: 1, max: 64 },
    maxSe: { min: 0, max: 1000 },
    maxVsPerSe: { min: 1, max: 1000 },
    memoryPerSeMb: { min: 2048, max: 262144 },
    vcpusPerSe: { min: SE_VCPU_MIN, max: SE_VCPU_MAX },
} as const;

/** Provider defaults of the placement fields (resource_avi_serviceenginegroup.go schema). */
export const DEFAULT_ALGO: PlacementAlgo = "PLACEMENT_ALGO_PACKED";
export const DEFAULT_MAX_VS_PER_SE = 10;

/** An SE group's sizing fields, parsed (the Avi provider's names; memory in MB). */
export interface SeGroupSpec {
    /** vCPUs per SE, integer 1..64. */
    readonly vcpusPerSe: number;
    /** Memory per SE, MB (> 0). */
    readonly memoryPerSeMb: number;
    /** Most SEs in the group, integer >= 1. */
    readonly maxSe: number;
    /** SEs a VS is placed on, integer >= 1. */
    readonly minScaleoutPerVs: number;
    /** SEs a VS may scale out to, integer >= minScaleoutPerVs. */
    readonly maxScaleoutPerVs: number;
    /** Spare SEs kept for N+M failover, integer >= 0. */
    readonly bufferSe: number;
    readonly haMode: HaMode;
    /** Placement algorithm; default PLACEMENT_ALGO_PACKED (the provider's). */
    readonly algo?: PlacementAlgo;
    /** Most VSs on one SE, integer 1..1000; default 10 (the provider's). */
    readonly maxVsPerSe?: number;
    /** Legacy active/standby only: place VSs on both SEs; default false (the provider's). */
    readonly distributeLoadActiveStandby?: boolean;
    /**
     * dedicatedDispatcherCore; default false. Below 4 vCPUs the table's rows had no dedicated
     * dispatcher, so one core taken by it leaves vcpusPerSe - 1 proxy cores: see perSeCapacity.
     */
    readonly dedicatedDispatcher?: boolean;
}

/** What an SE group gives: per-SE capacity and counts of SEs' worth of it. */
export interface SeGroupCapacity {
    readonly perSe: SeCapacity;
    /** SEs' worth of capacity one VS gets as placed. */
    readonly vsSesPlaced: number;
    /** SEs' worth of capacity one VS gets once scaled out to maxScaleoutPerVs. */
    readonly vsSesScaledOut: number;
    /** SEs' worth of load the whole group carries while keeping its HA reserve. */
    readonly groupSes: number;
}

function checkInteger(name: string, value: number, min: number): void {
    if (!Number.isInteger(value) || value < min) {
        throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
    }
}

/**
 * Capacity of an SE group for one VS and for the whole group. Rules by HA mode (source: the
 * JSON's otherPublishedFacts.haModes and notes on scale-out; the figures are per SE):
 * - HA_MODE_SHARED (N+M, Avi's default): a VS runs active/active on minScaleoutPerVs SEs as
 *   placed and on maxScaleoutPerVs once scaled out (at most maxSe); the group keeps bufferSe
 *   SEs spare for failover, so it carries maxSe - bufferSe SEs of load (at least 0).
 * - HA_MODE_SHARED_PAIR (active/active pair): a VS runs on 2 SEs and must survive losing one,
 *   so it gets one SE's capacity (scale-out is not counted: the pair must still survive a
 *   failure); the group carries floor(maxSe / 2) SEs' worth.
 * - HA_MODE_LEGACY_ACTIVE_STANDBY: the standby carries nothing, so a VS gets one SE's capacity
 *   and the group floor(maxSe / 2) SEs' worth (one active per pair).
 * @param spec - the group's fields (see SeGroupSpec for units and ranges).
 * @returns per-SE capacity (seCapacity at vcpusPerSe and memoryPerSeMb / 1024 GB) and SE counts.
 * @throws RangeError naming the parameter for any field outside its range.
 */
export function seGroupCapacity(spec: SeGroupSpec): SeGroupCapacity {
    if (!(Number.isFinite(spec.memoryPerSeMb) && spec.memoryPerSeMb > 0)) {
        throw new RangeError(`memoryPerSeMb must be a finite number of MB above 0, got ${spec.memoryPerSeMb}`);
    }
    checkVcpus("vcpusPerSe", spec.vcpusPerSe);
    checkInteger("maxSe", spec.maxSe, 0);
    checkInteger("minScaleoutPerVs", spec.minScaleoutPerVs, 1);
    checkInteger("maxScaleoutPerVs", spec.maxScaleoutPerVs, spec.minScaleoutPerVs);
    checkInteger("bufferSe", spec.bufferSe, 0);
    const perSe = perSeCapacity(spec.vcpusPerSe, spec.memoryPerSeMb / 1024, spec.dedicatedDispatcher);
    switch (spec.haMode) {
        case "HA_MODE_SHARED":
            return {
                perSe,
                vsSesPlaced: Math.min(spec.minScaleoutPerVs, spec.maxSe),
                vsSesScaledOut: Math.min(spec.maxScaleoutPerVs, spec.maxSe),
                groupSes: Math.max(0, spec.maxSe - spec.bufferSe),
            };
        case "HA_MODE_SHARED_PAIR":
        case "HA_MODE_LEGACY_ACTIVE_STANDBY":
            return { perSe, vsSesPlaced: 1, vsSesScaledOut: 1, groupSes: Math.floor(spec.maxSe / 2) };
        default:
            throw new RangeError(`haMode must be one of ${HA_MODES.join(", ")}, got ${String(spec.haMode)}`);
    }
}

/**
 * Why a VS's SSL key type is not simply declared: RSA-2048 assumed (nothing declared), keys the
 * source did not measure (judged on the row of their kind: the favourable reading), or a VS that
 * may present either an RSA or an EC key (judged on ECC, the favourable reading; `conservative`
 * the other). Carried with the demand so that a verdict that rests on it can say so.
 */
export interface SslKeyBasis {
    /** "assumed": nothing declares the key (RSA-2048 taken); "certificate": read from a certificate in the stack. */
    readonly source: "assumed" | "certificate";
    /** Key names not measured, e.g. ["RSA-4096"], sorted. */
    readonly unmeasured?: readonly string[];
    /** The row of the other reading when the VS may present either key. */
    readonly conservative?: "rsa";
}

/** Peak demand of one VS (absent = none of that kind). */
export interface VsDemand {
    /** New SSL/TLS handshakes per second (TPS). */
    readonly sslTps?: number;
    /** Key type of the SSL TPS figure; default rsa (RSA-2048, the conservative row). */
    readonly sslKeyType?: "ecc" | "rsa";
    /** How sslKeyType was obtained when not from perfguard:sslKeyType (absent: the fact, or no SSL TPS). */
    readonly sslKeyBasis?: SslKeyBasis;
    /** HTTP requests per second (RPS). */
    readonly l7Rps?: number;
    /** New TCP connections per second (CPS). */
    readonly l4Cps?: number;
    /** Concurrent open connections. */
    readonly l4OpenConnections?: number;
    /** Client-side throughput, Gbps. */
    readonly throughputGbps?: number;
    /** SSL is configured on the VS (enableSsl or certificates). */
    readonly ssl?: boolean;
    /** The application profile's layer when perfguard can tell (System-L4-Application: "l4"; System-HTTP: "l7"). */
    readonly profile?: "l4" | "l7";
    /**
     * Percent of throughputGbps that is ingress (client to VS: uploads, requests), 0..100
     * (perfguard:ingressPct); absent = not declared, counted as all ingress where it matters
     * (native scale-out: the primary SE receives every ingress packet).
     */
    readonly ingressPct?: number;
    /** The VS's `scaleoutEcmp` is true: BGP/ECMP scale-out, the upstream router spreads ingress over the SEs. */
    readonly scaleoutEcmp?: boolean;
}

/** How the VS is proxied: SSL (terminated, L7), L7 (HTTP) or L4. */
export type VsKind = "l7ssl" | "l7" | "l4";

/**
 * A VS with SSL (configured, or an SSL TPS demand) is "l7ssl" (its bulk throughput costs CPU for
 * the encryption). Otherwise its application profile decides when known (an L4 profile: "l4",
 * an HTTP profile: "l7"); else an L7 RPS demand makes it "l7", and anything else "l4".
 * @param demand - the VS's demand (VsDemand).
 * @returns "l7ssl" | "l7" | "l4"; never throws.
 */
export function vsKind(demand: VsDemand): VsKind {
    if (demand.ssl === true || demand.sslTps !== undefined) {
        return "l7ssl";
    }
    if (demand.profile !== undefined) {
        return demand.profile;
    }
    return demand.l7Rps !== undefined ? "l7" : "l4";
}

/**
 * The per-SE throughput figure matching the VS's kind (table columns l7SslThroughputGbps,
 * l7ThroughputGbps, l4ThroughputGbps).
 * @param perSe - per-SE capacity (seCapacity).
 * @param kind - the VS's kind (vsKind).
 * @returns client-side throughput in Gbps; never throws.
 */
export function throughputCapacityGbps(perSe: SeCapacity, kind: VsKind): number {
    return kind === "l7ssl" ? perSe.l7SslThroughputGbps : kind === "l7" ? perSe.l7ThroughputGbps : perSe.l4ThroughputGbps;
}

/**
 * The per-SE SSL TPS figure matching the key type: ECC P-256 (sslTpsEcc) or RSA-2048 (sslTpsRsa,
 * the default: the conservative figure).
 * @returns TPS per SE; never throws.
 */
export function sslTpsCapacity(perSe: SeCapacity, keyType: "ecc" | "rsa" | undefined): number {
    return keyType === "ecc" ? perSe.sslTpsEcc : perSe.sslTpsRsa;
}

/** A capacity metric, as messages name it. */
export type SeMetric = "sslTps" | "l7Rps" | "l4Cps" | "sslThroughput" | "throughput" | "ingress" | "openConnections";

/** Utilisation of `ses` SEs' capacity, as fractions (1 = full). */
export interface SeUtilisation {
    readonly sslTps: number;
    readonly l7Rps: number;
    readonly l4Cps: number;
    /** SSL bulk throughput against the L7 SSL throughput row: CPU bound (encryption). */
    readonly sslThroughput: number;
    /** sslTps + l7Rps + l4Cps + sslThroughput: the CPU-bound loads share the SE's cores. */
    readonly cpu: number;
    /**
     * Packets through the SE against its kind's row: plain (L4 or L7, no SSL) throughput, bound by
     * packets per second and the NIC; under native scale-out also the primary SE's ingress (an SSL
     * VS's ingress against the L7 row: the primary forwards the packets, the secondaries decrypt).
     */
    readonly throughput: number;
    /**
     * The part of `throughput` that is one VS's ingress on its primary SE and does not spread
     * (native scale-out on more than one SE, no ECMP); 0 otherwise.
     */
    readonly ingress: number;
    readonly openConnections: number;
    /** max(cpu, throughput, openConnections). */
    readonly peak: number;
    /** The metric behind `peak` (for cpu: its largest part). */
    readonly limiting: SeMetric;
}

function share(demand: number | undefined, capacity: number): number {
    return demand === undefined || demand === 0 ? 0 : demand / capacity;
}

/** Zero utilisation (no demand). */
export const NO_UTILISATION: SeUtilisation = {
    sslTps: 0,
    l7Rps: 0,
    l4Cps: 0,
    sslThroughput: 0,
    cpu: 0,
    throughput: 0,
    ingress: 0,
    openConnections: 0,
    peak: 0,
    limiting: "sslTps",
};

/** The parts a utilisation is built from. */
export type UtilisationParts = Pick<SeUtilisation, "sslTps" | "l7Rps" | "l4Cps" | "sslThroughput" | "throughput" | "ingress" | "openConnections">;

/** Builds a utilisation from its parts (cpu, peak and limiting derived; throughput limited by unspread ingress is "ingress"). */
export function utilisationOf(parts: UtilisationParts): SeUtilisation {
    const cpu = parts.sslTps + parts.l7Rps + parts.l4Cps + parts.sslThroughput;
    const cpuParts: Array<[SeMetric, number]> = [
        ["sslTps", parts.sslTps],
        ["l7Rps", parts.l7Rps],
        ["l4Cps", parts.l4Cps],
        ["sslThroughput", parts.sslThroughput],
    ];
    const cpuPart = cpuParts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
    const peak = Math.max(cpu, parts.throughput, parts.openConnections);
    const throughputPart: SeMetric = parts.ingress > 0 && parts.ingress * 2 >= parts.throughput ? "ingress" : "throughput";
    const limiting: SeMetric = peak === cpu ? cpuPart : peak === parts.throughput ? throughputPart : "openConnections";
    return { ...parts, cpu, peak, limiting };
}

/**
 * Whether a VS's ingress stays on its primary SE: native (L2) scale-out over more than one SE
 * without ECMP. "All ingress packets of a virtual service traverse its primary SE, which forwards
 * flows to the secondaries; return traffic leaves from each SE" (VMware Avi Load Balancer 30.2
 * configuration guide, scale use cases; Avi "Autoscale Service Engines"); BGP/ECMP scale-out
 * (`scaleoutEcmp` true) has the upstream router spread ingress instead.
 * @returns true when the VS's throughput splits into an unspread ingress and a spread egress.
 */
export function ingressOnPrimary(demand: VsDemand, ses: number): boolean {
    return ses > 1 && demand.scaleoutEcmp !== true && demand.throughputGbps !== undefined && demand.throughputGbps > 0;
}

/** The ingress fraction of a VS's throughput: perfguard:ingressPct / 100, or 1 (all ingress) when not declared. */
export function ingressFraction(demand: VsDemand): number {
    return demand.ingressPct === undefined ? 1 : Math.min(100, Math.max(0, demand.ingressPct)) / 100;
}

/**
 * Utilisation of `ses` SEs by one or more VSs. Every CPU-bound load (SSL TPS, L7 RPS, L4 CPS
 * and SSL bulk throughput against the L7 SSL throughput row) adds up as fractions of one SE's
 * CPU: the source states that CPS/RPS/TPS and SSL bulk throughput are CPU bound
 * (otherPublishedFacts.limits), so they share the same cores. Plain throughput (each VS against
 * its kind's row, NIC and packet bound) and open connections (memory bound) are each checked on
 * their own. CPU work, egress and connections spread over the `ses` SEs; under native scale-out
 * (ingressOnPrimary) the ingress does not: the figures are those of the VS's primary SE, which
 * carries all of its ingress (throughput without a direction counts as all ingress) and its
 * 1/ses of the rest. An SSL VS's ingress then also costs the primary its packets, against the
 * L7 (no SSL) row; the decryption spreads with the CPU work.
 * @param demands - the VSs' demands.
 * @param perSe - per-SE capacity (seCapacity).
 * @param ses - SEs' worth of capacity (>= 0; 0 gives Infinity for any non-zero demand).
 * @returns fractions of the capacity of `ses` SEs (of the primary SE where ingress does not spread).
 */
export function seUtilisation(demands: readonly VsDemand[], perSe: SeCapacity, ses: number): SeUtilisation {
    // Spread loads are summed first and divided once (the figures stay those of the even split).
    let sslTps = 0;
    let l7Rps = 0;
    let l4Cps = 0;
    let sslThroughput = 0;
    let throughput = 0;
    let openConnections = 0;
    // On the primary SE, not divided.
    let ingress = 0;
    for (const d of demands) {
        sslTps += share(d.sslTps, sslTpsCapacity(perSe, d.sslKeyType));
        l7Rps += share(d.l7Rps, perSe.l7Rps);
        l4Cps += share(d.l4Cps, perSe.l4Cps);
        openConnections += share(d.l4OpenConnections, perSe.l4OpenConnections);
        const kind = vsKind(d);
        const primary = ingressOnPrimary(d, ses);
        if (kind === "l7ssl") {
            sslThroughput += share(d.throughputGbps, perSe.l7SslThroughputGbps);
            if (primary) {
                ingress += share((d.throughputGbps as number) * ingressFraction(d), perSe.l7ThroughputGbps);
            }
        } else if (primary) {
            const cap = throughputCapacityGbps(perSe, kind);
            const total = d.throughputGbps as number;
            ingress += share(total * ingressFraction(d), cap);
            throughput += share(total * (1 - ingressFraction(d)), cap);
        } else {
            throughput += share(d.throughputGbps, throughputCapacityGbps(perSe, kind));
        }
    }
    const over = (x: number) => (x === 0 ? 0 : x / ses);
    return utilisationOf({
        sslTps: over(sslTps),
        l7Rps: over(l7Rps),
        l4Cps: over(l4Cps),
        sslThroughput: over(sslThroughput),
        throughput: ingress + over(throughput),
        ingress,
        openConnections: over(openConnections),
    });
}

/** Options of {@link requiredVcpusPerSe}. */
export interface RequirementOptions {
    /** Spare capacity to keep, percent (0 <= headroomPct < 100): demand <= (1 - headroomPct/100) x capacity. */
    readonly headroomPct: number;
    /** "vs": one VS against what it gets; "group": the sum against what the group carries. */
    readonly scope: "vs" | "group";
    /** For scope "vs": count maxScaleoutPerVs SEs instead of minScaleoutPerVs. */
    readonly assumeScaleOut?: boolean;
}

/** Output of {@link requiredVcpusPerSe}. */
export interface Requirement {
    /** The smallest vcpusPerSe (1..64) that fits with the group's SE counts, or undefined when none does. */
    readonly vcpusPerSe: number | undefined;
    /** SEs' worth of capacity at the current vcpusPerSe and memory that would fit (>= 1). */
    readonly sesAtCurrentVcpus: number;
    /** memoryPerSe (MB) at the current vcpusPerSe and SE count that fits the open connections alone. */
    readonly memoryPerSeMbForConnections: number | undefined;
}

/**
 * SEs' worth of capacity that `scope` counts: the group's groupSes, or one VS's vsSesPlaced
 * (vsSesScaledOut with assumeScaleOut).
 * @returns a count of SEs (>= 0); never throws.
 */
export function sesFor(capacity: SeGroupCapacity, options: Pick<RequirementOptions, "scope" | "assumeScaleOut">): number {
    if (options.scope === "group") {
        return capacity.groupSes;
    }
    return options.assumeScaleOut ? capacity.vsSesScaledOut : capacity.vsSesPlaced;
}

// Rounding guard: 0.8 x 2600 computed in floating point must still meet a demand of 2080.
const EPSILON = 1e-9;

/**
 * The smallest vcpusPerSe that meets the demand, keeping the group's memory and SE counts.
 * @param demands - the VS's demand (scope "vs": one entry) or every VS on the group ("group").
 * @param group - the SE group's fields (SeGroupSpec).
 * @param options - headroom (percent) and scope.
 * @returns the smallest vcpusPerSe in 1..64 with peak utilisation <= 1 - headroomPct/100 (or
 *   undefined when none up to 64 does), the SEs' worth needed at the current vcpusPerSe, and the
 *   memoryPerSe (MB) that would fit the open connections at the current size.
 * @throws RangeError for an invalid group (see seGroupCapacity) or headroomPct outside [0, 100).
 */
export function requiredVcpusPerSe(demands: readonly VsDemand[], group: SeGroupSpec, options: RequirementOptions): Requirement {
    if (!(Number.isFinite(options.headroomPct) && options.headroomPct >= 0 && options.headroomPct < 100)) {
        throw new RangeError(`headroomPct must be a number from 0 to below 100, got ${options.headroomPct}`);
    }
    const limit = 1 - options.headroomPct / 100;
    const current = seGroupCapacity(group);
    const ses = sesFor(current, options);
    let vcpusPerSe: number | undefined;
    for (let v = SE_VCPU_MIN; v <= SE_VCPU_MAX && ses > 0; v++) {
        const perSe = seCapacity({ vcpus: v, memoryGb: group.memoryPerSeMb / 1024 });
        if (seUtilisation(demands, perSe, ses).peak <= limit + EPSILON) {
            vcpusPerSe = v;
            break;
        }
    }
    const onOne = seUtilisation(demands, current.perSe, 1);
    const sesAtCurrentVcpus = Math.max(1, Math.ceil(onOne.peak / limit - EPSILON));
    let memoryPerSeMbForConnections: number | undefined;
    if (ses > 0) {
        const connections = demands.reduce((sum, d) => sum + (d.l4OpenConnections ?? 0), 0);
        const rowConnections = seCapacity({ vcpus: group.vcpusPerSe }).l4OpenConnections;
        const rowMemoryGb = rowConnectionsMemoryGb(group.vcpusPerSe);
        const neededPerSe = connections / (ses * limit);
        const memoryGb = Math.max(rowMemoryGb, (neededPerSe / rowConnections) * rowMemoryGb);
        memoryPerSeMbForConnections = Math.max(group.memoryPerSeMb, Math.ceil(memoryGb * 1024 - EPSILON));
    }
    return { vcpusPerSe, sesAtCurrentVcpus, memoryPerSeMbForConnections };
}

/** The memory (GB) the open-connections figure of `vcpus` was measured at (6 GB beyond 6 vCPUs). */
function rowConnectionsMemoryGb(vcpus: number): number {
    return testedSeSize(vcpus).memoryGb;
}
