/**
 * The inventory `perfguard diff` judges both sides with: PERFGUARD_INVENTORY, read here as each
 * side's pack reads it (the packs inherit this process's environment), so base and head see the
 * same other stacks (docs/shared-capacity.md). A source the packs would report as a mandatory
 * error is a usage error here: it would be the same verdict on both sides, paired as unchanged,
 * and the diff would pass on a comparison that counted no other stack.
 */
import { currentInventory } from "../../policies/pack/inventory/current";
import { emptySources } from "../../policies/pack/inventory/empty";
import { urnStack } from "../../policies/pack/inventory/read";
import { escapeControl } from "../../policies/pack/message";
import { plural } from "../../policies/pack/format";
import { INVENTORY_ENV } from "../../policies/pack/inventory/types";
import { UsageError } from "../errors";
import type { Side } from "./sides";

/** What the diff says about the inventory it judged both sides with. */
export interface DiffInventory {
    /** The variable's value, as given. */
    readonly spec: string;
    /** The inventory's stacks other than the compared one (whose own entry each side replaces). */
    readonly otherStacks: number;
    /** The compared stack's entry was in the inventory and is replaced by each side. */
    readonly ownReplaced: boolean;
}

/**
 * The inventory both sides are judged with, or undefined when PERFGUARD_INVENTORY is not set.
 * Throws UsageError (exit 2) naming a source that cannot be read or holds no stack.
 */
export function diffInventory(base: Side, head: Side): DiffInventory | undefined {
    const inventory = currentInventory();
    if (!inventory) {
        return undefined;
    }
    const problems = [...inventory.errors.map((e) => `${e.source} ${e.problem}`), ...emptySources(inventory).map((s) => `${s} holds no stack exports`)];
    if (problems.length > 0) {
        throw new UsageError(
            `${INVENTORY_ENV} source ${escapeControl(problems.sort()[0])}${problems.length > 1 ? ` (and ${plural(problems.length - 1, "more problem")})` : ""}: both sides are judged with it; fix the source or unset ${INVENTORY_ENV}`,
        );
    }
    const compared = [...head.resources, ...base.resources].map((r) => urnStack(r.urn)).find((s) => s !== undefined);
    const own = (e: { project: string; stack: string }) => compared !== undefined && e.project === compared.project && e.stack === compared.stack;
    return {
        spec: inventory.spec,
        otherStacks: inventory.entries.filter((e) => !own(e)).length,
        ownReplaced: inventory.entries.some(own),
    };
}

/** The line the text and Markdown outputs print under the sides (`code` quotes the variable's value). */
export function inventoryLine(inv: DiffInventory, code: (s: string) => string = (s) => s): string {
    return (
        `other stacks' load counted on both sides: ${INVENTORY_ENV}=${code(escapeControl(inv.spec))} (${plural(inv.otherStacks, "other stack")}` +
        `${inv.ownReplaced ? "; this stack's own deployed entry replaced by each side" : ""})`
    );
}
