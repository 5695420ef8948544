/**
 * nsx-alb-se-capacity: each NSX ALB virtual service (VS) must fit what its SE group gives one VS,
 * and the VSs of a group together must fit what the group carries, keeping headroom.
 */
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import {
    GroupFix,
    groupFixes,
    seCapacityBasis,
    SeGroupCapacity,
    seGroupCapacity,
    sesFor,
    SE_TABLE_NAME,
    SE_TABLE_ROWS,
    SeMetric,
    SeUtilisation,
    seUtilisation,
    sslTpsCapacity,
    testedSeSize,
    throughputCapacityGbps,
    VsDemand,
    vsKind,
    VsKind,
} from "../model/seCapacity";
import { aviStack, fieldText, SE_GROUP_FIELD_NAMES, SeGroupFields, seGroupFieldProblems, SeGroupSizing, seGroupSizing, SeGroupView, VsPlacement } from "./support/aviSeGroups";
import { isolate, Report, stackPolicy } from "./support/definePolicy";
import { Applicability, applied, notApplicable, StackApplicability } from "./support/explain";
import type { StackView } from "./support/resources";
import { listLabels, num, pct, plural } from "./support/format";

export interface SeCapacityConfig {
    /** Spare capacity to keep, percent: demand <= (1 - headroomPct/100) x capacity. */
    headroomPct: number;
    /** Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs. */
    assumeScaleOut: boolean;
    /** SE groups not declared in the stack: name -> SE group fields (strings or numbers). */
    seGroups: Record<string, Record<string, string | number | boolean>>;
}

const POLICY = "nsx-alb-se-capacity";

const METRIC_NAME: Record<SeMetric, string> = {
    sslTps: "SSL TPS",
    l7Rps: "L7 RPS",
    l4Cps: "L4 CPS",
    throughput: "throughput",
    openConnections: "open connections",
};

const KIND_ROW: Record<VsKind, string> = { l7ssl: "L7 SSL", l7: "L7", l4: "L4" };

/** A VS whose group is known and whose demand is known, in full or (in a preview) in part. */
interface Loaded {
    readonly placement: VsPlacement;
    readonly demand: VsDemand;
    readonly where: Readonly<Partial<Record<keyof VsDemand, string>>>;
    /** Demand facts unknown in this preview and not counted (empty when all are known). */
    readonly unknown: readonly string[];
}

/** The VS's demand as the check counts it: all of it, its known part in a preview, or none. */
function loadedOf(placement: VsPlacement): Loaded | undefined {
    const read = placement.demand;
    if (read.state === "ok") {
        return { placement, demand: read.demand, where: read.where, unknown: [] };
    }
    if (read.state === "unusable" && read.known) {
        return { placement, demand: read.known.demand, where: read.known.where, unknown: read.known.unknown };
    }
    return undefined;
}

function keyTypeName(keyType: VsDemand["sslKeyType"]): string {
    return keyType === "ecc" ? "ECC" : "RSA-2048";
}

function ses(count: number): string {
    return plural(count, "SE");
}

function isAre(items: readonly string[]): string {
    return items.length === 1 ? "is" : "are";
}

/** What one VS gets from the group, in words. */
function vsGetsText(sizing: SeGroupSizing, capacity: SeGroupCapacity, config: SeCapacityConfig): string {
    const { spec, where } = sizing;
    const mode = fieldText("haMode", spec.haMode, where.haMode);
    if (spec.haMode === "HA_MODE_SHARED_PAIR") {
        return `1 SE's capacity (${mode}: the VS runs on 2 SEs and must survive losing one)`;
    }
    if (spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY") {
        return `1 SE's capacity (${mode}: the standby carries no load)`;
    }
    const n = sesFor(capacity, { scope: "vs", assumeScaleOut: config.assumeScaleOut });
    const scale = config.assumeScaleOut
        ? `${fieldText("maxScaleoutPerVs", spec.maxScaleoutPerVs, where.maxScaleoutPerVs)}, assumeScaleOut true`
        : `${fieldText("minScaleoutPerVs", spec.minScaleoutPerVs, where.minScaleoutPerVs)}, assumeScaleOut false`;
    const capped = n < (config.assumeScaleOut ? spec.maxScaleoutPerVs : spec.minScaleoutPerVs) ? `, capped by ${fieldText("maxSe", spec.maxSe, where.maxSe)}` : "";
    return `${ses(n)} (${scale}${capped}; ${mode}, N+M)`;
}

