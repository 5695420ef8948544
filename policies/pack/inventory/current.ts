/**
 * The inventory of this pack process: read once, lazily, only when PERFGUARD_INVENTORY is set
 * (one pack process is one preview; the variable is inherited from the CLI, CI or Pulumi ESC).
 */
import { readInventory } from "./read";
import { DEFAULT_MAX_AGE_HOURS, Inventory, INVENTORY_ENV, InventoryEntry, MAX_AGE_ENV } from "./types";

let cached: { spec: string; inventory: Inventory } | undefined;

/** The inventory PERFGUARD_INVENTORY names, or undefined when it is not set. */
export function currentInventory(): Inventory | undefined {
    const spec = process.env[INVENTORY_ENV];
    if (spec === undefined || spec.trim() === "") {
        return undefined;
    }
    if (cached?.spec !== spec) {
        cached = { spec, inventory: readInventory(spec) };
    }
    return cached.inventory;
}

/** Forgets the inventory read (tests that change the variable within one process). */
export function resetInventory(): void {
    cached = undefined;
}

/**
 * PERFGUARD_INVENTORY_MAX_AGE_HOURS: a positive number of hours, else DEFAULT_MAX_AGE_HOURS
 * (an unreadable value is said in the stale advisory's basis, never silently a default).
 */
export function maxAgeHours(): { hours: number; invalid?: string } {
    const raw = process.env[MAX_AGE_ENV];
    if (raw === undefined || raw.trim() === "") {
        return { hours: DEFAULT_MAX_AGE_HOURS };
    }
    const n = Number(raw.trim());
    return Number.isFinite(n) && n > 0
        ? { hours: n }
        : { hours: DEFAULT_MAX_AGE_HOURS, invalid: `${MAX_AGE_ENV} is not a positive number of hours; ${DEFAULT_MAX_AGE_HOURS} used` };
}

/** The entries deployed longer ago than `hours` (or with no deployment time), sorted. */
export function staleEntries(entries: readonly InventoryEntry[], hours: number, now: number): InventoryEntry[] {
    return entries.filter((e) => e.time === undefined || now - Date.parse(e.time) > hours * 3_600_000);
}
