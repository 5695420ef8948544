/**
 * What changed between two states of a stack: entities added, removed and changed (each changed
 * figure before → after with the difference, worse or better by the figure's own direction:
 * cli/diff/figureDiff.ts), and the (policy, entity) verdicts that appear or disappear, mandatory
 * first (cli/diff/verdictPairing.ts); this module joins the two and counts. Pure: no I/O, O(n) in
 * entities, figures and verdicts (maps by key), independent of the input order.
 */
import type { EntityFigures } from "../../policies/pack/figures";
import { diffEntities, EntityChange, SystemScales } from "./figureDiff";
import { diffVerdicts, Verdict, VerdictChange, verdictKey } from "./verdictPairing";

export { diffEntities, figureChange, figureTexts, membershipChanges, PCT_FLOOR, preciseTexts } from "./figureDiff";
export type { Direction, EntityChange, FigureChange, MembershipChange, SiteScales, SystemScales } from "./figureDiff";
export { diffVerdicts } from "./verdictPairing";
export type { Verdict, VerdictChange } from "./verdictPairing";

export interface DiffResult {
    readonly entities: readonly EntityChange[];
    readonly verdicts: readonly VerdictChange[];
    readonly counts: {
        readonly newMandatory: number;
        readonly goneMandatory: number;
        readonly newAdvisory: number;
        readonly goneAdvisory: number;
        readonly headMandatory: number;
        readonly worse: number;
        readonly better: number;
        readonly changed: number;
        /** Figures that moved only through a system's shared scale (the Citrix Site database's; not in worse or better). */
        readonly siteShare: number;
        /** Memberships of entities that changed (a zone that gained or lost a Delivery Group). */
        readonly membership: number;
        /** Figures whose values moved below the diff's display precision (not counted as changes). */
        readonly belowPrecision: number;
        readonly added: number;
        readonly removed: number;
        readonly unchanged: number;
    };
}

/** The whole comparison. */
export function diffStates(
    base: { figures: readonly EntityFigures[]; verdicts: readonly Verdict[] },
    head: { figures: readonly EntityFigures[]; verdicts: readonly Verdict[] },
    scales?: SystemScales,
): DiffResult {
    const entities = diffEntities(base.figures, head.figures, scales);
    const verdicts = diffVerdicts(base.verdicts, head.verdicts);
    const figures = entities.filter((e) => e.status === "changed").flatMap((e) => e.figures);
    const count = (change: VerdictChange["change"], level: Verdict["level"]) => verdicts.filter((v) => v.change === change && v.verdict.level === level).length;
    return {
        entities,
        verdicts,
        counts: {
            newMandatory: count("appeared", "mandatory"),
            goneMandatory: count("disappeared", "mandatory"),
            newAdvisory: count("appeared", "advisory"),
            goneAdvisory: count("disappeared", "advisory"),
            headMandatory: new Set(head.verdicts.filter((v) => v.level === "mandatory").map(verdictKey)).size,
            worse: figures.filter((f) => f.direction === "worse" && !f.cause).length,
            better: figures.filter((f) => f.direction === "better" && !f.cause).length,
            changed: figures.filter((f) => f.direction === "changed").length,
            siteShare: figures.filter((f) => f.cause !== undefined).length,
            membership: entities.filter((e) => e.status === "changed").reduce((n, e) => n + e.members.length, 0),
            belowPrecision: figures.filter((f) => f.precise !== undefined).length,
            added: entities.filter((e) => e.status === "added").length,
            removed: entities.filter((e) => e.status === "removed").length,
            unchanged: entities.filter((e) => e.status === "unchanged").length,
        },
    };
}
