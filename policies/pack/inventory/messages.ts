/**
 * What the pack says about the inventory itself (perfguard-facts sends these once per
 * AnalyzeStack): a source that cannot be read (mandatory: the load it holds is unknown, and a
 * silent pass would follow), a source that holds no stack (mandatory, for the same reason: an
 * empty folder or backend is most often a failed export step or a wrong path, and a fleet of one
 * stack is an inventory holding that stack), stale stacks (advisory, one for all), one stack read twice.
 */
import { escapeControl, Message, PROBLEM_LINE_MAX } from "../message";
import { maxAgeHours, staleEntries } from "./current";
import { emptySources } from "./empty";
import { Inventory, InventoryEntry, INVENTORY_ENV, MAX_AGE_ENV } from "./types";

export interface InventoryNotice {
    readonly message: Message;
    readonly level: "mandatory" | "advisory";
}

function fit(line: string, short: string): string {
    return line.length <= PROBLEM_LINE_MAX ? line : short;
}

/**
 * A source as the problem line names it: whole up to 60 characters, else its last 59 after "…"
 * (the file or folder name is the informative end; a CI runner's path prefix is not), so that the
 * line stays within 160 characters wherever the checkout lives. The Basis gives it whole.
 */
export function sourceLabel(source: string): string {
    return source.length <= 60 ? source : `…${source.slice(-59)}`;
}

/** `project/stack`, as messages name a stack of the inventory. */
export function stackName(project: string, stack: string): string {
    return `${escapeControl(project)}/${escapeControl(stack)}`;
}

/** The hours between `time` and `now`, one decimal. */
function ageHours(time: string, now: number): string {
    return `${Math.round((now - Date.parse(time)) / 360_000) / 10} h`;
}

/** The inventory's stacks older than PERFGUARD_INVENTORY_MAX_AGE_HOURS, as the stale advisory names them. */
export interface StaleStacks {
    /** The age limit used. */
    readonly hours: number;
    /** The limit's value could not be read (the default was used): the sentence that says so. */
    readonly invalid?: string;
    readonly stale: readonly InventoryEntry[];
    /** `project/stack` of each, sorted. */
    readonly names: readonly string[];
}

/**
 * The stale stacks of an inventory at `now` (ms since the epoch), or undefined when none is. The
 * pack's advisory and `perfguard diff`'s inventory line both read this, so they name the same stacks.
 */
export function staleStacks(inventory: Inventory, now: number): StaleStacks | undefined {
    const { hours, invalid } = maxAgeHours();
    const stale = staleEntries(inventory.entries, hours, now);
    if (stale.length === 0) {
        return undefined;
    }
    return { hours, ...(invalid ? { invalid } : {}), stale, names: stale.map((e) => stackName(e.project, e.stack)).sort() };
}

/**
 * "2 stack(s) deployed more than 24 h ago or at an unknown time (a/prod, b/prod)": the stale
 * advisory's words; the first three names and a count of the rest (none with `named` false).
 */
export function staleText(s: Pick<StaleStacks, "hours" | "names">, named = true): string {
    const listed = s.names.length <= 3 ? s.names.join(", ") : `${s.names.slice(0, 3).join(", ")} and ${s.names.length - 3} more`;
    return `${s.names.length} stack(s) deployed more than ${s.hours} h ago or at an unknown time${named ? ` (${listed})` : ""}`;
}

/**
 * The notices of an inventory at `now` (ms since the epoch), sorted: errors first (by source),
 * then duplicates, then one stale advisory.
 */
export function inventoryNotices(inventory: Inventory, now: number): InventoryNotice[] {
    const out: InventoryNotice[] = [];
    for (const e of [...inventory.errors].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0))) {
        const source = escapeControl(e.source);
        out.push({
            level: "mandatory",
            message: {
                problem: fit(
                    `${INVENTORY_ENV} source ${sourceLabel(source)} ${e.problem}: other stacks' load on shared objects is unknown.`,
                    `${INVENTORY_ENV} source ${sourceLabel(source)} cannot be used: other stacks' load on shared objects is unknown.`,
                ),
                fix: `point ${INVENTORY_ENV} at readable stack exports (pulumi stack export), a folder of them, a file:// backend or a perfguard inventory digest; rebuild the digest with perfguard inventory.`,
                basis: [`source ${source}: ${escapeControl(e.problem)}`],
            },
        });
    }
    for (const s of emptySources(inventory)) {
        const source = escapeControl(s);
        out.push({
            level: "mandatory",
            message: {
                problem: `${INVENTORY_ENV} source ${sourceLabel(source)} holds no stack exports: other stacks' load on shared objects is unknown.`,
                fix: `check the step that exports the stacks (pulumi stack export per stack, or perfguard inventory) and the path ${INVENTORY_ENV} names; for a fleet of one stack, give that stack's export.`,
                basis: [`source ${source}: no stack export, backend checkpoint or digest stack in it; shared objects are judged as without an inventory`],
            },
        });
    }
    for (const d of inventory.duplicates) {
        out.push({
            level: "advisory",
            message: {
                problem: fit(
                    `inventory: stack ${stackName(d.project, d.stack)} is in two sources; the newer deployment is counted, the other ignored.`,
                    "inventory: a stack is in two sources; the newer deployment is counted, the other ignored.",
                ),
                fix: `list each stack once in ${INVENTORY_ENV}.`,
                basis: [`counted: ${escapeControl(d.kept)}; ignored: ${escapeControl(d.dropped)}`],
            },
        });
    }
    const staleness = staleStacks(inventory, now);
    const { hours, invalid: unreadableAge } = maxAgeHours();
    if (!staleness && unreadableAge) {
        // An age limit that cannot be read is said whether or not a stack is older than the default.
        out.push({
            level: "advisory",
            message: {
                problem: `inventory: ${MAX_AGE_ENV} is not a positive number of hours: stacks are called stale after ${hours} h.`,
                fix: `set ${MAX_AGE_ENV} to a number of hours (e.g. 48), or unset it for ${hours}.`,
                basis: [unreadableAge],
            },
        });
    }
    if (staleness) {
        const { invalid, stale } = staleness;
        out.push({
            level: "advisory",
            message: {
                problem: fit(
                    `inventory: ${staleText(staleness)}: their load may have changed.`,
                    `inventory: ${staleText(staleness, false)}: their load may have changed.`,
                ),
                fix: `refresh the inventory (pulumi stack export per stack, or perfguard inventory), or raise ${MAX_AGE_ENV} if these stacks change seldom.`,
                basis: [
                    ...stale
                        .map(
                            (e) =>
                                `${stackName(e.project, e.stack)}: ${e.time ? `deployed ${escapeControl(e.time)} (${ageHours(e.time, now)} ago)` : "no deployment time (manifest.time)"}`,
                        )
                        .sort(),
                    ...(invalid ? [invalid] : []),
                ],
            },
        });
    }
    return out;
}
