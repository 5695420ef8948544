/**
 * NSX Advanced Load Balancer (Avi) Service Engine (SE) capacity: what one SE, one virtual
 * service (VS) and one SE group can carry, from the published per-SE table.
 *
 * Source: nsx-alb-se-performance.ja.txt (NSX ALB 20.1.6, vCenter cloud, per SE VM, Xeon Gold
 * 6148 2.4 GHz, no CPU limit); the project's copy is model/data/nsx-alb-se-20.1.6.json. Its
 * second "SSL TPS (ECC)" row is RSA-2048 (see the JSON's notes).
 *
 * Rules (each function documents its own):
 * - 1, 2, 4 and 6 vCPUs: the table's row, exactly.
 * - 3 and 5 vCPUs: linear interpolation between the neighbouring rows (midpoints). Linear
 *   interpolation of a non-decreasing table is non-decreasing, so capacity stays monotone.
 * - 7..64 vCPUs (the published SE size range is 1 to 64 vCPUs): SSL TPS, L7 RPS and L4 CPS are
 *   CPU bound ("CPS/RPS/TPS are CPU bound", otherPublishedFacts.limits) and scale per core from
 *   the 6 vCPU row (value x vcpus / 6); throughputs hold at the 6 vCPU figure (bulk throughput
 *   is bound by packets per second and the NIC, not cores); `extrapolated` is true.
 * - Open connections are memory bound: the row's figure x max(1, memoryGb / the row's memoryGb)
 *   (notes: "Open connections grow with memory: add memory to the SE to raise them";
 *   otherPublishedFacts.limits: "concurrent connections are memory bound"). Memory below the
 *   row's size is not modelled (no figure was published); nsx-alb-se-minimum-resources
 *   reports it instead.
 */
import table from "./data/nsx-alb-se-20.1.6.json";

/** How messages name the table. */
export const SE_TABLE_NAME = "NSX ALB 20.1.6 per-SE table";

/** The published SE size range (otherPublishedFacts.seSizeRange: 1 vCPU / 2 GB up to 64 vCPU / 256 GB). */
export const SE_VCPU_MIN = 1;
export const SE_VCPU_MAX = 64;
export const SE_MEMORY_MIN_GB = 2;

/** One row of the published table (units in the field names; throughput is client side). */
/** The per-SE figures the table publishes (client-side throughput in Gbps; TPS/RPS/CPS per second; connections). */
export interface SeFigures {
    readonly sslTpsEcc: number;
    /** The source's second "SSL TPS (ECC)" row: RSA-2048. */
    readonly sslTpsRsa: number;
    readonly l7Rps: number;
    readonly l4Cps: number;
    readonly l4OpenConnections: number;
    readonly l4ThroughputGbps: number;
    readonly l7ThroughputGbps: number;
    readonly l7SslThroughputGbps: number;
}

/** One row of the table: the SE size tested and its figures. */
export interface SeTableRow extends SeFigures {
    readonly vcpus: number;
    readonly memoryGb: number;
    readonly diskGb: number;
    /** Tested with a dedicated dispatcher core (4 vCPUs: 1; 6 vCPUs: 2). */
    readonly dedicatedDispatcher: boolean;
}

function column(name: string): number {
    const index = table.columns.indexOf(name);
    if (index < 0) {
        throw new Error(`model/data/nsx-alb-se-20.1.6.json has no column ${name}`);
    }
    return index;
}

/** The table's rows at 1, 2, 4 and 6 vCPUs, read by column name from the JSON. */
export const SE_TABLE_ROWS: readonly SeTableRow[] = table.rows.map((row) => {
    const n = (name: string) => row[column(name)] as number;
    return {
        vcpus: n("vcpus"),
        memoryGb: n("memoryGb"),
        diskGb: n("diskGb"),
        sslTpsEcc: n("sslTpsEcc"),
        sslTpsRsa: n("sslTpsRsa2048"),
        l7Rps: n("l7Rps"),
        l4Cps: n("l4Cps"),
        l4OpenConnections: n("l4OpenConnections"),
        l4ThroughputGbps: n("l4ThroughputGbps"),
        l7ThroughputGbps: n("l7ThroughputGbps"),
        l7SslThroughputGbps: n("l7SslThroughputGbps"),
        dedicatedDispatcher: row[column("dedicatedDispatcher")] === true,
    };
});