/** What the whole group carries, in words. */
function groupCarriesText(sizing: SeGroupSizing, capacity: SeGroupCapacity): string {
    const { spec, where } = sizing;
    const maxSe = fieldText("maxSe", spec.maxSe, where.maxSe);
    const mode = fieldText("haMode", spec.haMode, where.haMode);
    if (spec.haMode === "HA_MODE_SHARED") {
        return `${maxSe} - ${fieldText("bufferSe", spec.bufferSe, where.bufferSe)} = ${ses(capacity.groupSes)} of load (${mode}: N+M)`;
    }
    const why = spec.haMode === "HA_MODE_SHARED_PAIR" ? "each VS runs on 2 SEs and must survive losing one" : "standbys carry no load";
    return `floor(${maxSe} / 2) = ${ses(capacity.groupSes)}' worth (${mode}: ${why})`;
}

/** The three independent limits: the CPU-bound metrics together, throughput, open connections. */
type Limit = "cpu" | "throughput" | "openConnections";

/**
 * The limits a message details: those above the allowed utilisation (all three when none is,
 * e.g. a group that carries no load). The others are summarised as "within the limit".
 */
function shownLimits(u: SeUtilisation, config: SeCapacityConfig): ReadonlySet<Limit> {
    const limit = 1 - config.headroomPct / 100 + 1e-9;
    const over = (["cpu", "throughput", "openConnections"] as const).filter((k) => u[k] > limit);
    return new Set(over.length > 0 ? over : ["cpu", "throughput", "openConnections"]);
}

/** "; within the limit: throughput 27.8%, open connections 31.3%" for the limits not detailed. */
function withinText(u: SeUtilisation, shown: ReadonlySet<Limit>): string {
    const rest = (["cpu", "throughput", "openConnections"] as const).filter((k) => !shown.has(k) && u[k] > 0)
        .map((k) => `${k === "cpu" ? "CPU-bound total" : METRIC_NAME[k]} ${pct(u[k])}`);
    return rest.length > 0 ? `; within the limit: ${rest.join(", ")}` : "";
}

/** The SE size and its per-SE figures for the demanded metrics of the shown limits. */
function sizeText(sizing: SeGroupSizing, capacity: SeGroupCapacity, demands: readonly VsDemand[], shown: ReadonlySet<Limit>): string {
    const { spec, where } = sizing;
    const per = capacity.perSe;
    const figures: string[] = [];
    const keyTypes = new Set(demands.filter((d) => d.sslTps !== undefined).map((d) => d.sslKeyType));
    for (const keyType of shown.has("cpu") ? keyTypes : []) {
        figures.push(`${num(sslTpsCapacity(per, keyType), 0)} ${keyTypeName(keyType)} SSL TPS`);
    }
    if (shown.has("cpu") && demands.some((d) => d.l7Rps !== undefined)) {
        figures.push(`${num(per.l7Rps, 0)} L7 RPS`);
    }
    if (shown.has("cpu") && demands.some((d) => d.l4Cps !== undefined)) {
        figures.push(`${num(per.l4Cps, 0)} L4 CPS`);
    }
    const kinds = new Set(demands.filter((d) => d.throughputGbps !== undefined).map(vsKind));
    for (const kind of shown.has("throughput") ? kinds : []) {
        figures.push(`${num(throughputCapacityGbps(per, kind), 2)} Gbps ${KIND_ROW[kind]} throughput`);
    }
    if (shown.has("openConnections") && demands.some((d) => d.l4OpenConnections !== undefined)) {
        const rowGb = testedSeSize(spec.vcpusPerSe).memoryGb;
        const factor = Math.max(1, spec.memoryPerSeMb / 1024 / rowGb);
        const scaled = factor > 1 ? `, the row's figure x ${num(factor, 2)} for ${num(spec.memoryPerSeMb / 1024, 2)} GB against its ${num(rowGb, 2)} GB` : "";
        figures.push(`${num(per.l4OpenConnections, 0)} open connections (memory bound${scaled})`);
    }
    return `${fieldText("vcpusPerSe", spec.vcpusPerSe, where.vcpusPerSe)} and ${fieldText("memoryPerSe", spec.memoryPerSeMb, where.memoryPerSeMb, "MB")} give ` +
        `${figures.join(", ")} per SE (${seCapacityBasis(spec.vcpusPerSe)})`;
}

