/**
 * Reading ahead while the engine runs the program. A preview's AnalyzeStack comes last, after the
 * program has registered every resource; each resource's Analyze call comes as it registers, and
 * the pack is idle between them. The other stacks a resource's join keys reach (its SE group ref,
 * its zone, its host) are read from the inventory then, in that idle time, and their views built
 * with their facts parsed (merge.ts readAhead), so that AnalyzeStack finds them ready: with a
 * 1,000-stack digest most of the inventory's cost to a preview moves out of the wait at its end
 * (BENCHMARKS.md, "Shared capacity: the inventory").
 *
 * Nothing here decides: AnalyzeStack merges with its own keys (the outputs), reusing what was
 * read. Each call does O(1) work plus the key search for the keys that are new, once, after the
 * call has answered (setImmediate). A failure here is dropped: AnalyzeStack reads again and
 * reports what it finds.
 */
import { readAhead, stackId } from "./merge";
import { urnStack } from "./read";
import { joinKeys } from "./touched";
import { INVENTORY_ENV } from "./types";
import { unwrapProps } from "../values";

let previewed: { id: string; project: string; stack: string; urns: Set<string>; keys: Set<string> } | undefined;
let pending = new Set<string>();
let scheduled = false;

/** Notes one resource Analyze sees (its URN, type and inputs); reads ahead soon after when it brings new join keys. */
export function noteAnalyzed(args: { readonly urn?: unknown; readonly type?: unknown; readonly props?: unknown }): void {
    const spec = process.env[INVENTORY_ENV];
    if (spec === undefined || spec.trim() === "") {
        return;
    }
    const urn = String(args.urn ?? "");
    const s = urnStack(urn);
    if (!s) {
        return;
    }
    const id = stackId(s);
    if (previewed?.id !== id) {
        previewed = { id, ...s, urns: new Set(), keys: new Set() };
        pending = new Set();
    }
    if (previewed.urns.has(urn)) {
        return; // every resource policy sees each resource: its keys once
    }
    previewed.urns.add(urn);
    for (const key of joinKeys(String(args.type ?? ""), unwrapProps(args.props))) {
        if (!previewed.keys.has(key)) {
            previewed.keys.add(key);
            pending.add(key);
        }
    }
    if (pending.size > 0 && !scheduled) {
        scheduled = true;
        setImmediate(runAhead);
    }
}

function runAhead(): void {
    scheduled = false;
    const keys = pending;
    pending = new Set();
    if (!previewed || keys.size === 0) {
        return;
    }
    try {
        readAhead(previewed, keys);
    } catch {
        // Dropped on purpose: AnalyzeStack reads the inventory again and reports what is wrong.
    }
}
