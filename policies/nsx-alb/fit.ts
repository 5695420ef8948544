/**
 * Whether an NSX ALB figure fits: the one decision every verdict, the report and `size` read (the
 * limit with headroom, the group's fit, the state after one SE fails, the reading of the figures
 * beyond the 6 vCPU row that may gate).
 */
import type { ExtrapolationReading } from "../../model/seTable";
import { placementFits } from "../../model/sePlacement";
import { SeCapacityConfig } from "./config";
import { GroupEvaluation } from "./groupTypes";

/**
 * The reading of the CPU-bound figures beyond the 6 vCPU row that the verdicts are judged on:
 * the favourable one (linear per vCPU), since a mandatory verdict must hold under every reading
 * the data allow; nsx-alb-se-capacity-advisory names the conservative one (GroupEvaluation.slope).
 */
export const GATE_READING: ExtrapolationReading = "linear";

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
