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
 * - 7..64 vCPUs (the published SE size range is 1 to 64 vCPUs): not measured, `extrapolated` is
 *   true. SSL TPS, L7 RPS and L4 CPS are CPU bound ("CPS/RPS/TPS are CPU bound",
 *   otherPublishedFacts.limits) and the data allow two readings (ExtrapolationReading):
 *   "slope" (the default, the conservative one) grows them from the 6 vCPU row by the marginal
 *   slope of the last two measured rows (4 to 6 vCPUs, per added vCPU), capped at the 6 vCPU
 *   row's average per vCPU: the table's gains per core fall as cores are added (L7 RPS 17,500
 *   per vCPU from 4 to 6 against 30,833 on average); "linear" (the favourable one) scales the
 *   6 vCPU row linearly per vCPU (value x vcpus / 6). A mandatory verdict must hold under both,
 *   so the gate judges on "linear" and the advisory names the "slope" reading. SSL bulk
 *   throughput is CPU bound too (notes: "CPS/RPS/TPS and SSL bulk throughput are CPU bound"):
 *   "linear" scales it per vCPU; "slope" holds it at the 6 vCPU figure. L4 and L7 plain bulk
 *   throughput hold at the 6 vCPU figure in both (bound by packets per second and the
 *   environment, not cores).
 * - Open connections are memory bound: the row's figure x max(1, memoryGb / the row's memoryGb)
 *   (notes: "Open connections grow with memory: add memory to the SE to raise them";
 *   otherPublishedFacts.limits: "concurrent connections are memory bound"). Memory below the
 *   row's size is not modelled (no figure was published); nsx-alb-se-minimum-resources
 *   reports it instead. The linear scaling is this project's reading of "add memory", not a
 *   measurement: openConnectionsMemoryFactor > 1 marks it, and messages say "scaled by memory:
 *   not measured".
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
/**
 * The kinds of figure whose dispatcher layout the source states apart: the L4 throughput test of
 * the 4-core SE ran with 2 dispatcher cores, every other figure of that row with 1.
 */
export type DispatcherFigure = "l4Throughput" | "other";

/**
 * The number of dispatcher cores a table row's figure of `kind` was measured with
 * (model/data's measuredDispatcherCores: 4 vCPUs 1, its L4 throughput 2; 6 vCPUs 2), or
 * undefined where the source states none (the 1 and 2 vCPU rows, and sizes off the rows).
 */
export function measuredDispatcherCores(vcpus: number, kind: DispatcherFigure): number | undefined {
    const row = (table.measuredDispatcherCores.byVcpus as Record<string, { default: number; l4Throughput: number } | undefined>)[String(vcpus)];
    return row === undefined ? undefined : kind === "l4Throughput" ? row.l4Throughput : row.default;
}

/** The measured row before the top one (4 vCPUs): the marginal slope beyond the table runs from it. */
const BELOW_TOP_ROW = SE_TABLE_ROWS[SE_TABLE_ROWS.length - 2];

/** The CPU-bound figures, extrapolated beyond the top row. */
type CpuBound = "sslTpsEcc" | "sslTpsRsa" | "l7Rps" | "l4Cps";

/**
 * The per-vCPU gain used beyond the 6 vCPU row: the marginal slope of the 4 and 6 vCPU rows,
 * never above the 6 vCPU row's average per vCPU nor below 0 (capacity never falls with vCPUs).
 */
export function extrapolationSlope(key: CpuBound): number {
    const marginal = (TOP_ROW[key] - BELOW_TOP_ROW[key]) / (TOP_ROW.vcpus - BELOW_TOP_ROW.vcpus);
    return Math.max(0, Math.min(marginal, TOP_ROW[key] / TOP_ROW.vcpus));
}

/**
 * How the CPU-bound figures are read beyond the 6 vCPU row: "slope" on the 4-to-6 vCPU slope
 * (capped at the 6 vCPU row's average per vCPU; the conservative reading) or "linear" per vCPU
 * from the 6 vCPU row (the favourable reading). Both are extrapolations: neither was measured.
 */
export type ExtrapolationReading = "slope" | "linear";

