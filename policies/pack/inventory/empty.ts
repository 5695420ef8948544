/**
 * Sources of an inventory that hold no stack (an empty folder, a `file://` backend with no
 * checkpoint, a digest of no stack): most often a failed export step or a wrong path. Named, never
 * read as "no other stack" (issue 32): judging shared objects with this stack's load alone would
 * be the silent pass the inventory exists to prevent.
 */
import * as path from "path";
import type { Inventory } from "./types";

/** The sources of a comma-separated list, as readInventory splits it. */
function sourcesOf(spec: string): string[] {
    return spec
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
}

/** True when `item` (an entry's or error's source) was read from `source`: the file, a file of the folder, a checkpoint of the backend. */
function from(item: string, source: string): boolean {
    if (item === source || item.startsWith(`${source} (`)) {
        return true;
    }
    if (source.startsWith("file://")) {
        return false;
    }
    const resolved = path.resolve(source);
    return path.resolve(item) === resolved || path.resolve(path.dirname(item)) === resolved;
}

/** The sources of `inventory` from which no stack, duplicate or error was read, in the order given. */
export function emptySources(inventory: Inventory): string[] {
    const seen = [
        ...inventory.entries.map((e) => e.source),
        ...inventory.errors.map((e) => e.source),
        ...inventory.duplicates.flatMap((d) => [d.kept, d.dropped]),
    ];
    return sourcesOf(inventory.spec).filter((source) => !seen.some((item) => from(item, source)));
}

/** True when the inventory holds at least one stack: else shared objects are judged as without one. */
export function holdsStacks(inventory: Inventory | undefined): inventory is Inventory {
    return inventory !== undefined && inventory.entries.length > 0;
}