/** One VS's demand against `count` SEs, metric by metric, for the shown limits. */
function vsDemandText(item: Loaded, u: SeUtilisation, count: number, shown: ReadonlySet<Limit>): string {
    const { demand: d, where } = item;
    const parts: string[] = [];
    if (shown.has("cpu")) {
        if (d.sslTps !== undefined) {
            parts.push(`SSL TPS ${num(d.sslTps)} (${where.sslTps}; ${keyTypeName(d.sslKeyType)}: ${where.sslKeyType}) = ${pct(u.sslTps)}`);
        }
        if (d.l7Rps !== undefined) {
            parts.push(`L7 RPS ${num(d.l7Rps)} (${where.l7Rps}) = ${pct(u.l7Rps)}`);
        }
        if (d.l4Cps !== undefined) {
            parts.push(`L4 CPS ${num(d.l4Cps)} (${where.l4Cps}) = ${pct(u.l4Cps)}`);
        }
        const cpuMetrics = [d.sslTps, d.l7Rps, d.l4Cps].filter((x) => x !== undefined).length;
        if (cpuMetrics > 1) {
            parts.push(`CPU-bound total ${pct(u.cpu)} (they share the SE's cores)`);
        }
    }
    if (shown.has("throughput") && d.throughputGbps !== undefined) {
        const ssl = d.sslTps !== undefined && d.ssl !== true ? "SSL: perfguard:sslTps is set" : `SSL: ${where.ssl}`;
        parts.push(`throughput ${num(d.throughputGbps, 2)} Gbps (${where.throughputGbps}; ${KIND_ROW[vsKind(d)]} row, ${ssl}) = ${pct(u.throughput)}`);
    }
    if (shown.has("openConnections") && d.l4OpenConnections !== undefined) {
        parts.push(`open connections ${num(d.l4OpenConnections)} (${where.l4OpenConnections}) = ${pct(u.openConnections)}`);
    }
    return `${parts.join("; ")} of ${ses(count)}${withinText(u, shown)}`;
}

/** The group's summed demand, metric by metric, naming each VS's figure, for the shown limits. */
function groupDemandText(items: readonly Loaded[], u: SeUtilisation, count: number, shown: ReadonlySet<Limit>): string {
    const parts: string[] = [];
    const list = (key: keyof VsDemand, show: (d: VsDemand) => string) => listLabels(
        items.filter((i) => i.demand[key] !== undefined).map((i) => `${i.placement.vs.label} ${show(i.demand)}`));
    const limitOf: Partial<Record<keyof VsDemand, Limit>> = { sslTps: "cpu", l7Rps: "cpu", l4Cps: "cpu", throughputGbps: "throughput", l4OpenConnections: "openConnections" };
    const has = (key: keyof VsDemand) => shown.has(limitOf[key] as Limit) && items.some((i) => i.demand[key] !== undefined);
    if (has("sslTps")) {
        parts.push(`SSL TPS ${pct(u.sslTps)} (${list("sslTps", (d) => `${num(d.sslTps as number)} ${keyTypeName(d.sslKeyType)}`)}; perfguard:sslTps, perfguard:sslKeyType)`);
    }
    if (has("l7Rps")) {
        parts.push(`L7 RPS ${pct(u.l7Rps)} (${list("l7Rps", (d) => num(d.l7Rps as number))}; perfguard:l7Rps)`);
    }
    if (has("l4Cps")) {
        parts.push(`L4 CPS ${pct(u.l4Cps)} (${list("l4Cps", (d) => num(d.l4Cps as number))}; perfguard:l4Cps)`);
    }
    if (shown.has("cpu")) {
        parts.push(`CPU-bound total ${pct(u.cpu)}`);
    }
    if (has("throughputGbps")) {
        parts.push(`throughput ${pct(u.throughput)} (${list("throughputGbps", (d) => `${num(d.throughputGbps as number, 2)} Gbps ${KIND_ROW[vsKind(d)]}`)}; perfguard:throughputGbps)`);
    }
    if (has("l4OpenConnections")) {
        parts.push(`open connections ${pct(u.openConnections)} (${list("l4OpenConnections", (d) => num(d.l4OpenConnections as number))}; perfguard:l4OpenConnections)`);
    }
    return `${parts.join("; ")} of ${ses(count)}${withinText(u, shown)}`;
}

