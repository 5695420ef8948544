/**
 * The messages of nsx-alb-se-capacity: one problem line per verdict, the fix stated once on the
 * SE group (the virtual services point to it), and basis lines naming the fields, the table row,
 * the placement rule and the vendor document. The advisory's are in advisoryMessages.ts.
 */
import { SeUtilisation, sslTpsCapacity, throughputCapacityGbps, VsDemand, vsKind, VsKind } from "../../model/seCapacity";
import { connectionsScaled, seCapacityBasis } from "../../model/seTable";
import { GroupPlacement, MEASURED_VCPUS_MAX } from "../../model/sePlacement";
import { PlacementFix } from "../../model/seFixes";
import { SeGroupView } from "./seGroups";
import { fieldText, SeGroupSizing } from "./seGroupFields";
import { listLabels, num, pct, plural } from "../pack/format";
import { isShortened, Message, PROBLEM_LINE_MAX, shortName } from "../pack/message";
import type { ResourceView } from "../pack/resources";
import { dispatcherCoresBasis, dispatcherUnmeasured } from "./dispatcherNotes";
import { failureOver, within } from "./fit";
import { fixChanges, ingressBoundUnits, keyAssumedNames } from "./fixes";
import { CONNECTIONS_SCALED, dispatcherNote, METRIC_NAME, needsText, sizeLabel } from "./names";
import type { SeCapacityConfig } from "./config";
import type { GroupEvaluation, Unit } from "./groupTypes";

const KIND_ROW: Record<VsKind, string> = { l7ssl: "L7 SSL", l7: "L7", l4: "L4" };

/** Vendor documents behind each rule (cited in basis lines; docs/policies/nsx-alb-se-capacity.md quotes them). */
export const HA_DOC = "Avi Elastic HA for Service Engines (avinetworks.com/docs/latest/elastic-ha-for-avi-service-engines)";
export const LEGACY_HA_DOC =
    'Avi 21.1, Legacy HA for Service Engines: "the surviving SE takes over traffic for all virtual services previously active on the failed SE"';
export const SCALE_OUT_DOC =
    'VMware Avi Load Balancer 30.2 configuration guide, scale use cases; Avi "Autoscale Service Engines": all ingress of a VS goes through its primary SE, which forwards flows to the secondaries';

/** `Virtualservice "shop-vs"` with the name shortened for a problem line. */
export function labelOf(resource: ResourceView): string {
    const colon = resource.type.lastIndexOf(":");
    return `${resource.type.slice(colon + 1) || "resource"} "${shortName(resource.name)}"`;
}

/** The group's label for a problem line. */
export function groupLabel(group: SeGroupView): string {
    return group.resource ? labelOf(group.resource) : `SE group "${shortName(group.name)}" (policy config)`;
}

/** A basis line giving names that were shortened on the problem line. */
export function fullNames(resources: ReadonlyArray<{ name: string } | undefined>): string[] {
    const long = resources.filter((r): r is { name: string } => r !== undefined && isShortened(r.name));
    return long.length > 0 ? [`full names: ${long.map((r) => `"${r.name}"`).join(", ")}`] : [];
}

export function limitText(config: SeCapacityConfig): string {
    return `limit ${pct(1 - config.headroomPct / 100)}`;
}

function keyTypeName(keyType: VsDemand["sslKeyType"]): string {
    return keyType === "ecc" ? "ECC" : "RSA-2048";
}

/** What one VS gets in its group's HA mode, in words. */
export function haText(sizing: SeGroupSizing, p: GroupPlacement, config: SeCapacityConfig): string {
    const { spec, where } = sizing;
    const mode = fieldText("haMode", spec.haMode, where.haMode);
    if (spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY") {
        const spread = fieldText("distributeLoadActiveStandby", String(spec.distributeLoadActiveStandby), where.distributeLoadActiveStandby);
        return `${mode}: two SEs, one active, no scale-out; ${spread}: after a failover one SE carries every VS of the pair, whatever this flag says (${LEGACY_HA_DOC})`;
    }
    const field = config.assumeScaleOut ? "maxScaleoutPerVs" : "minScaleoutPerVs";
    const scale = `${fieldText(field, spec[field], where[field])}${config.assumeScaleOut ? ", assumeScaleOut true" : ""}`;
    if (spec.haMode === "HA_MODE_SHARED_PAIR") {
        return `${mode} (active/active): each VS on ${plural(p.sesPerVs, "SE")} (${scale}, at least 2) must fit on ${plural(p.vsSes, "SE")} after one fails`;
    }
    return `${mode} (N+M): each VS on ${plural(p.sesPerVs, "SE")} (${scale}); ${plural(p.sesNeeded, "SE")} for placement + ${fieldText("bufferSe", spec.bufferSe, where.bufferSe)} spare, ${fieldText("maxSe", spec.maxSe, where.maxSe)}`;
}

