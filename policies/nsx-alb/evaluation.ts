/**
 * The NSX ALB evaluation: the one place every NSX ALB figure is computed. nsx-alb-se-capacity
 * (verdicts), nsx-alb-se-capacity-advisory (buffer and extrapolation advisories), `perfguard
 * check --report`, `perfguard size nsx-alb` and `perfguard diff` read it and never recompute.
 * Per SE group: its sizing, the virtual services (VSs) placed on it grouped with their SNI
 * children, where placement (HA mode, algo) puts them, the busiest SE's load per metric with the
 * limiting one, and "not checked" reasons. One pass, sorted by URN, so no figure depends on
 * resource order; memoized per stack object. The shapes are in groupTypes.ts, the fit decisions
 * in fit.ts, the fixes in fixes.ts, inputs judged both ways in unreadInputs.ts, the figures in
 * figures.ts, the words in names.ts.
 */
import { stackMemo } from "../pack/stackMemo";
import { DEFAULT_ALGO, ingressOnPrimary } from "../../model/seCapacity";
import { perSeCapacity, proxyRowVcpus } from "../../model/seTable";
import type { SeGroupSpec, VsDemand } from "../../model/seCapacity";
import { GroupPlacement, MEASURED_VCPUS_MAX, placeGroup } from "../../model/sePlacement";
import { PlacementFix } from "../../model/seFixes";
import { aviStack, SeGroupView, VsPlacement } from "./seGroups";
import { SeGroupSizing, seGroupSizing } from "./seGroupFields";
import { listLabels } from "../pack/format";
import type { StackView } from "../pack/resources";
import { SeCapacityConfig, seCapacityConfigOf } from "./config";
import { GATE_READING, placeOnReadings } from "./fit";
import { groupFixes, uniqueFixes } from "./fixes";
import { Counted, FailurePlacement, GroupEvaluation, NsxAlbEvaluation, Unit } from "./groupTypes";
import { BEST_CASE, blockedOf, bothWaysText, NO_PROXY_CORE, outcomeText, unreadInputs, Variant, verdictOf, WORST_CASE } from "./unreadInputs";

/**
 * N+M with bufferSe 0: Avi places a failed SE's VSs on the remaining SEs if they have capacity
 * (Avi Elastic HA for Service Engines), so the load concentrates on the survivors, placed by the
 * same rules (packed or distributed) on one SE fewer. Undefined for other groups, or when only
 * one SE runs (nothing survives: its VSs are down until a new SE is up, the advisory says so).
 */
function failurePlacement(units: readonly Unit[], spec: SeGroupSpec, p: GroupPlacement, config: SeCapacityConfig): FailurePlacement | undefined {
    if (spec.haMode !== "HA_MODE_SHARED" || spec.bufferSe !== 0 || !p.placeable || p.vsCount === 0) {
        return undefined;
    }
    const placements = p.vsCount * p.sesPerVs;
    const running = (spec.algo ?? DEFAULT_ALGO) === "PLACEMENT_ALGO_PACKED" ? p.sesNeeded : Math.max(p.sesNeeded, Math.min(spec.maxSe, placements));
    if (running < 2) {
        return undefined;
    }
    const placement = placeGroup(
        units.map((u) => u.demands),
        { ...spec, maxSe: running - 1 },
        { assumeScaleOut: config.assumeScaleOut, reading: GATE_READING },
    );
    return { running, placement, placeable: placement.sesNeeded <= running - 1 };
}

function countedOf(placement: VsPlacement): Counted {
    const read = placement.demand;
    if (read.state === "ok") {
        return {
            placement,
            demand: read.demand,
            where: read.where,
            unknown: [],
            ...(read.ingressPctUnread ? { ingressPctUnread: read.ingressPctUnread } : {}),
            ...(read.profileUnread ? { profileUnread: true as const } : {}),
        };
    }
    if (read.state === "unusable") {
        return read.known
            ? {
                  placement,
                  demand: read.known.demand,
                  where: read.known.where,
                  unknown: read.known.unknown,
                  ...(read.known.ingressPctUnread ? { ingressPctUnread: read.known.ingressPctUnread } : {}),
                  ...(read.known.profileUnread ? { profileUnread: true as const } : {}),
              }
            : { placement, demand: undefined, where: {}, unknown: ["a demand fact or the SSL setting (invalid: perfguard-facts reports it)"] };
    }
    return { placement, demand: {}, where: {}, unknown: [] };
}

