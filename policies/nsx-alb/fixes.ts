/**
 * The fixes of an NSX ALB SE group: searched on the evaluation's placement (model/sePlacement.ts),
 * without repeats, and the fields each one changes, as the provider's strings.
 */
import { DEFAULT_ALGO } from "../../model/seCapacity";
import { testedSeSize } from "../../model/seTable";
import type { SeGroupSpec } from "../../model/seCapacity";
import { GroupPlacement, MEASURED_VCPUS_MAX, placeGroup, placementFits } from "../../model/sePlacement";
import { PlacementFix, placementFixes } from "../../model/seFixes";
import { DISPATCHER_MIN_VCPUS, SeGroupSizing } from "./seGroupFields";
import { SeCapacityConfig } from "./config";
import { GATE_READING, within } from "./fit";
import { FailurePlacement, GroupEvaluation, Unit } from "./groupTypes";
import { ECMP_SHORT } from "./names";

/**
 * The fixes of a group. N+M with bufferSe 0 that would not fit after one SE fails: every fix
 * keeps one buffer SE (it takes the failed SE's VSs), so the fixes are those of the group with
 * bufferSe 1 and maxSe raised to hold it; that alone when it is enough.
 */
export function groupFixes(
    units: readonly Unit[],
    spec: SeGroupSpec,
    p: GroupPlacement,
    after: FailurePlacement | undefined,
    config: SeCapacityConfig,
): PlacementFix[] {
    const demands = units.map((u) => u.demands);
    const options = { headroomPct: config.headroomPct, assumeScaleOut: config.assumeScaleOut };
    if (!after || within(after.placement.worstSe.peak, config)) {
        return placementFixes(demands, spec, options);
    }
    const maxSe = Math.max(spec.maxSe, p.sesNeeded + 1);
    if (maxSe > 1000) {
        return [];
    }
    const buffered: SeGroupSpec = { ...spec, bufferSe: 1, maxSe };
    const placement = placeGroup(demands, buffered, { assumeScaleOut: config.assumeScaleOut });
    return placementFits(placement, config.headroomPct)
        ? [{ spec: buffered, kind: "out", ecmp: false, measured: spec.vcpusPerSe <= MEASURED_VCPUS_MAX, placement }]
        : placementFixes(demands, buffered, options);
}

/** The fixes without repeats: two options that change the same fields the same way are one. */
export function uniqueFixes(fixes: readonly PlacementFix[], e: GroupEvaluation): PlacementFix[] {
    const seen = new Set<string>();
    return fixes.filter((f) => {
        const key = JSON.stringify([fixChanges(f, e), f.ecmp]);
        return seen.has(key) ? false : (seen.add(key), true);
    });
}

/**
 * The fields a fix changes, as the provider's strings (`vcpusPerSe "6"`), in a fixed order. A
 * new size brings the disk and dispatcher its table row was measured with, so that
 * nsx-alb-se-minimum-resources and nsx-alb-se-dedicated-dispatcher pass the fix too; a field not
 * known to be enough (unknown in a preview: the provider computes the dispatcher setting) is set.
 */
export function fixChanges(fix: PlacementFix, e: GroupEvaluation): string[] {
    const from = (e.sizing as SeGroupSizing).spec;
    const to = fix.spec as Required<SeGroupSpec>;
    const out: string[] = [];
    const set = (name: string, value: string | number | boolean) => out.push(`${name} "${String(value)}"`);
    if (to.haMode !== from.haMode) {
        set("haMode", to.haMode);
    }
    if (to.vcpusPerSe !== from.vcpusPerSe) {
        set("vcpusPerSe", to.vcpusPerSe);
    }
    if (to.memoryPerSeMb !== from.memoryPerSeMb) {
        set("memoryPerSe", to.memoryPerSeMb);
    }
    if (to.vcpusPerSe !== from.vcpusPerSe) {
        const disk = e.group.fields.diskPerSe;
        const diskGb = Math.ceil(testedSeSize(to.vcpusPerSe).diskGb);
        if (!(disk.state === "ok" && disk.value >= diskGb)) {
            set("diskPerSe", diskGb);
        }
        const dispatcher = e.group.fields.dedicatedDispatcherCore;
        if (to.vcpusPerSe >= DISPATCHER_MIN_VCPUS && !(dispatcher.state === "ok" && dispatcher.value)) {
            set("dedicatedDispatcherCore", "true");
        }
    }
    // Below 4 vCPUs a fix judged with the dispatcher off states it when the field is unknown or unreadable.
    if (to.vcpusPerSe < DISPATCHER_MIN_VCPUS && e.sizing?.dispatcherUnread && !to.dedicatedDispatcher) {
        set("dedicatedDispatcherCore", "false");
    }
    if (to.algo !== undefined && to.algo !== (from.algo ?? DEFAULT_ALGO)) {
        set("algo", to.algo);
    }
    for (const key of ["minScaleoutPerVs", "maxScaleoutPerVs", "bufferSe", "maxSe", "maxVsPerSe"] as const) {
        if (to[key] !== undefined && to[key] !== from[key]) {
            set(key, to[key]);
        }
    }
    return out;
}

