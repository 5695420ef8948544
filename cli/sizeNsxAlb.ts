/**
 * `perfguard size nsx-alb`: the smallest SE size (vcpusPerSe, with the tested memory and disk)
 * whose SE group carries one virtual service's (VS) peak demand with nsx-alb-se-capacity's
 * headroom, for the VS itself (what its SEs give it) and for the group (what it carries).
 * Same model functions and the same tolerance as the policy.
 */
import {
    HaMode,
    requiredVcpusPerSe,
    SE_MEMORY_MIN_GB,
    SE_VCPU_MAX,
    SE_VCPU_MIN,
    seCapacityBasis,
    SeGroupSpec,
    seGroupCapacity,
    SeMetric,
    sesFor,
    SeUtilisation,
    seUtilisation,
    sslTpsCapacity,
    testedSeSize,
    throughputCapacityGbps,
    VsDemand,
    vsKind,
} from "../model/seCapacity";
import { num, pct } from "../policies/support/format";
import { table } from "./table";

/** Input of {@link sizeNsxAlb}. */
export interface NsxAlbSizingInput {
    /** The VS's peak demand (at least one metric). */
    readonly demand: VsDemand;
    /** SEs the VS is placed on (minScaleoutPerVs; HA_MODE_SHARED only), >= 1. */
    readonly scaleOut: number;
    /** Spare SEs for N+M failover (bufferSe), >= 0. */
    readonly bufferSe: number;
    readonly haMode: HaMode;
    /** Spare capacity to keep, percent (0..95; nsx-alb-se-capacity's headroomPct, default 20). */
    readonly headroomPct: number;
}

/** One metric's demand against the capacity the VS gets. */
export interface MetricLine {
    readonly name: string;
    readonly unit: string;
    readonly demand: number;
    readonly capacity: number;
    /** demand / capacity. */
    readonly utilisation: number;
}

/** What `size nsx-alb` prints. */
export interface NsxAlbSizing {
    readonly input: NsxAlbSizingInput;
    /** The SE group to declare, or undefined when no vcpusPerSe up to 64 fits. */
    readonly seGroup: (SeGroupSpec & { readonly diskPerSeGb: number; readonly dedicatedDispatcherCore: boolean }) | undefined;
    /** SEs' worth the VS gets and the group carries at that size. */
    readonly vsSes: number;
    readonly groupSes: number;
    /** Utilisation of what the VS gets, and of what the group carries. */
    readonly vs: SeUtilisation | undefined;
    readonly group: SeUtilisation | undefined;
    /** Per metric, demand against what the VS gets (capacity = per-SE figure x vsSes). */
    readonly metrics: MetricLine[];
    /** Fraction of capacity allowed: 1 - headroomPct / 100. */
    readonly limit: number;
    /** Where the per-SE figures come from. */
    readonly basis: string;
    /**
     * When the smallest SE is beyond the published 6-vCPU row (extrapolated, not measured): the
     * fewest SEs per VS (HA_MODE_SHARED) at which a measured size (6 vCPUs or fewer) fits.
     */
    readonly measuredAlternative?: { readonly scaleOut: number; readonly vcpusPerSe: number };
}

/** The largest vCPU count the source measured (NSX ALB 20.1.6 per-SE table, 6 vCPU row). */
const MEASURED_VCPUS_MAX = 6;
/** How far the alternative search scales out (SEs per VS); Avi's max_scaleout_per_vs allows far more. */
const MAX_ALTERNATIVE_SCALE_OUT = 16;

/** Metric names as nsx-alb-se-capacity's messages spell them. */
const METRIC_NAME: Record<SeMetric, string> = {
    sslTps: "SSL TPS",
    l7Rps: "L7 RPS",
    l4Cps: "L4 CPS",
    sslThroughput: "SSL throughput",
    throughput: "throughput",
    openConnections: "open connections",
};

// The policy's tolerance: 0.8 x 2600 computed in floating point must still meet 2080.
const EPSILON = 1e-9;