/**
 * One judgement of a group: its units (a VS with its SNI children, then the VSs whose ref is
 * ambiguous), the placement, the measured placement beyond 6 vCPUs, the state after one SE
 * fails and the fixes, with the unread inputs taken as `variant` says.
 */
function groupEvaluation(
    group: SeGroupView,
    read: SeGroupSizing | undefined,
    placements: readonly VsPlacement[],
    candidates: readonly VsPlacement[],
    config: SeCapacityConfig,
    variant: Variant,
): GroupEvaluation {
    const taken = read && read.dispatcherUnread ? { ...read, spec: { ...read.spec, dedicatedDispatcher: variant.dispatcher } } : read;
    // A dedicated dispatcher on a 1 vCPU SE leaves no proxy core: the table has no row to judge it on.
    const noProxy = taken !== undefined && proxyRowVcpus(taken.spec.vcpusPerSe, taken.spec.dedicatedDispatcher) < 1;
    const sizing = noProxy ? undefined : taken;
    // An unread profile takes the L4 or the L7 row, whichever is lower (worst) or higher (best) at this size.
    const perSe = sizing ? perSeCapacity(sizing.spec.vcpusPerSe, sizing.spec.memoryPerSeMb / 1024, sizing.spec.dedicatedDispatcher) : undefined;
    const l4Lower = perSe !== undefined && perSe.l4ThroughputGbps <= perSe.l7ThroughputGbps;
    const row: "l4" | "l7" = (variant.profileRow === "lower") === l4Lower ? "l4" : "l7";
    const direction = (given: Counted): Counted => {
        let m = given;
        if (m.ingressPctUnread !== undefined && m.demand && variant.ingressPct !== undefined) {
            m = { ...m, demand: { ...m.demand, ingressPct: variant.ingressPct } };
        }
        return m.profileUnread && m.demand ? { ...m, demand: { ...m.demand, profile: row } } : m;
    };
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
        // SNI children run on their parent's SEs with its scale-out: the parent's scaleoutEcmp applies to all.
        const ecmp = head.scaleoutEcmp === true || (variant.ecmp && head.scaleoutEcmpUnread !== undefined);
        const demands = members.map(direction).flatMap((m) => (m.demand ? [ecmp ? { ...m.demand, scaleoutEcmp: true } : m.demand] : []));
        return {
            head,
            members,
            demands,
            index,
            partial: members.some((m) => m.unknown.length > 0),
            idle: members.every((m) => m.placement.demand.state === "none"),
            ambiguous: false,
            ingressAssumed: false,
        };
    });
    for (const p of candidates) {
        const m = countedOf(p);
        const d = direction(m).demand;
        units.push({
            head: p,
            members: [m],
            demands: d ? [d] : [],
            index: units.length,
            partial: true,
            idle: p.demand.state === "none",
            ambiguous: true,
            ingressAssumed: false,
        });
    }
    const readings = sizing
        ? placeOnReadings(
              units.map((u) => u.demands),
              sizing.spec,
              config.assumeScaleOut,
          )
        : undefined;
    const placement = readings?.placement;
    const slope = readings?.slope;
    const beyond = sizing !== undefined && sizing.spec.vcpusPerSe > MEASURED_VCPUS_MAX;
    const measured =
        sizing && beyond
            ? placeGroup(
                  units.map((u) => u.demands),
                  sizing.spec,
                  { assumeScaleOut: config.assumeScaleOut, measuredOnly: true },
              )
            : undefined;
    const eitherKey = units.some((u) => u.demands.some((d) => d.sslKeyBasis?.conservative !== undefined));
    const onRsa = (d: VsDemand): VsDemand => (d.sslKeyBasis?.conservative ? { ...d, sslKeyType: d.sslKeyBasis.conservative } : d);
    const keyConservative =
        sizing && eitherKey
            ? placeGroup(
                  units.map((u) => u.demands.map(onRsa)),
                  sizing.spec,
                  { assumeScaleOut: config.assumeScaleOut, reading: GATE_READING },
              )
            : undefined;
    // A direction that is unread is not "not given": the Basis line of the two judgements says what was assumed.
    const assumed = (u: Unit) =>
        placement !== undefined &&
        u.members.every((m) => m.ingressPctUnread === undefined) &&
        u.demands.some((d) => d.ingressPct === undefined && ingressOnPrimary(d, placement.vsSes));
    const judged = placement ? units.map((u) => ({ ...u, ingressAssumed: assumed(u) })) : units;
    const afterFailure = sizing && placement ? failurePlacement(units, sizing.spec, placement, config) : undefined;
    // An unread dispatcher setting is one the fix sets (fixChanges): "false" below 4 vCPUs (as those
    // rows were measured), "true" from 4. The fixes are searched with it so, not with the guess.
    const fixSpec = sizing && read?.dispatcherUnread ? { ...sizing.spec, dedicatedDispatcher: false } : sizing?.spec;
    let fixCache: PlacementFix[] | undefined;
    const e: GroupEvaluation = {
        group,
        sizing,
        blocked: noProxy ? NO_PROXY_CORE : blockedOf(group, sizing),
        units: judged,
        placement,
        measured,
        slope,
        keyConservative,
        afterFailure,
        fixes: () => (fixCache ??= fixSpec && placement ? uniqueFixes(groupFixes(units, fixSpec, placement, afterFailure, config), e) : []),
    };
    return e;
}