/** How the busiest SE was found, in words. */
export function placementText(sizing: SeGroupSizing, p: GroupPlacement): string {
    const { spec, where } = sizing;
    const m = fieldText("maxVsPerSe", spec.maxVsPerSe, where.maxVsPerSe);
    switch (p.rule) {
        case "active-standby":
            return `every VS of the group on the active SE (${p.vsCount} VSs; ${m})`;
        case "active-standby-distributed":
            return `VSs spread over both SEs while both run (busier SE ${pct(p.steadyStateSe?.peak ?? 0)}, steady state); after a failover the surviving SE carries all ${p.vsCount} VSs (${m})`;
        case "packed":
            return `${fieldText("algo", spec.algo, where.algo)}: the busiest SE holds the ${plural(p.worstSeShares, "heaviest VS share")} (${m})`;
        case "distributed":
            return `${fieldText("algo", spec.algo, where.algo)}: whole VSs, heaviest first, each on the least-loaded SE the group may run`;
    }
}

/** The per-SE figures the demanded metrics are compared with. */
export function capacityText(sizing: SeGroupSizing, p: GroupPlacement, demands: readonly VsDemand[], dispatcher = false): string {
    const { spec, where } = sizing;
    const per = p.perSe;
    const figures: string[] = [];
    for (const keyType of new Set(demands.filter((d) => d.sslTps !== undefined).map((d) => d.sslKeyType))) {
        figures.push(`${num(sslTpsCapacity(per, keyType), 0)} ${keyTypeName(keyType)} SSL TPS`);
    }
    if (demands.some((d) => d.l7Rps !== undefined)) {
        figures.push(`${num(per.l7Rps, 0)} L7 RPS`);
    }
    if (demands.some((d) => d.l4Cps !== undefined)) {
        figures.push(`${num(per.l4Cps, 0)} L4 CPS`);
    }
    for (const kind of new Set(demands.filter((d) => d.throughputGbps !== undefined).map(vsKind))) {
        figures.push(`${num(throughputCapacityGbps(per, kind), 2)} Gbps ${KIND_ROW[kind]} throughput${kind === "l7ssl" ? " (CPU bound)" : ""}`);
    }
    if (demands.some((d) => d.l4OpenConnections !== undefined)) {
        // Only the row's own memory was measured: above it the figure is scaled, and says so.
        figures.push(`${num(per.l4OpenConnections, 0)} open connections (memory bound${connectionsScaled(per) ? `; ${CONNECTIONS_SCALED}` : ""})`);
    }
    // With a dedicated dispatcher below 4 vCPUs the figures are the proxy cores' row (open connections the SE's own).
    const connections = demands.some((d) => d.l4OpenConnections !== undefined) ? `; open connections from the ${spec.vcpusPerSe} vCPU row` : "";
    const rowBasis = dispatcher
        ? `${seCapacityBasis(spec.vcpusPerSe - 1)}; ${dispatcherNote(spec.vcpusPerSe)} (that row had every core a proxy core)${connections}`
        : seCapacityBasis(spec.vcpusPerSe, per.reading);
    const measured = per.extrapolated ? `; not measured: beyond the ${MEASURED_VCPUS_MAX} vCPU row` : "";
    return (
        `per SE at ${fieldText("vcpusPerSe", spec.vcpusPerSe, where.vcpusPerSe)}, ${fieldText("memoryPerSe", spec.memoryPerSeMb, where.memoryPerSeMb, "MB")}: ` +
        `${figures.join(", ") || "no demand"} (${rowBasis}${measured})`
    );
}

