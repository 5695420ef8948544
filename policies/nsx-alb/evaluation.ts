/**
 * The NSX ALB evaluation: the one place every NSX ALB figure is computed. nsx-alb-se-capacity
 * (verdicts), nsx-alb-se-capacity-advisory (buffer and extrapolation advisories), `perfguard
 * check --report`, `perfguard size nsx-alb` and `perfguard diff` read it and never recompute.
 * Per SE group: its sizing, the virtual services (VSs) placed on it grouped with their SNI
 * children, where placement (HA mode, algo) puts them, the busiest SE's load per metric with the
 * limiting one, the fixes, each VS's figures, and "not checked" reasons. One pass, sorted by URN,
 * so no figure depends on resource order; memoized per stack object.
 */
import { stackMemo } from "../pack/stackMemo";
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import { connectionsScaled, DEFAULT_ALGO, DispatcherFigure, ingressOnPrimary, measuredDispatcherCores, perSeCapacity, proxyRowVcpus, testedSeSize, vsKind } from "../../model/seCapacity";
import type { ExtrapolationReading, SeGroupSpec, SeMetric, SeUtilisation, VsDemand } from "../../model/seCapacity";
import { GroupPlacement, MEASURED_VCPUS_MAX, placeGroup, placementFits, placementFixes, PlacementFix } from "../../model/sePlacement";
import { aviStack, DISPATCHER_MIN_VCPUS, fieldText, SE_GROUP_FIELD_NAMES, SeGroupSizing, seGroupSizing, SeGroupView, unknownSizingFields, VsPlacement } from "./seGroups";
import type { ConfigSchemaOf, NotChecked } from "../pack/definePolicy";
import type { EntityFigures, Figure } from "../pack/figures";
import { cappedList, listLabels, pct, plural } from "../pack/format";
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
    /** perfguard:ingressPct is unknown in this preview or invalid: judged as all ingress and as all egress. */
    readonly ingressPctUnread?: "unknown" | "invalid";
    /** applicationProfileRef is unknown in this preview and picks its throughput row: judged on the lower and the higher of the L4 and L7 rows. */
    readonly profileUnread?: true;
}

/** How messages, the report and `size` name each metric. */
export const METRIC_NAME: Record<SeMetric, string> = {
    sslTps: "SSL TPS",
    l7Rps: "L7 RPS",
    l4Cps: "L4 CPS",
    sslThroughput: "SSL throughput",
    throughput: "throughput",
    ingress: "primary SE ingress",
    openConnections: "open connections",
};

/** The name of a CPU figure summed over several kinds of load (each was measured alone). */
export const CPU_SUMMED_NAME = "CPU total (summed, not measured)";

/**
 * The metric behind a utilisation's peak, as messages, the report and `size` name it: a CPU
 * peak made of more than one kind of load (SSL TPS + L7 RPS ...) is their sum, not its largest part.
 */
export function limitingName(u: SeUtilisation): string {
    const cpuParts = [u.sslTps, u.l7Rps, u.l4Cps, u.sslThroughput].filter((x) => x > 0).length;
    return u.peak === u.cpu && cpuParts > 1 ? CPU_SUMMED_NAME : METRIC_NAME[u.limiting];
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
    const placement = placeGroup(units.map((u) => u.demands), { ...spec, maxSe: running - 1 }, { assumeScaleOut: config.assumeScaleOut, reading: GATE_READING });
    return { running, placement, placeable: placement.sesNeeded <= running - 1 };
}

/**
 * The reading of the CPU-bound figures beyond the 6 vCPU row that the verdicts are judged on:
 * the favourable one (linear per vCPU), since a mandatory verdict must hold under every reading
 * the data allow; nsx-alb-se-capacity-advisory names the conservative one (GroupEvaluation.slope).
 */
export const GATE_READING: ExtrapolationReading = "linear";

/** The stack's NSX ALB evaluation. */
export interface NsxAlbEvaluation {
    readonly config: SeCapacityConfig;
    readonly groups: readonly GroupEvaluation[];
    /** VSs whose group is not known. */
    readonly unresolved: readonly VsPlacement[];
}
/** The older name of {@link NsxAlbEvaluation}. */
export type SeEvaluation = NsxAlbEvaluation;

function countedOf(placement: VsPlacement): Counted {
    const read = placement.demand;
    if (read.state === "ok") {
        return { placement, demand: read.demand, where: read.where, unknown: [], ...(read.ingressPctUnread ? { ingressPctUnread: read.ingressPctUnread } : {}), ...(read.profileUnread ? { profileUnread: true as const } : {}) };
    }
    if (read.state === "unusable") {
        return read.known
            ? { placement, demand: read.known.demand, where: read.known.where, unknown: read.known.unknown, ...(read.known.ingressPctUnread ? { ingressPctUnread: read.known.ingressPctUnread } : {}), ...(read.known.profileUnread ? { profileUnread: true as const } : {}) }
            : { placement, demand: undefined, where: {}, unknown: ["a demand fact or the SSL setting (invalid: perfguard-facts reports it)"] };
    }
    return { placement, demand: {}, where: {}, unknown: [] };
}