/** The group for one VS: `scaleOut` SEs plus `bufferSe` spare (N+M), or one pair. */
function specAt(input: NsxAlbSizingInput, vcpus: number, memoryPerSeMb: number): SeGroupSpec {
    const shared = input.haMode === "HA_MODE_SHARED";
    return {
        vcpusPerSe: vcpus,
        memoryPerSeMb,
        maxSe: shared ? input.scaleOut + input.bufferSe : 2,
        minScaleoutPerVs: shared ? input.scaleOut : 1,
        // The provider's default is 4; it must not be below minScaleoutPerVs.
        maxScaleoutPerVs: shared ? Math.max(4, input.scaleOut) : 1,
        bufferSe: input.bufferSe,
        haMode: input.haMode,
    };
}

function metricLines(d: VsDemand, spec: SeGroupSpec, ses: number, u: SeUtilisation): MetricLine[] {
    const perSe = seGroupCapacity(spec).perSe;
    const lines: MetricLine[] = [];
    const add = (name: string, unit: string, demand: number | undefined, perSeCapacity: number, share: number) => {
        if (demand !== undefined) {
            lines.push({ name, unit, demand, capacity: perSeCapacity * ses, utilisation: share });
        }
    };
    add(`SSL TPS (${d.sslKeyType === "ecc" ? "ECC" : "RSA-2048"})`, "TPS", d.sslTps, sslTpsCapacity(perSe, d.sslKeyType), u.sslTps);
    add("L7 RPS", "RPS", d.l7Rps, perSe.l7Rps, u.l7Rps);
    add("L4 CPS", "CPS", d.l4Cps, perSe.l4Cps, u.l4Cps);
    const cpuMetrics = [d.sslTps, d.l7Rps, d.l4Cps].filter((x) => x !== undefined).length;
    if (cpuMetrics > 1) {
        // TPS, RPS and CPS share the SE's cores: their shares add up.
        lines.push({ name: "CPU-bound total", unit: "% of CPU", demand: u.cpu * 100, capacity: 100, utilisation: u.cpu });
    }
    const kind = vsKind(d);
    add(`throughput (${kind === "l7ssl" ? "L7 SSL" : kind === "l7" ? "L7" : "L4"})`, "Gbps", d.throughputGbps, throughputCapacityGbps(perSe, kind), u.throughput);
    add("open connections", "connections", d.l4OpenConnections, perSe.l4OpenConnections, u.openConnections);
    return lines;
}

/**
 * Finds the smallest vcpusPerSe (1..64) at the tested memory and disk for that size (memory
 * raised when open connections need it, as the source says: add memory) whose VS and group
 * utilisation both stay within 1 - headroomPct/100.
 * Input: NsxAlbSizingInput. Output: NsxAlbSizing (seGroup undefined when none fits).
 * Throws RangeError from the model for out-of-range input.
 */
export function sizeNsxAlb(input: NsxAlbSizingInput): NsxAlbSizing {
    const found = smallestSe(input);
    const vcpus = found.seGroup?.vcpusPerSe;
    if (vcpus === undefined || vcpus <= MEASURED_VCPUS_MAX || input.haMode !== "HA_MODE_SHARED") {
        return found;
    }
    for (let scaleOut = input.scaleOut + 1; scaleOut <= MAX_ALTERNATIVE_SCALE_OUT; scaleOut++) {
        const alternative = smallestSe({ ...input, scaleOut }).seGroup;
        if (alternative && alternative.vcpusPerSe <= MEASURED_VCPUS_MAX) {
            return { ...found, measuredAlternative: { scaleOut, vcpusPerSe: alternative.vcpusPerSe } };
        }
    }
    return found;
}