const TOP_ROW = SE_TABLE_ROWS[SE_TABLE_ROWS.length - 1];

/** Per-SE capacity at a given size (client-side throughput in Gbps; TPS/RPS/CPS per second; connections). */
export interface SeCapacity extends SeFigures {
    /** True beyond the 6 vCPU row (per-core extrapolation of TPS/RPS/CPS). */
    readonly extrapolated: boolean;
}

/** Input of {@link seCapacity}. */
export interface SeCapacityInput {
    /** vCPUs per SE: an integer from 1 to 64. */
    readonly vcpus: number;
    /** Memory per SE in GB (> 0); default: the row's own memory (the tested size). */
    readonly memoryGb?: number;
}

function checkVcpus(name: string, vcpus: number): void {
    if (!Number.isInteger(vcpus) || vcpus < SE_VCPU_MIN || vcpus > SE_VCPU_MAX) {
        throw new RangeError(`${name} must be an integer from ${SE_VCPU_MIN} to ${SE_VCPU_MAX} (the published SE size range), got ${vcpus}`);
    }
}

function lerp(a: number, b: number, t: number): number {
    return a + (b - a) * t;
}

/** The rows around `vcpus` (1..6) and the position between them. */
function bracket(vcpus: number): { lo: SeTableRow; hi: SeTableRow; t: number } {
    let lo = SE_TABLE_ROWS[0];
    let hi = TOP_ROW;
    for (const row of SE_TABLE_ROWS) {
        if (row.vcpus <= vcpus) {
            lo = row;
        }
        if (row.vcpus >= vcpus) {
            hi = row;
            break;
        }
    }
    return { lo, hi, t: hi.vcpus === lo.vcpus ? 0 : (vcpus - lo.vcpus) / (hi.vcpus - lo.vcpus) };
}

/**
 * The tested SE size for `vcpus`: memory and disk of the row (interpolated for 3 and 5 vCPUs:
 * 3 GB / 25 GB and 5 GB / 35 GB; beyond 6 vCPUs the 6 vCPU row's 6 GB / 40 GB, the largest
 * size the table tested).
 * @param vcpus - integer 1..64.
 * @returns `{ memoryGb, diskGb, basis }`; basis names the table row for messages.
 * @throws RangeError when vcpus is not an integer in 1..64.
 */
export function testedSeSize(vcpus: number): { memoryGb: number; diskGb: number; basis: string } {
    checkVcpus("vcpus", vcpus);
    if (vcpus > TOP_ROW.vcpus) {
        return { memoryGb: TOP_ROW.memoryGb, diskGb: TOP_ROW.diskGb, basis: `${SE_TABLE_NAME}, ${TOP_ROW.vcpus} vCPU row (the largest tested size; used beyond ${TOP_ROW.vcpus} vCPUs)` };
    }
    const { lo, hi, t } = bracket(vcpus);
    return { memoryGb: lerp(lo.memoryGb, hi.memoryGb, t), diskGb: lerp(lo.diskGb, hi.diskGb, t), basis: seCapacityBasis(vcpus) };
}

/**
 * How a message names the capacity figures used for `vcpus`, e.g.
 * "NSX ALB 20.1.6 per-SE table, 4 vCPU row".
 * @throws RangeError when vcpus is not an integer in 1..64.
 */
export function seCapacityBasis(vcpus: number): string {
    checkVcpus("vcpus", vcpus);
    if (vcpus > TOP_ROW.vcpus) {
        return `${SE_TABLE_NAME}, ${TOP_ROW.vcpus} vCPU row, TPS/RPS/CPS extrapolated per core to ${vcpus} vCPUs, throughput held at the ${TOP_ROW.vcpus} vCPU figure`;
    }
    const { lo, hi } = bracket(vcpus);
    return lo === hi
        ? `${SE_TABLE_NAME}, ${lo.vcpus} vCPU row`
        : `${SE_TABLE_NAME}, interpolated between the ${lo.vcpus} and ${hi.vcpus} vCPU rows`;
}

