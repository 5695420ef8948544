/**
 * nsx-alb-se-capacity: each NSX ALB virtual service (VS) must fit what its SE group gives one VS,
 * and the VSs of a group together must fit what the group carries, keeping headroom.
 */
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import {
    requiredVcpusPerSe,
    seCapacityBasis,
    SeGroupCapacity,
    seGroupCapacity,
    sesFor,
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
import { aviStack, fieldText, SE_GROUP_FIELD_NAMES, seGroupFieldProblems, SeGroupSizing, seGroupSizing, SeGroupView, VsPlacement } from "./support/aviSeGroups";
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

/** A VS whose demand and group are known. */
interface Loaded {
    readonly placement: VsPlacement;
    readonly demand: VsDemand;
    readonly where: Readonly<Partial<Record<keyof VsDemand, string>>>;
}

function keyTypeName(keyType: VsDemand["sslKeyType"]): string {
    return keyType === "ecc" ? "ECC" : "RSA-2048";
}

function ses(count: number): string {
    return plural(count, "SE");
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
        : `${fieldText("minScaleoutPerVs", spec.minScaleoutPerVs, where.minScaleoutPerVs)}, assumeScaleOut false: a scale-out nobody triggered is not counted`;
    const capped = n < (config.assumeScaleOut ? spec.maxScaleoutPerVs : spec.minScaleoutPerVs) ? `, capped by ${fieldText("maxSe", spec.maxSe, where.maxSe)}` : "";
    return `${ses(n)} (${scale}${capped}; ${mode}, N+M active/active)`;
}

/** What the whole group carries, in words. */
function groupCarriesText(sizing: SeGroupSizing, capacity: SeGroupCapacity): string {
    const { spec, where } = sizing;
    const maxSe = fieldText("maxSe", spec.maxSe, where.maxSe);
    const mode = fieldText("haMode", spec.haMode, where.haMode);
    if (spec.haMode === "HA_MODE_SHARED") {
        return `${maxSe} - ${fieldText("bufferSe", spec.bufferSe, where.bufferSe)} = ${ses(capacity.groupSes)} of load (${mode}, N+M: bufferSe SEs stay spare for failover)`;
    }
    const why = spec.haMode === "HA_MODE_SHARED_PAIR" ? "each VS runs on 2 SEs and must survive losing one" : "standbys carry no load";
    return `floor(${maxSe} / 2) = ${ses(capacity.groupSes)}' worth (${mode}: ${why})`;
}

/** The SE size and its per-SE figures for the demanded metrics. */
function sizeText(sizing: SeGroupSizing, capacity: SeGroupCapacity, demands: readonly VsDemand[]): string {
    const { spec, where } = sizing;
    const per = capacity.perSe;
    const figures: string[] = [];
    const keyTypes = new Set(demands.filter((d) => d.sslTps !== undefined).map((d) => d.sslKeyType));
    for (const keyType of keyTypes) {
        figures.push(`${num(sslTpsCapacity(per, keyType), 0)} ${keyTypeName(keyType)} SSL TPS`);
    }
    if (demands.some((d) => d.l7Rps !== undefined)) {
        figures.push(`${num(per.l7Rps, 0)} L7 RPS`);
    }
    if (demands.some((d) => d.l4Cps !== undefined)) {
        figures.push(`${num(per.l4Cps, 0)} L4 CPS`);
    }
    const kinds = new Set(demands.filter((d) => d.throughputGbps !== undefined).map(vsKind));
    for (const kind of kinds) {
        figures.push(`${num(throughputCapacityGbps(per, kind), 2)} Gbps ${KIND_ROW[kind]} throughput`);
    }
    if (demands.some((d) => d.l4OpenConnections !== undefined)) {
        const rowGb = testedSeSize(spec.vcpusPerSe).memoryGb;
        const factor = Math.max(1, spec.memoryPerSeMb / 1024 / rowGb);
        figures.push(`${num(per.l4OpenConnections, 0)} open connections (memory bound: the row's figure x ${num(factor, 2)} for ${num(spec.memoryPerSeMb / 1024, 2)} GB against the row's ${num(rowGb, 2)} GB)`);
    }
    return `${fieldText("vcpusPerSe", spec.vcpusPerSe, where.vcpusPerSe)} and ${fieldText("memoryPerSe", spec.memoryPerSeMb, where.memoryPerSeMb, "MB")} per SE: ` +
        `per SE ${figures.join(", ")} (${seCapacityBasis(spec.vcpusPerSe)})`;
}

/** One VS's demand against `count` SEs, metric by metric. */
function vsDemandText(item: Loaded, u: SeUtilisation, count: number): string {
    const { demand: d, where } = item;
    const parts: string[] = [];
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
        parts.push(`CPU-bound total ${pct(u.cpu)} (SSL TPS, L7 RPS and L4 CPS share the SE's cores, so their shares add up)`);
    }
    if (d.throughputGbps !== undefined) {
        const ssl = d.sslTps !== undefined && d.ssl !== true ? "SSL: perfguard:sslTps is set" : `SSL: ${where.ssl}`;
        parts.push(`throughput ${num(d.throughputGbps, 2)} Gbps (${where.throughputGbps}; ${KIND_ROW[vsKind(d)]} row, ${ssl}) = ${pct(u.throughput)}`);
    }
    if (d.l4OpenConnections !== undefined) {
        parts.push(`open connections ${num(d.l4OpenConnections)} (${where.l4OpenConnections}) = ${pct(u.openConnections)}`);
    }
    return `${parts.join("; ")} of ${ses(count)}`;
}