/** The smallest tested size measured with a dedicated dispatcher core (4 vCPUs). */
const DISPATCHER_FROM_VCPUS = SE_TABLE_ROWS.find((r) => r.dedicatedDispatcher)?.vcpus ?? 4;

/**
 * The fields a fix changes, as the provider's strings: `vcpusPerSe "6"`, ... When it changes
 * vcpusPerSe it also names the tested memory and disk for that size and, from 4 vCPUs, the
 * dedicated dispatcher core the table was measured with, so that the fix passes
 * nsx-alb-se-minimum-resources and nsx-alb-se-dedicated-dispatcher (at its default minVcpus) too.
 */
function fixChanges(fix: GroupFix, sizing: SeGroupSizing, fields: SeGroupFields): string[] {
    const from = sizing.spec;
    const to = fix.spec;
    const out: string[] = [];
    const set = (name: string, value: string | number) => out.push(`${name} "${String(value)}"`);
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
        const diskGb = testedSeSize(to.vcpusPerSe).diskGb;
        if (fields.diskPerSe.state === "ok" && fields.diskPerSe.value < diskGb) {
            set("diskPerSe", Math.ceil(diskGb));
        }
        if (to.vcpusPerSe >= DISPATCHER_FROM_VCPUS && fields.dedicatedDispatcherCore.state === "ok" && !fields.dedicatedDispatcherCore.value) {
            set("dedicatedDispatcherCore", "true");
        }
    }
    if (to.minScaleoutPerVs !== from.minScaleoutPerVs) {
        set("minScaleoutPerVs", to.minScaleoutPerVs);
    }
    if (to.maxScaleoutPerVs !== from.maxScaleoutPerVs) {
        set("maxScaleoutPerVs", to.maxScaleoutPerVs);
    }
    if (to.maxSe !== from.maxSe) {
        set("maxSe", to.maxSe);
    }
    return out;
}

/** One fix in words: the fields to set and why that size or count. */
function fixOptionText(fix: GroupFix, sizing: SeGroupSizing, fields: SeGroupFields): string {
    const from = sizing.spec;
    const to = fix.spec;
    const fieldsText = listLabels(fixChanges(fix, sizing, fields), 16);
    const groupSes = seGroupCapacity(to).groupSes;
    if (fix.kind === "out") {
        const size = to.vcpusPerSe === from.vcpusPerSe ? "at the current size" : `${seCapacityBasis(to.vcpusPerSe).replace(`${SE_TABLE_NAME}, `, "")}, as tested`;
        const reserve = to.haMode === "HA_MODE_SHARED" ? ` + bufferSe ${to.bufferSe}` : " in pairs";
        const load = to.maxSe !== from.maxSe ? `, ${groupSes} of load${reserve}` : "";
        return `set ${fieldsText} (${ses(fix.vsSes)} per VS${load}; ${size})`;
    }
    if (to.vcpusPerSe > SE_TABLE_ROWS[SE_TABLE_ROWS.length - 1].vcpus) {
        return `set, extrapolated beyond the published 6-vCPU row (not measured), ${fieldsText}`;
    }
    const why: string[] = [];
    if (to.vcpusPerSe !== from.vcpusPerSe) {
        why.push(`the smallest SE that fits: ${seCapacityBasis(to.vcpusPerSe)}, as tested`);
    } else if (to.memoryPerSeMb !== from.memoryPerSeMb) {
        why.push("open connections grow with memory");
    }
    if (to.maxSe !== from.maxSe) {
        why.push(`maxSe above bufferSe: the group then carries ${ses(groupSes)} of load`);
    }
    return `set ${fieldsText}${why.length > 0 ? ` (${why.join("; ")})` : ""}`;
}