function smallestSe(input: NsxAlbSizingInput): NsxAlbSizing {
    const limit = 1 - input.headroomPct / 100;
    const demands = [input.demand];
    for (let v = SE_VCPU_MIN; v <= SE_VCPU_MAX; v++) {
        const tested = testedSeSize(v);
        let memoryMb = Math.max(tested.memoryGb, SE_MEMORY_MIN_GB) * 1024;
        if (input.demand.l4OpenConnections !== undefined) {
            for (const scope of ["vs", "group"] as const) {
                const req = requiredVcpusPerSe(demands, specAt(input, v, memoryMb), { headroomPct: input.headroomPct, scope });
                memoryMb = Math.min(256 * 1024, Math.max(memoryMb, req.memoryPerSeMbForConnections ?? memoryMb));
            }
        }
        const spec = specAt(input, v, memoryMb);
        const capacity = seGroupCapacity(spec);
        const vsSes = sesFor(capacity, { scope: "vs" });
        const vs = seUtilisation(demands, capacity.perSe, vsSes);
        const group = seUtilisation(demands, capacity.perSe, capacity.groupSes);
        if (vs.peak <= limit + EPSILON && group.peak <= limit + EPSILON) {
            return {
                input,
                seGroup: { ...spec, diskPerSeGb: tested.diskGb, dedicatedDispatcherCore: v >= 4 },
                vsSes,
                groupSes: capacity.groupSes,
                vs,
                group,
                metrics: metricLines(input.demand, spec, vsSes, vs),
                limit,
                basis: seCapacityBasis(v),
            };
        }
    }
    // Nothing fits: show the demand against the largest size, so the user sees by how much.
    const spec = specAt(input, SE_VCPU_MAX, Math.max(testedSeSize(SE_VCPU_MAX).memoryGb, SE_MEMORY_MIN_GB) * 1024);
    const capacity = seGroupCapacity(spec);
    const vsSes = sesFor(capacity, { scope: "vs" });
    const vs = seUtilisation(demands, capacity.perSe, vsSes);
    return {
        input, seGroup: undefined, vsSes, groupSes: capacity.groupSes, vs, group: seUtilisation(demands, capacity.perSe, capacity.groupSes),
        metrics: metricLines(input.demand, spec, vsSes, vs), limit, basis: seCapacityBasis(SE_VCPU_MAX),
    };
}

function amount(value: number, unit: string): string {
    if (unit === "Gbps") {
        return `${num(value, 2)} Gbps`;
    }
    if (unit === "% of CPU") {
        return `${num(value, 1)}%`;
    }
    return `${Math.round(value).toLocaleString("en-US")} ${unit}`;
}

function demandText(d: VsDemand): string {
    const parts: string[] = [];
    if (d.sslTps !== undefined) parts.push(`${amount(d.sslTps, "TPS")} SSL (${d.sslKeyType === "ecc" ? "ECC" : "RSA-2048"})`);
    if (d.l7Rps !== undefined) parts.push(`${amount(d.l7Rps, "RPS")} L7`);
    if (d.l4Cps !== undefined) parts.push(`${amount(d.l4Cps, "CPS")} L4`);
    if (d.throughputGbps !== undefined) parts.push(`${amount(d.throughputGbps, "Gbps")} throughput`);
    if (d.l4OpenConnections !== undefined) parts.push(`${amount(d.l4OpenConnections, "connections")} open`);
    return parts.join(", ");
}

