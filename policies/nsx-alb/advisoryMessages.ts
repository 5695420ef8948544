/**
 * The messages of nsx-alb-se-capacity-advisory: an N+M group without the SEs for its buffer or
 * without a buffer SE, and a group that fits only on the extrapolated figures beyond the 6 vCPU
 * row (both readings named, and the measured alternative).
 */
import { SeGroupSpec } from "../../model/seCapacity";
import { READING_NAME } from "../../model/seTable";
import { GroupPlacement, MEASURED_VCPUS_MAX } from "../../model/sePlacement";
import { PlacementFix } from "../../model/seFixes";
import { fieldText, SeGroupSizing } from "./seGroupFields";
import { pct, plural } from "../pack/format";
import { Message, PROBLEM_LINE_MAX } from "../pack/message";
import { dispatcherCoresBasis, dispatcherUnmeasured } from "./dispatcherNotes";
import { within } from "./fit";
import type { SeCapacityConfig } from "./config";
import type { GroupEvaluation, Unit } from "./groupTypes";
import {
    capacityText,
    demandText,
    failureText,
    fullNames,
    groupLabel,
    HA_DOC,
    labelOf,
    limitText,
    optionText,
    placementText,
    utilisationText,
} from "./capacityMessages";

/** The N+M buffer the group cannot keep: the SEs placement needs plus bufferSe exceed maxSe. */
export function bufferMessage(e: GroupEvaluation, alternatives: readonly string[]): Message {
    const p = e.placement as GroupPlacement;
    const sizing = e.sizing as SeGroupSizing;
    const { spec } = sizing;
    return {
        problem: `${groupLabel(e.group)}: its ${plural(p.vsCount, "VS")} need${p.vsCount === 1 ? "s" : ""} ${plural(p.sesNeeded, "SE")} at maxVsPerSe ${p.maxVsPerSe}, so maxSe ${spec.maxSe} cannot keep bufferSe ${spec.bufferSe} spare: an SE failure costs capacity.`,
        fix: `${alternatives.join("; or ")}.`,
        basis: [
            `N+M: N = ceil(${plural(p.vsCount, "VS")} x ${plural(p.sesPerVs, "SE")} each / ${fieldText("maxVsPerSe", spec.maxVsPerSe, sizing.where.maxVsPerSe)}) = ${p.sesNeeded}; N + M = ${p.sesNeeded + spec.bufferSe} > ${fieldText("maxSe", spec.maxSe, sizing.where.maxSe)} (${HA_DOC})`,
            ...fullNames([e.group.resource]),
        ],
    };
}

/** The N+M buffer in --explain's words: only N+M (HA_MODE_SHARED) has one. */
export function bufferState(spec: Pick<SeGroupSpec, "haMode" | "bufferSe">, p: GroupPlacement): string {
    if (spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY") {
        return "N+M buffer not applicable (legacy active/standby: the standby SE is the spare)";
    }
    if (spec.haMode === "HA_MODE_SHARED_PAIR") {
        return "N+M buffer not applicable (active/active: each VS must fit after one of its SEs fails)";
    }
    return !p.bufferKept ? "N+M buffer not kept" : spec.bufferSe === 0 ? "N+M with bufferSe 0: no spare SE" : "N+M buffer kept";
}

/** Vendor behaviour of elastic N+M with no buffer SE (docs/policies/nsx-alb-se-capacity-advisory.md quotes it). */
export const NO_BUFFER_DOC =
    "with no buffer SE the failed SE's VSs are placed on the remaining SEs if they have capacity, else they are down until a new SE is created (" +
    HA_DOC +
    ")";

/** An N+M group with bufferSe 0: one SE failure moves or stops its VSs. */
export function noBufferMessage(e: GroupEvaluation): Message {
    const p = e.placement as GroupPlacement;
    const sizing = e.sizing as SeGroupSizing;
    const { spec, where } = sizing;
    const maxSe = Math.max(spec.maxSe, p.sesNeeded + 1);
    const fix =
        maxSe <= 1000
            ? `set bufferSe "1"${maxSe !== spec.maxSe ? `, maxSe "${maxSe}"` : ""} (${plural(p.sesNeeded, "SE")} for placement + 1 spare: one SE failure covered).`
            : 'move some of its VSs to another SE group, then set bufferSe "1".';
    const after = e.afterFailure;
    // With survivors, the figure: where their load lands (within the limit, else nsx-alb-se-capacity reports it).
    const long =
        after && !after.placeable
            ? `${groupLabel(e.group)}: bufferSe 0: if one of its ${after.running} SEs fails, the ${plural(after.running - 1, "survivor")} cannot hold all its VSs at maxVsPerSe ${p.maxVsPerSe}: some are down until a new SE is up.`
            : after
              ? `${groupLabel(e.group)}: bufferSe 0: if one of its ${after.running} SEs fails, the survivors carry its VSs (busiest ${pct(after.placement.worstSe.peak)}) with no spare SE left.`
              : // With one SE there are no others to move to: its VSs are down until a new SE is up.
                p.sesNeeded <= 1
                ? `${groupLabel(e.group)}: bufferSe 0: if its only SE fails, its VSs are down until a new SE is up.`
                : `${groupLabel(e.group)}: bufferSe 0: if one of its ${p.sesNeeded} SEs fails, its VSs move to the others or are down until a new SE is up.`;
    return {
        problem: long.length <= PROBLEM_LINE_MAX ? long : `${groupLabel(e.group)}: bufferSe 0: an SE failure squeezes or stops its VSs.`,
        fix,
        basis: [
            ...(after ? [failureText(e)] : []),
            `${fieldText("haMode", spec.haMode, where.haMode)} (N+M), ${fieldText("bufferSe", spec.bufferSe, where.bufferSe)}, ${fieldText("maxSe", spec.maxSe, where.maxSe)}: ${NO_BUFFER_DOC}`,
            ...fullNames([e.group.resource]),
        ],
    };
}

