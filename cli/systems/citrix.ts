/**
 * Citrix in the CLI: the room's descriptor (policies/citrix/system.ts), its `check --report`
 * section (cli/report/citrix.ts) and its `diff --plot` chart: per zone, the brokering chart
 * `size citrix --plot` draws (cli/plots/brokeringPlot.ts via cli/sizeCitrix.ts).
 */
import { citrixRoom } from "../../policies/citrix/evaluation";
import { citrixSystem } from "../../policies/citrix/system";
import { citrixSection } from "../report/citrix";
import { CliSystem, Panel, SystemSide } from "./types";

/** The zone's concurrency at peak on one state (0 where it has none). */
function zoneConcurrency(side: SystemSide, zoneName: string): number {
    return citrixRoom(side.stack, side.config).evaluation.zones.find((x) => x.zone.resource.name === zoneName)?.concurrency?.value ?? 0;
}

/**
 * A Citrix zone at one state: the brokering chart `size citrix --plot` draws for its RTT, groups
 * and controllers, over one range of concurrency for both states (the higher peak's), and, when
 * the Site's storms exceed the one Site database's cap on this state, the response under it.
 */
async function citrixPanel(side: SystemSide, zoneName: string, other: SystemSide): Promise<Panel> {
    const { evaluation } = citrixRoom(side.stack, side.config);
    const z = evaluation.zones.find((x) => x.zone.resource.name === zoneName);
    if (!z) {
        return { absent: `no zone ${zoneName}` };
    }
    if (z.zone.rttMs.state !== "ok") {
        return { absent: `zone ${zoneName} is not drawn: its perfguard:rttMs is ${z.zone.rttMs.state === "absent" ? "not declared" : z.zone.rttMs.state}` };
    }
    const concurrency = Math.max(z.concurrency?.value ?? 0, zoneConcurrency(other, zoneName));
    const { sizeCitrix, citrixPlotInput } = await import("../sizeCitrix");
    const sizing = sizeCitrix({
        rttMs: z.zone.rttMs.value,
        users: z.zone.users.state === "ok" ? z.zone.users.value : 0,
        controllers: Math.max(1, z.zone.controllers.length),
        // The targets the room judges with (citrix-brokering-capacity's, their home; else the schema's defaults).
        targetResponseS: evaluation.config.targetResponseS,
        errorBudgetPct: evaluation.config.errorBudgetPct,
        deliveryGroups: Math.max(1, z.locks.length),
        // The zone's concurrency at peak and well beyond it, as `size citrix` draws a range.
        from: 1,
        to: Math.max(60, Math.ceil(concurrency * 1.5)),
        step: 1,
    });
    const { brokeringPlotPanel } = await import("../plots/brokeringPlot");
    // A rate measured on this Site (citrix-site-database-load's setting) is the only Site cap.
    const db = evaluation.database;
    return brokeringPlotPanel({
        ...citrixPlotInput(sizing),
        ...(db.capped && db.capPerS !== undefined ? { siteCap: { responseScale: db.responseScale, capPerS: db.capPerS, uncappedPerS: db.uncappedPerS } } : {}),
    });
}

export const citrix: CliSystem = { ...citrixSystem, report: citrixSection, plot: { kind: "zone", panel: citrixPanel } };