/** Renders the human output. Output: text ending with "\n". */
export function formatNsxAlbSizing(s: NsxAlbSizing): string {
    const i = s.input;
    const placement = i.haMode === "HA_MODE_SHARED"
        ? `placed on ${i.scaleOut} SE${i.scaleOut === 1 ? "" : "s"} (minScaleoutPerVs), ${i.haMode} with bufferSe ${i.bufferSe}`
        : `${i.haMode}: the VS gets one SE's capacity`;
    let out = `NSX ALB virtual service: ${demandText(i.demand)}\n`;
    out += `SE group: ${placement}; headroom ${num(i.headroomPct)}% (demand <= ${pct(s.limit)} of capacity, as nsx-alb-se-capacity checks).\n\n`;
    const g = s.seGroup;
    if (g) {
        out += `Smallest SE: vcpusPerSe ${g.vcpusPerSe}, memoryPerSe ${g.memoryPerSeMb} MB (${num(g.memoryPerSeMb / 1024, 2)} GB), diskPerSe ${g.diskPerSeGb} GB, dedicatedDispatcherCore ${g.dedicatedDispatcherCore}\n`;
        out += `SE group fields: maxSe ${g.maxSe}, minScaleoutPerVs ${g.minScaleoutPerVs}, maxScaleoutPerVs ${g.maxScaleoutPerVs}, bufferSe ${g.bufferSe}, haMode ${g.haMode}\n`;
        out += `Per-SE figures: ${s.basis}.\n`;
        const alt = s.measuredAlternative;
        if (alt) {
            out += `Beyond the published 6-vCPU row these figures are extrapolated, not measured: with --scale-out ${alt.scaleOut} (${alt.scaleOut} SEs per VS) vcpusPerSe ${alt.vcpusPerSe} fits, within the measured sizes.\n`;
        }
        out += "\n";
    } else {
        out += `No vcpusPerSe up to 64 fits this demand on ${s.vsSes} SE${s.vsSes === 1 ? "" : "s"}: raise --scale-out (HA_MODE_SHARED), or split the demand over more virtual services. Utilisation at 64 vCPUs:\n\n`;
    }
    out += table(
        ["metric", "demand", `capacity (${s.vsSes} SE${s.vsSes === 1 ? "" : "s"})`, "utilisation"],
        s.metrics.map((m) => [m.name, amount(m.demand, m.unit), amount(m.capacity, m.unit), pct(m.utilisation)]),
        ["left", "right", "right", "right"],
    );
    if (s.vs) {
        out += `\nPeak: ${pct(s.vs.peak)} of what the VS gets (limiting metric: ${METRIC_NAME[s.vs.limiting]}); ` +
            `of what the group carries (${s.groupSes} SE${s.groupSes === 1 ? "'s" : "s'"} worth): ${pct(s.group?.peak ?? NaN)}.\n`;
    }
    return out;
}

/** The JSON document of `size nsx-alb --json`. */
export function nsxAlbSizingJson(s: NsxAlbSizing, plot?: string): Record<string, unknown> {
    const g = s.seGroup;
    return {
        command: "size nsx-alb",
        input: s.input,
        fits: g !== undefined,
        vcpusPerSe: g?.vcpusPerSe ?? null,
        memoryPerSeMb: g?.memoryPerSeMb ?? null,
        diskPerSeGb: g?.diskPerSeGb ?? null,
        dedicatedDispatcherCore: g?.dedicatedDispatcherCore ?? null,
        seGroup: g ?? null,
        vsSes: s.vsSes,
        groupSes: s.groupSes,
        limit: s.limit,
        utilisation: { vs: s.vs ?? null, group: s.group ?? null },
        metrics: s.metrics,
        basis: s.basis,
        measuredAlternative: s.measuredAlternative ?? null,
        ...(plot ? { plot } : {}),
    };
}

/** Draws `--plot`: demand against capacity per metric. Loads the renderer only here. */
export async function nsxAlbPlotSvg(s: NsxAlbSizing): Promise<string> {
    const { seCapacityPlotSvg } = await import("./plots/seCapacityPlot");
    const g = s.seGroup;
    const title = g
        ? `1 VS on ${s.vsSes} SE${s.vsSes === 1 ? "" : "s"} of ${g.vcpusPerSe} vCPUs / ${num(g.memoryPerSeMb / 1024, 2)} GB (${s.basis})`
        : `1 VS on ${s.vsSes} SE${s.vsSes === 1 ? "" : "s"} of 64 vCPUs: does not fit`;
    return seCapacityPlotSvg({
        title,
        metrics: s.metrics.map((m) => ({ name: m.name, unit: m.unit, demand: m.demand, capacity: m.capacity })),
        headroomPct: s.input.headroomPct,
    });
}
