/**
 * The NSX ALB capacity evaluation shared by nsx-alb-se-capacity (verdicts) and
 * nsx-alb-se-capacity-advisory (buffer and extrapolation advisories): each SE group with its
 * sizing, the virtual services (VSs) placed on it grouped with their SNI children, and the
 * placement model's result. One pass, sorted by URN, so no verdict depends on resource order.
 */
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import type { VsDemand } from "../../model/seCapacity";
import { GroupPlacement, MEASURED_VCPUS_MAX, placeGroup, placementFits, placementFixes, PlacementFix } from "../../model/sePlacement";
import { aviStack, SE_GROUP_FIELD_NAMES, SeGroupSizing, seGroupSizing, SeGroupView, unknownSizingFields, VsPlacement } from "./seGroups";
import type { ConfigSchemaOf, NotChecked } from "../pack/definePolicy";
import type { StackView } from "../pack/resources";

/** Config of both NSX ALB capacity policies (a stack policy sees only its own config). */
export interface SeCapacityConfig {
    /** Spare capacity to keep, percent: demand <= (1 - headroomPct/100) x capacity. */
    headroomPct: number;
    /** Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs. */
    assumeScaleOut: boolean;
    /** SE groups not declared in the stack: name or uuid -> SE group fields (strings or numbers). */
    seGroups: Record<string, Record<string, string | number | boolean>>;
}

const FIELD_VALUE_SCHEMA: PolicyConfigJSONSchema = { type: ["string", "number", "boolean"] };

/** The config schema both policies publish. */
export const SE_CAPACITY_SCHEMA: ConfigSchemaOf<SeCapacityConfig> = {
    properties: {
        headroomPct: {
            type: "number", minimum: 0, maximum: 95, default: 20,
            description: "Spare capacity to keep, percent: demand <= (1 - headroomPct/100) x capacity (default 20).",
        },
        assumeScaleOut: {
            type: "boolean", default: false,
            description: "Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs (default false: a gate should not count on a scale-out nobody triggered).",
        },
        seGroups: {
            type: "object", default: {},
            additionalProperties: { type: "object", properties: Object.fromEntries(SE_GROUP_FIELD_NAMES.map((f) => [f, FIELD_VALUE_SCHEMA])), additionalProperties: false },
            description: "SE groups not declared in the stack (e.g. the controller's Default-Group), keyed by name or uuid: vcpusPerSe, memoryPerSe (MB), maxSe, minScaleoutPerVs, maxScaleoutPerVs, bufferSe, haMode, algo, maxVsPerSe, as strings or numbers; absent fields take the provider defaults.",
        },
    },
};

/** A VS's demand as counted: all of it, its known part in a preview, or none. */
export interface Counted {
    readonly placement: VsPlacement;
    /** Undefined when nothing can be counted (an invalid demand fact or SSL setting). */
    readonly demand: VsDemand | undefined;
    readonly where: Readonly<Partial<Record<keyof VsDemand, string>>>;
    /** Demand facts unknown in this preview and not counted. */
    readonly unknown: readonly string[];
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
    /** Fixes, computed on first use. */
    fixes(): PlacementFix[];
}

/** The stack's NSX ALB evaluation. */
export interface SeEvaluation {
    readonly groups: readonly GroupEvaluation[];
    /** VSs whose group is not known. */
    readonly unresolved: readonly VsPlacement[];
}

function countedOf(placement: VsPlacement): Counted {
    const read = placement.demand;
    if (read.state === "ok") {
        return { placement, demand: read.demand, where: read.where, unknown: [] };
    }
    if (read.state === "unusable") {
        return read.known
            ? { placement, demand: read.known.demand, where: read.known.where, unknown: read.known.unknown }
            : { placement, demand: undefined, where: {}, unknown: ["a demand fact or the SSL setting (invalid: perfguard-facts reports it)"] };
    }
    return { placement, demand: {}, where: {}, unknown: [] };
}

