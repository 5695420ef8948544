/**
 * nsx-alb-se-capacity-advisory: what nsx-alb-se-capacity lets pass but an expert would flag:
 * an N+M group whose placements leave no room for its buffer SEs, and a fit that rests only on
 * the extrapolation beyond the largest measured SE (6 vCPUs).
 */
import { onlyForeign, reportGroup } from "./foreignLoad";
import { plural } from "../pack/format";
import { MEASURED_VCPUS_MAX } from "../../model/sePlacement";
import { SE_GROUP_TYPE } from "./seGroupFields";
import { VS_TYPE } from "./vsDemand";
import { isolate, Report, stackPolicy } from "../pack/definePolicy";
import { evaluateSeGroups } from "./evaluation";
import { ADVISORY_SCHEMA, advisorySettings, DeprecatedCopies, SeCapacityConfig } from "./config";
import { failureOver, groupFits, within } from "./fit";
import { bufferFixes, measuredFix } from "./fixes";
import { GroupEvaluation, Unit } from "./groupTypes";
import { keyReadingMessage } from "./keyMessages";
import { bufferMessage, bufferState, extrapolatedGroupMessage, extrapolatedVsMessage, measuredFixText, noBufferMessage } from "./advisoryMessages";

const POLICY = "nsx-alb-se-capacity-advisory";

/** Changes that let an N+M group keep its buffer, in words (the figures are the evaluation's). */
function bufferAlternatives(e: GroupEvaluation, config: SeCapacityConfig): string[] {
    const b = bufferFixes(e, config);
    if (!b) {
        return [];
    }
    const out: string[] = [];
    if (b.maxSe !== undefined) {
        out.push(`set maxSe "${b.maxSe}" (${plural(b.sesNeeded, "SE")} for placement + bufferSe ${b.bufferSe})`);
    }
    if (b.maxVsPerSe !== undefined) {
        out.push(`set maxVsPerSe "${b.maxVsPerSe}" (then ${b.room} SEs hold them)`);
    }
    // bufferSe 0 is what the no-buffer warning reports: offered only when nothing else fits, and said so.
    if (b.lowerBufferSe > 0) {
        out.push(`lower bufferSe to "${b.lowerBufferSe}" (fewer SE failures covered)`);
    } else if (out.length === 0) {
        out.push(`lower bufferSe to "0" (no spare SE: a failed SE's VSs then move to the others or are down until a new SE is up)`);
    }
    return out;
}

/** Records each VS's outcome (its blind spots are nsx-alb-se-capacity's, reported there once). */
function recordVss(e: GroupEvaluation, blocked: string | undefined, report: Report): void {
    for (const unit of e.units) {
        for (const member of unit.members) {
            const vs = member.placement.vs;
            if (blocked !== undefined) {
                report.notApplicable(blocked, vs);
            } else if (unit.ambiguous || member.demand === undefined || member.unknown.length > 0) {
                report.notApplicable("its SE group or a demand fact is not known: nsx-alb-se-capacity reports it as not checked", vs);
            } else if (unit.idle || member.placement.demand.state === "none") {
                report.notApplicable("no demand fact; counted as one placement", vs);
            } else {
                report.applied(`judged with ${e.group.label}: fits on measured SE figures unless reported`, vs);
            }
        }
    }
}