const NO_PROXY_CORE: NotChecked = {
    reason: "its SE group's dedicated dispatcher core takes the only vCPU per SE: no proxy core, and the NSX ALB 20.1.6 per-SE table has no row for that",
    remedy: `set dedicatedDispatcherCore "false" (as the 1 vCPU row was measured), or vcpusPerSe "${DISPATCHER_MIN_VCPUS}" or more`,
};

function blockedOf(group: SeGroupView, sizing: SeGroupSizing | undefined): NotChecked | undefined {
    if (sizing) {
        return undefined;
    }
    const unknown = unknownSizingFields(group.fields);
    return unknown.length > 0
        ? { reason: `the sizing of its SE group is unknown in this preview (${unknown.join(", ")})`, remedy: "known after apply: run `pulumi policy analyze` after the update, or set those fields literally" }
        : { reason: "a sizing field of its SE group is invalid (perfguard-facts, or the policy config error, names it)", remedy: "fix the SE group field that perfguard-facts names" };
}

/** How an input that is unknown in this preview (or unreadable) is taken in one of the two judgements. */
interface Variant {
    /** dedicatedDispatcherCore when unread: true takes a core from proxying (worst), false (best). */
    readonly dispatcher: boolean;
    /** scaleoutEcmp when unread: native scale-out keeps ingress on the primary SE (worst), BGP/ECMP spreads it (best). */
    readonly ecmp: boolean;
    /** perfguard:ingressPct when unread: all ingress (worst) or all egress (best). */
    readonly ingressPct: number | undefined;
    /** applicationProfileRef when unread: the lower of the SE's L4 and L7 throughput rows (worst) or the higher (best). */
    readonly profileRow: "lower" | "higher";
}
const WORST_CASE: Variant = { dispatcher: true, ecmp: false, ingressPct: undefined, profileRow: "lower" };
const BEST_CASE: Variant = { dispatcher: false, ecmp: true, ingressPct: 0, profileRow: "higher" };

/** One input the verdict depends on that is not known, as messages name it. */
interface Unread {
    /** The field, e.g. "dedicatedDispatcherCore", "scaleoutEcmp of shop-vs". */
    readonly field: string;
    /** "dedicatedDispatcherCore is unknown in this preview". */
    readonly what: string;
    /** The two settings judged, worst first: ["true", "false"]. */
    readonly settings: readonly [string, string];
}

function state(s: "unknown" | "invalid"): string {
    return s === "unknown" ? "unknown in this preview" : "not a Go boolean";
}

/** The inputs of a group's judgement that are unknown or unreadable (sorted names; one entry per field). */
function unreadInputs(read: SeGroupSizing | undefined, units: readonly Unit[]): Unread[] {
    if (!read) {
        return [];
    }
    const out: Unread[] = [];
    if (read.dispatcherUnread) {
        out.push({ field: "dedicatedDispatcherCore", what: `dedicatedDispatcherCore is ${read.dispatcherUnread === "unknown" ? state("unknown") : "invalid"}`, settings: ["true", "false"] });
    }
    const throughput = (u: Unit) => u.demands.some((d) => d.throughputGbps !== undefined && d.throughputGbps > 0);
    const ecmp = units.filter((u) => u.head.scaleoutEcmpUnread !== undefined && throughput(u)).map((u) => u.head.vs.name);
    if (ecmp.length > 0) {
        const how = units.some((u) => u.head.scaleoutEcmpUnread === "unknown") ? state("unknown") : state("invalid");
        out.push({ field: "scaleoutEcmp", what: `scaleoutEcmp of ${cappedList(ecmp, 3)} is ${how}`, settings: ["native scale-out", "BGP/ECMP"] });
    }
    const ingress = units.flatMap((u) => u.members.filter((m) => m.ingressPctUnread !== undefined).map((m) => m.placement.vs.name));
    if (ingress.length > 0) {
        out.push({ field: "perfguard:ingressPct", what: `perfguard:ingressPct of ${cappedList(ingress, 3)} is unknown or invalid`, settings: ["all ingress", "all egress"] });
    }
    const profile = units.flatMap((u) => u.members.filter((m) => m.profileUnread).map((m) => m.placement.vs.name));
    if (profile.length > 0) {
        out.push({ field: "applicationProfileRef", what: `applicationProfileRef of ${cappedList(profile, 3)} is ${state("unknown")}`, settings: ["the lower throughput row", "the higher"] });
    }
    return out;
}

/** What a judgement decides: the group's fit, its placement, each VS's fit, the measured-figures fit. */
function verdictOf(e: GroupEvaluation, config: SeCapacityConfig): string {
    const p = e.placement;
    if (!p) {
        return "not judged";
    }
    const units = e.units.map((u) => (u.idle ? 0 : within(p.perVs[u.index].peak, config) ? 1 : 2));
    return JSON.stringify([groupFits(e, config), p.placeable, units, e.measured ? placementFits(e.measured, config.headroomPct) : null]);
}