/**
 * Capacity of one SE.
 * @param input - `{ vcpus, memoryGb? }`: vcpus an integer 1..64, memoryGb > 0 (GB).
 * @returns per-SE SSL TPS (ECC P-256 and RSA-2048), L7 RPS, L4 CPS, open connections and
 *   client-side throughputs in Gbps (L4, L7, L7 SSL); exact table rows at 1/2/4/6 vCPUs, see
 *   the module comment for interpolation, extrapolation and the memory rule.
 * @throws RangeError naming the parameter when vcpus is not an integer in 1..64 or memoryGb is
 *   not a finite number > 0.
 */
export function seCapacity(input: SeCapacityInput): SeCapacity {
    const { vcpus, memoryGb } = input;
    checkVcpus("vcpus", vcpus);
    if (memoryGb !== undefined && !(Number.isFinite(memoryGb) && memoryGb > 0)) {
        throw new RangeError(`memoryGb must be a finite number of GB above 0, got ${memoryGb}`);
    }
    // Open connections scale with memory above the row's own memory (memory bound).
    const memoryFactor = (rowMemoryGb: number) => Math.max(1, (memoryGb ?? rowMemoryGb) / rowMemoryGb);
    if (vcpus > TOP_ROW.vcpus) {
        const perCore = vcpus / TOP_ROW.vcpus;
        return {
            sslTpsEcc: TOP_ROW.sslTpsEcc * perCore,
            sslTpsRsa: TOP_ROW.sslTpsRsa * perCore,
            l7Rps: TOP_ROW.l7Rps * perCore,
            l4Cps: TOP_ROW.l4Cps * perCore,
            l4OpenConnections: TOP_ROW.l4OpenConnections * memoryFactor(TOP_ROW.memoryGb),
            l4ThroughputGbps: TOP_ROW.l4ThroughputGbps,
            l7ThroughputGbps: TOP_ROW.l7ThroughputGbps,
            l7SslThroughputGbps: TOP_ROW.l7SslThroughputGbps,
            extrapolated: true,
        };
    }
    const { lo, hi, t } = bracket(vcpus);
    const at = (key: keyof Omit<SeTableRow, "dedicatedDispatcher">) => lerp(lo[key], hi[key], t);
    return {
        sslTpsEcc: at("sslTpsEcc"),
        sslTpsRsa: at("sslTpsRsa"),
        l7Rps: at("l7Rps"),
        l4Cps: at("l4Cps"),
        l4OpenConnections: at("l4OpenConnections") * memoryFactor(at("memoryGb")),
        l4ThroughputGbps: at("l4ThroughputGbps"),
        l7ThroughputGbps: at("l7ThroughputGbps"),
        l7SslThroughputGbps: at("l7SslThroughputGbps"),
        extrapolated: false,
    };
}

/** Avi SE group HA modes (otherPublishedFacts.haModes). */
export type HaMode = "HA_MODE_SHARED" | "HA_MODE_SHARED_PAIR" | "HA_MODE_LEGACY_ACTIVE_STANDBY";
export const HA_MODES: readonly HaMode[] = ["HA_MODE_SHARED", "HA_MODE_SHARED_PAIR", "HA_MODE_LEGACY_ACTIVE_STANDBY"];

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
    checkInteger("maxSe", spec.maxSe, 1);
    checkInteger("minScaleoutPerVs", spec.minScaleoutPerVs, 1);
    checkInteger("maxScaleoutPerVs", spec.maxScaleoutPerVs, spec.minScaleoutPerVs);
    checkInteger("bufferSe", spec.bufferSe, 0);
    const perSe = seCapacity({ vcpus: spec.vcpusPerSe, memoryGb: spec.memoryPerSeMb / 1024 });
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

/** Peak demand of one VS (absent = none of that kind). */
export interface VsDemand {
    /** New SSL/TLS handshakes per second (TPS). */
    readonly sslTps?: number;
    /** Key type of the SSL TPS figure; default rsa (RSA-2048, the conservative row). */
    readonly sslKeyType?: "ecc" | "rsa";
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
}

/** How the VS is proxied: SSL (terminated, L7), L7 (HTTP) or L4. */
export type VsKind = "l7ssl" | "l7" | "l4";

