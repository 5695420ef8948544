/**
 * Xen in the CLI: the room's descriptor (policies/xen/system.ts), its `check --report` section
 * (cli/report/xen.ts) and its `diff --plot` chart: per host, each sender's predicted share of the
 * link (cli/plots/xenSharePlot.ts).
 */
import { num } from "../../policies/pack/format";
import { policyProps } from "../../policies/pack/system";
import { xenEvaluation, XenHostEvaluation } from "../../policies/xen/evaluation";
import { xenSystem } from "../../policies/xen/system";
import { xenSection } from "../report/xen";
import { CliSystem, Panel, propsOf, SystemSide } from "./types";

/** A Xen host at one state: each sender's predicted share (the chart of `size xen --plot`). */
async function xenPanel(side: SystemSide, hostId: string): Promise<Panel> {
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
        ...h.guests
            .filter((g) => g.predictedMBps !== undefined)
            .map((g) => ({ name: g.entry.guest.resource.name, predictedMBps: g.predictedMBps as number, needMBps: g.entry.needMBps })),
    ];
    if (senders.length === 0) {
        return { absent: `Xen host ${h.host.name} is not drawn: no sender's share is known` };
    }
    const { xenSharePlotPanel } = await import("../plots/xenSharePlot");
    return xenSharePlotPanel({
        title: `Xen host ${h.host.name}: ${num(m.link.mbps, 2)} MB/s link, dom0 ${num(m.dom0TotalMBps, 2)} MB/s`,
        linkMBps: m.link.mbps,
        senders,
    });
}

export const xen: CliSystem = {
    ...xenSystem,
    report: (stack, config) => xenSection(stack, policyProps(config, "xen-guest-network-share")),
    plot: { kind: "host", panel: xenPanel },
};