function checkGroup(e: GroupEvaluation, config: SeCapacityConfig, report: Report): void {
    const p = e.placement;
    const spec = e.sizing?.spec;
    if (!p || !spec) {
        const blocked = `${e.blocked?.reason ?? "its sizing cannot be read"}: nsx-alb-se-capacity reports it as not checked`;
        if (e.group.resource) {
            report.notApplicable(blocked, e.group.resource);
        }
        recordVss(e, blocked, report);
        return;
    }
    recordVss(e, undefined, report);
    if (spec.haMode === "HA_MODE_SHARED" && p.placeable && !p.bufferKept) {
        reportGroup(report, e, bufferMessage(e, bufferAlternatives(e, config)));
    } else if (spec.haMode === "HA_MODE_SHARED" && p.placeable && spec.bufferSe === 0 && p.vsCount > 0 && !failureOver(e, config)) {
        // Elastic N+M with no buffer: a failed SE's VSs are re-placed on the survivors (or wait
        // for a new SE). Over the limit there, nsx-alb-se-capacity blocks it; within it, this says
        // where the load lands and that no spare is left.
        reportGroup(report, e, noBufferMessage(e));
    }
    // A fit that rests on the favourable reading of the certificates' keys: said on the VS.
    for (const unit of e.units) {
        const message = keyReadingMessage(unit, e, config);
        if (message) {
            report(message, unit.head.vs);
        }
    }
    const m = e.measured;
    if (!m || !groupFits(e, config)) {
        // Measured sizes (or a group that already fails: nsx-alb-se-capacity reports it).
        if (e.group.resource) {
            report.applied(
                spec.vcpusPerSe > MEASURED_VCPUS_MAX
                    ? "the group fails nsx-alb-se-capacity"
                    : `measured size (${spec.vcpusPerSe} vCPUs); ${bufferState(spec, p)}`,
                e.group.resource,
            );
        }
        return;
    }
    const onlyExtrapolated: Unit[] = e.units.filter((u, i) => !u.idle && !within(m.perVs[i].peak, config));
    // The busiest SE is the group's own concern only when it holds more than the one VS concerned.
    const groupOnly = !within(m.worstSe.peak, config) && !(onlyExtrapolated.length === 1 && m.worstSeShares <= 1);
    if (onlyExtrapolated.length === 0 && !groupOnly) {
        if (e.group.resource) {
            report.applied(`busiest SE ${Math.round(m.worstSe.peak * 100)}% on measured SE figures; ${bufferState(spec, p)}`, e.group.resource);
        }
        return;
    }
    const fix = measuredFixText(e, measuredFix(e, config));
    // The fix is stated once: on the only VS concerned, else on the group (the VSs point to it).
    if (onlyExtrapolated.length === 1 && !groupOnly && !e.group.resource?.foreign) {
        report(extrapolatedVsMessage(onlyExtrapolated[0], e, fix, config), onlyExtrapolated[0].head.vs);
        return;
    }
    reportGroup(report, e, extrapolatedGroupMessage(e, onlyExtrapolated, fix, config));
    // Another stack's group: its message lands on this stack's VSs (reportGroup), one verdict each.
    for (const unit of e.group.resource?.foreign ? [] : onlyExtrapolated) {
        report(extrapolatedVsMessage(unit, e, `see the fix on ${e.group.label}: one change for all its VSs.`, config), unit.head.vs);
    }
}

export const nsxAlbSeCapacityAdvisory = stackPolicy<DeprecatedCopies>({
    name: POLICY,
    description: "NSX ALB SE groups should keep their buffer and fit measured SE figures.",
    enforcementLevel: "advisory",
    // The room's settings have one home, nsx-alb-se-capacity (config.ts); copies set here still apply here.
    configSchema: ADVISORY_SCHEMA,
    types: [VS_TYPE, SE_GROUP_TYPE],
    check(stack, own, report) {
        const config = advisorySettings(stack, own);
        const evaluation = evaluateSeGroups(stack, config);
        // The blind spots are nsx-alb-se-capacity's, reported there once per preview (not twice).
        for (const p of evaluation.unresolved) {
            report.notApplicable(`its SE group is not known (${p.unresolved?.reason ?? "unresolved"}): nsx-alb-se-capacity reports it as not checked`, p.vs);
        }
        for (const e of evaluation.groups) {
            if (onlyForeign(e)) {
                continue; // another stack's group with none of this stack's VSs: nothing of this preview
            }
            if (e.group.resource) {
                isolate(e.group.resource, report, () => checkGroup(e, config, report));
            } else {
                checkGroup(e, config, report);
            }
        }
    },
});
