/**
 * `perfguard size nsx-alb`: the smallest SE size (vcpusPerSe, with the tested memory and disk)
 * whose SE group carries one or more virtual services' (VS) peak demand with
 * nsx-alb-se-capacity's headroom, placed as the Controller places them (HA mode, packed
 * placement, maxVsPerSe), or the check of a given size (`--vcpus`). It decides as the gate does:
 * placeOnReadings and placementFits (policies/nsx-alb/fit.ts, what the evaluation judges with),
 * on the reading nsx-alb-se-capacity gates on; beyond the 6 vCPU row the conservative reading is
 * shown beside it where the two differ. The table shows the busiest SE, the figure that decides the size.
 */
import {
    DEFAULT_MAX_VS_PER_SE,
    HaMode,
    ingressOnPrimary,
    PROVIDER_RANGES,
    SeGroupSpec,
    SeUtilisation,
    sslTpsCapacity,
    throughputCapacityGbps,
    VsDemand,
    vsKind,
} from "../model/seCapacity";
import { connectionsScaled, READING_NAME, SE_MEMORY_MAX_MB, SE_MEMORY_MIN_GB, SE_VCPU_MAX, SE_VCPU_MIN, seCapacityBasis, testedSeSize } from "../model/seTable";
import { GroupPlacement, MEASURED_VCPUS_MAX, placeGroup, placementFits } from "../model/sePlacement";
import { num, pct } from "../policies/pack/format";
import { GATE_READING, placeOnReadings } from "../policies/nsx-alb/fit";
import { DISPATCHER_MIN_VCPUS, SE_GROUP_FIELDS } from "../policies/nsx-alb/seGroupFields";
import { CONNECTIONS_SCALED, limitingName, needsText, SizeLabel, sizeLabel } from "../policies/nsx-alb/names";
import { table } from "./table";

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

