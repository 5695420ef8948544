/**
 * `perfguard diff --plot DIR`: for each changed entity of a kind its system draws (cli/systems:
 * Citrix zones, SE groups, Xen hosts), one SVG with the chart `perfguard size <system> --plot`
 * draws, for both states (before above after; series named "before: ..." and "after: ..."), from
 * each side's evaluation, named `<system>-<entity>.svg`. Each system's chart is its registry
 * entry's `plot` (cli/systems/<system>.ts). Both states share their value axes (cli/plots/states.ts
 * shareValueAxes): the same bar or curve reads the same above and below.
 * A state without the entity (added or removed), or where it cannot be drawn (its RTT or sizing
 * unknown), is a line saying so.
 */
import * as fs from "fs";
import * as path from "path";
import { SYSTEMS } from "../systems";
import type { Panel, SystemSide } from "../systems/types";
import type { DiffResult } from "./compare";

// At most this many entities per system are drawn: a diff of a whole estate is read in the table.
const MAX_PER_SYSTEM = 20;

function fileSafe(name: string): string {
    return name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80);
}

/** The entities each system draws (its plot's kind) that changed, appeared or went. */
function drawn(): Array<{ system: string; kind: string; panel: (side: SystemSide, id: string, other: SystemSide) => Promise<Panel> }> {
    return SYSTEMS.flatMap((s) => (s.plot ? [{ system: s.id, kind: s.plot.kind, panel: s.plot.panel }] : []));
}

/**
 * One entity's two panels as the SVG draws them (value axes shared), or undefined when this
 * system draws no such kind.
 */
export async function diffPanels(
    system: string,
    kind: string,
    base: SystemSide,
    head: SystemSide,
    id: string,
): Promise<Record<"before" | "after", Panel> | undefined> {
    const d = drawn().find((x) => x.system === system && x.kind === kind);
    if (!d) {
        return undefined;
    }
    const { sharedPanels } = await import("../plots/states");
    return sharedPanels({ before: await d.panel(base, id, head), after: await d.panel(head, id, base) });
}

/** Writes the charts; returns the files written, sorted. */
export async function writeDiffPlots(dir: string, base: SystemSide, head: SystemSide, result: DiffResult): Promise<string[]> {
    const { twoStatesSvg } = await import("../plots/states");
    const written: string[] = [];
    for (const d of drawn()) {
        const changed = result.entities.filter((e) => e.system === d.system && e.kind === d.kind && e.status !== "unchanged").slice(0, MAX_PER_SYSTEM);
        for (const e of changed) {
            const before = await d.panel(base, e.id, head);
            const after = await d.panel(head, e.id, base);
            if ("absent" in before && "absent" in after) {
                continue;
            }
            const file = path.join(dir, `${d.system}-${fileSafe(e.id)}.svg`);
            fs.writeFileSync(file, await twoStatesSvg({ before, after }));
            written.push(file);
        }
    }
    return written.sort();
}
