/**
 * nsx-alb-se-capacity: each NSX ALB virtual service (VS) must fit the SEs its group places it on
 * (by HA mode), the group's busiest SE must fit the VSs placement puts on it (packed or
 * distributed), and the group must have the SEs to place them, keeping headroom.
 */
import { SE_GROUP_TYPE, seGroupFieldProblems } from "./seGroupFields";
import { VS_TYPE } from "./vsDemand";
import { isolate, Report, stackPolicy } from "../pack/definePolicy";
import { plural } from "../pack/format";
import { evaluateSeGroups } from "./evaluation";
import { SE_CAPACITY_SCHEMA, SeCapacityConfig } from "./config";
import { groupFits, within } from "./fit";
import { GroupEvaluation, Unit } from "./groupTypes";
import { needsText } from "./names";
import { busiestSeText, groupMessage, onlyVsReported, vsMessage } from "./capacityMessages";
import { onlyForeign, reportConfigOnlyLoad, reportGroup } from "./foreignLoad";
import { currentInventory } from "../pack/inventory/current";
import { holdsStacks } from "../pack/inventory/empty";

export type { SeCapacityConfig } from "./config";

const POLICY = "nsx-alb-se-capacity";

/** Records each VS's outcome on a group whose sizing is known; returns the units that do not fit. */
function judgeUnits(e: GroupEvaluation, config: SeCapacityConfig, report: Report): Unit[] {
    const p = e.placement;
    const failing: Unit[] = [];
    if (!p) {
        return failing;
    }
    e.units.forEach((unit, i) => {
        const u = p.perVs[i];
        if (unit.ambiguous) {
            return; // not checked (reported once on the stack); counted in the busiest SE only
        }
        for (const member of unit.members) {
            const vs = member.placement.vs;
            if (member.demand === undefined) {
                report.notChecked({ reason: "a demand fact or the SSL setting is invalid", remedy: "fix the fact perfguard-facts names" }, vs);
            } else if (member.unknown.length > 0 && within(u.peak, config)) {
                report.notChecked(
                    {
                        reason: "a demand fact is unknown in this preview",
                        remedy: "known after apply: run `pulumi policy analyze` after the update, or set the fact literally",
                    },
                    vs,
                );
            } else if (member.placement.demand.state === "none" && member !== unit.members[0]) {
                report.notApplicable("no demand fact on this SNI child", vs);
            } else if (member !== unit.members[0]) {
                report.applied(`counted with its SNI parent ${unit.head.vs.label} on its SEs`, vs);
            } else if (unit.idle) {
                report.notApplicable("no demand fact (perfguard:sslTps, l7Rps, l4Cps, l4OpenConnections or throughputGbps); counted as one placement", vs);
            } else {
                const assumed = unit.ingressAssumed ? " (no direction given: all counted as ingress)" : "";
                report.applied(`needs ${needsText(u, p.vsSes)}${assumed} on ${e.group.label} (${member.placement.via})`, vs);
            }
        }
        if (!unit.idle && !within(u.peak, config)) {
            failing.push(unit);
        }
    });
    return failing;
}

function checkGroup(e: GroupEvaluation, config: SeCapacityConfig, report: Report): void {
    if (!e.sizing || !e.placement) {
        for (const unit of e.units) {
            for (const m of unit.members) {
                report.notChecked(e.blocked ?? { reason: "the sizing of its SE group cannot be read", remedy: "fix the SE group's fields" }, m.placement.vs);
            }
        }
        if (e.group.resource && e.units.length > 0) {
            report.notChecked(e.blocked ?? { reason: "its sizing cannot be read", remedy: "fix the SE group's fields" }, e.group.resource);
        } else if (e.group.resource) {
            report.notApplicable("no virtual service is placed on this SE group", e.group.resource);
        }
        return;
    }
    const failing = judgeUnits(e, config, report);
    // Another stack's group: its message lands on this stack's VSs (reportGroup), one verdict each.
    for (const unit of e.group.resource?.foreign ? [] : failing) {
        report(vsMessage(unit, e, config), unit.head.vs);
    }
    // A VS whose ref is ambiguous counts on every group it may be on (fail closed: the load can only be higher).
    if (failing.length > 0 || !groupFits(e, config)) {
        if (e.group.resource && onlyVsReported(e, failing)) {
            report.applied(busiestSeText(e), e.group.resource);
        }
        reportGroup(report, e, groupMessage(e, failing, config));
    } else if (!e.group.resource) {
        reportConfigOnlyLoad(report, e, holdsStacks(currentInventory()));
    } else {
        if (e.units.length === 0) {
            report.notApplicable("no virtual service is placed on this SE group", e.group.resource);
        } else {
            report.applied(`${busiestSeText(e)}; ${plural(e.units.length, "VS")}${e.judgedBothWays ? `; ${e.judgedBothWays}` : ""}`, e.group.resource);
        }
    }
}

/** Runs `fn` for a group; an unexpected error becomes a violation naming the group. */
function guard(e: GroupEvaluation, report: Report, fn: () => void): void {
    if (e.group.resource) {
        isolate(e.group.resource, report, fn);
        return;
    }
    try {
        fn();
    } catch (err) {
        const what = err instanceof Error ? err.name : "a non-Error value";
        report({
            problem: `perfguard could not evaluate ${e.group.label} (internal error ${what}); the other SE groups were evaluated.`,
            fix: "report this with the group's fields.",
        });
    }
}

export const nsxAlbSeCapacity = stackPolicy<SeCapacityConfig>({
    name: POLICY,
    description: "NSX ALB virtual services must fit their Service Engines, with headroom.",
    enforcementLevel: "mandatory",
    configSchema: SE_CAPACITY_SCHEMA,
    types: [VS_TYPE, SE_GROUP_TYPE],
    check(stack, config, report) {
        const evaluation = evaluateSeGroups(stack, config);
        for (const e of evaluation.groups) {
            if (!e.group.resource) {
                for (const problem of seGroupFieldProblems(e.group.fields)) {
                    report({
                        problem: `invalid config for policy ${POLICY}: an entry of seGroups is invalid, so its VSs were not checked.`,
                        fix: "fix the policy config (--policy-pack-config) as the basis line says.",
                        basis: [`field seGroups.${e.group.name}: ${problem}`],
                    });
                }
            }
        }
        for (const p of evaluation.unresolved) {
            report.notChecked(p.unresolved ?? { reason: "its SE group is not known", remedy: "declare perfguard:seGroup=<name> on the virtual service" }, p.vs);
        }
        for (const e of evaluation.groups) {
            if (!onlyForeign(e)) {
                guard(e, report, () => checkGroup(e, config, report));
            }
        }
    },
});