/** One utilisation, limit by limit: "CPU 297% (SSL TPS 222%, L7 RPS 75%), throughput 0%". */
export function utilisationText(u: SeUtilisation): string {
    const cpuParts = (["sslTps", "l7Rps", "l4Cps", "sslThroughput"] as const).filter((k) => u[k] > 0).map((k) => `${METRIC_NAME[k]} ${pct(u[k])}`);
    // Adding fractions of one CPU across kinds of load is an assumption: each figure was measured alone.
    const sum = cpuParts.length > 1 ? ", summed: not measured" : "";
    const parts = [`CPU ${pct(u.cpu)}${cpuParts.length > 0 ? ` (${cpuParts.join(" + ")}${sum})` : ""}`];
    if (u.throughput > 0) {
        parts.push(`throughput ${pct(u.throughput)}${u.ingress > 0 ? ` (primary SE ingress ${pct(u.ingress)}, not spread)` : ""}`);
    }
    if (u.openConnections > 0) {
        parts.push(`open connections ${pct(u.openConnections)}`);
    }
    return parts.join(", ");
}

/** The demand facts of a unit, with where each came from. */
export function demandText(unit: Unit): string {
    const parts: string[] = [];
    for (const m of unit.members) {
        const d = m.demand;
        if (!d) {
            continue;
        }
        const own: string[] = [];
        if (d.sslTps !== undefined) {
            // Read from a certificate in the stack, or assumed: the Basis says which (certificates.ts).
            // A key the table did not measure is named as read, with the row it was judged on.
            const unmeasured = d.sslKeyBasis?.unmeasured ?? [];
            const keyLabel =
                unmeasured.length > 0
                    ? `${unmeasured.join("/")} SSL TPS, judged on the ${keyTypeName(d.sslKeyType)} row: not measured; larger keys cost more per handshake`
                    : `${keyTypeName(d.sslKeyType)} SSL TPS`;
            own.push(`${num(d.sslTps)} ${keyLabel}${d.sslKeyBasis && m.where.sslKeyType ? ` (${m.where.sslKeyType})` : ""}`);
        }
        if (d.l7Rps !== undefined) {
            own.push(`${num(d.l7Rps)} L7 RPS`);
        }
        if (d.l4Cps !== undefined) {
            own.push(`${num(d.l4Cps)} L4 CPS`);
        }
        if (d.throughputGbps !== undefined) {
            own.push(`${num(d.throughputGbps, 2)} Gbps ${KIND_ROW[vsKind(d)]}${m.where.ssl ? ` (SSL: ${m.where.ssl})` : ""}`);
        }
        if (d.l4OpenConnections !== undefined) {
            own.push(`${num(d.l4OpenConnections)} open connections`);
        }
        const unknown = m.unknown.length > 0 ? `; ${listLabels(m.unknown)} unknown in this preview, not counted` : "";
        // One VS alone is the resource reported: no need to name it again.
        parts.push(`${unit.members.length > 1 ? `${m.placement.vs.label}: ` : ""}${own.join(", ") || "no demand fact"}${unknown}`);
    }
    return `demand (perfguard: facts): ${parts.join("; ")}`;
}