function blockedOf(group: SeGroupView, sizing: SeGroupSizing | undefined): NotChecked | undefined {
    if (sizing) {
        return undefined;
    }
    const unknown = unknownSizingFields(group.fields);
    return unknown.length > 0
        ? { reason: `the sizing of its SE group is unknown in this preview (${unknown.join(", ")})`, remedy: "known after apply: run `pulumi policy analyze` after the update, or set those fields literally" }
        : { reason: "a sizing field of its SE group is invalid (perfguard-facts, or the policy config error, names it)", remedy: "fix the SE group field that perfguard-facts names" };
}

/**
 * Evaluates every SE group of the stack.
 * @returns the groups in a fixed order (declared groups by URN, then config keys) with their units.
 */
export function evaluateSeGroups(stack: StackView, config: SeCapacityConfig): SeEvaluation {
    const avi = aviStack(stack, config.seGroups);
    const onGroup = new Map<SeGroupView, VsPlacement[]>();
    const unresolved: VsPlacement[] = [];
    const maybe = new Map<SeGroupView, VsPlacement[]>();
    for (const p of avi.placements) {
        if (!p.group) {
            unresolved.push(p);
            // An ambiguous VS may be on any of its candidates: each counts it (the load can only be higher).
            for (const candidate of p.unresolved?.candidates ?? []) {
                maybe.set(candidate, [...(maybe.get(candidate) ?? []), p]);
            }
            continue;
        }
        const list = onGroup.get(p.group) ?? [];
        list.push(p);
        onGroup.set(p.group, list);
    }
    const groups = avi.groups.map((group): GroupEvaluation => {
        const sizing = seGroupSizing(group.fields);
        const placements = onGroup.get(group) ?? [];
        // SNI children join their parent's unit (they run on the parent's SEs). O(VSs on the group).
        const onThis = new Set(placements.map((p) => p.vs));
        const children = new Map<VsPlacement["vs"], VsPlacement[]>();
        for (const p of placements) {
            if (p.parent && onThis.has(p.parent)) {
                children.set(p.parent, [...(children.get(p.parent) ?? []), p]);
            }
        }
        const heads = placements.filter((p) => !p.parent || !onThis.has(p.parent));
        const units: Unit[] = heads.map((head, index) => {
            const members = [head, ...(children.get(head.vs) ?? [])].map(countedOf);
            const demands = members.flatMap((m) => (m.demand ? [m.demand] : []));
            return {
                head, members, demands, index,
                partial: members.some((m) => m.unknown.length > 0),
                idle: members.every((m) => m.placement.demand.state === "none"),
                ambiguous: false,
            };
        });
        for (const p of maybe.get(group) ?? []) {
            const m = countedOf(p);
            units.push({ head: p, members: [m], demands: m.demand ? [m.demand] : [], index: units.length, partial: true, idle: p.demand.state === "none", ambiguous: true });
        }
        const placement = sizing ? placeGroup(units.map((u) => u.demands), sizing.spec, { assumeScaleOut: config.assumeScaleOut }) : undefined;
        const measured = sizing && sizing.spec.vcpusPerSe > MEASURED_VCPUS_MAX
            ? placeGroup(units.map((u) => u.demands), sizing.spec, { assumeScaleOut: config.assumeScaleOut, measuredOnly: true }) : undefined;
        let fixCache: PlacementFix[] | undefined;
        return {
            group, sizing, blocked: blockedOf(group, sizing), units, placement, measured,
            fixes: () => (fixCache ??= sizing ? placementFixes(units.map((u) => u.demands), sizing.spec, { headroomPct: config.headroomPct, assumeScaleOut: config.assumeScaleOut }) : []),
        };
    });
    return { groups, unresolved };
}

/** The allowed utilisation with headroom (1e-9 rounding guard). */
export function within(value: number, config: SeCapacityConfig): boolean {
    return value <= 1 - config.headroomPct / 100 + 1e-9;
}

/** Whether the group's placement fits (every unit, the busiest SE, the SE count). */
export function groupFits(e: GroupEvaluation, config: SeCapacityConfig): boolean {
    return e.placement !== undefined && placementFits(e.placement, config.headroomPct);
}