/** How messages name each reading. */
export const READING_NAME: Record<ExtrapolationReading, string> = {
    slope: `on the ${BELOW_TOP_ROW.vcpus}-to-${TOP_ROW.vcpus} vCPU slope`,
    linear: `linear per vCPU from the ${TOP_ROW.vcpus} vCPU row`,
};

/** Per-SE capacity at a given size (client-side throughput in Gbps; TPS/RPS/CPS per second; connections). */
export interface SeCapacity extends SeFigures {
    /** True beyond the 6 vCPU row (TPS/RPS/CPS extrapolated, see `reading`). */
    readonly extrapolated: boolean;
    /** Beyond the 6 vCPU row: the reading the CPU-bound figures were extrapolated on. */
    readonly reading?: ExtrapolationReading;
    /**
     * The factor open connections were scaled by for memory above the row's (memory / the row's
     * memory; 1 at or below it). Above 1 the figure is scaled by memory, not measured: the source
     * says only that memory raises it.
     */
    readonly openConnectionsMemoryFactor: number;
}

/** Whether the open-connections figure was scaled by memory beyond the row's (not measured). */
export function connectionsScaled(perSe: Pick<SeCapacity, "openConnectionsMemoryFactor">): boolean {
    return perSe.openConnectionsMemoryFactor > 1 + 1e-12;
}

/** Input of {@link seCapacity}. */
export interface SeCapacityInput {
    /** vCPUs per SE: an integer from 1 to 64. */
    readonly vcpus: number;
    /** Memory per SE in GB (> 0); default: the row's own memory (the tested size). */
    readonly memoryGb?: number;
    /** Beyond the 6 vCPU row: how the CPU-bound figures are extrapolated; default "slope" (conservative). */
    readonly reading?: ExtrapolationReading;
}

export function checkVcpus(name: string, vcpus: number): void {
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
        return {
            memoryGb: TOP_ROW.memoryGb,
            diskGb: TOP_ROW.diskGb,
            basis: `${SE_TABLE_NAME}, ${TOP_ROW.vcpus} vCPU row (the largest tested size; used beyond ${TOP_ROW.vcpus} vCPUs)`,
        };
    }
    const { lo, hi, t } = bracket(vcpus);
    return { memoryGb: lerp(lo.memoryGb, hi.memoryGb, t), diskGb: lerp(lo.diskGb, hi.diskGb, t), basis: seCapacityBasis(vcpus) };
}

/**
 * How a message names the capacity figures used for `vcpus`, e.g.
 * "NSX ALB 20.1.6 per-SE table, 4 vCPU row".
 * @throws RangeError when vcpus is not an integer in 1..64.
 */
