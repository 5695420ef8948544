/**
 * Whether an NSX ALB figure fits: the one decision every verdict, the report and `size` read (the
 * limit with headroom, the group's fit, the state after one SE fails, the reading of the figures
 * beyond the 6 vCPU row that may gate).
 */
import type { SeGroupSpec } from "../../model/seCapacity";
import type { ExtrapolationReading } from "../../model/seTable";
import { GroupPlacement, MEASURED_VCPUS_MAX, PlacedUnit, placeGroup, placementFits } from "../../model/sePlacement";
import { SeCapacityConfig } from "./config";
import { GroupEvaluation } from "./groupTypes";

/**
 * The reading of the CPU-bound figures beyond the 6 vCPU row that the verdicts are judged on:
 * the favourable one (linear per vCPU), since a mandatory verdict must hold under every reading
 * the data allow; nsx-alb-se-capacity-advisory names the conservative one (GroupEvaluation.slope).
 */
export const GATE_READING: ExtrapolationReading = "linear";

/** A group's placement on each reading the data allow (they differ only beyond the 6 vCPU row). */
export interface PlacementReadings {
    /** On GATE_READING: what every verdict and `size` decide on. */
    readonly placement: GroupPlacement;
    /** Beyond the 6 vCPU row, on the conservative reading (the 4-to-6 vCPU slope): named, never gating; else undefined. */
    readonly slope: GroupPlacement | undefined;
}

/** Places the units on both readings: the evaluation and `size nsx-alb` judge with this one function. */
export function placeOnReadings(units: readonly PlacedUnit[], spec: SeGroupSpec, assumeScaleOut: boolean): PlacementReadings {
    const placement = placeGroup(units, spec, { assumeScaleOut, reading: GATE_READING });
    const slope = spec.vcpusPerSe > MEASURED_VCPUS_MAX ? placeGroup(units, spec, { assumeScaleOut, reading: "slope" }) : undefined;
    return { placement, slope };
}

/** The allowed utilisation with headroom (1e-9 rounding guard). */
export function within(value: number, config: SeCapacityConfig): boolean {
    return value <= 1 - config.headroomPct / 100 + 1e-9;
}

/** Whether the group's placement fits (every unit, the busiest SE, the SE count; N+M with bufferSe 0 also after one SE fails). */
export function groupFits(e: GroupEvaluation, config: SeCapacityConfig): boolean {
    return e.placement !== undefined && placementFits(e.placement, config.headroomPct) && !failureOver(e, config);
}

/** N+M with bufferSe 0: the busiest surviving SE after one SE fails is over the limit. */
export function failureOver(e: GroupEvaluation, config: SeCapacityConfig): boolean {
    return e.afterFailure !== undefined && !within(e.afterFailure.placement.worstSe.peak, config);
}