/** "with dedicatedDispatcherCore true the busiest SE needs 120% (limit 80%)": one judgement's outcome in words. */
function outcomeText(e: GroupEvaluation, unread: readonly Unread[], which: "worst" | "best", config: SeCapacityConfig): string {
    const settings = unread.map((u) => `${u.field} ${u.settings[which === "worst" ? 0 : 1]}`).join(", ");
    if (!e.placement) {
        return `with ${settings} ${e.blocked === NO_PROXY_CORE ? "a 1 vCPU SE has no proxy core (no table row)" : "it cannot be judged"}`;
    }
    return `with ${settings} it ${groupFits(e, config) ? "fits" : "does not fit"} (busiest SE ${pct(e.placement.worstSe.peak)}, limit ${pct(1 - config.headroomPct / 100)})`;
}

/** The Basis line of a verdict both judgements agree on. */
function bothWaysText(unread: readonly Unread[], worst: GroupEvaluation): string {
    const worstSettings = unread.length === 1 ? unread[0].settings[0] : unread.map((u) => `${u.field} ${u.settings[0]}`).join(", ");
    const figures = worst.placement ? `; figures with ${worstSettings} (the higher load)` : "";
    return `${listLabels(unread.map((u) => u.what))}: judged with ${unread.map((u) => `${u.settings[0]} and ${u.settings[1]}`).join("; ")}, the same verdict${figures}`;
}

/**
 * One judgement of a group: its units (a VS with its SNI children, then the VSs whose ref is
 * ambiguous), the placement, the measured placement beyond 6 vCPUs, the state after one SE
 * fails and the fixes, with the unread inputs taken as `variant` says.
 */
function groupEvaluation(group: SeGroupView, read: SeGroupSizing | undefined, placements: readonly VsPlacement[], candidates: readonly VsPlacement[], config: SeCapacityConfig, variant: Variant): GroupEvaluation {
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
            head, members, demands, index,
            partial: members.some((m) => m.unknown.length > 0),
            idle: members.every((m) => m.placement.demand.state === "none"),
            ambiguous: false, ingressAssumed: false,
        };
    });
    for (const p of candidates) {
        const m = countedOf(p);
        const d = direction(m).demand;
        units.push({ head: p, members: [m], demands: d ? [d] : [], index: units.length, partial: true, idle: p.demand.state === "none", ambiguous: true, ingressAssumed: false });
    }
    const placement = sizing ? placeGroup(units.map((u) => u.demands), sizing.spec, { assumeScaleOut: config.assumeScaleOut, reading: GATE_READING }) : undefined;
    const beyond = sizing !== undefined && sizing.spec.vcpusPerSe > MEASURED_VCPUS_MAX;
    const measured = sizing && beyond ? placeGroup(units.map((u) => u.demands), sizing.spec, { assumeScaleOut: config.assumeScaleOut, measuredOnly: true }) : undefined;
    const slope = sizing && beyond ? placeGroup(units.map((u) => u.demands), sizing.spec, { assumeScaleOut: config.assumeScaleOut, reading: "slope" }) : undefined;
    const eitherKey = units.some((u) => u.demands.some((d) => d.sslKeyBasis?.conservative !== undefined));
    const onRsa = (d: VsDemand): VsDemand => (d.sslKeyBasis?.conservative ? { ...d, sslKeyType: d.sslKeyBasis.conservative } : d);
    const keyConservative = sizing && eitherKey
        ? placeGroup(units.map((u) => u.demands.map(onRsa)), sizing.spec, { assumeScaleOut: config.assumeScaleOut, reading: GATE_READING }) : undefined;
    // A direction that is unread is not "not given": the Basis line of the two judgements says what was assumed.
    const assumed = (u: Unit) => placement !== undefined && u.members.every((m) => m.ingressPctUnread === undefined) && u.demands.some((d) => d.ingressPct === undefined && ingressOnPrimary(d, placement.vsSes));
    const judged = placement ? units.map((u) => ({ ...u, ingressAssumed: assumed(u) })) : units;
    const afterFailure = sizing && placement ? failurePlacement(units, sizing.spec, placement, config) : undefined;
    // An unread dispatcher setting is one the fix sets (fixChanges): "false" below 4 vCPUs (as those
    // rows were measured), "true" from 4. The fixes are searched with it so, not with the guess.
    const fixSpec = sizing && read?.dispatcherUnread ? { ...sizing.spec, dedicatedDispatcher: false } : sizing?.spec;
    let fixCache: PlacementFix[] | undefined;
    const e: GroupEvaluation = {
        group, sizing, blocked: noProxy ? NO_PROXY_CORE : blockedOf(group, sizing), units: judged, placement, measured, slope, keyConservative, afterFailure,
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
            group, sizing: undefined, units: worst.units, placement: undefined, measured: undefined, slope: undefined, keyConservative: undefined, afterFailure: undefined, fixes: () => [],
            blocked: {
                reason: `${listLabels(unread.map((u) => u.what))} and the verdict depends on it: ${outcomeText(worst, unread, "worst", config)}, ${outcomeText(best, unread, "best", config)}`,
                remedy: `known after apply: run \`pulumi policy analyze\` after the update, or set ${listLabels(unread.map((u) => u.field))} literally`,
            },
        };
    });
    return { config, groups, unresolved };
}