export function seCapacityBasis(vcpus: number, reading: ExtrapolationReading = "slope"): string {
    checkVcpus("vcpus", vcpus);
    if (vcpus > TOP_ROW.vcpus) {
        const how =
            reading === "linear"
                ? `linearly per vCPU (the favourable reading; on the ${BELOW_TOP_ROW.vcpus}-to-${TOP_ROW.vcpus} vCPU slope they are lower)`
                : `on the ${BELOW_TOP_ROW.vcpus}-to-${TOP_ROW.vcpus} vCPU slope (at most the ${TOP_ROW.vcpus} vCPU row's average per vCPU)`;
        return `${SE_TABLE_NAME}, ${TOP_ROW.vcpus} vCPU row, ${reading === "linear" ? "TPS/RPS/CPS and SSL throughput" : "TPS/RPS/CPS"} extrapolated to ${vcpus} vCPUs ${how}, ${reading === "linear" ? "plain throughput" : "throughput"} held at the ${TOP_ROW.vcpus} vCPU figure`;
    }
    const { lo, hi } = bracket(vcpus);
    return lo === hi ? `${SE_TABLE_NAME}, ${lo.vcpus} vCPU row` : `${SE_TABLE_NAME}, interpolated between the ${lo.vcpus} and ${hi.vcpus} vCPU rows`;
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
    const { vcpus, memoryGb, reading = "slope" } = input;
    checkVcpus("vcpus", vcpus);
    if (memoryGb !== undefined && !(Number.isFinite(memoryGb) && memoryGb > 0)) {
        throw new RangeError(`memoryGb must be a finite number of GB above 0, got ${memoryGb}`);
    }
    // Open connections scale with memory above the row's own memory (memory bound).
    const memoryFactor = (rowMemoryGb: number) => Math.max(1, (memoryGb ?? rowMemoryGb) / rowMemoryGb);
    if (vcpus > TOP_ROW.vcpus) {
        const beyond = (key: CpuBound) =>
            reading === "linear" ? (TOP_ROW[key] * vcpus) / TOP_ROW.vcpus : TOP_ROW[key] + extrapolationSlope(key) * (vcpus - TOP_ROW.vcpus);
        return {
            sslTpsEcc: beyond("sslTpsEcc"),
            sslTpsRsa: beyond("sslTpsRsa"),
            l7Rps: beyond("l7Rps"),
            l4Cps: beyond("l4Cps"),
            l4OpenConnections: TOP_ROW.l4OpenConnections * memoryFactor(TOP_ROW.memoryGb),
            l4ThroughputGbps: TOP_ROW.l4ThroughputGbps,
            l7ThroughputGbps: TOP_ROW.l7ThroughputGbps,
            // SSL bulk throughput is CPU bound (source notes: "CPS/RPS/TPS and SSL bulk throughput
            // are CPU bound"): the favourable reading scales it per vCPU like TPS/RPS/CPS, up to the
            // plain L7 throughput held above (the same packets and NIC carry it: every measured row
            // has SSL below plain, and encrypting never adds bandwidth); the conservative one holds
            // it at the 6 vCPU figure (no gain beyond it was measured).
            l7SslThroughputGbps:
                reading === "linear" ? Math.min((TOP_ROW.l7SslThroughputGbps * vcpus) / TOP_ROW.vcpus, TOP_ROW.l7ThroughputGbps) : TOP_ROW.l7SslThroughputGbps,
            extrapolated: true,
            reading,
            openConnectionsMemoryFactor: memoryFactor(TOP_ROW.memoryGb),
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
        openConnectionsMemoryFactor: memoryFactor(at("memoryGb")),
    };
}

/** The smallest table row measured with a dedicated dispatcher core (4 vCPUs: 1 dispatcher + 3 proxy). */
export const DISPATCHER_ROW_MIN_VCPUS = 4;

/**
 * The vCPUs whose table row gives an SE's proxy figures: below 4 vCPUs a dedicated dispatcher
 * core proxies nothing, so the (vcpus - 1) row (its rows 1 and 2 were measured with every core a
 * proxy core); from 4 vCPUs the rows were measured with a dispatcher, so the SE's own row.
 * 0 for a 1 vCPU SE with a dedicated dispatcher: no proxy core, no row.
 */
export function proxyRowVcpus(vcpus: number, dedicatedDispatcher: boolean | undefined): number {
    return dedicatedDispatcher === true && vcpus < DISPATCHER_ROW_MIN_VCPUS ? vcpus - 1 : vcpus;
}

/**
 * Capacity of one SE of a group: seCapacity at its vCPUs and memory, except that with a
 * dedicated dispatcher below 4 vCPUs the CPU-bound and throughput figures are the proxy cores'
 * row (proxyRowVcpus); open connections stay the SE's own (memory bound).
 * @throws RangeError when a dedicated dispatcher leaves no proxy core (1 vCPU), or as seCapacity.
 */
export function perSeCapacity(vcpus: number, memoryGb: number, dedicatedDispatcher?: boolean, reading?: ExtrapolationReading): SeCapacity {
    const own = seCapacity({ vcpus, memoryGb, reading });
    const proxy = proxyRowVcpus(vcpus, dedicatedDispatcher);
    if (proxy === vcpus) {
        return own;
    }
    if (proxy < 1) {
        throw new RangeError("a dedicated dispatcher core on a 1 vCPU SE leaves no proxy core: the table has no row for it");
    }
    return { ...seCapacity({ vcpus: proxy }), l4OpenConnections: own.l4OpenConnections, openConnectionsMemoryFactor: own.openConnectionsMemoryFactor };
}

/** The published SE memory ceiling, MB (otherPublishedFacts.seSizeRange: up to 256 GB). */
export const SE_MEMORY_MAX_MB = 256 * 1024;
