/**
 * `perfguard inventory <sources...> -o digest.json`: reads stack exports, folders of them and
 * DIY `file://` backends (as PERFGUARD_INVENTORY does) and writes one compact digest for
 * PERFGUARD_INVENTORY (docs/shared-capacity.md). A source that cannot be read or holds no stack
 * fails the command (exit 2): a digest silently missing a stack would under-count shared load.
 */
import * as fs from "fs";
import * as path from "path";
import { digestOf, encodeDigest } from "../policies/pack/inventory/digest";
import { emptySources } from "../policies/pack/inventory/empty";
import { readInventory } from "../policies/pack/inventory/read";
import { escapeControl } from "../policies/pack/message";
import { UsageError } from "./errors";
import { ensureOutputFolder } from "./outputFolder";

export interface InventoryResult {
    readonly text: string;
    readonly json: Record<string, unknown>;
}

/** Builds the digest of `sources` into `out`. Throws UsageError (exit 2) naming each unreadable source. */
export function runInventory(sources: readonly string[], out: string, now = new Date()): InventoryResult {
    const inventory = readInventory(sources.join(","));
    // A source holding no stack is refused like an unreadable one: most often a failed export step.
    const problems = [
        ...inventory.errors.map((e) => `inventory source ${escapeControl(e.source)} ${escapeControl(e.problem)}`),
        ...emptySources(inventory).map((s) => `inventory source ${escapeControl(s)} holds no stack exports`),
    ];
    if (problems.length > 0) {
        throw new UsageError(problems.join("\n"));
    }
    ensureOutputFolder(path.dirname(path.resolve(out)), "digest", out);
    const digest = digestOf(inventory, now);
    fs.writeFileSync(out, encodeDigest(digest));
    const kept = digest.stacks.reduce((n, s) => n + s.resources.length, 0);
    const read = inventory.entries.reduce((n, e) => n + e.resources.length, 0);
    const duplicates = inventory.duplicates
        .map(
            (d) =>
                `stack ${escapeControl(d.project)}/${escapeControl(d.stack)} is in two sources: kept ${escapeControl(d.kept)}, ignored ${escapeControl(d.dropped)}\n`,
        )
        .join("");
    return {
        text: `${duplicates}perfguard inventory: ${digest.stacks.length} stack(s), ${kept} of ${read} resources kept (the ones policies read); digest written to ${out}.\n`,
        json: { command: "inventory", out, stacks: digest.stacks.length, resources: kept, resourcesRead: read, duplicates: inventory.duplicates },
    };
}
