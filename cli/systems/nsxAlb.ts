/**
 * NSX ALB in the CLI: the room's descriptor (policies/nsx-alb/system.ts), its `check --report`
 * section (cli/report/nsxAlb.ts) and its `diff --plot` chart: per SE group, the busiest SE per
 * metric against one SE (cli/plots/seCapacityPlot.ts, the metrics of cli/sizeNsxAlb.ts).
 */
import { nsxAlbEvaluation } from "../../policies/nsx-alb/evaluation";
import { nsxAlbSystem } from "../../policies/nsx-alb/system";
import { num } from "../../policies/pack/format";
import { nsxAlbSection } from "../report/nsxAlb";
import { CliSystem, Panel, propsOf, SystemSide } from "./types";

/** An SE group at one state: its busiest SE per metric against one SE (the chart of `size nsx-alb --plot`). */
async function nsxAlbPanel(side: SystemSide, groupName: string): Promise<Panel> {
    const evaluation = nsxAlbEvaluation(side.stack, propsOf(side.config, "nsx-alb-se-capacity"));
    const e = evaluation.groups.find((g) => g.group.name === groupName);
    if (!e) {
        return { absent: `no SE group ${groupName}` };
    }
    if (!e.placement || !e.sizing?.spec) {
        return { absent: `SE group ${groupName} is not drawn: ${e.blocked?.reason ?? "its sizing cannot be read"}` };
    }
    const { metricLines } = await import("../sizeNsxAlb");
    const metrics = metricLines(
        e.units.flatMap((u) => u.demands),
        e.placement,
    );
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

export const nsxAlb: CliSystem = { ...nsxAlbSystem, report: nsxAlbSection, plot: { kind: "seGroup", panel: nsxAlbPanel } };