/** The problem of one VS (with its SNI children) that does not fit the SEs it runs on. */
export function vsMessage(unit: Unit, e: GroupEvaluation, config: SeCapacityConfig): Message {
    const p = e.placement as GroupPlacement;
    const u = p.perVs[unit.index];
    const vs = unit.head.vs;
    const known = unit.partial ? "known demand alone " : "";
    const children = unit.members.length > 1 ? ` with its ${plural(unit.members.length - 1, "SNI child", "SNI children")}` : "";
    // Native scale-out: the primary SE takes every ingress packet, so ingress-bound load needs one SE's worth.
    const ingress = u.limiting === "ingress";
    const assumed = ingress && unit.ingressAssumed ? "; no direction given: all counted as ingress" : "";
    const what = needsText(u, p.vsSes, ingress ? `not spread over its ${plural(p.vsSes, "SE")}${assumed}` : "");
    const long = `${labelOf(vs)}${children} ${known}needs ${what} on ${groupLabel(e.group)} (${limitText(config)}): it would drop traffic at peak.`;
    const short = `${labelOf(vs)}${children} ${known}needs ${what} (${limitText(config)}).`;
    return {
        // Long names: the group is named in the fix, so the problem line can leave it out.
        problem:
            long.length <= PROBLEM_LINE_MAX
                ? long
                : short.length <= PROBLEM_LINE_MAX
                  ? short
                  : `${labelOf(vs)} ${known}needs ${needsText(u, p.vsSes, assumed ? "all counted as ingress" : "")} (${limitText(config)}).`,
        fix: `see the fix on ${groupLabel(e.group)}${e.group.resource ? "" : " (reported on the stack)"}: one change for all its VSs.`,
        basis: [
            `${utilisationText(u)} of ${plural(p.vsSes, "SE")}; ${demandText(unit)}`,
            ...(u.ingress > 0
                ? [
                      `native scale-out: ingress on the primary SE, CPU work and egress spread (${SCALE_OUT_DOC}); scaleoutEcmp "true" (BGP/ECMP) spreads ingress too`,
                  ]
                : []),
            // Its group's message (always reported with it) carries the two-way judgement and the dispatcher notes.
            ...fullNames([vs, e.group.resource]),
        ],
    };
}

/** One fix option in words. */
export function optionText(fix: PlacementFix, e: GroupEvaluation): string {
    const changes = fixChanges(fix, e);
    const ecmpText = `scaleoutEcmp "true" on its VSs (BGP/ECMP scale-out: the upstream router spreads their ingress; needs BGP peering)`;
    // With ECMP alone enough, the group keeps its fields: the option is the VS change only.
    const set = changes.length === 0 ? `set ${ecmpText}` : `set ${changes.join(", ")}${fix.ecmp ? `, and ${ecmpText}` : ""}`;
    const p = fix.placement;
    const edition = fix.kind === "mode" ? "N+M: not in the Essentials and Basic editions, which have only legacy active/standby; " : "";
    // The table is per SE: spreading a VS over several SEs counts on linear scale-out, which the
    // source does not measure (in L2 scale-out the primary SE receives all ingress and forwards flows).
    const row = seCapacityBasis(fix.spec.vcpusPerSe).replace(/^NSX ALB 20\.1\.6 per-SE table, /, "");
    const label = sizeLabel(fix.spec.vcpusPerSe, fix.spec.dedicatedDispatcher);
    // A fix that raises memory for open connections counts on the memory scaling, not on a row.
    const conns =
        connectionsScaled(p.perSe) && e.units.some((u) => u.demands.some((d) => d.l4OpenConnections !== undefined))
            ? `; open connections ${CONNECTIONS_SCALED}`
            : "";
    const size =
        (label === "extrapolated"
            ? `extrapolated beyond the ${MEASURED_VCPUS_MAX} vCPU row: not measured`
            : label === "not measured"
              ? dispatcherNote(fix.spec.vcpusPerSe)
              : p.vsSes > 1
                ? `${row} per SE; linear scale-out to ${plural(p.sesPerVs, "SE")} assumed${p.sesPerVs !== p.vsSes ? ` (judged on ${p.vsSes} after one fails)` : ""}: not measured`
                : label === "measured"
                  ? `${row}, measured`
                  : row) + conns;
    // A scale-out fix names minScaleoutPerVs itself; a mode change needs the SEs per VS said.
    const ses = fix.kind !== "mode" || fix.spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY" ? "" : `each VS on ${plural(p.sesPerVs, "SE")}; `;
    return `${set} (${edition}${ses}busiest SE ${pct(p.worstSe.peak)}; ${size})`;
}

