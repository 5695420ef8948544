/**
 * `perfguard diff --plot DIR`: the before and after charts of each Xen host that changed, drawn
 * with the chart `size xen --plot` draws (cli/plots/xenSharePlot.ts), from each side's Xen
 * evaluation: `xen-<host>-before.svg` and `xen-<host>-after.svg` (a side without the host has
 * no file). Citrix zones and SE groups are not drawn yet (see docs/cli.md).
 */
import * as fs from "fs";
import * as path from "path";
import { num } from "../../policies/pack/format";
import { xenEvaluation, XenHostEvaluation } from "../../policies/xen/evaluation";
import type { DiffResult } from "./compare";
import { propsOf } from "./figures";
import type { EvaluatedSide } from "./run";

// At most this many hosts are drawn (two files each): a diff of a whole pool is read in the table.
const MAX_HOSTS = 20;

function fileSafe(name: string): string {
    return name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80);
}

async function hostSvg(h: XenHostEvaluation, when: string): Promise<string | undefined> {
    const m = h.model;
    if (!m.link) {
        return undefined;
    }
    const senders = [
        ...(m.dom0TotalMBps > 0 && h.dom0PredictedMBps !== undefined ? [{ name: "dom0", predictedMBps: h.dom0PredictedMBps }] : []),
        ...h.guests.filter((g) => g.predictedMBps !== undefined).map((g) => ({ name: g.entry.guest.resource.name, predictedMBps: g.predictedMBps as number, needMBps: g.entry.needMBps })),
    ];
    if (senders.length === 0) {
        return undefined;
    }
    const { xenSharePlotSvg } = await import("../plots/xenSharePlot");
    return xenSharePlotSvg({ title: `Xen host ${h.host.name} ${when}: ${num(m.link.mbps, 2)} MB/s link, dom0 ${num(m.dom0TotalMBps, 2)} MB/s`, linkMBps: m.link.mbps, senders });
}

/** Writes the charts; returns the files written, sorted. */
export async function writeDiffPlots(dir: string, base: EvaluatedSide, head: EvaluatedSide, result: DiffResult): Promise<string[]> {
    const changed = result.entities.filter((e) => e.system === "xen" && e.status !== "unchanged").slice(0, MAX_HOSTS);
    const written: string[] = [];
    for (const [side, when] of [[base, "before"], [head, "after"]] as const) {
        const evaluation = xenEvaluation(side.stack, propsOf(side.config, "xen-guest-network-share"));
        for (const e of changed) {
            const h = evaluation.hostOf(e.id);
            const svg = h ? await hostSvg(h, when) : undefined;
            if (svg) {
                const file = path.join(dir, `xen-${fileSafe(e.id)}-${when}.svg`);
                fs.writeFileSync(file, svg);
                written.push(file);
            }
        }
    }
    return written.sort();
}
