/**
 * The shapes of the NSX ALB evaluation (evaluation.ts builds them): a VS's demand as counted, a
 * unit (a VS with its SNI children), one SE group's judgement, and the stack's evaluation.
 */
import type { VsDemand } from "../../model/seCapacity";
import { GroupPlacement } from "../../model/sePlacement";
import { PlacementFix } from "../../model/seFixes";
import { SeGroupView, VsPlacement } from "./seGroups";
import { SeGroupSizing } from "./seGroupFields";
import type { NotChecked } from "../pack/definePolicy";
import { SeCapacityConfig } from "./config";

/** A VS's demand as counted: all of it, its known part in a preview, or none. */
export interface Counted {
    readonly placement: VsPlacement;
    /** Undefined when nothing can be counted (an invalid demand fact or SSL setting). */
    readonly demand: VsDemand | undefined;
    readonly where: Readonly<Partial<Record<keyof VsDemand, string>>>;
    /** Demand facts unknown in this preview and not counted. */
    readonly unknown: readonly string[];
    /** perfguard:ingressPct is unknown in this preview or invalid: judged as all ingress and as all egress. */
    readonly ingressPctUnread?: "unknown" | "invalid";
    /** applicationProfileRef is unknown in this preview and picks its throughput row: judged on the lower and the higher of the L4 and L7 rows. */
    readonly profileUnread?: true;
}

/** A VS and its SNI children: one placement, on the same SEs. */
export interface Unit {
    /** Its position in the group's units (and in the placement's perVs). */
    readonly index: number;
    readonly head: VsPlacement;
    readonly members: readonly Counted[];
    readonly demands: readonly VsDemand[];
    /** True when some member's demand is only partly known or unreadable (the real demand may be higher). */
    readonly partial: boolean;
    /** True when no member declares any demand. */
    readonly idle: boolean;
    /** Its ref is ambiguous: counted here (and on every other candidate group) for the busiest SE only, never judged here. */
    readonly ambiguous: boolean;
    /**
     * Its throughput has no direction (no perfguard:ingressPct) and runs on more than one SE
     * under native scale-out: counted as all ingress on the primary SE (messages say so).
     */
    readonly ingressAssumed: boolean;
}

/** One SE group and what is placed on it. */
export interface GroupEvaluation {
    readonly group: SeGroupView;
    readonly sizing: SeGroupSizing | undefined;
    /** Why the group's sizing is not usable (unknown or invalid fields). */
    readonly blocked: NotChecked | undefined;
    readonly units: readonly Unit[];
    readonly placement: GroupPlacement | undefined;
    /** The same placement on the measured 6 vCPU figures, for a larger SE (else undefined). */
    readonly measured: GroupPlacement | undefined;
    /**
     * Beyond the 6 vCPU row, the same placement on the conservative reading of the CPU-bound
     * figures (the 4-to-6 vCPU slope); `placement` is on the favourable one (linear per vCPU),
     * the only one a mandatory verdict may rest on (else undefined).
     */
    readonly slope: GroupPlacement | undefined;
    /**
     * When a VS may present either an RSA or an EC key (certificates.ts): the same placement with
     * its SSL TPS on the RSA-2048 row, the conservative reading (`placement` has ECC); else undefined.
     */
    readonly keyConservative: GroupPlacement | undefined;
    /**
     * N+M (HA_MODE_SHARED) with bufferSe 0 and at least two SEs running: the placement after one
     * SE fails, its VSs re-placed on the survivors (no buffer SE takes them); else undefined.
     */
    readonly afterFailure: FailurePlacement | undefined;
    /** Fixes, computed on first use. */
    fixes(): PlacementFix[];
    /**
     * Set when an input of the judgement is unknown in this preview or unreadable
     * (dedicatedDispatcherCore, a VS's scaleoutEcmp or perfguard:ingressPct) and the group was
     * judged with both settings to the same verdict: the Basis line saying so.
     */
    readonly judgedBothWays?: string;
}

/** An N+M group with no buffer SE after one of its SEs fails. */
export interface FailurePlacement {
    /** SEs running before the failure (packed: the SEs placement needs; distributed: those it spreads over). */
    readonly running: number;
    /** The placement on running - 1 SEs: each VS on at most that many, the busiest survivor in worstSe. */
    readonly placement: GroupPlacement;
    /** False when the survivors cannot hold every placement at maxVsPerSe (some VSs are down until a new SE is up). */
    readonly placeable: boolean;
}

/** The stack's NSX ALB evaluation. */
export interface NsxAlbEvaluation {
    readonly config: SeCapacityConfig;
    readonly groups: readonly GroupEvaluation[];
    /** VSs whose group is not known. */
    readonly unresolved: readonly VsPlacement[];
}
/** The older name of {@link NsxAlbEvaluation}. */
export type SeEvaluation = NsxAlbEvaluation;