function demandsOf(input: NsxAlbSizingInput): VsDemand[] {
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
function throughputBound(s: NsxAlbSizing): boolean {
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

/** What to change when no size fits, leading with what can help the limit that binds. */
function noFitHint(s: NsxAlbSizing): string {
    const i = s.input;
    // The group is sized with packed placement: several VSs of one group land on the same SE until
    // maxVsPerSe, so splitting a VS helps only across SE groups or with distributed placement.
    const split =
        "move part of the traffic to another SE group (several VSs on this one share an SE under packed placement; with PLACEMENT_ALGO_DISTRIBUTED each gets its own)";
    if (i.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY") {
        return `legacy active/standby has no scale-out: ${split}, or use --ha-mode shared (N+M, bufferSe 1 or more) with --scale-out`;
    }
    if (!throughputBound(s)) {
        return `raise --scale-out, or ${split}`;
    }
    // Throughput binds: more vCPUs do not help; under native scale-out ingress stays on the primary SE.
    const native = demandsOf(i).some((d) => d.throughputGbps !== undefined && d.scaleoutEcmp !== true);
    if (!native) {
        return `raise --scale-out (with --scaleout-ecmp the SEs share the ingress too), or ${split}`;
    }
    // No direction given: all counted as ingress; giving it is the cheapest change (as the policy's fix says first).
    const direction = demandsOf(i).some((d) => d.throughputGbps !== undefined && d.ingressPct === undefined)
        ? "give --ingress-pct if most of it is egress (now all counted as ingress); "
        : "";
    return `${direction}under native scale-out a VS's ingress stays on its primary SE: add --scaleout-ecmp (BGP/ECMP) with --scale-out, or ${split}`;
}

/** The size the table shows when none fits. */
function shownText(s: NsxAlbSizing): string {
    return s.shownVcpus === MEASURED_VCPUS_MAX
        ? `Utilisation at ${MEASURED_VCPUS_MAX} vCPUs (measured; throughput is held at this row's figure beyond it, so more vCPUs do not help)`
        : `Utilisation at ${s.shownVcpus} vCPUs (not measured)`;
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

function oneDemandText(d: VsDemand): string {
    const parts: string[] = [];
    if (d.sslTps !== undefined) parts.push(`${amount(d.sslTps, "TPS")} SSL (${d.sslKeyType === "ecc" ? "ECC" : "RSA-2048"})`);
    if (d.l7Rps !== undefined) parts.push(`${amount(d.l7Rps, "RPS")} L7`);
    if (d.l4Cps !== undefined) parts.push(`${amount(d.l4Cps, "CPS")} L4`);
    if (d.throughputGbps !== undefined) parts.push(`${amount(d.throughputGbps, "Gbps")} throughput`);
    if (d.l4OpenConnections !== undefined) parts.push(`${amount(d.l4OpenConnections, "connections")} open`);
    return parts.join(", ");
}

function demandText(i: NsxAlbSizingInput): string {
    const all = demandsOf(i);
    return all.length === 1 ? oneDemandText(all[0]) : `${all.length} VSs: ${all.map((d, n) => `(${n + 1}) ${oneDemandText(d)}`).join("; ")}`;
}

/**
 * The SE group fields to declare, as they apply to its HA mode. Legacy active/standby has no
 * scale-out (every VS on the active SE; after a failover the standby carries all of the pair's
 * VSs, as nsx-alb-se-capacity judges it), so the scale-out fields are named as not applying
 * rather than given a value that reads like a placement.
 */
function seGroupFieldsText(g: SeGroupSpec): string {
    const tail = `bufferSe ${g.bufferSe}, haMode ${g.haMode}, maxVsPerSe ${g.maxVsPerSe ?? DEFAULT_MAX_VS_PER_SE}`;
    return g.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY"
        ? `maxSe ${g.maxSe}, ${tail} (minScaleoutPerVs and maxScaleoutPerVs do not apply: every VS on the active SE, all on the standby after a failover)`
        : `maxSe ${g.maxSe}, minScaleoutPerVs ${g.minScaleoutPerVs}, maxScaleoutPerVs ${g.maxScaleoutPerVs}, ${tail}`;
}

/**
 * Both readings of an extrapolated size, the one that gates first: "Readings beyond the 6 vCPU
 * row: nsx-alb-se-capacity gates on ...; on the 4-to-6 vCPU slope (conservative, not gating) ...".
 */
function readingsText(s: NsxAlbSizing, slope: SlopeReading): string {
    const smallest = slope.fits
        ? ""
        : slope.smallestVcpus !== undefined
          ? `; on that reading the smallest SE is vcpusPerSe ${slope.smallestVcpus}`
          : "; on that reading no vcpusPerSe up to 64 fits";
    return (
        `Readings beyond the ${MEASURED_VCPUS_MAX} vCPU row: this size and the "gates" columns are on the reading nsx-alb-se-capacity gates on (TPS/RPS/CPS and SSL throughput ${READING_NAME[GATE_READING]}); ` +
        `${READING_NAME.slope} (conservative, named by nsx-alb-se-capacity-advisory, not gating) the busiest SE needs ${pct(slope.group.peak)} ` +
        `(limit ${pct(s.limit)}: ${slope.fits ? "fits" : "does not fit"})${smallest}.`
    );
}

/** The busiest SE per metric; with the conservative reading's capacity and utilisation beside, where it differs. */
function metricsTable(s: NsxAlbSizing): string {
    const slope = s.slope;
    if (!slope) {
        return table(
            ["metric", "on the busiest SE", "capacity of one SE", "utilisation"],
            s.metrics.map((m) => [m.name, amount(m.demand, m.unit), amount(m.capacity, m.unit), pct(m.utilisation)]),
            ["left", "right", "right", "right"],
        );
    }
    return table(
        ["metric", "on the busiest SE", "capacity of one SE (gates)", "utilisation (gates)", "capacity on the slope", "utilisation on the slope"],
        s.metrics.map((m, i) => {
            const c = slope.metrics[i];
            return [
                m.name,
                amount(m.demand, m.unit),
                amount(m.capacity, m.unit),
                pct(m.utilisation),
                c ? amount(c.capacity, c.unit) : "",
                c ? pct(c.utilisation) : "",
            ];
        }),
        ["left", "right", "right", "right", "right", "right"],
    );
}

/** Renders the human output. Output: text ending with "\n". */
export function formatNsxAlbSizing(s: NsxAlbSizing): string {
    const i = s.input;
    const ses = (n: number) => `${n} SE${n === 1 ? "" : "s"}`;
    const placement =
        i.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY"
            ? `${i.haMode}: two SEs, one active, every VS on it, no scale-out`
            : i.haMode === "HA_MODE_SHARED_PAIR"
              ? `${i.haMode}: each VS on ${ses(Math.max(2, i.scaleOut))}, fitting after one fails`
              : `each VS on ${ses(i.scaleOut)} (minScaleoutPerVs), ${i.haMode} with bufferSe ${i.bufferSe}`;
    let out = `NSX ALB virtual service${demandsOf(i).length === 1 ? "" : "s"}: ${demandText(i)}\n`;
    out += `SE group: ${placement}; PLACEMENT_ALGO_PACKED, maxVsPerSe ${i.maxVsPerSe ?? DEFAULT_MAX_VS_PER_SE}; headroom ${num(i.headroomPct)}% (demand <= ${pct(s.limit)} of capacity, as nsx-alb-se-capacity checks).\n\n`;
    const g = s.seGroup;
    const alt = s.measuredAlternative;
    if (alt) {
        // A size within the table's rows leads; the extrapolated one follows, labelled.
        const t = testedSeSize(alt.vcpusPerSe);
        const mode = alt.haMode !== i.haMode ? `--ha-mode shared (N+M, bufferSe ${alt.bufferSe}; not in the Essentials and Basic editions) ` : "";
        out +=
            `Preferred (${sizeLabel(alt.vcpusPerSe)}, within the table's rows): ${mode}--scale-out ${alt.scaleOut}: vcpusPerSe ${alt.vcpusPerSe}, ` +
            `memoryPerSe ${Math.max(t.memoryGb, SE_MEMORY_MIN_GB) * 1024} MB, diskPerSe ${t.diskGb} GB on ${ses(alt.scaleOut)} per VS` +
            `${alt.scaleOut > 1 ? ` (linear scale-out to ${ses(alt.scaleOut)} assumed: not measured)` : ""}; run with these options for its table.\n`;
        if (i.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY") {
            out += "Or move some of the VSs to another SE group.\n";
        }
    }
    if (g) {
        const extrapolatedHead = alt ? ` on ${ses(i.scaleOut)} per VS (extrapolated, not measured)` : "";
        const what = i.vcpus !== undefined ? `Checked SE (${s.fits ? "fits" : "does not fit"})` : `Smallest SE${extrapolatedHead}`;
        out += `${what}: vcpusPerSe ${g.vcpusPerSe}, memoryPerSe ${g.memoryPerSeMb} MB (${num(g.memoryPerSeMb / 1024, 2)} GB), diskPerSe ${g.diskPerSeGb} GB, dedicatedDispatcherCore ${g.dedicatedDispatcherCore}\n`;
        out += `SE group fields: ${seGroupFieldsText(g)}\n`;
        // Native scale-out leaves a VS's ingress on its primary SE: said only for a VS with throughput and without ECMP.
        const primary = demandsOf(i).some((d) => ingressOnPrimary(d, s.vsSes)) ? " (ingress stays on the primary SE)" : "";
        const spread = s.vsSes > 1 ? `; linear scale-out to ${ses(s.vsSes)} per VS assumed: not measured${primary}` : "";
        const conns = s.openConnectionsScaled ? `; open connections ${CONNECTIONS_SCALED}` : "";
        out += `Per-SE figures: ${s.basis} (${s.extrapolated ? "extrapolated, not measured: beyond the 6 vCPU row" : s.label}${conns})${spread}.\n`;
        out += s.slope ? `${readingsText(s, s.slope)}\n` : "";
        out += "\n";
    } else {
        out += `No vcpusPerSe up to 64 fits this demand on ${ses(s.vsSes)}: ${noFitHint(s)}. ${shownText(s)}:\n`;
        out += s.slope ? `${readingsText(s, s.slope)}\n` : "";
        out += "\n";
    }
    out += metricsTable(s);
    if (s.vs) {
        const g = s.group as SeUtilisation;
        out +=
            `\nPeak: busiest SE ${pct(g.peak)} (limiting metric: ${limitingName(g)}; ${s.groupSes} SE${s.groupSes === 1 ? "" : "s"} for placement); ` +
            `the heaviest VS needs ${needsText(s.vs, s.vsSes)}.\n`;
    }
    return out;
}

/** The JSON document of `size nsx-alb --json`. */
export function nsxAlbSizingJson(s: NsxAlbSizing, plot?: string): Record<string, unknown> {
    const g = s.seGroup;
    return {
        command: "size nsx-alb",
        input: s.input,
        fits: s.fits,
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
        label: s.label,
        reading: GATE_READING,
        slope: s.slope ?? null,
        measuredAlternative: s.measuredAlternative ?? null,
        extrapolated: s.extrapolated,
        openConnectionsScaled: s.openConnectionsScaled,
        ...(plot ? { plot } : {}),
    };
}

/** Draws `--plot`: demand against capacity per metric. Loads the renderer only here. */
export async function nsxAlbPlotSvg(s: NsxAlbSizing): Promise<string> {
    const { seCapacityPlotSvg } = await import("./plots/seCapacityPlot");
    const g = s.seGroup;
    const vss = demandsOf(s.input).length;
    const title = g
        ? `The busiest SE (${vss === 1 ? "1 VS" : `${vss} VSs`}, ${s.groupSes} SE${s.groupSes === 1 ? "" : "s"} for placement) of ${g.vcpusPerSe} vCPUs / ${num(g.memoryPerSeMb / 1024, 2)} GB (${s.basis}; ${s.label}${s.openConnectionsScaled ? `; open connections ${CONNECTIONS_SCALED}` : ""})`
        : `The busiest SE of 64 vCPUs: does not fit`;
    return seCapacityPlotSvg({
        title,
        metrics: s.metrics.map((m) => ({ name: m.name, unit: m.unit, demand: m.demand, capacity: m.capacity })),
        headroomPct: s.input.headroomPct,
    });
}