/** The group's summed demand, metric by metric, naming each VS's figure. */
function groupDemandText(items: readonly Loaded[], u: SeUtilisation, count: number): string {
    const parts: string[] = [];
    const list = (key: keyof VsDemand, show: (d: VsDemand) => string) => listLabels(
        items.filter((i) => i.demand[key] !== undefined).map((i) => `${i.placement.vs.label} ${show(i.demand)}`));
    const has = (key: keyof VsDemand) => items.some((i) => i.demand[key] !== undefined);
    if (has("sslTps")) {
        parts.push(`SSL TPS ${pct(u.sslTps)} (${list("sslTps", (d) => `${num(d.sslTps as number)} ${keyTypeName(d.sslKeyType)}`)}; perfguard:sslTps, perfguard:sslKeyType)`);
    }
    if (has("l7Rps")) {
        parts.push(`L7 RPS ${pct(u.l7Rps)} (${list("l7Rps", (d) => num(d.l7Rps as number))}; perfguard:l7Rps)`);
    }
    if (has("l4Cps")) {
        parts.push(`L4 CPS ${pct(u.l4Cps)} (${list("l4Cps", (d) => num(d.l4Cps as number))}; perfguard:l4Cps)`);
    }
    parts.push(`CPU-bound total ${pct(u.cpu)}`);
    if (has("throughputGbps")) {
        parts.push(`throughput ${pct(u.throughput)} (${list("throughputGbps", (d) => `${num(d.throughputGbps as number, 2)} Gbps ${KIND_ROW[vsKind(d)]}`)}; perfguard:throughputGbps)`);
    }
    if (has("l4OpenConnections")) {
        parts.push(`open connections ${pct(u.openConnections)} (${list("l4OpenConnections", (d) => num(d.l4OpenConnections as number))}; perfguard:l4OpenConnections)`);
    }
    return `${parts.join("; ")} of ${ses(count)}`;
}

function fixText(group: SeGroupView, sizing: SeGroupSizing, demands: readonly VsDemand[], u: SeUtilisation, config: SeCapacityConfig, scope: "vs" | "group"): string {
    const { spec } = sizing;
    const req = requiredVcpusPerSe(demands, spec, { headroomPct: config.headroomPct, scope, assumeScaleOut: config.assumeScaleOut });
    const fixes: string[] = [];
    const where = group.resource ? `on ${group.label}` : `on the controller's SE group "${group.name}" (then update policy config seGroups)`;
    if (req.vcpusPerSe !== undefined) {
        fixes.push(`set vcpusPerSe to "${req.vcpusPerSe}" ${where} (the smallest size that fits; ${seCapacityBasis(req.vcpusPerSe)})`);
    } else {
        fixes.push(`no vcpusPerSe up to 64 fits with the current SE counts`);
    }
    const k = req.sesAtCurrentVcpus;
    const at = `${ses(k)} at the current ${plural(spec.vcpusPerSe, "vCPU")}`;
    if (scope === "group") {
        const maxSe = spec.haMode === "HA_MODE_SHARED" ? k + spec.bufferSe : 2 * k;
        const how = spec.haMode === "HA_MODE_SHARED" ? `${at} + bufferSe ${spec.bufferSe}` : `${at}, 2 per VS for ${spec.haMode}`;
        fixes.push(`raise maxSe to "${maxSe}" (${how})`);
    } else if (spec.haMode === "HA_MODE_SHARED") {
        const scaleField = config.assumeScaleOut ? "maxScaleoutPerVs" : "minScaleoutPerVs";
        const alsoMaxSe = k > spec.maxSe ? ` and maxSe to at least "${k + spec.bufferSe}"` : "";
        fixes.push(`set ${scaleField} to "${k}"${alsoMaxSe} (${at})`);
    } else if (k > 1) {
        fixes.push(`switch haMode to HA_MODE_SHARED (N+M) with minScaleoutPerVs "${k}" (${at}; in ${spec.haMode} a VS gets one SE's capacity)`);
    }
    if (u.limiting === "openConnections" && req.memoryPerSeMbForConnections !== undefined && req.memoryPerSeMbForConnections > spec.memoryPerSeMb) {
        fixes.push(`raise memoryPerSe to "${req.memoryPerSeMbForConnections}" (open connections grow with memory: add memory to the SE)`);
    }
    return `Fix: ${fixes.join("; or ")}.`;
}

function limitText(config: SeCapacityConfig): string {
    const limit = 1 - config.headroomPct / 100;
    return `the ${pct(limit)} allowed (headroomPct ${num(config.headroomPct)}: demand <= ${num(limit, 2)} x capacity)`;
}

