/**
 * `perfguard diff --plot DIR`: for each changed Citrix zone, SE group and Xen host, one SVG with
 * the chart `perfguard size <system> --plot` draws, for both states (before above after; series
 * named "before: ..." and "after: ..."), from each side's evaluation:
 * - `citrix-<zone>.svg`: one lock's brokering at the zone's RTT and, with several Delivery Groups,
 *   the zone's load over their locks (cli/plots/brokeringPlot.ts via cli/sizeCitrix.ts);
 * - `nsx-alb-<SE group>.svg`: the busiest SE's load per metric against one SE's capacity
 *   (cli/plots/seCapacityPlot.ts, the metrics of cli/sizeNsxAlb.ts);
 * - `xen-<host>.svg`: each sender's predicted share of the link (cli/plots/xenSharePlot.ts).
 * Both states share their value axes (cli/plots/states.ts shareValueAxes): the same bar or curve
 * reads the same above and below. A Citrix state whose Site database is over its cap also draws
 * the lock's response under the cap (× the evaluation's responseScale).
 * A state without the entity (added or removed), or where it cannot be drawn (its RTT or sizing
 * unknown), is a line saying so.
 */
import * as fs from "fs";
import * as path from "path";
import { citrixEvaluations } from "../../policies/citrix/evaluation";
import { nsxAlbEvaluation } from "../../policies/nsx-alb/evaluation";
import { num } from "../../policies/pack/format";
import { xenEvaluation, XenHostEvaluation } from "../../policies/xen/evaluation";
import type { StatePanel } from "../plots/states";
import type { DiffResult, EntityChange } from "./compare";
import { propsOf } from "./figures";
import type { EvaluatedSide } from "./run";

// At most this many entities per system are drawn: a diff of a whole estate is read in the table.
const MAX_PER_SYSTEM = 20;

type Panel = StatePanel | { readonly absent: string };

function fileSafe(name: string): string {
    return name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80);
}

/** The zone's concurrency at peak on one state (0 where it has none). */
function zoneConcurrency(side: EvaluatedSide, zoneName: string): number {
    return citrixEvaluations(side.stack, side.config).capacity.zones.find((x) => x.zone.resource.name === zoneName)?.concurrency?.value ?? 0;
}

/**
 * A Citrix zone at one state: the brokering chart `size citrix --plot` draws for its RTT, groups
 * and controllers, over one range of concurrency for both states (the higher peak's), and, when
 * the Site's storms exceed the one Site database's cap on this state, the response under it.
 */
async function citrixPanel(side: EvaluatedSide, zoneName: string, other: EvaluatedSide): Promise<Panel> {
    const { capacity, database } = citrixEvaluations(side.stack, side.config);
    const z = capacity.zones.find((x) => x.zone.resource.name === zoneName);
    if (!z) {
        return { absent: `no zone ${zoneName}` };
    }
    if (z.zone.rttMs.state !== "ok") {
        return { absent: `zone ${zoneName} is not drawn: its perfguard:rttMs is ${z.zone.rttMs.state === "absent" ? "not declared" : z.zone.rttMs.state}` };
    }
    const concurrency = Math.max(z.concurrency?.value ?? 0, zoneConcurrency(other, zoneName));
    const { sizeCitrix, citrixPlotInput } = await import("../sizeCitrix");
    const sizing = sizeCitrix({
        rttMs: z.zone.rttMs.value, users: z.zone.users.state === "ok" ? z.zone.users.value : 0, controllers: Math.max(1, z.zone.controllers.length),
        // The targets citrix-brokering-capacity judges with (its config, else its schema's defaults).
        targetResponseS: capacity.config.targetResponseS, errorBudgetPct: capacity.config.errorBudgetPct,
        deliveryGroups: Math.max(1, z.locks.length),
        // The zone's concurrency at peak and well beyond it, as `size citrix` draws a range.
        from: 1, to: Math.max(60, Math.ceil(concurrency * 1.5)), step: 1,
    });
    const { brokeringPlotPanel } = await import("../plots/brokeringPlot");
    // A rate measured on this Site (citrix-site-database-load's setting) is the only Site cap.
    const db = database.database;
    return brokeringPlotPanel({
        ...citrixPlotInput(sizing),
        ...(db.capped && db.capPerS !== undefined ? { siteCap: { responseScale: db.responseScale, capPerS: db.capPerS, uncappedPerS: db.uncappedPerS } } : {}),
    });
}

