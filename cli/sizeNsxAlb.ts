/**
 * `perfguard size nsx-alb`: the smallest SE size (vcpusPerSe, with the tested memory and disk)
 * whose SE group carries one or more virtual services' (VS) peak demand with
 * nsx-alb-se-capacity's headroom, placed as the Controller places them (HA mode, packed
 * placement, maxVsPerSe), or the check of a given size (`--vcpus`). It decides as the gate does:
 * placeOnReadings and placementFits (policies/nsx-alb/fit.ts, what the evaluation judges with),
 * on the reading nsx-alb-se-capacity gates on; beyond the 6 vCPU row the conservative reading is
 * shown beside it where the two differ. The table shows the busiest SE, the figure that decides the size.
 */
import { HaMode, PROVIDER_RANGES, SeGroupSpec, SeUtilisation, sslTpsCapacity, throughputCapacityGbps, VsDemand, vsKind } from "../model/seCapacity";
import { connectionsScaled, SE_MEMORY_MAX_MB, SE_MEMORY_MIN_GB, SE_VCPU_MAX, SE_VCPU_MIN, seCapacityBasis, testedSeSize } from "../model/seTable";
import { GroupPlacement, MEASURED_VCPUS_MAX, placeGroup, placementFits } from "../model/sePlacement";
import { pct } from "../policies/pack/format";
import { GATE_READING, placeOnReadings } from "../policies/nsx-alb/fit";
import { DISPATCHER_MIN_VCPUS, SE_GROUP_FIELDS } from "../policies/nsx-alb/seGroupFields";
import { CONNECTIONS_SCALED, SizeLabel, sizeLabel } from "../policies/nsx-alb/names";

/** Input of {@link sizeNsxAlb}. */
export interface NsxAlbSizingInput {
    /** The first VS's peak demand (at least one metric). */
    readonly demand: VsDemand;
    /** Further VSs on the same group (`--vs`, repeated, or a JSON file). */
    readonly more?: readonly VsDemand[];
    /** SEs each VS is placed on (minScaleoutPerVs), 1..64. */
    readonly scaleOut: number;
    /** Spare SEs for N+M failover (bufferSe), >= 0. */
    readonly bufferSe: number;
    readonly haMode: HaMode;
    /** Most VSs on one SE (maxVsPerSe), 1..1000; unset: the provider's default. */
    readonly maxVsPerSe?: number;
    /** Check this vcpusPerSe instead of searching for the smallest. */
    readonly vcpus?: number;
    /** Spare capacity to keep, percent (0..95; nsx-alb-se-capacity's headroomPct). */
    readonly headroomPct: number;
}

/** One metric's load on the busiest SE against one SE's capacity. */
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
    /** The SE group to declare (or the one checked with --vcpus), or undefined when no vcpusPerSe up to 64 fits. */
    readonly seGroup: (SeGroupSpec & { readonly diskPerSeGb: number; readonly dedicatedDispatcherCore: boolean }) | undefined;
    /** With --vcpus: whether that size fits. */
    readonly fits: boolean;
    /** SEs' capacity each VS counts on, and SEs the placements need (N). */
    readonly vsSes: number;
    readonly groupSes: number;
    /** The heaviest VS on its SEs, and the busiest SE. */
    readonly vs: SeUtilisation | undefined;
    readonly group: SeUtilisation | undefined;
    /** Per metric, the busiest SE's load against one SE's figure (what decides the size). */
    readonly metrics: MetricLine[];
    /** How the per-SE figures were obtained: a table row, between rows, or beyond the 6 vCPU row. */
    readonly label: SizeLabel;
    /** Fraction of capacity allowed: 1 - headroomPct / 100. */
    readonly limit: number;
    /** Where the per-SE figures come from. */
    readonly basis: string;
    /** True when the size is beyond the 6 vCPU row (extrapolated, not measured: judged on the gate's reading). */
    readonly extrapolated: boolean;
    /**
     * Beyond the 6 vCPU row, where the two readings differ: the same placement on the conservative
     * reading (the 4-to-6 vCPU slope), which nsx-alb-se-capacity-advisory names and which never
     * gates; everything else here is on the reading that gates (GATE_READING).
     */
    readonly slope?: SlopeReading;
    /** True when open connections are demanded and their figure is scaled by memory above the row's (not measured). */
    readonly openConnectionsScaled: boolean;
    /**
     * When the smallest SE is beyond the published 6-vCPU row (extrapolated, not measured): the
     * fewest SEs per VS (N+M, active/active) at which a measured size (6 vCPUs or fewer) fits;
     * for legacy active/standby (no scale-out) in N+M with at least one buffer SE, as the
     * policy's fix offers.
     */
    readonly measuredAlternative?: { readonly scaleOut: number; readonly vcpusPerSe: number; readonly haMode: HaMode; readonly bufferSe: number };
    /** The vcpusPerSe the table shows: the size found or checked; when none fits, 64, or 6 when throughput binds (held beyond the 6 vCPU row). */
    readonly shownVcpus: number;
}