/**
 * A VS is L7 when it has SSL (configured, or an SSL TPS demand) or an L7 RPS demand, else L4.
 * @param demand - the VS's demand (VsDemand).
 * @returns "l7ssl" | "l7" | "l4"; never throws.
 */
export function vsKind(demand: VsDemand): VsKind {
    if (demand.ssl === true || demand.sslTps !== undefined) {
        return "l7ssl";
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
export type SeMetric = "sslTps" | "l7Rps" | "l4Cps" | "throughput" | "openConnections";

/** Utilisation of `ses` SEs' capacity, as fractions (1 = full). */
export interface SeUtilisation {
    readonly sslTps: number;
    readonly l7Rps: number;
    readonly l4Cps: number;
    /** sslTps + l7Rps + l4Cps: the CPU-bound metrics share the SE's cores. */
    readonly cpu: number;
    readonly throughput: number;
    readonly openConnections: number;
    /** max(cpu, throughput, openConnections). */
    readonly peak: number;
    /** The metric behind `peak` (for cpu: its largest part). */
    readonly limiting: SeMetric;
}

function share(demand: number | undefined, capacity: number): number {
    return demand === undefined || demand === 0 ? 0 : demand / capacity;
}

/**
 * Utilisation of `ses` SEs by one or more VSs. The CPU-bound metrics (SSL TPS, L7 RPS, L4 CPS)
 * add up as fractions of their per-SE capacity (they share the SE's cores); throughput (each VS
 * against its kind's row) and open connections are each checked on their own.
 * @param demands - the VSs' demands.
 * @param perSe - per-SE capacity (seCapacity).
 * @param ses - SEs' worth of capacity (>= 0; 0 gives Infinity for any non-zero demand).
 * @returns fractions of the capacity of `ses` SEs.
 */
export function seUtilisation(demands: readonly VsDemand[], perSe: SeCapacity, ses: number): SeUtilisation {
    let sslTps = 0;
    let l7Rps = 0;
    let l4Cps = 0;
    let throughput = 0;
    let openConnections = 0;
    for (const d of demands) {
        sslTps += share(d.sslTps, sslTpsCapacity(perSe, d.sslKeyType));
        l7Rps += share(d.l7Rps, perSe.l7Rps);
        l4Cps += share(d.l4Cps, perSe.l4Cps);
        throughput += share(d.throughputGbps, throughputCapacityGbps(perSe, vsKind(d)));
        openConnections += share(d.l4OpenConnections, perSe.l4OpenConnections);
    }
    const over = (x: number) => (x === 0 ? 0 : x / ses);
    const u = { sslTps: over(sslTps), l7Rps: over(l7Rps), l4Cps: over(l4Cps), throughput: over(throughput), openConnections: over(openConnections) };
    const cpu = u.sslTps + u.l7Rps + u.l4Cps;
    const cpuPart: SeMetric = u.sslTps >= u.l7Rps && u.sslTps >= u.l4Cps ? "sslTps" : u.l7Rps >= u.l4Cps ? "l7Rps" : "l4Cps";
    const peak = Math.max(cpu, u.throughput, u.openConnections);
    const limiting: SeMetric = peak === cpu ? cpuPart : peak === u.throughput ? "throughput" : "openConnections";
    return { ...u, cpu, peak, limiting };
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

/** The published SE memory ceiling, MB (otherPublishedFacts.seSizeRange: up to 256 GB). */
export const SE_MEMORY_MAX_MB = 256 * 1024;

/** Options of {@link groupFixes}. */
export interface GroupFixOptions {
    /** Spare capacity to keep, percent (0 <= headroomPct < 100). */
    readonly headroomPct: number;
    /** Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs (as nsx-alb-se-capacity's config). */
    readonly assumeScaleOut?: boolean;
}

/** One way to make an SE group fit: the whole new spec (unchanged fields kept). */
export interface GroupFix {
    readonly spec: SeGroupSpec;
    /** "up": a larger SE (vcpusPerSe and/or memoryPerSe); "out": more SEs per VS and in the group. */
    readonly kind: "up" | "out";
    /** SEs' worth one VS gets under the new spec. */
    readonly vsSes: number;
}

/**
 * Whether every VS fits what one VS gets and their sum fits what the group carries.
 * @returns true when both hold with `headroomPct` kept.
 */
export function groupFits(demands: readonly VsDemand[], spec: SeGroupSpec, options: GroupFixOptions): boolean {
    const limit = 1 - options.headroomPct / 100 + EPSILON;
    const capacity = seGroupCapacity(spec);
    const vsSes = sesFor(capacity, { scope: "vs", assumeScaleOut: options.assumeScaleOut });
    return demands.every((d) => seUtilisation([d], capacity.perSe, vsSes).peak <= limit) &&
        seUtilisation(demands, capacity.perSe, capacity.groupSes).peak <= limit;
}

/** The smallest maxSe that keeps at least one SE of load (N+M: bufferSe + 1; pairs: 2). */
function maxSeForOneSe(spec: SeGroupSpec): number {
    return spec.haMode === "HA_MODE_SHARED" ? Math.max(spec.maxSe, spec.bufferSe + 1) : Math.max(spec.maxSe, 2);
}

/** memoryPerSe (MB) at `vcpus` that carries the open connections with the given SE counts. */
function memoryForConnections(demands: readonly VsDemand[], vcpus: number, vsSes: number, groupSes: number, limit: number): number {
    const rowConnections = seCapacity({ vcpus }).l4OpenConnections;
    const rowMemoryGb = rowConnectionsMemoryGb(vcpus);
    const perVs = Math.max(0, ...demands.map((d) => (d.l4OpenConnections ?? 0) / vsSes));
    const total = demands.reduce((sum, d) => sum + (d.l4OpenConnections ?? 0), 0) / groupSes;
    const neededPerSe = Math.max(perVs, total) / limit;
    return Math.ceil(Math.max(rowMemoryGb, (neededPerSe / rowConnections) * rowMemoryGb) * 1024 - EPSILON);
}

/**
 * Scale-up: the smallest vcpusPerSe, from the current one up to 64, at which every VS and the
 * group total fit with the current SE counts, with memoryPerSe raised to the tested size for
 * that vcpusPerSe and to what the open connections need (never lowered); maxSe is raised only
 * when the group carries no SE of load (maxSe <= bufferSe in N+M, maxSe < 2 for pairs).
 * @returns the fix, or undefined when no size up to 64 vCPUs (and 256 GB) fits.
 */
function scaleUp(demands: readonly VsDemand[], spec: SeGroupSpec, options: GroupFixOptions): GroupFix | undefined {
    const limit = 1 - options.headroomPct / 100;
    const maxSe = maxSeForOneSe(spec);
    for (let v = spec.vcpusPerSe; v <= SE_VCPU_MAX; v++) {
        const base: SeGroupSpec = { ...spec, vcpusPerSe: v, maxSe };
        const counts = seGroupCapacity(base);
        const vsSes = sesFor(counts, { scope: "vs", assumeScaleOut: options.assumeScaleOut });
        const tested = v === spec.vcpusPerSe ? spec.memoryPerSeMb : Math.max(spec.memoryPerSeMb, Math.max(testedSeSize(v).memoryGb, SE_MEMORY_MIN_GB) * 1024);
        const memory = Math.max(tested, memoryForConnections(demands, v, vsSes, counts.groupSes, limit));
        if (memory > SE_MEMORY_MAX_MB) {
            continue;
        }
        const candidate: SeGroupSpec = { ...base, memoryPerSeMb: memory };
        if (groupFits(demands, candidate, options)) {
            return { spec: candidate, kind: "up", vsSes };
        }
    }
    return undefined;
}

/**
 * Scale-out at `vcpus` vCPUs per SE (memory at least the tested size when vcpus changes): each
 * VS on the SEs its own demand needs, the group sized for the sum plus its HA reserve.
 * - HA_MODE_SHARED: minScaleoutPerVs (maxScaleoutPerVs with assumeScaleOut) = the largest VS's
 *   need, maxScaleoutPerVs at least minScaleoutPerVs, maxSe = the sum's need + bufferSe.
 * - Pair and active/standby modes: a VS gets one SE, so a VS that needs more switches the group
 *   to HA_MODE_SHARED as above; otherwise maxSe = 2 x the sum's need.
 * Fields are only ever raised. @returns the fix, or undefined if it does not fit (not expected).
 */
function scaleOut(demands: readonly VsDemand[], spec: SeGroupSpec, vcpus: number, options: GroupFixOptions): GroupFix | undefined {
    const limit = 1 - options.headroomPct / 100;
    const memory = vcpus === spec.vcpusPerSe ? spec.memoryPerSeMb : Math.max(spec.memoryPerSeMb, Math.max(testedSeSize(vcpus).memoryGb, SE_MEMORY_MIN_GB) * 1024);
    const perSe = seCapacity({ vcpus, memoryGb: memory / 1024 });
    const sesFor1 = (ds: readonly VsDemand[]) => Math.max(1, Math.ceil(seUtilisation(ds, perSe, 1).peak / limit - EPSILON));
    const kVs = Math.max(1, ...demands.map((d) => sesFor1([d])));
    const kGroup = Math.max(kVs, sesFor1(demands));
    let next: SeGroupSpec;
    if (spec.haMode === "HA_MODE_SHARED" || kVs > 1) {
        const minScaleoutPerVs = options.assumeScaleOut ? spec.minScaleoutPerVs : Math.max(spec.minScaleoutPerVs, kVs);
        const maxScaleoutPerVs = Math.max(spec.maxScaleoutPerVs, minScaleoutPerVs, options.assumeScaleOut ? kVs : 1);
        next = { ...spec, haMode: "HA_MODE_SHARED", vcpusPerSe: vcpus, memoryPerSeMb: memory, minScaleoutPerVs, maxScaleoutPerVs, maxSe: Math.max(spec.maxSe, kGroup + spec.bufferSe) };
    } else {
        next = { ...spec, vcpusPerSe: vcpus, memoryPerSeMb: memory, maxSe: Math.max(spec.maxSe, 2 * kGroup) };
    }
    if (!groupFits(demands, next, options)) {
        return undefined;
    }
    return { spec: next, kind: "out", vsSes: sesFor(seGroupCapacity(next), { scope: "vs", assumeScaleOut: options.assumeScaleOut }) };
}

/**
 * Ways to make an SE group fit every VS placed on it and their total at once (what
 * nsx-alb-se-capacity checks), each a whole spec that passes both checks; at most two, the
 * preferred first:
 * - a scale-up within the published rows (the smallest vcpusPerSe up to 6, see scaleUp), then
 *   scale-out at the current size;
 * - otherwise scale-out at the current size (at 6 vCPUs when it is above 6), then scale-out at
 *   6 vCPUs when the group is smaller, else the scale-up beyond 6 vCPUs (per-core
 *   extrapolation: no measured figure, so it is never preferred).
 * @param demands - every VS on the group (known demand).
 * @param spec - the group's current fields.
 * @returns the fixes, preferred first; empty only when the group already fits.
 * @throws RangeError for an invalid spec (see seGroupCapacity) or headroomPct outside [0, 100).
 */
export function groupFixes(demands: readonly VsDemand[], spec: SeGroupSpec, options: GroupFixOptions): GroupFix[] {
    if (!(Number.isFinite(options.headroomPct) && options.headroomPct >= 0 && options.headroomPct < 100)) {
        throw new RangeError(`headroomPct must be a number from 0 to below 100, got ${options.headroomPct}`);
    }
    if (groupFits(demands, spec, options)) {
        return [];
    }
    const up = scaleUp(demands, spec, options);
    const outHere = scaleOut(demands, spec, Math.min(spec.vcpusPerSe, TOP_ROW.vcpus), options);
    const candidates: Array<GroupFix | undefined> = up && up.spec.vcpusPerSe <= TOP_ROW.vcpus
        ? [up, outHere]
        : [outHere, spec.vcpusPerSe < TOP_ROW.vcpus ? scaleOut(demands, spec, TOP_ROW.vcpus, options) : up];
    const out = candidates.filter((f): f is GroupFix => f !== undefined);
    // Two fixes that change the same fields to the same values are one.
    const key = (f: GroupFix) => JSON.stringify(f.spec);
    return out.filter((f, i) => out.findIndex((g) => key(g) === key(f)) === i).slice(0, 2);
}
