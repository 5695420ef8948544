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
import { cappedList, plural } from "../../policies/pack/format";
import { staleStacks, staleText } from "../../policies/pack/inventory/messages";
import type { EntityFigures } from "../../policies/pack/figures";
import { INVENTORY_ENV } from "../../policies/pack/inventory/types";
import { UsageError } from "../errors";
import type { Side } from "./sides";

/** What the diff says about the inventory it judged both sides with. */
export interface DiffInventory {
    /** The variable's value, as given. */
    readonly spec: string;
    /** The stacks the inventory holds (the compared stack's own entry included). */
    readonly stacks: number;
    /**
     * The other stacks whose load joined this stack's shared objects on either side (`project/stack`,
     * sorted): an SE group's owner and the stacks of its VSs, a zone's, a host's guests'. The
     * inventory's other stacks change no figure or verdict of this stack.
     */
    readonly joined: readonly string[];
    /** The compared stack's entry was in the inventory and is replaced by each side. */
    readonly ownReplaced: boolean;
    /**
     * The stacks deployed longer ago than PERFGUARD_INVENTORY_MAX_AGE_HOURS (or at an unknown
     * time), as the pack's advisory names them on both sides (so the diff pairs it as no change).
     */
    readonly stale?: { readonly hours: number; readonly stacks: readonly string[]; readonly invalid?: string };
}

/**
 * The inventory both sides are judged with, or undefined when PERFGUARD_INVENTORY is not set;
 * `joined` is filled in once the sides are judged (withJoinedStacks).
 * Throws UsageError (exit 2) naming a source that cannot be read or holds no stack.
 */
export function diffInventory(base: Side, head: Side, now: number = Date.now()): DiffInventory | undefined {
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
    // The pack's stale advisory, computed the same way (messages.ts), so the line names its stacks.
    const stale = staleStacks(inventory, now);
    return {
        spec: inventory.spec,
        stacks: inventory.entries.length,
        joined: [],
        ownReplaced: inventory.entries.some(own),
        ...(stale ? { stale: { hours: stale.hours, stacks: stale.names, ...(stale.invalid ? { invalid: stale.invalid } : {}) } } : {}),
    };
}

/**
 * The inventory with the other stacks whose load joined this stack's entities on either side:
 * the stacks each shared object counts (EntityFigures.stacks), leaving out entities of other
 * stacks alone (a same-named group of another controller, reached by its name, counts nothing here).
 */
export function withJoinedStacks(inv: DiffInventory, sides: ReadonlyArray<readonly EntityFigures[]>): DiffInventory {
    const joined = new Set<string>();
    for (const e of sides.flat()) {
        if (e.othersOnly !== true) {
            for (const s of e.stacks ?? []) {
                joined.add(s);
            }
        }
    }
    return { ...inv, joined: [...joined].sort() };
}

/** How many joined stacks the line names before "and N more". */
const NAMED = 5;

/** The line the text and Markdown outputs print under the sides (`code` quotes the variable's value). */
export function inventoryLine(inv: DiffInventory, code: (s: string) => string = (s) => s): string {
    const n = inv.joined.length;
    const joined =
        n === 0
            ? `none of its ${plural(inv.stacks, "stack")} shares an object with this stack`
            : `${n} of its ${plural(inv.stacks, "stack")} ${n === 1 ? "shares" : "share"} objects with this stack: ${cappedList(inv.joined, NAMED, false)}`;
    const parts = [
        joined,
        ...(inv.ownReplaced ? ["this stack's own deployed entry replaced by each side"] : []),
        // The words of the pack's stale advisory, which both sides carry (so the diff pairs it as no change).
        ...(inv.stale
            ? [
                  `${staleText({ hours: inv.stale.hours, names: inv.stale.stacks })}: their load may have changed${inv.stale.invalid ? ` (${inv.stale.invalid})` : ""}`,
              ]
            : []),
    ];
    return `other stacks' load counted on both sides: ${INVENTORY_ENV}=${code(escapeControl(inv.spec))} (${parts.join("; ")})`;
}