/** The conservative reading of an extrapolated size, shown beside the one that gates. */
export interface SlopeReading {
    /** The busiest SE on it. */
    readonly group: SeUtilisation;
    readonly fits: boolean;
    /** Per metric, as `metrics` (same order), on this reading's per-SE figures. */
    readonly metrics: MetricLine[];
    /** The smallest vcpusPerSe (up to 64) that fits on this reading, if any. */
    readonly smallestVcpus: number | undefined;
    readonly basis: string;
}

// The policy's tolerance: 0.8 x 2600 computed in floating point must still meet 2080.
const EPSILON = 1e-9;
/** How far the alternative search scales out (SEs per VS): the provider's max_scaleout_per_vs range, 1-64. */
const MAX_ALTERNATIVE_SCALE_OUT = 64;

export function demandsOf(input: NsxAlbSizingInput): VsDemand[] {
    return [input.demand, ...(input.more ?? [])];
}

/**
 * The group for the VSs: `scaleOut` SEs each; maxSe = the SEs their placements need at
 * maxVsPerSe, plus bufferSe (N+M); two SEs in legacy active/standby.
 */
function specAt(input: NsxAlbSizingInput, vcpus: number, memoryPerSeMb: number): SeGroupSpec {
    // Active/active (shared pair) places each VS on at least two SEs (placeGroup): the field says so.
    const minScaleout = input.haMode === "HA_MODE_SHARED_PAIR" ? Math.max(2, input.scaleOut) : input.scaleOut;
    const base: SeGroupSpec = {
        vcpusPerSe: vcpus,
        memoryPerSeMb,
        maxSe: PROVIDER_RANGES.maxSe.max,
        minScaleoutPerVs: minScaleout,
        // The provider's default; it must not be below minScaleoutPerVs.
        maxScaleoutPerVs: Math.max(SE_GROUP_FIELDS.maxScaleoutPerVs.default, minScaleout),
        bufferSe: input.haMode === "HA_MODE_SHARED" ? input.bufferSe : 0,
        haMode: input.haMode,
        maxVsPerSe: input.maxVsPerSe,
    };
    if (input.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY") {
        return { ...base, maxSe: 2, minScaleoutPerVs: 1, maxScaleoutPerVs: 1 };
    }
    const needed = placeGroup(
        demandsOf(input).map((d) => [d]),
        base,
        { reading: GATE_READING },
    ).sesNeeded;
    return { ...base, maxSe: Math.min(PROVIDER_RANGES.maxSe.max, needed + base.bufferSe) };
}

/**
 * The busiest SE's load per metric, in each metric's unit, against one SE's figure: the fraction
 * placeGroup computed times the per-SE figure (SSL TPS in the key type of the first VS that
 * declares it; "equivalent" when the VSs mix key types).
 */
