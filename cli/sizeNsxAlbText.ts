/**
 * How `perfguard size nsx-alb` shows a sizing (cli/sizeNsxAlb.ts computes it): the text with its
 * readings and per-metric table, the JSON document and the plot.
 */
import { DEFAULT_MAX_VS_PER_SE, ingressOnPrimary, SeGroupSpec, SeUtilisation, VsDemand } from "../model/seCapacity";
import { READING_NAME, SE_MEMORY_MIN_GB, testedSeSize } from "../model/seTable";
import { MEASURED_VCPUS_MAX } from "../model/sePlacement";
import { num, pct } from "../policies/pack/format";
import { GATE_READING } from "../policies/nsx-alb/fit";
import { CONNECTIONS_SCALED, limitingName, needsText, sizeLabel } from "../policies/nsx-alb/names";
import { table } from "./table";
import { demandsOf, NsxAlbSizing, NsxAlbSizingInput, SlopeReading, throughputBound } from "./sizeNsxAlb";

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