/** The measured alternative to an extrapolated SE size (6 vCPUs, more SEs), in words. */
export function measuredFixText(e: GroupEvaluation, measured: PlacementFix | undefined): string {
    const keep = `or keep vcpusPerSe ${(e.sizing as SeGroupSizing).spec.vcpusPerSe} knowing the fit rests on an extrapolation (not measured)`;
    return measured
        ? `${optionText(measured, e)}; ${keep}.`
        : `no measured size fits within the provider's ranges: split the VSs over more SE groups, ${keep}.`;
}

/**
 * The readings of one figure beyond the 6 vCPU row, in a problem line: "77.0% linear per vCPU,
 * 86.4% on the 4-to-6 slope, 102.7% of the 6 vCPU row" (the slope left out when it equals the linear one).
 */
function readingsText(linear: number, slope: number | undefined, row: number): string {
    const onSlope = slope !== undefined && Math.abs(slope - linear) > 1e-9 ? `, ${pct(slope)} ${READING_NAME.slope.replace(" vCPU slope", " slope")}` : "";
    return `${pct(linear)} linear per vCPU${onSlope}, ${pct(row)} of the ${MEASURED_VCPUS_MAX} vCPU row`;
}

/** The Basis line that says which reading the verdicts rest on and what the other gives. */
function readingsBasis(linear: number, slope: number | undefined, config: SeCapacityConfig): string {
    const other =
        slope === undefined
            ? ""
            : `; ${READING_NAME.slope} (the conservative reading) it needs ${pct(slope)}${within(slope, config) ? "" : `, over the ${limitText(config)}`}`;
    return `beyond the ${MEASURED_VCPUS_MAX} vCPU row the CPU-bound figures are extrapolated: ${READING_NAME.linear} (the favourable reading, the only one a mandatory verdict rests on) it needs ${pct(linear)}${other}: advisory`;
}

/** A VS that fits only on the extrapolation beyond the 6 vCPU row. */
export function extrapolatedVsMessage(unit: Unit, e: GroupEvaluation, fix: string, config: SeCapacityConfig): Message {
    const p = e.placement as GroupPlacement;
    const m = e.measured as GroupPlacement;
    const i = unit.index;
    const vcpus = (e.sizing as SeGroupSizing).spec.vcpusPerSe;
    const slope = e.slope?.perVs[i].peak;
    const label = labelOf(unit.head.vs);
    const long = `${label} fits ${vcpus} vCPU SEs only if extrapolated, not measured: ${readingsText(p.perVs[i].peak, slope, m.perVs[i].peak)}.`;
    return {
        problem:
            long.length <= PROBLEM_LINE_MAX
                ? long
                : `${label} fits ${vcpus} vCPU SEs (${pct(p.perVs[i].peak)}) only on extrapolated figures, not measured: ${pct(m.perVs[i].peak)} of the 6 vCPU row's.`,
        fix,
        basis: [
            `${utilisationText(p.perVs[i])} of ${plural(p.vsSes, "SE")} extrapolated, ${limitText(config)}; ${demandText(unit)}`,
            readingsBasis(p.perVs[i].peak, slope, config),
            capacityText(e.sizing as SeGroupSizing, p, unit.demands, dispatcherUnmeasured(e)),
            ...(e.judgedBothWays ? [e.judgedBothWays] : []),
            ...dispatcherCoresBasis(e),
            ...fullNames([unit.head.vs, e.group.resource]),
        ],
    };
}

/** A group whose busiest SE (or several VSs) fits only on the extrapolation. */
export function extrapolatedGroupMessage(e: GroupEvaluation, units: readonly Unit[], fix: string, config: SeCapacityConfig): Message {
    const p = e.placement as GroupPlacement;
    const m = e.measured as GroupPlacement;
    const vcpus = (e.sizing as SeGroupSizing).spec.vcpusPerSe;
    const what = units.length > 0 ? `${plural(units.length, "VS")} and its busiest SE` : "its busiest SE";
    const slope = e.slope?.worstSe.peak;
    const long = `${groupLabel(e.group)}: ${what} fit ${vcpus} vCPU SEs only if extrapolated, not measured: busiest SE ${readingsText(p.worstSe.peak, slope, m.worstSe.peak)}.`;
    return {
        problem:
            long.length <= PROBLEM_LINE_MAX
                ? long
                : `${groupLabel(e.group)}: ${what} fit ${vcpus} vCPU SEs only on extrapolated figures, not measured (busiest SE ${pct(m.worstSe.peak)} of the 6 vCPU figures).`,
        fix,
        basis: [
            `busiest SE extrapolated: ${utilisationText(p.worstSe)}, ${limitText(config)}; ${placementText(e.sizing as SeGroupSizing, p)}`,
            readingsBasis(p.worstSe.peak, slope, config),
            capacityText(
                e.sizing as SeGroupSizing,
                p,
                e.units.flatMap((u) => u.demands),
                dispatcherUnmeasured(e),
            ),
            ...(e.judgedBothWays ? [e.judgedBothWays] : []),
            ...dispatcherCoresBasis(e),
            ...fullNames([e.group.resource]),
        ],
    };
}