/** The group's fix: every option fits all its VSs and its busiest SE, within the provider's ranges. */
export function fixText(e: GroupEvaluation, config: SeCapacityConfig): string {
    const fixes = e.fixes();
    const where = e.group.resource ? "" : ` on the controller and in policy config seGroups.${e.group.name}`;
    // No key declared: RSA-2048 was assumed; an EC key carries about three times the handshakes.
    const assumedKey = keyAssumedNames(e);
    const key =
        assumedKey.length > 0
            ? `declare the key type of ${assumedKey.join(", ")} first (RSA-2048 assumed): its Sslkeyandcertificate in the stack, or perfguard:sslKeyType; or `
            : "";
    if (fixes.length === 0) {
        return (
            key +
            "nothing within the provider's ranges (minScaleoutPerVs 1-64, maxSe 0-1000, memoryPerSe up to 262144 MB, 64 vCPUs) fits these VSs on one group: " +
            "move some of them to another SE group, or lower their demand."
        );
    }
    // Legacy active/standby: fewer VSs on the pair is the fix that keeps the edition.
    const legacy = (e.sizing as SeGroupSizing).spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY";
    // Native scale-out does not spread ingress: without BGP/ECMP, only more VSs (more primaries) do,
    // and only where placement puts them on other SEs. Packed (compact) placement puts new VSs on the
    // SEs already running until each holds maxVsPerSe (provider `algo`; Avi Elastic HA, placement):
    // there several VSs land on the same SE and a split alone moves no load.
    const ingressBound = ingressBoundUnits(e, config);
    const packed = (e.sizing as SeGroupSizing).spec.algo === "PLACEMENT_ALGO_PACKED";
    const split = packed
        ? `split the traffic of its ingress-bound VSs over several VSs with algo "PLACEMENT_ALGO_DISTRIBUTED" (packed placement puts them on the same SE until maxVsPerSe, so a split alone moves no load), or move some to another SE group`
        : "split the traffic of its ingress-bound VSs over several VSs (each with its own primary SE), or another SE group";
    const another = legacy ? "; or move some of its VSs to another SE group" : ingressBound.length > 0 ? `; or, without BGP/ECMP, ${split}` : "";
    // No direction declared: all throughput was counted as ingress; declaring it is the cheapest fix.
    const declare = ingressBound.some((u) => u.ingressAssumed)
        ? "declare perfguard:ingressPct on its VSs if their traffic is mostly egress (now all counted as ingress); or "
        : "";
    return `${key}${declare}${fixes.map((f) => optionText(f, e)).join("; or ")}${where}${another}.`;
}

/** "busiest SE: CPU 297.2% (...); algo ...": the group's busiest SE and how placement fills it. */
export function busiestSeText(e: GroupEvaluation): string {
    const p = e.placement as GroupPlacement;
    return `busiest SE ${pct(p.worstSe.peak)}: ${utilisationText(p.worstSe)}; ${placementText(e.sizing as SeGroupSizing, p)}; ${p.sesNeeded} of ${p.sesMax} SEs for placement`;
}

/**
 * True when the group's only VS is itself reported: its violation breaks the load down, so the
 * group's message leaves the busiest SE to --explain (the policy records it there).
 */
export function onlyVsReported(e: GroupEvaluation, failing: readonly Unit[]): boolean {
    return e.units.length === 1 && failing.length === 1 && (e.placement as GroupPlacement).placeable;
}