export function metricLines(demands: readonly VsDemand[], p: GroupPlacement): MetricLine[] {
    const perSe = p.perSe;
    const u = p.worstSe;
    const lines: MetricLine[] = [];
    const add = (name: string, unit: string, declared: boolean, perSeCapacity: number, share: number) => {
        if (declared) {
            lines.push({ name, unit, demand: share * perSeCapacity, capacity: perSeCapacity, utilisation: share });
        }
    };
    const ssl = demands.filter((d) => d.sslTps !== undefined);
    const keyType = ssl[0]?.sslKeyType;
    const mixed = ssl.some((d) => d.sslKeyType !== keyType);
    add(`SSL TPS (${keyType === "ecc" ? "ECC" : "RSA-2048"}${mixed ? " equivalent" : ""})`, "TPS", ssl.length > 0, sslTpsCapacity(perSe, keyType), u.sslTps);
    add(
        "L7 RPS",
        "RPS",
        demands.some((d) => d.l7Rps !== undefined),
        perSe.l7Rps,
        u.l7Rps,
    );
    add(
        "L4 CPS",
        "CPS",
        demands.some((d) => d.l4Cps !== undefined),
        perSe.l4Cps,
        u.l4Cps,
    );
    const withThroughput = demands.filter((d) => d.throughputGbps !== undefined);
    // SSL bulk throughput is CPU bound: it adds to the CPU-bound total.
    add(
        "throughput (L7 SSL, CPU)",
        "Gbps",
        withThroughput.some((d) => vsKind(d) === "l7ssl"),
        perSe.l7SslThroughputGbps,
        u.sslThroughput,
    );
    const cpuMetrics = [
        ssl.length > 0,
        demands.some((d) => d.l7Rps !== undefined),
        demands.some((d) => d.l4Cps !== undefined),
        withThroughput.some((d) => vsKind(d) === "l7ssl"),
    ].filter(Boolean).length;
    if (cpuMetrics > 1) {
        lines.push({ name: "CPU-bound total", unit: "% of CPU", demand: u.cpu * 100, capacity: 100, utilisation: u.cpu });
    }
    const plain = withThroughput.find((d) => vsKind(d) !== "l7ssl") ?? (u.throughput > 0 ? withThroughput[0] : undefined);
    if (plain) {
        const kind = vsKind(plain) === "l7ssl" ? "l7" : vsKind(plain);
        const name = `throughput (${kind === "l7" ? "L7" : "L4"}${u.ingress > 0 ? `; primary SE ingress ${pct(u.ingress)}, not spread` : ""})`;
        add(name, "Gbps", true, throughputCapacityGbps(perSe, kind), u.throughput);
    }
    const scaled = connectionsScaled(perSe) ? ` (${CONNECTIONS_SCALED})` : "";
    add(
        `open connections${scaled}`,
        "connections",
        demands.some((d) => d.l4OpenConnections !== undefined),
        perSe.l4OpenConnections,
        u.openConnections,
    );
    return lines;
}

/** memoryPerSe at `vcpus`: the tested size, raised for open connections (the source: add memory). */
function memoryAt(input: NsxAlbSizingInput, v: number, limit: number): number {
    const tested = Math.max(testedSeSize(v).memoryGb, SE_MEMORY_MIN_GB) * 1024;
    if (!demandsOf(input).some((d) => d.l4OpenConnections !== undefined)) {
        return tested;
    }
    const rowGb = testedSeSize(v).memoryGb;
    const p = placeGroup(
        demandsOf(input).map((d) => [d]),
        specAt(input, v, rowGb * 1024),
        { reading: GATE_READING },
    );
    const worst = Math.max(p.worstSe.openConnections, ...p.perVs.map((u) => u.openConnections));
    return Math.min(SE_MEMORY_MAX_MB, Math.max(tested, Math.ceil((worst / limit) * rowGb * 1024 - EPSILON)));
}

/** One size, judged as the gate judges it (placeOnReadings, placementFits), with the conservative reading beyond 6 vCPUs. */
interface AtSize {
    readonly spec: SeGroupSpec;
    readonly placement: GroupPlacement;
    readonly fits: boolean;
    readonly slope: GroupPlacement | undefined;
}

function evaluate(input: NsxAlbSizingInput, v: number): AtSize {
    const limit = 1 - input.headroomPct / 100;
    const spec = specAt(input, v, memoryAt(input, v, limit));
    const { placement, slope } = placeOnReadings(
        demandsOf(input).map((d) => [d]),
        spec,
        false,
    );
    return { spec, placement, slope, fits: placementFits(placement, input.headroomPct) };
}

/** The smallest vcpusPerSe from `from` up to 64 that fits on the conservative reading (equal to the gate's up to 6 vCPUs). */
function smallestOnSlope(input: NsxAlbSizingInput, from: number): number | undefined {
    for (let v = from; v <= SE_VCPU_MAX; v++) {
        const at = evaluate(input, v);
        if (placementFits(at.slope ?? at.placement, input.headroomPct)) {
            return v;
        }
    }
    return undefined;
}

/** The conservative reading of `found`, when it differs from the one that gates (beyond the 6 vCPU row only). */
function slopeReading(input: NsxAlbSizingInput, v: number, found: AtSize): SlopeReading | undefined {
    const slope = found.slope;
    if (!slope) {
        return undefined;
    }
    const metrics = metricLines(demandsOf(input), slope);
    const gate = metricLines(demandsOf(input), found.placement);
    const same = metrics.length === gate.length && metrics.every((m, i) => m.capacity === gate[i].capacity && m.utilisation === gate[i].utilisation);
    if (same && slope.worstSe.peak === found.placement.worstSe.peak) {
        return undefined;
    }
    const fits = placementFits(slope, input.headroomPct);
    return { group: slope.worstSe, fits, metrics, smallestVcpus: fits ? v : smallestOnSlope(input, v + 1), basis: seCapacityBasis(v, "slope") };
}