/**
 * The fixes of a group. N+M with bufferSe 0 that would not fit after one SE fails: every fix
 * keeps one buffer SE (it takes the failed SE's VSs), so the fixes are those of the group with
 * bufferSe 1 and maxSe raised to hold it; that alone when it is enough.
 */
function groupFixes(units: readonly Unit[], spec: SeGroupSpec, p: GroupPlacement, after: FailurePlacement | undefined, config: SeCapacityConfig): PlacementFix[] {
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
function uniqueFixes(fixes: readonly PlacementFix[], e: GroupEvaluation): PlacementFix[] {
    const seen = new Set<string>();
    return fixes.filter((f) => {
        const key = JSON.stringify([fixChanges(f, e), f.ecmp]);
        return seen.has(key) ? false : (seen.add(key), true);
    });
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

// One evaluation per stack object and config: every stack policy of one AnalyzeStack call, the
// report and diff share one parse and one placement (the config is part of the key: the two
// capacity policies may be configured apart).
const memo = stackMemo<NsxAlbEvaluation>();

/** The config with its schema defaults filled in (a policy's getConfig applies none; the CLI's reconciled config has them). */
export function seCapacityConfigOf(props: Readonly<Record<string, unknown>> | undefined): SeCapacityConfig {
    const p = props ?? {};
    const headroomPct = typeof p.headroomPct === "number" && Number.isFinite(p.headroomPct) ? p.headroomPct : 20;
    const seGroups = p.seGroups !== null && typeof p.seGroups === "object" && !Array.isArray(p.seGroups) ? p.seGroups as SeCapacityConfig["seGroups"] : {};
    return { headroomPct, assumeScaleOut: p.assumeScaleOut === true, seGroups };
}

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

/**
 * What a VS needs of the SEs it counts on, as every verdict, the report and explain say it:
 * "297.2% of its 1 SE", or under native scale-out with ingress limiting, "87.7% of its primary
 * SE's throughput (ingress 83.1%)" (the primary carries all of the VS's ingress and its share of
 * the egress; `note` goes inside the parenthesis).
 */
export function needsText(u: SeUtilisation, vsSes: number, note = ""): string {
    // The peak is the primary SE's throughput: all the VS's ingress plus its share of the egress.
    if (u.limiting !== "ingress") {
        return `${pct(u.peak)} of its ${vsSes} SE${vsSes === 1 ? "" : "s"}`;
    }
    // All of it ingress (no egress share): the ingress figure would only repeat the peak.
    const parts = [...(u.peak - u.ingress > 1e-9 ? [`ingress ${pct(u.ingress)}`] : []), ...(note ? [note] : [])];
    return `${pct(u.peak)} of its primary SE's throughput${parts.length > 0 ? ` (${parts.join(", ")})` : ""}`;
}

/**
 * How an open-connections figure scaled by memory above its table row is labelled: the table
 * measured each row at its own memory only (model/seCapacity.ts openConnectionsMemoryFactor).
 */
export const CONNECTIONS_SCALED = "scaled by memory: not measured";

/**
 * How a figure of an SE below 4 vCPUs with a dedicated dispatcher core is labelled: its proxy
 * figures are the (vcpus - 1) row's (model/seCapacity.ts perSeCapacity), a layout the table never measured.
 */
export function dispatcherNote(vcpus: number): string {
    return `dedicated dispatcher: judged on the ${vcpus - 1} vCPU row of proxy cores, not measured`;
}

/**
 * Whether the group's SEs dedicate a dispatcher core below 4 vCPUs: the 1 and 2 vCPU rows were
 * measured without one (the source's dispatcher/proxy note), so with 2 vCPUs one core is left to
 * proxy: its proxy figures are judged on the (vcpus - 1) row, a layout not measured.
 */
export function dispatcherUnmeasured(e: GroupEvaluation): boolean {
    // The setting judged (the field's, or "true" of the two judgements of an unread field).
    return e.sizing !== undefined && e.sizing.spec.vcpusPerSe < DISPATCHER_MIN_VCPUS && e.sizing.spec.dedicatedDispatcher;
}

/**
 * The note a busiest-SE row carries when the stack's numDispatcherCores is not the dispatcher
 * layout its figures were measured with; "" when it is, or when numDispatcherCores is 0 (the
 * provider default: the Controller deduces the count; taken as the layout the table states).
 * The source states 1 dispatcher core for the 4 vCPU row (2 for its L4 throughput test) and 2
 * for the 6 vCPU row (model/data measuredDispatcherCores); no count for the 1 and 2 vCPU rows.
 * A dispatcher core below 4 vCPUs already moves the figures to another row (dispatcherNote).
 * @param row - "cpu" (SSL TPS, L7 RPS, L4 CPS, SSL throughput) or "throughput" (plain throughput of the VSs' kinds).
 */
export function dispatcherCoresNote(e: GroupEvaluation, row: "cpu" | "throughput"): string {
    const read = e.group.fields.numDispatcherCores;
    const spec = e.sizing?.spec;
    if (!spec || dispatcherUnmeasured(e)) {
        return "";
    }
    const demands = e.units.flatMap((u) => u.demands);
    const kinds: Array<{ kind: DispatcherFigure; name: string }> = row === "cpu"
        ? (demands.some((d) => d.sslTps !== undefined || d.l7Rps !== undefined || d.l4Cps !== undefined || (d.throughputGbps !== undefined && vsKind(d) === "l7ssl")) ? [{ kind: "other", name: "CPU-bound figures" }] : [])
        : [...new Set(demands.filter((d) => d.throughputGbps !== undefined).map(vsKind))].sort().map((k) => (k === "l4" ? { kind: "l4Throughput" as const, name: "L4 throughput" } : { kind: "other" as const, name: "L7 throughput" }));
    if (kinds.length === 0 || (read.state === "ok" && read.value === 0)) {
        return "";
    }
    if (read.state !== "ok") {
        return read.state === "unknown" ? "numDispatcherCores unknown in this preview: the dispatcher layout may not be the measured one, not measured"
            : "numDispatcherCores invalid (perfguard-facts reports it): dispatcher layout not known, not measured";
    }
    const n = read.value;
    const names = [...new Set(kinds.filter((k) => measuredDispatcherCores(spec.vcpusPerSe, k.kind) !== n).map((k) => k.name))];
    if (names.length === 0) {
        return "";
    }
    const off = kinds.find((k) => measuredDispatcherCores(spec.vcpusPerSe, k.kind) !== n) as { kind: DispatcherFigure };
    const measured = measuredDispatcherCores(spec.vcpusPerSe, off.kind);
    const set = fieldText("numDispatcherCores", n, read.where);
    return measured === undefined
        ? `${set}: the table states no dispatcher count for ${spec.vcpusPerSe} vCPUs per SE, not measured`
        : `${set}: the ${spec.vcpusPerSe} vCPU row's ${listLabels(names)} measured with ${plural(measured, "dispatcher core")}, not measured`;
}

/** The Basis line of the group's numDispatcherCores notes (its CPU and throughput rows), or none. */
export function dispatcherCoresBasis(e: GroupEvaluation): string[] {
    return [...new Set([dispatcherCoresNote(e, "cpu"), dispatcherCoresNote(e, "throughput")].filter((x) => x !== ""))];
}

/**
 * How a size's per-SE figures were obtained: a table row, between rows, beyond the 6 vCPU row,
 * or "not measured": another row's figures for a layout the table never measured (a dedicated
 * dispatcher core below 4 vCPUs is judged on the vcpus - 1 row of proxy cores).
 */
export type SizeLabel = "measured" | "interpolated" | "extrapolated" | "not measured";

/**
 * What the figures were computed from: "measured" only for a table row (1, 2, 4, 6 vCPUs) in the
 * layout it was measured with, "interpolated" between rows (3, 5), "extrapolated" beyond 6, and
 * "not measured" when a dedicated dispatcher below 4 vCPUs moves them to the (vcpus - 1) row
 * (3 vCPUs: the 2 vCPU row, not an interpolation).
 */
export function sizeLabel(vcpus: number, dedicatedDispatcher?: boolean): SizeLabel {
    if (proxyRowVcpus(vcpus, dedicatedDispatcher) !== vcpus) {
        return "not measured";
    }
    return vcpus > MEASURED_VCPUS_MAX ? "extrapolated" : [1, 2, 4, 6].includes(vcpus) ? "measured" : "interpolated";
}

/** The figures of one VS (with its SNI children) on the SEs it counts on. */
export interface VsFigures {
    readonly unit: Unit;
    /** Its peak on its SEs (fraction); undefined when not judged (ambiguous, unreadable demand, no demand). */
    readonly peak: number | undefined;
    readonly utilisation: SeUtilisation | undefined;
    readonly notChecked?: string;
}

/** The judged figures of one group: what the verdicts, the report and diff print. */
export interface GroupFigures {
    /** The busiest SE (after a failover in legacy active/standby; after one SE fails in N+M with bufferSe 0). */
    readonly busiestSe: SeUtilisation;
    /** Legacy active/standby with distributeLoadActiveStandby, or N+M with bufferSe 0: the busiest SE while all run. */
    readonly steadyState: SeUtilisation | undefined;
    readonly fits: boolean;
    /** The first fix option's changes to the SE group (empty when the group fits or nothing fits). */
    readonly fix: readonly string[];
    /**
     * Every fix option in short words, as the verdict offers them (SE group fields, scaleoutEcmp on
     * the VSs, declaring perfguard:ingressPct); empty when the group fits or nothing fits.
     */
    readonly fixOptions: readonly string[];
    /** The vcpusPerSe of the first fix that is a larger SE, when one is offered. */
    readonly requiredVcpusPerSe: number | undefined;
    /** That fix's dedicated dispatcher setting (its size label depends on it below 4 vCPUs). */
    readonly requiredDispatcher: boolean | undefined;
    readonly perVs: readonly VsFigures[];
    /** How the group's per-SE figures were obtained at its vcpusPerSe (a table row, between rows, beyond the 6 vCPU row). */
    readonly sizeLabel: SizeLabel;
    /** Some VS declares open connections and their per-SE figure is scaled by memory above the row's (not measured). */
    readonly openConnectionsScaled: boolean;
    /** A dedicated dispatcher core below 4 vCPUs: the CPU-bound figures are of a layout the table never measured. */
    readonly dispatcherUnmeasured: boolean;
    /** numDispatcherCores not the layout the CPU / throughput figures were measured with: the notes (dispatcherCoresNote), "" when it is. */
    readonly dispatcherCores: { readonly cpu: string; readonly throughput: string };
    /** The group's vcpusPerSe (dispatcherNote names the row its proxy figures come from). */
    readonly vcpusPerSe: number;
}

/**
 * The note a figure of the group carries when its per-SE figures are not a table row, e.g.
 * "per-SE figures interpolated between table rows"; "" for a measured row.
 */
export function sizeNote(label: SizeLabel): string {
    // "not measured" (a dispatcher core below 4 vCPUs): dispatcherNote names the row the figures come from.
    return label === "interpolated" ? "per-SE figures interpolated between table rows"
        : label === "extrapolated" ? `per-SE figures extrapolated beyond the ${MEASURED_VCPUS_MAX} vCPU row (CPU-bound ones linear per vCPU, the favourable reading): not measured` : "";
}

/** What scaleoutEcmp asks of the VSs, in short words. */
export const ECMP_SHORT = `scaleoutEcmp "true" on its VSs`;

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
    return e.units.filter((u) => u.demands.some((d) => d.sslTps !== undefined && d.sslKeyBasis?.source === "assumed"))
        .map((u) => u.head.vs.name).sort();
}

/** The fix options in short words, in the verdict's order (declaring what was assumed first). */
function fixOptionTexts(e: GroupEvaluation, fixes: readonly PlacementFix[], config: SeCapacityConfig): string[] {
    const declare = ingressBoundUnits(e, config).some((u) => u.ingressAssumed) ? ["declare perfguard:ingressPct on its VSs"] : [];
    const key = keyAssumedNames(e).length > 0 ? ["declare the certificate's key type (RSA-2048 assumed)"] : [];
    return [...key, ...declare, ...fixes.map((f) => fixShort(f, e))];
}

/** Why a unit is not judged on its own, or undefined when it is. */
function unitNotChecked(unit: Unit): string | undefined {
    if (unit.ambiguous) {
        return "its seGroupRef matches more than one SE group (counted on each)";
    }
    if (unit.members[0].demand === undefined) {
        return "a demand fact or the SSL setting is invalid";
    }
    if (unit.partial) {
        return "a demand fact is unknown in this preview";
    }
    return undefined;
}

/** The figures of one group whose sizing is known; undefined otherwise (see `blocked`). */
export function groupFigures(e: GroupEvaluation, config: SeCapacityConfig): GroupFigures | undefined {
    const p = e.placement;
    if (!p) {
        return undefined;
    }
    const fits = groupFits(e, config);
    const fixes = fits ? [] : e.fixes();
    const perVs = e.units.map((unit): VsFigures => {
        const notChecked = unitNotChecked(unit);
        const u = p.perVs[unit.index];
        return unit.idle ? { unit, peak: undefined, utilisation: undefined, notChecked: "no demand fact" }
            : notChecked ? { unit, peak: undefined, utilisation: u, notChecked } : { unit, peak: u.peak, utilisation: u };
    });
    const after = e.afterFailure;
    return {
        busiestSe: after ? after.placement.worstSe : p.worstSe, steadyState: after ? p.worstSe : p.steadyStateSe, fits, perVs,
        fix: fixes.length > 0 ? fixChanges(fixes[0], e) : [],
        fixOptions: fits ? [] : fixOptionTexts(e, fixes, config),
        requiredVcpusPerSe: fixes.find((f) => f.kind === "up")?.spec.vcpusPerSe,
        requiredDispatcher: fixes.find((f) => f.kind === "up")?.spec.dedicatedDispatcher,
        sizeLabel: sizeLabel((e.sizing as SeGroupSizing).spec.vcpusPerSe, (e.sizing as SeGroupSizing).spec.dedicatedDispatcher),
        openConnectionsScaled: connectionsScaled(p.perSe) && e.units.some((unit) => unit.demands.some((d) => d.l4OpenConnections !== undefined)),
        dispatcherUnmeasured: dispatcherUnmeasured(e),
        dispatcherCores: { cpu: dispatcherCoresNote(e, "cpu"), throughput: dispatcherCoresNote(e, "throughput") },
        vcpusPerSe: (e.sizing as SeGroupSizing).spec.vcpusPerSe,
    };
}

// Relative tolerance for "the same number": two computations of one quantity, not float noise.
function sameNumber(a: number, b: number): boolean {
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

type SeRow = "cpu" | "throughput" | "openConnections";

// The busiest-SE row a limiting metric belongs to: the CPU parts add up to CPU; primary ingress is
// named the limit of a throughput-bound load whose ingress is most of it (utilisationOf).
const ROW_OF_METRIC: Record<SeMetric, SeRow> = {
    sslTps: "cpu", l7Rps: "cpu", l4Cps: "cpu", sslThroughput: "cpu", throughput: "throughput", ingress: "throughput", openConnections: "openConnections",
};

/**
 * The busiest SE, one row per distinct quantity: CPU, throughput, open connections and primary
 * ingress. Its load (peak) is the largest of the first three (model/seCapacity.ts utilisationOf),
 * so it is not a row of its own: the metric that carries it is labelled as the busiest SE with
 * its limiting resource (what the verdicts state). `carriers` names, per row, the VSs whose own
 * need that row is (their own rows are left out). Keys stay per metric, so a limit that moves
 * from CPU to throughput pairs each metric with itself across two states.
 */
function busiestSeFigures(u: SeUtilisation, carriers: ReadonlyMap<SeRow, readonly string[]>, afterFailure: boolean, f: GroupFigures): Figure[] {
    const limitRow = ROW_OF_METRIC[u.limiting];
    const busiest = `busiest SE${afterFailure ? " after one SE fails" : ""}`;
    // Every figure of a size between or beyond the table's rows says so (the report and diff print the label).
    const size = sizeNote(f.sizeLabel);
    const row = (metric: SeRow, key: string, label: string, value: number) => {
        const names = [...(carriers.get(metric) ?? [])].sort();
        const connections = metric === "openConnections" && f.openConnectionsScaled ? `open connections ${CONNECTIONS_SCALED}` : "";
        // The CPU-bound loads are what a dispatcher core takes cores from.
        const dispatcher = (metric === "cpu" || metric === "throughput") && f.dispatcherUnmeasured ? dispatcherNote(f.vcpusPerSe) : "";
        const cores = metric === "cpu" || metric === "throughput" ? f.dispatcherCores[metric] : "";
        const notes = [
            metric === limitRow ? `limited by ${limitingName(u)}` : "",
            names.length > 0 ? `the need of ${names.join(", ")}` : "",
            size, connections, dispatcher, cores,
        ].filter((x) => x !== "");
        return percent(key, `${metric === limitRow ? busiest : label}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`, value);
    };
    return [
        row("cpu", "busiestSeCpuPct", "busiest SE CPU", u.cpu),
        row("throughput", "busiestSeThroughputPct", "busiest SE throughput", u.throughput),
        row("openConnections", "busiestSeOpenConnectionsPct", "busiest SE open connections", u.openConnections),
        percent("busiestSeIngressPct", `busiest SE primary ingress${size ? ` (${size})` : ""}`, u.ingress),
    ];
}

/**
 * What a VS's peak figure is about, as needsText says it: under native scale-out with ingress
 * limiting, its primary SE (all its ingress, its share of the egress), not the even spread over
 * its SEs; otherwise its SEs, counted in words ("1 SE", "3 SEs").
 */
export function vsPeakLabel(u: SeUtilisation, vsSes: number): string {
    return u.limiting === "ingress"
        ? `needs of its primary SE's throughput (1 of its ${vsSes} SEs; ingress not spread)`
        : `needs of its ${vsSes} SE${vsSes === 1 ? "" : "s"}`;
}

function percent(key: string, label: string, fraction: number): Figure {
    return { key, label, value: fraction * 100, unit: "%", better: "lower", text: pct(fraction) };
}

function notComputed(key: string, label: string, unit: string, reason: string): Figure {
    return { key, label, unit, better: "lower", text: "not checked", notChecked: reason };
}

/**
 * The NSX ALB figures in the cross-system shape (policies/pack/figures.ts): one entity per SE
 * group (the busiest SE's metrics, the one that limits it labelled so, the steady state of a
 * distributed active/standby pair, the SEs placement needs, the larger SE a fix names) and one per
 * virtual service (its peak on the SEs it counts on, unless that is the busiest SE's load, which
 * the group's row names it in), with "not checked" reasons where a figure cannot be computed.
 * Each distinct quantity is one figure: a change to one VS is one row of a diff.
 * @param stack - the stack (memoized evaluation).
 * @param config - nsx-alb-se-capacity's config (defaults when absent).
 */
export function nsxAlbFigures(stack: StackView, config: Partial<SeCapacityConfig> = {}): EntityFigures[] {
    const evaluation = nsxAlbEvaluation(stack, config);
    const out: EntityFigures[] = [];
    for (const e of evaluation.groups) {
        const urn = e.group.resource?.urn;
        const entity = { system: "nsx-alb" as const, kind: "seGroup", id: e.group.name, label: `SE group ${e.group.name}`, ...(urn ? { urn } : {}) };
        const f = groupFigures(e, evaluation.config);
        if (!f || !e.placement) {
            out.push({ ...entity, figures: [], notChecked: e.blocked?.reason ?? "its sizing cannot be read" });
        } else {
            const u = f.busiestSe;
            // A VS whose need is one of the busiest SE's rows (it alone makes that load) is that
            // number already: it is printed once, on the group's row, which names the VS.
            const rowOf = (v: VsFigures): SeRow | undefined => (v.peak !== undefined && v.utilisation && sameNumber(v.peak, u[ROW_OF_METRIC[v.utilisation.limiting]]) ? ROW_OF_METRIC[v.utilisation.limiting] : undefined);
            const carriers = new Map<SeRow, string[]>();
            for (const v of f.perVs) {
                const row = rowOf(v);
                if (row) {
                    carriers.set(row, [...(carriers.get(row) ?? []), v.unit.head.vs.name]);
                }
            }
            const figures: Figure[] = busiestSeFigures(u, carriers, e.afterFailure !== undefined, f);
            figures.push({ key: "sesNeeded", label: "SEs for placement", value: e.placement.sesNeeded, unit: "", better: "lower", text: String(e.placement.sesNeeded) });
            if (f.steadyState) {
                figures.push(percent("steadyStateSePct", e.afterFailure ? "busiest SE while all run (steady state)" : "busier SE while both run (steady state)", f.steadyState.peak));
            }
            if (f.requiredVcpusPerSe !== undefined) {
                figures.push({ key: "requiredVcpusPerSe", label: `vcpusPerSe the fix names (${sizeLabel(f.requiredVcpusPerSe, f.requiredDispatcher)})`, value: f.requiredVcpusPerSe, unit: "vCPUs", better: "lower", text: String(f.requiredVcpusPerSe) });
            }
            out.push({ ...entity, figures });
            for (const v of f.perVs) {
                for (const m of v.unit.members) {
                    const vs = m.placement.vs;
                    const head = m === v.unit.members[0];
                    const figures = head && rowOf(v) ? []
                        : [v.peak !== undefined && head && v.utilisation ? percent("vsPeakPct", vsPeakLabel(v.utilisation, e.placement.vsSes), v.peak)
                            : notComputed("vsPeakPct", "needs of its SEs", "%", head ? v.notChecked ?? "not judged" : `counted with its SNI parent ${v.unit.head.vs.name}`)];
                    out.push({ system: "nsx-alb", kind: "virtualService", id: vs.name, label: `virtual service ${vs.name}`, urn: vs.urn, figures });
                }
            }
        }
        if (!f) {
            for (const unit of e.units) {
                for (const m of unit.members) {
                    out.push({ system: "nsx-alb", kind: "virtualService", id: m.placement.vs.name, label: `virtual service ${m.placement.vs.name}`, urn: m.placement.vs.urn, figures: [], notChecked: e.blocked?.reason ?? "the sizing of its SE group cannot be read" });
                }
            }
        }
    }
    for (const p of evaluation.unresolved) {
        out.push({ system: "nsx-alb", kind: "virtualService", id: p.vs.name, label: `virtual service ${p.vs.name}`, urn: p.vs.urn, figures: [], notChecked: p.unresolved?.reason ?? "its SE group is not known" });
    }
    return out;
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
        if (candidate <= 1000 && placementFits(placeGroup(e.units.map((u) => u.demands), { ...spec, maxVsPerSe: candidate }, { assumeScaleOut: config.assumeScaleOut, reading: GATE_READING }), config.headroomPct)) {
            maxVsPerSe = candidate;
        }
    }
    return { sesNeeded: p.sesNeeded, bufferSe: spec.bufferSe, maxSe: maxSe <= 1000 ? maxSe : undefined, maxVsPerSe, room, lowerBufferSe: Math.max(0, spec.maxSe - p.sesNeeded) };
}

/** For a group beyond the 6 vCPU row: the first fix on measured figures (6 vCPUs, more SEs), if any. */
export function measuredFix(e: GroupEvaluation, config: SeCapacityConfig): PlacementFix | undefined {
    const spec = e.sizing?.spec;
    if (!spec) {
        return undefined;
    }
    return placementFixes(e.units.map((u) => u.demands), { ...spec, vcpusPerSe: MEASURED_VCPUS_MAX, memoryPerSeMb: Math.max(spec.memoryPerSeMb, MEASURED_VCPUS_MAX * 1024) }, config)
        .find((f) => f.measured);
}