/** The problem of a group: its placement, its busiest SE, or VSs that do not fit. */
export function groupMessage(e: GroupEvaluation, failing: readonly Unit[], config: SeCapacityConfig): Message {
    const p = e.placement as GroupPlacement;
    const sizing = e.sizing as SeGroupSizing;
    const label = groupLabel(e.group);
    const limit = limitText(config);
    let problem: string;
    const { spec } = sizing;
    // The SEs one VS asks for (active/active at least two): more than maxSe and no VS can be placed at all.
    const scaleField = config.assumeScaleOut ? "maxScaleoutPerVs" : "minScaleoutPerVs";
    const wanted = spec.haMode === "HA_MODE_SHARED_PAIR" ? Math.max(spec[scaleField], 2) : spec[scaleField];
    const after = e.afterFailure;
    if (!p.placeable) {
        problem =
            spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY"
                ? `${label}: its ${plural(p.vsCount, "VS")} exceed maxVsPerSe ${p.maxVsPerSe} on its two SEs, so the Controller cannot place them all.`
                : // maxSe 0 is the cause whatever else is set: the group may run no SE at all.
                  spec.maxSe < 1
                  ? `${label}: maxSe ${spec.maxSe} lets it run no SE, so the Controller cannot place its ${plural(p.vsCount, "VS")}.`
                  : wanted > spec.maxSe
                    ? `${label}: ${scaleField} ${spec[scaleField]}${wanted !== spec[scaleField] ? " (active/active: at least 2)" : ""} exceeds maxSe ${spec.maxSe}: the Controller cannot place its ${plural(p.vsCount, "VS")}.`
                    : `${label}: its ${plural(p.vsCount, "VS")} need${p.vsCount === 1 ? "s" : ""} ${plural(p.sesNeeded, "SE")} at maxVsPerSe ${p.maxVsPerSe} but maxSe is ${spec.maxSe}: the Controller cannot place them all.`;
    } else if (after && failureOver(e, config) && within(p.worstSe.peak, config) && failing.length === 0) {
        // N+M with no buffer SE: judged at the first failure, as legacy active/standby is at failover.
        problem = `${label}: bufferSe 0: after one of its ${after.running} SEs fails, the busiest survivor needs ${pct(after.placement.worstSe.peak)} (${limit}): its VSs would drop traffic at peak.`;
    } else if (p.worstSe.peak > 1 - config.headroomPct / 100 + 1e-9 && (failing.length === 0 || p.worstSeShares > 1)) {
        problem =
            sizing.spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY"
                ? `${label}: after a failover one SE carries all ${p.vsCount} VSs: busiest SE ${pct(p.worstSe.peak)} (${limit}): they would drop traffic at peak.`
                : `${label}: its busiest SE needs ${pct(p.worstSe.peak)} with ${plural(p.worstSeShares, "VS share")} on it (${limit}): its VSs would drop traffic at peak.`;
    } else {
        const first = labelOf(failing[0].head.vs);
        problem =
            e.units.length === 1
                ? `${label}: its only VS, ${first}, does not fit the SEs it runs on (${limit}).`
                : `${label}: ${failing.length} of its ${e.units.length} VSs ${failing.length === 1 ? "does" : "do"} not fit the SEs they run on (${limit}), first ${first}.`;
        if (problem.length > PROBLEM_LINE_MAX) {
            problem = `${label}: ${failing.length} of its ${plural(e.units.length, "VS")} do${failing.length === 1 ? "es" : ""} not fit the SEs they run on (${limit}).`;
        }
    }
    const partial = e.units.filter((u) => u.partial && !u.ambiguous).length;
    const ambiguous = e.units.filter((u) => u.ambiguous).length;
    return {
        problem,
        fix: fixText(e, config),
        basis: [
            ...(onlyVsReported(e, failing) ? [] : [busiestSeText(e)]),
            ...(after && failureOver(e, config) ? [failureText(e)] : []),
            capacityText(
                sizing,
                p,
                e.units.flatMap((u) => u.demands),
                dispatcherUnmeasured(e),
            ),
            haText(sizing, p, config),
            ...(e.judgedBothWays ? [e.judgedBothWays] : []),
            ...dispatcherCoresBasis(e),
            ...(partial > 0
                ? [`${plural(partial, "VS")} counted with known demand only (unknown in this preview or unreadable): the real load can only be higher`]
                : []),
            ...(ambiguous > 0 ? [`${plural(ambiguous, "VS")} whose ref matches this and another SE group counted here too (not checked themselves)`] : []),
            ...fullNames([e.group.resource]),
        ],
    };
}

/** N+M with bufferSe 0 after one SE fails: the busiest survivor and how placement fills it. */
export function failureText(e: GroupEvaluation): string {
    const after = e.afterFailure;
    if (!after) {
        return "";
    }
    const q = after.placement;
    const down = after.placeable ? "" : `; ${plural(q.sesNeeded, "SE")} needed at maxVsPerSe ${q.maxVsPerSe}: the rest are down until a new SE is up`;
    return (
        `after one SE fails (bufferSe 0): busiest of ${plural(after.running - 1, "surviving SE")} ${pct(q.worstSe.peak)}: ${utilisationText(q.worstSe)}; ` +
        `each VS on ${plural(q.sesPerVs, "SE")}, placed as before (${HA_DOC}: the failed SE's VSs go to the remaining SEs)${down}`
    );
}