function result(input: NsxAlbSizingInput, v: number, fits: boolean, found: AtSize): NsxAlbSizing {
    const { spec, placement } = found;
    const demands = demandsOf(input);
    const heaviest = placement.perVs.reduce((best, u, i) => (u.peak > placement.perVs[best].peak ? i : best), 0);
    const vs = placement.perVs[heaviest];
    return {
        input,
        seGroup:
            fits || input.vcpus !== undefined
                ? { ...spec, diskPerSeGb: testedSeSize(v).diskGb, dedicatedDispatcherCore: v >= DISPATCHER_MIN_VCPUS }
                : undefined,
        fits,
        vsSes: placement.vsSes,
        groupSes: placement.sesNeeded,
        vs,
        group: placement.worstSe,
        metrics: metricLines(demands, placement),
        limit: 1 - input.headroomPct / 100,
        basis: seCapacityBasis(v, GATE_READING),
        label: sizeLabel(v),
        extrapolated: v > MEASURED_VCPUS_MAX,
        ...(found.slope ? optional("slope", slopeReading(input, v, found)) : {}),
        openConnectionsScaled: connectionsScaled(placement.perSe) && demands.some((d) => d.l4OpenConnections !== undefined),
        shownVcpus: v,
    };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
    return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/**
 * Finds the smallest vcpusPerSe (1..64) at the tested memory and disk for that size (memory
 * raised when open connections need it, as the source says: add memory) at which every VS and
 * the busiest SE stay within 1 - headroomPct/100 on the reading nsx-alb-se-capacity gates on
 * (placeOnReadings, placementFits), or checks `vcpus`. Beyond 6 vCPUs it also names the fewest
 * SEs per VS at which a measured size fits, and the conservative reading where it differs.
 * Input: NsxAlbSizingInput. Output: NsxAlbSizing (seGroup undefined when none fits).
 * Throws RangeError from the model for out-of-range input.
 */
export function sizeNsxAlb(input: NsxAlbSizingInput): NsxAlbSizing {
    if (input.vcpus !== undefined) {
        const at = evaluate(input, input.vcpus);
        return withAlternative(input, result(input, input.vcpus, at.fits, at));
    }
    for (let v = SE_VCPU_MIN; v <= SE_VCPU_MAX; v++) {
        const at = evaluate(input, v);
        if (at.fits) {
            return withAlternative(input, result(input, v, true, at));
        }
    }
    // Nothing fits: show the demand against the largest size, so the user sees by how much; when
    // throughput binds, at the 6 vCPU row (its figure is held beyond: more vCPUs change nothing).
    const largest = result(input, SE_VCPU_MAX, false, evaluate(input, SE_VCPU_MAX));
    if (!throughputBound(largest)) {
        return largest;
    }
    // Only when the CPU-bound loads fit there too: else the 6 vCPU table would blame the CPU.
    const measured = result(input, MEASURED_VCPUS_MAX, false, evaluate(input, MEASURED_VCPUS_MAX));
    return (measured.group?.cpu ?? 0) <= measured.limit + EPSILON ? measured : largest;
}

/** The busiest SE is limited by throughput (or the primary SE's ingress): NIC and packet bound, held beyond the 6 vCPU row. */
export function throughputBound(s: NsxAlbSizing): boolean {
    return s.group !== undefined && (s.group.limiting === "throughput" || s.group.limiting === "ingress");
}

function smallestMeasured(input: NsxAlbSizingInput): number | undefined {
    for (let v = SE_VCPU_MIN; v <= MEASURED_VCPUS_MAX; v++) {
        if (evaluate(input, v).fits) {
            return v;
        }
    }
    return undefined;
}

/** A measured size with more SEs, preferred over an extrapolated larger SE (both are said). */
function withAlternative(input: NsxAlbSizingInput, found: NsxAlbSizing): NsxAlbSizing {
    const vcpus = found.seGroup?.vcpusPerSe;
    if (vcpus === undefined || vcpus <= MEASURED_VCPUS_MAX) {
        return found;
    }
    // Legacy active/standby has no scale-out: N+M (with a buffer SE, so it survives an SE failure).
    const legacy = input.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY";
    const haMode: HaMode = legacy ? "HA_MODE_SHARED" : input.haMode;
    const bufferSe = legacy ? Math.max(1, input.bufferSe) : input.bufferSe;
    for (let scaleOut = legacy ? 1 : input.scaleOut + 1; scaleOut <= MAX_ALTERNATIVE_SCALE_OUT; scaleOut++) {
        const v = smallestMeasured({ ...input, haMode, bufferSe, scaleOut, vcpus: undefined });
        if (v !== undefined) {
            return { ...found, measuredAlternative: { scaleOut, vcpusPerSe: v, haMode, bufferSe } };
        }
    }
    return found;
}