/**
 * The fix for a group, the same in every message about it: each option fits every VS placed on
 * it and their total at once, so applying any one clears every capacity verdict on the group.
 */
function fixText(group: SeGroupView, sizing: SeGroupSizing, demands: readonly VsDemand[], config: SeCapacityConfig): string {
    const fixes = groupFixes(demands, sizing.spec, { headroomPct: config.headroomPct, assumeScaleOut: config.assumeScaleOut });
    if (fixes.length === 0) {
        return "";
    }
    const where = group.resource ? group.label : `the controller's SE group "${group.name}"`;
    const counted = demands.length === 1 ? "its VS and the group total" : `all ${demands.length} VSs on it and their total`;
    const then = group.resource ? "" : "; then update policy config seGroups to match";
    return ` Fix on ${where} (each option fits ${counted}${then}): ${fixes.map((f) => fixOptionText(f, sizing, group.fields)).join("; or ")}.`;
}

function limitText(config: SeCapacityConfig): string {
    return `the ${pct(1 - config.headroomPct / 100)} allowed (headroomPct ${num(config.headroomPct)})`;
}

function fits(u: SeUtilisation, config: SeCapacityConfig): boolean {
    return u.peak <= 1 - config.headroomPct / 100 + 1e-9;
}

function checkVs(item: Loaded, group: SeGroupView, sizing: SeGroupSizing, capacity: SeGroupCapacity, config: SeCapacityConfig, fix: () => string, report: Report): void {
    const count = sesFor(capacity, { scope: "vs", assumeScaleOut: config.assumeScaleOut });
    const u = seUtilisation([item.demand], capacity.perSe, count);
    if (fits(u, config)) {
        return; // with unknown facts too: the known demand fits, so no verdict either way
    }
    const vs = item.placement.vs;
    const unknown = item.unknown.length > 0
        ? ` ${listLabels(item.unknown)} ${isAre(item.unknown)} unknown in this preview and not counted: the real demand can only be higher.`
        : "";
    report(
        `${vs.label} does not fit what ${group.label} gives one VS: ${unknown ? "its known demand already needs" : "it needs"} ${pct(u.peak)} of ${ses(count)} ` +
        `(limiting metric: ${METRIC_NAME[u.limiting]}), above ${limitText(config)}.${unknown} ` +
        `One VS gets ${vsGetsText(sizing, capacity, config)}; ${sizeText(sizing, capacity, [item.demand], shownLimits(u, config))}. ` +
        `Demand: ${vsDemandText(item, u, count, shownLimits(u, config))}.${fix()}`,
        vs,
    );
}

function checkGroup(items: readonly Loaded[], notCounted: number, group: SeGroupView, sizing: SeGroupSizing, capacity: SeGroupCapacity, config: SeCapacityConfig, fix: () => string, report: Report): void {
    const demands = items.map((i) => i.demand);
    const u = seUtilisation(demands, capacity.perSe, capacity.groupSes);
    if (items.length === 0 || fits(u, config)) {
        return;
    }
    const partial = items.filter((i) => i.unknown.length > 0);
    const notes: string[] = [];
    if (partial.length > 0) {
        notes.push(`Known demand only for ${listLabels(partial.map((i) => `${i.placement.vs.label} (${listLabels(i.unknown)} unknown in this preview)`))}: the real total can only be higher.`);
    }
    if (notCounted > 0) {
        notes.push(`${plural(notCounted, "further VS", "further VSs")} on the group not counted (invalid demand facts or SSL setting, or no known demand in this preview): the total can only be higher.`);
    }
    const noteText = notes.length > 0 ? ` ${notes.join(" ")}` : "";
    const placed = items.length === 1 ? "the 1 VS placed on it needs" : `the ${items.length} VSs placed on it need`;
    if (capacity.groupSes === 0) {
        // maxSe <= bufferSe (N+M) or maxSe 1 (pairs): every SE is a spare, so no percentage of it means anything.
        const one = seUtilisation(demands, capacity.perSe, 1);
        const why = sizing.spec.haMode === "HA_MODE_SHARED" ? "every SE is kept spare: raise maxSe above bufferSe" : "one SE makes no pair: raise maxSe to at least 2";
        report(
            `${group.label} carries no load: ${groupCarriesText(sizing, capacity)}, so ${why}. Yet ${placed} ${pct(one.peak)} of one SE ` +
            `(limiting metric: ${METRIC_NAME[one.limiting]}; ${limitText(config)}).${noteText} ` +
            `${sizeText(sizing, capacity, demands, shownLimits(one, config))}. Demand: ${groupDemandText(items, one, 1, shownLimits(one, config))}.${fix()}`,
            group.resource,
        );
        return;
    }
    report(
        `${group.label} is overloaded: ${placed} ${pct(u.peak)} of what it carries (limiting metric: ${METRIC_NAME[u.limiting]}), above ${limitText(config)}.${noteText} ` +
        `It carries ${groupCarriesText(sizing, capacity)}; ${sizeText(sizing, capacity, demands, shownLimits(u, config))}. ` +
        `Demand: ${groupDemandText(items, u, capacity.groupSes, shownLimits(u, config))}.${fix()}`,
        group.resource,
    );
}