function checkVs(item: Loaded, group: SeGroupView, sizing: SeGroupSizing, capacity: SeGroupCapacity, config: SeCapacityConfig, report: Report): void {
    const count = sesFor(capacity, { scope: "vs", assumeScaleOut: config.assumeScaleOut });
    const u = seUtilisation([item.demand], capacity.perSe, count);
    if (u.peak <= 1 - config.headroomPct / 100 + 1e-9) {
        return;
    }
    const vs = item.placement.vs;
    report(
        `${vs.label} does not fit what ${group.label} gives one VS: its demand needs ${pct(u.peak)} of it (limiting metric: ${METRIC_NAME[u.limiting]}), above ${limitText(config)}. ` +
        `The VS gets ${vsGetsText(sizing, capacity, config)}; ${sizeText(sizing, capacity, [item.demand])}. ` +
        `Demand: ${vsDemandText(item, u, count)}. ${fixText(group, sizing, [item.demand], u, config, "vs")}`,
        vs,
    );
}

function checkGroup(items: readonly Loaded[], notCounted: number, group: SeGroupView, sizing: SeGroupSizing, capacity: SeGroupCapacity, config: SeCapacityConfig, report: Report): void {
    const demands = items.map((i) => i.demand);
    const u = seUtilisation(demands, capacity.perSe, capacity.groupSes);
    if (items.length === 0 || u.peak <= 1 - config.headroomPct / 100 + 1e-9) {
        return;
    }
    const needs = capacity.groupSes === 0 ? "more than it carries (no SE's worth of load)" : `${pct(u.peak)} of what it carries`;
    const skipped = notCounted > 0 ? ` (${plural(notCounted, "further VS", "further VSs")} on the group not counted: unknown or invalid demand facts or SSL setting; the total can only be higher)` : "";
    report(
        `${group.label} is overloaded: ${items.length === 1 ? "the 1 VS placed on it needs" : `the ${items.length} VSs placed on it need`} ${needs}${skipped} (limiting metric: ${METRIC_NAME[u.limiting]}), above ${limitText(config)}. ` +
        `The group carries ${groupCarriesText(sizing, capacity)}; ${sizeText(sizing, capacity, demands)}. ` +
        `Demand: ${groupDemandText(items, u, capacity.groupSes)}. ${fixText(group, sizing, demands, u, config, "group")}`,
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
        let verdict: Applicability;
        if (demand.state === "none") {
            verdict = notApplicable("no demand fact (perfguard:sslTps, l7Rps, l4Cps, l4OpenConnections or throughputGbps) on this virtual service");
        } else if (demand.state === "unusable") {
            verdict = notApplicable("a demand fact or the SSL setting the throughput row depends on is unknown or invalid");
        } else if (!group) {
            verdict = notApplicable("its SE group is neither declared in this stack nor described in policy config seGroups (or its seGroupRef is unknown)");
        } else {
            const sizing = sizings.get(group);
            if (!sizing) {
                verdict = notApplicable(`the sizing fields of ${group.label} are unknown or invalid`);
            } else {
                const capacity = seGroupCapacity(sizing.spec);
                const count = sesFor(capacity, { scope: "vs", assumeScaleOut: config.assumeScaleOut });
                const u = seUtilisation([demand.demand], capacity.perSe, count);
                verdict = applied(`on ${group.label}: needs ${pct(u.peak)} of ${ses(count)} (limiting metric ${METRIC_NAME[u.limiting]}), ${limit}`);
            }
        }
        out.set(vs.urn, verdict);
    }
    for (const group of avi.groups) {
        if (!group.resource) {
            continue;
        }
        const loaded = avi.placements.filter((p) => p.group === group && p.demand.state === "ok");
        const sizing = sizings.get(group);
        if (!sizing) {
            out.set(group.resource.urn, notApplicable("a sizing field is unknown in this preview or invalid (perfguard-facts reports it)"));
        } else if (loaded.length === 0) {
            out.set(group.resource.urn, notApplicable("no virtual service with usable demand facts is placed on this SE group"));
        } else {
            const capacity = seGroupCapacity(sizing.spec);
            const u = seUtilisation(loaded.map((p) => (p.demand.state === "ok" ? p.demand.demand : {})), capacity.perSe, capacity.groupSes);
            out.set(group.resource.urn, applied(`${plural(loaded.length, "VS", "VSs")} need ${pct(u.peak)} of the ${ses(capacity.groupSes)} it carries (limiting metric ${METRIC_NAME[u.limiting]}), ${limit}`));
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
                const loaded: Loaded[] = [];
                for (const placement of onGroup) {
                    if (placement.demand.state === "ok") {
                        loaded.push({ placement, demand: placement.demand.demand, where: placement.demand.where });
                    }
                }
                for (const item of loaded) {
                    isolate(item.placement.vs, report, () => checkVs(item, group, sizing, capacity, config, report));
                }
                checkGroup(loaded, onGroup.length - loaded.length, group, sizing, capacity, config, report);
            });
        }
    },
});