/** Whether the group's throughput-bound VSs counted all of it as ingress (no perfguard:ingressPct) and do not fit. */
export function ingressBoundUnits(e: GroupEvaluation, config: SeCapacityConfig): Unit[] {
    const p = e.placement;
    return p ? e.units.filter((u) => !u.idle && p.perVs[u.index]?.limiting === "ingress" && !within(p.perVs[u.index].peak, config)) : [];
}

/** One fix's changes in short words: "set vcpusPerSe "4", ..." and/or scaleoutEcmp on the VSs. */
export function fixShort(fix: PlacementFix, e: GroupEvaluation): string {
    const changes = fixChanges(fix, e);
    return changes.length === 0 ? `set ${ECMP_SHORT}` : `set ${changes.join(", ")}${fix.ecmp ? `, and ${ECMP_SHORT}` : ""}`;
}

/** The VSs of the group whose SSL TPS was counted on RSA-2048 because nothing declares their key (sorted by name). */
export function keyAssumedNames(e: GroupEvaluation): string[] {
    return e.units
        .filter((u) => u.demands.some((d) => d.sslTps !== undefined && d.sslKeyBasis?.source === "assumed"))
        .map((u) => u.head.vs.name)
        .sort();
}

/** The fix options in short words, in the verdict's order (declaring what was assumed first). */
export function fixOptionTexts(e: GroupEvaluation, fixes: readonly PlacementFix[], config: SeCapacityConfig): string[] {
    const declare = ingressBoundUnits(e, config).some((u) => u.ingressAssumed) ? ["declare perfguard:ingressPct on its VSs"] : [];
    const key = keyAssumedNames(e).length > 0 ? ["declare the certificate's key type (RSA-2048 assumed)"] : [];
    return [...key, ...declare, ...fixes.map((f) => fixShort(f, e))];
}

/** What lets an N+M group keep its buffer: the maxSe it needs, a maxVsPerSe that still fits, a smaller buffer. */
export interface BufferFixes {
    readonly sesNeeded: number;
    readonly bufferSe: number;
    /** sesNeeded + bufferSe, when within the provider's 1000. */
    readonly maxSe: number | undefined;
    /** The maxVsPerSe that places the VSs on maxSe - bufferSe SEs, when that still fits. */
    readonly maxVsPerSe: number | undefined;
    /** SEs that would hold them at that maxVsPerSe. */
    readonly room: number;
    readonly lowerBufferSe: number;
}

/** The buffer fixes of a group whose sizing is known (undefined otherwise). */
export function bufferFixes(e: GroupEvaluation, config: SeCapacityConfig): BufferFixes | undefined {
    const p = e.placement;
    const spec = e.sizing?.spec;
    if (!p || !spec) {
        return undefined;
    }
    const maxSe = p.sesNeeded + spec.bufferSe;
    const room = spec.maxSe - spec.bufferSe;
    let maxVsPerSe: number | undefined;
    if (room >= p.sesPerVs) {
        const candidate = Math.ceil((p.vsCount * p.sesPerVs) / room);
        if (
            candidate <= 1000 &&
            placementFits(
                placeGroup(
                    e.units.map((u) => u.demands),
                    { ...spec, maxVsPerSe: candidate },
                    { assumeScaleOut: config.assumeScaleOut, reading: GATE_READING },
                ),
                config.headroomPct,
            )
        ) {
            maxVsPerSe = candidate;
        }
    }
    return {
        sesNeeded: p.sesNeeded,
        bufferSe: spec.bufferSe,
        maxSe: maxSe <= 1000 ? maxSe : undefined,
        maxVsPerSe,
        room,
        lowerBufferSe: Math.max(0, spec.maxSe - p.sesNeeded),
    };
}

/** For a group beyond the 6 vCPU row: the first fix on measured figures (6 vCPUs, more SEs), if any. */
export function measuredFix(e: GroupEvaluation, config: SeCapacityConfig): PlacementFix | undefined {
    const spec = e.sizing?.spec;
    if (!spec) {
        return undefined;
    }
    return placementFixes(
        e.units.map((u) => u.demands),
        { ...spec, vcpusPerSe: MEASURED_VCPUS_MAX, memoryPerSeMb: Math.max(spec.memoryPerSeMb, MEASURED_VCPUS_MAX * 1024) },
        config,
    ).find((f) => f.measured);
}