/** Runs `fn` for a group; an unexpected error becomes a violation naming the group. */
function guard(group: SeGroupView, report: Report, fn: () => void): void {
    if (group.resource) {
        isolate(group.resource, report, fn);
        return;
    }
    try {
        fn();
    } catch (e) {
        const what = e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : "a non-Error value was thrown";
        report(`perfguard could not evaluate ${group.label} (internal error ${what}); the other SE groups were evaluated.`);
    }
}

/** --explain: each VS's and SE group's utilisation as the check computed it, or why it was not checked. */
function explainSeCapacity(stack: StackView, config: SeCapacityConfig): StackApplicability {
    const out = new Map<string, Applicability>();
    const avi = aviStack(stack, config.seGroups);
    const limit = `limit ${pct(1 - config.headroomPct / 100)} (headroomPct ${num(config.headroomPct)})`;
    const sizings = new Map<SeGroupView, SeGroupSizing | undefined>(avi.groups.map((g) => [g, seGroupSizing(g.fields)]));
    for (const placement of avi.placements) {
        const { vs, group, demand } = placement;
        const item = loadedOf(placement);
        let verdict: Applicability;
        if (demand.state === "none") {
            verdict = notApplicable("no demand fact (perfguard:sslTps, l7Rps, l4Cps, l4OpenConnections or throughputGbps) on this virtual service");
        } else if (!item) {
            verdict = notApplicable("a demand fact or the SSL setting the throughput row depends on is invalid, or no demand fact is known in this preview");
        } else if (!group) {
            verdict = notApplicable("its SE group is neither declared in this stack nor described in policy config seGroups (or its seGroupRef is unknown)");
        } else {
            const sizing = sizings.get(group);
            if (!sizing) {
                verdict = notApplicable(`the sizing fields of ${group.label} are unknown or invalid`);
            } else {
                const capacity = seGroupCapacity(sizing.spec);
                const count = sesFor(capacity, { scope: "vs", assumeScaleOut: config.assumeScaleOut });
                const u = seUtilisation([item.demand], capacity.perSe, count);
                const needs = `on ${group.label}: ${item.unknown.length > 0 ? "known demand " : ""}needs ${pct(u.peak)} of ${ses(count)} (limiting metric ${METRIC_NAME[u.limiting]}), ${limit}`;
                verdict = item.unknown.length > 0 && fits(u, config)
                    ? notApplicable(`not evaluable in this preview: ${listLabels(item.unknown)} unknown, and the ${needs}, so the real demand may or may not fit`)
                    : applied(item.unknown.length > 0 ? `${needs} (${listLabels(item.unknown)} unknown in this preview: the real demand can only be higher)` : needs);
            }
        }
        out.set(vs.urn, verdict);
    }
    for (const group of avi.groups) {
        if (!group.resource) {
            continue;
        }
        const loaded = avi.placements.filter((p) => p.group === group).map(loadedOf).filter((x): x is Loaded => x !== undefined);
        const sizing = sizings.get(group);
        if (!sizing) {
            out.set(group.resource.urn, notApplicable("a sizing field is unknown in this preview or invalid (perfguard-facts reports it)"));
        } else if (loaded.length === 0) {
            out.set(group.resource.urn, notApplicable("no virtual service with usable demand facts is placed on this SE group"));
        } else {
            const capacity = seGroupCapacity(sizing.spec);
            const demands = loaded.map((l) => l.demand);
            if (capacity.groupSes === 0) {
                const one = seUtilisation(demands, capacity.perSe, 1);
                out.set(group.resource.urn, applied(`carries no load (${groupCarriesText(sizing, capacity)}); ${plural(loaded.length, "VS", "VSs")} need ${pct(one.peak)} of one SE`));
            } else {
                const u = seUtilisation(demands, capacity.perSe, capacity.groupSes);
                out.set(group.resource.urn, applied(`${plural(loaded.length, "VS", "VSs")} need ${pct(u.peak)} of the ${ses(capacity.groupSes)} it carries (limiting metric ${METRIC_NAME[u.limiting]}), ${limit}`));
            }
        }
    }
    return { resources: out, others: "not an NSX ALB virtual service or SE group" };
}

