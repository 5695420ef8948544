/**
 * SE groups shared across stacks (PERFGUARD_INVENTORY): where a group's verdict lands, and the
 * Basis naming the other stacks' contributions. A group of another stack is judged with every
 * stack's VSs, and its verdict lands on the previewed stack's VSs that add load to it (the group
 * itself gets none here: it is not in this preview); a group this stack owns keeps its verdict.
 */
import type { Message } from "../pack/message";
import { escapeControl, shortName } from "../pack/message";
import { pct } from "../pack/format";
import type { Report } from "../pack/definePolicy";
import type { ResourceOrigin, ResourceView } from "../pack/resources";
import type { GroupEvaluation } from "./groupTypes";
import { INVENTORY_ENV } from "../pack/inventory/types";

/** How many other stacks' VSs a basis line lists before "and N more". */
const LISTED = 5;

function stackText(o: ResourceOrigin): string {
    return `${escapeControl(o.project)}/${escapeControl(o.stack)}`;
}

function deployedText(o: ResourceOrigin): string {
    return o.time ? `deployed ${escapeControl(o.time)}` : "deployment time unknown";
}

/**
 * The resources a group's verdict lands on: the group when this stack declares it (or undefined,
 * the stack, for a config group); for another stack's group, this stack's VSs on it (sorted).
 */
export function groupTargets(e: GroupEvaluation): Array<ResourceView | undefined> {
    const group = e.group.resource;
    if (!group?.foreign) {
        return [group];
    }
    const own = new Map<string, ResourceView>();
    for (const unit of e.units) {
        const vs = unit.head.vs;
        if (!vs.foreign) {
            own.set(vs.urn, vs);
        }
    }
    return [...own.keys()].sort().map((urn) => own.get(urn) as ResourceView);
}

/** True when the previewed stack adds no VS to the group and does not declare it: nothing of this preview to judge. */
export function onlyForeign(e: GroupEvaluation): boolean {
    return e.group.resource?.foreign === true && groupTargets(e).length === 0;
}

/**
 * Basis lines naming the other stacks' part: the group's owner, and each foreign VS with its
 * share of one SE, with the deployment time of its stack (the inventory's time). Empty when
 * the group and its VSs are all of this stack.
 */
export function foreignBasis(e: GroupEvaluation): string[] {
    const lines: string[] = [];
    const owner = e.group.resource?.origin;
    if (owner) {
        lines.push(`SE group of stack ${stackText(owner)} (inventory, ${deployedText(owner)}): its fields are changed there`);
    }
    const shares: string[] = [];
    e.units.forEach((unit) => {
        const o = unit.head.vs.origin;
        if (o) {
            const u = e.placement?.perVs[unit.index];
            shares.push(`${stackText(o)} ${unit.head.vs.label}${u ? ` ${pct(u.peak)} of an SE` : ""} (${deployedText(o)})`);
        }
    });
    if (shares.length > 0) {
        shares.sort();
        const listed = shares.length <= LISTED ? shares.join("; ") : `${shares.slice(0, LISTED).join("; ")}; and ${shares.length - LISTED} more`;
        lines.push(`other stacks' VSs on this group (PERFGUARD_INVENTORY): ${listed}`);
    }
    return lines;
}

/** Reports a group's message where it lands (groupTargets), with the other stacks' contributions. */
export function reportGroup(report: Report, e: GroupEvaluation, message: Message): void {
    const extra = foreignBasis(e);
    const full = extra.length > 0 ? { ...message, basis: [...(message.basis ?? []), ...extra] } : message;
    for (const target of groupTargets(e)) {
        report(full, target);
    }
}

/**
 * A group described only in policy config (not declared by this stack) that fits this stack's
 * load, with no inventory: every VS this stack puts on it is "not checked" at the unverified
 * level, with the figure, since other stacks' VSs on the same group are not counted (never a
 * silent pass). Nothing when an inventory is set (their VSs are counted) or the group fails.
 */
export function reportConfigOnlyLoad(report: Report, e: GroupEvaluation, inventorySet: boolean): void {
    if (e.group.resource || inventorySet || !e.placement) {
        return;
    }
    const busiest = pct(e.placement.worstSe.peak);
    for (const unit of e.units) {
        if (!unit.idle && !unit.ambiguous && !unit.head.vs.foreign) {
            report.notChecked(
                {
                    reason: `SE group "${shortName(e.group.name)}": busiest SE ${busiest} with this stack's load; other stacks' load is not counted`,
                    remedy: `set ${INVENTORY_ENV} to the stacks' state (docs/shared-capacity.md)`,
                },
                unit.head.vs,
            );
        }
    }
}