/**
 * Evaluates every SE group of the stack (uncached; see nsxAlbEvaluation).
 * @returns the groups in a fixed order (declared groups by URN, then config keys) with their units.
 */
function evaluate(stack: StackView, config: SeCapacityConfig): NsxAlbEvaluation {
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
        const read = seGroupSizing(group.fields);
        const placements = onGroup.get(group) ?? [];
        const candidates = maybe.get(group) ?? [];
        const worst = groupEvaluation(group, read, placements, candidates, config, WORST_CASE);
        const unread = unreadInputs(read, worst.units);
        if (unread.length === 0) {
            return worst;
        }
        // Fail closed: an input unknown in this preview (or unreadable) is judged both ways, never
        // as a default. Capacity is monotone in each (a dispatcher core only takes proxy cores, ECMP
        // and egress only spread load), so the two extremes bound every mix of them.
        const best = groupEvaluation(group, read, placements, candidates, config, BEST_CASE);
        if (verdictOf(worst, config) === verdictOf(best, config)) {
            return { ...worst, judgedBothWays: bothWaysText(unread, worst) };
        }
        return {
            group,
            sizing: undefined,
            units: worst.units,
            placement: undefined,
            measured: undefined,
            slope: undefined,
            keyConservative: undefined,
            afterFailure: undefined,
            fixes: () => [],
            blocked: {
                reason: `${listLabels(unread.map((u) => u.what))} and the verdict depends on it: ${outcomeText(worst, unread, "worst", config)}, ${outcomeText(best, unread, "best", config)}`,
                remedy: `known after apply: run \`pulumi policy analyze\` after the update, or set ${listLabels(unread.map((u) => u.field))} literally`,
            },
        };
    });
    return { config, groups, unresolved };
}

// One evaluation per stack object and config: every stack policy of one AnalyzeStack call, the
// report and diff share one parse and one placement (the config is part of the key: the two
// capacity policies may be configured apart).
const memo = stackMemo<NsxAlbEvaluation>();

/**
 * The stack's NSX ALB evaluation, computed once per stack object and config.
 * @param stack - all resources (AnalyzeStack outputs, with property dependencies).
 * @param config - nsx-alb-se-capacity's config (defaults filled in by seCapacityConfigOf when absent).
 * @returns groups in a fixed order (declared by URN, then config keys) and the VSs whose group is not known.
 */
export function nsxAlbEvaluation(stack: StackView, config: Partial<SeCapacityConfig> = {}): NsxAlbEvaluation {
    const full = seCapacityConfigOf(config);
    const key = JSON.stringify([full.headroomPct, full.assumeScaleOut, full.seGroups]);
    return memo.of(stack, key, () => evaluate(stack, full));
}

/** The older name of {@link nsxAlbEvaluation} (policies call it with their own config). */
export function evaluateSeGroups(stack: StackView, config: SeCapacityConfig): NsxAlbEvaluation {
    return nsxAlbEvaluation(stack, config);
}