const FIELD_VALUE_SCHEMA: PolicyConfigJSONSchema = { type: ["string", "number", "boolean"] };

export const nsxAlbSeCapacity = stackPolicy<SeCapacityConfig>({
    name: POLICY,
    description: "Each NSX ALB virtual service must fit what its Service Engine group gives it, and the group's virtual services together must fit the group, with headroom to spare.",
    enforcementLevel: "mandatory",
    configSchema: {
        properties: {
            headroomPct: {
                type: "number",
                minimum: 0,
                maximum: 95,
                default: 20,
                description: "Spare capacity to keep, percent: demand <= (1 - headroomPct/100) x capacity (default 20).",
            },
            assumeScaleOut: {
                type: "boolean",
                default: false,
                description: "Count maxScaleoutPerVs SEs per VS instead of minScaleoutPerVs (default false: a gate should not count on a scale-out nobody triggered).",
            },
            seGroups: {
                type: "object",
                default: {},
                additionalProperties: {
                    type: "object",
                    properties: Object.fromEntries(SE_GROUP_FIELD_NAMES.map((f) => [f, FIELD_VALUE_SCHEMA])),
                    additionalProperties: false,
                },
                description: "SE groups not declared in the stack (e.g. the controller's Default-Group): name -> vcpusPerSe, memoryPerSe (MB), maxSe, minScaleoutPerVs, maxScaleoutPerVs, bufferSe, haMode, as strings or numbers; absent fields take the provider defaults.",
            },
        },
    },
    explain: explainSeCapacity,
    check(stack, config, report) {
        const avi = aviStack(stack, config.seGroups);
        for (const group of avi.groups) {
            if (group.resource) {
                continue; // a declared group's field problems are reported by perfguard-facts
            }
            for (const problem of seGroupFieldProblems(group.fields)) {
                report(`invalid config for policy ${POLICY}: field seGroups.${group.name}: ${problem}. The checks of VSs on this SE group did not run; fix the policy config (--policy-pack-config).`);
            }
        }
        for (const group of avi.groups) {
            guard(group, report, () => {
                const onGroup = avi.placements.filter((p) => p.group === group && p.demand.state !== "none");
                const sizing = seGroupSizing(group.fields);
                if (onGroup.length === 0 || !sizing) {
                    return; // nothing to check, or a field is unknown (preview) or invalid (reported)
                }
                const capacity = seGroupCapacity(sizing.spec);
                const loaded = onGroup.map(loadedOf).filter((x): x is Loaded => x !== undefined);
                // One fix for the group, computed once and shared by every message about it.
                let fixCache: string | undefined;
                const fix = () => (fixCache ??= fixText(group, sizing, loaded.map((l) => l.demand), config));
                for (const item of loaded) {
                    isolate(item.placement.vs, report, () => checkVs(item, group, sizing, capacity, config, fix, report));
                }
                checkGroup(loaded, onGroup.length - loaded.length, group, sizing, capacity, config, fix, report);
            });
        }
    },
});