/** An SE group at one state: its busiest SE per metric against one SE (the chart of `size nsx-alb --plot`). */
async function nsxAlbPanel(side: EvaluatedSide, groupName: string): Promise<Panel> {
    const evaluation = nsxAlbEvaluation(side.stack, propsOf(side.config, "nsx-alb-se-capacity"));
    const e = evaluation.groups.find((g) => g.group.name === groupName);
    if (!e) {
        return { absent: `no SE group ${groupName}` };
    }
    if (!e.placement || !e.sizing?.spec) {
        return { absent: `SE group ${groupName} is not drawn: ${e.blocked?.reason ?? "its sizing cannot be read"}` };
    }
    const { metricLines } = await import("../sizeNsxAlb");
    const metrics = metricLines(e.units.flatMap((u) => u.demands), e.placement);
    if (metrics.length === 0) {
        return { absent: `SE group ${groupName} is not drawn: no VS declares a demand` };
    }
    const spec = e.sizing.spec;
    const p = e.placement;
    const { seCapacityPlotPanel } = await import("../plots/seCapacityPlot");
    return seCapacityPlotPanel({
        title: `SE group ${groupName}: the busiest SE (${p.vsCount === 1 ? "1 VS" : `${p.vsCount} VSs`}, ${p.sesNeeded} SE${p.sesNeeded === 1 ? "" : "s"} for placement) of ${spec.vcpusPerSe} vCPUs / ${num(spec.memoryPerSeMb / 1024, 2)} GB`,
        metrics: metrics.map((m) => ({ name: m.name, unit: m.unit, demand: m.demand, capacity: m.capacity })),
        headroomPct: evaluation.config.headroomPct,
    });
}

/** A Xen host at one state: each sender's predicted share (the chart of `size xen --plot`). */
async function xenPanel(side: EvaluatedSide, hostId: string): Promise<Panel> {
    const h: XenHostEvaluation | undefined = xenEvaluation(side.stack, propsOf(side.config, "xen-guest-network-share")).hostOf(hostId);
    if (!h) {
        return { absent: `no Xen host ${hostId}` };
    }
    const m = h.model;
    if (!m.link) {
        return { absent: `Xen host ${h.host.name} is not drawn: its link throughput is not known` };
    }
    const senders = [
        ...(m.dom0TotalMBps > 0 && h.dom0PredictedMBps !== undefined ? [{ name: "dom0", predictedMBps: h.dom0PredictedMBps }] : []),
        ...h.guests.filter((g) => g.predictedMBps !== undefined).map((g) => ({ name: g.entry.guest.resource.name, predictedMBps: g.predictedMBps as number, needMBps: g.entry.needMBps })),
    ];
    if (senders.length === 0) {
        return { absent: `Xen host ${h.host.name} is not drawn: no sender's share is known` };
    }
    const { xenSharePlotPanel } = await import("../plots/xenSharePlot");
    return xenSharePlotPanel({ title: `Xen host ${h.host.name}: ${num(m.link.mbps, 2)} MB/s link, dom0 ${num(m.dom0TotalMBps, 2)} MB/s`, linkMBps: m.link.mbps, senders });
}

/** The entities each system draws: Citrix zones, SE groups, Xen hosts that changed, appeared or went. */
const DRAWN: ReadonlyArray<{ system: EntityChange["system"]; kind: string; panel: (side: EvaluatedSide, id: string, other: EvaluatedSide) => Promise<Panel> }> = [
    { system: "citrix", kind: "zone", panel: citrixPanel },
    { system: "nsx-alb", kind: "seGroup", panel: nsxAlbPanel },
    { system: "xen", kind: "host", panel: xenPanel },
];

/**
 * One entity's two panels as the SVG draws them (value axes shared), or undefined when this
 * system draws no such kind.
 */
export async function diffPanels(system: EntityChange["system"], kind: string, base: EvaluatedSide, head: EvaluatedSide, id: string): Promise<Record<"before" | "after", Panel> | undefined> {
    const d = DRAWN.find((x) => x.system === system && x.kind === kind);
    if (!d) {
        return undefined;
    }
    const { sharedPanels } = await import("../plots/states");
    return sharedPanels({ before: await d.panel(base, id, head), after: await d.panel(head, id, base) });
}

/** Writes the charts; returns the files written, sorted. */
export async function writeDiffPlots(dir: string, base: EvaluatedSide, head: EvaluatedSide, result: DiffResult): Promise<string[]> {
    const { twoStatesSvg } = await import("../plots/states");
    const written: string[] = [];
    for (const d of DRAWN) {
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
