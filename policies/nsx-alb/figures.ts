/**
 * The NSX ALB figures: per SE group and per virtual service, in the cross-system shape
 * (policies/pack/figures.ts) that `check --report` and `diff` print, read from the evaluation.
 */
import { connectionsScaled } from "../../model/seTable";
import type { SeMetric, SeUtilisation } from "../../model/seCapacity";
import { SeGroupSizing } from "./seGroupFields";
import type { EntityFigures, Figure } from "../pack/figures";
import { pct } from "../pack/format";
import type { ResourceView, StackView } from "../pack/resources";
import { stackParts } from "../pack/stackParts";
import { SeCapacityConfig } from "./config";
import { dispatcherCoresNote, dispatcherUnmeasured } from "./dispatcherNotes";
import { nsxAlbEvaluation } from "./evaluation";
import { groupFits } from "./fit";
import { fixChanges, fixOptionTexts } from "./fixes";
import { GroupEvaluation, Unit } from "./groupTypes";
import { CONNECTIONS_SCALED, dispatcherNote, limitingName, SizeLabel, sizeLabel, sizeNote, vsPeakLabel } from "./names";

/** The figures of one VS (with its SNI children) on the SEs it counts on. */
export interface VsFigures {
    readonly unit: Unit;
    /** Its peak on its SEs (fraction); undefined when not judged (ambiguous, unreadable demand, no demand). */
    readonly peak: number | undefined;
    readonly utilisation: SeUtilisation | undefined;
    readonly notChecked?: string;
}

/** The judged figures of one group: what the verdicts, the report and diff print. */
export interface GroupFigures {
    /** The busiest SE (after a failover in legacy active/standby; after one SE fails in N+M with bufferSe 0). */
    readonly busiestSe: SeUtilisation;
    /** Legacy active/standby with distributeLoadActiveStandby, or N+M with bufferSe 0: the busiest SE while all run. */
    readonly steadyState: SeUtilisation | undefined;
    readonly fits: boolean;
    /** The first fix option's changes to the SE group (empty when the group fits or nothing fits). */
    readonly fix: readonly string[];
    /**
     * Every fix option in short words, as the verdict offers them (SE group fields, scaleoutEcmp on
     * the VSs, declaring perfguard:ingressPct); empty when the group fits or nothing fits.
     */
    readonly fixOptions: readonly string[];
    /** The vcpusPerSe of the first fix that is a larger SE, when one is offered. */
    readonly requiredVcpusPerSe: number | undefined;
    /** That fix's dedicated dispatcher setting (its size label depends on it below 4 vCPUs). */
    readonly requiredDispatcher: boolean | undefined;
    readonly perVs: readonly VsFigures[];
    /** How the group's per-SE figures were obtained at its vcpusPerSe (a table row, between rows, beyond the 6 vCPU row). */
    readonly sizeLabel: SizeLabel;
    /** Some VS declares open connections and their per-SE figure is scaled by memory above the row's (not measured). */
    readonly openConnectionsScaled: boolean;
    /** A dedicated dispatcher core below 4 vCPUs: the CPU-bound figures are of a layout the table never measured. */
    readonly dispatcherUnmeasured: boolean;
    /** numDispatcherCores not the layout the CPU / throughput figures were measured with: the notes (dispatcherCoresNote), "" when it is. */
    readonly dispatcherCores: { readonly cpu: string; readonly throughput: string };
    /** The group's vcpusPerSe (dispatcherNote names the row its proxy figures come from). */
    readonly vcpusPerSe: number;
}

/** Why a unit is not judged on its own, or undefined when it is. */
function unitNotChecked(unit: Unit): string | undefined {
    if (unit.ambiguous) {
        return "its seGroupRef matches more than one SE group (counted on each)";
    }
    if (unit.members[0].demand === undefined) {
        return "a demand fact or the SSL setting is invalid";
    }
    if (unit.partial) {
        return "a demand fact is unknown in this preview";
    }
    return undefined;
}

/** The figures of one group whose sizing is known; undefined otherwise (see `blocked`). */
export function groupFigures(e: GroupEvaluation, config: SeCapacityConfig): GroupFigures | undefined {
    const p = e.placement;
    if (!p) {
        return undefined;
    }
    const fits = groupFits(e, config);
    const fixes = fits ? [] : e.fixes();
    const perVs = e.units.map((unit): VsFigures => {
        const notChecked = unitNotChecked(unit);
        const u = p.perVs[unit.index];
        return unit.idle
            ? { unit, peak: undefined, utilisation: undefined, notChecked: "no demand fact" }
            : notChecked
              ? { unit, peak: undefined, utilisation: u, notChecked }
              : { unit, peak: u.peak, utilisation: u };
    });
    const after = e.afterFailure;
    return {
        busiestSe: after ? after.placement.worstSe : p.worstSe,
        steadyState: after ? p.worstSe : p.steadyStateSe,
        fits,
        perVs,
        fix: fixes.length > 0 ? fixChanges(fixes[0], e) : [],
        fixOptions: fits ? [] : fixOptionTexts(e, fixes, config),
        requiredVcpusPerSe: fixes.find((f) => f.kind === "up")?.spec.vcpusPerSe,
        requiredDispatcher: fixes.find((f) => f.kind === "up")?.spec.dedicatedDispatcher,
        sizeLabel: sizeLabel((e.sizing as SeGroupSizing).spec.vcpusPerSe, (e.sizing as SeGroupSizing).spec.dedicatedDispatcher),
        openConnectionsScaled: connectionsScaled(p.perSe) && e.units.some((unit) => unit.demands.some((d) => d.l4OpenConnections !== undefined)),
        dispatcherUnmeasured: dispatcherUnmeasured(e),
        dispatcherCores: { cpu: dispatcherCoresNote(e, "cpu"), throughput: dispatcherCoresNote(e, "throughput") },
        vcpusPerSe: (e.sizing as SeGroupSizing).spec.vcpusPerSe,
    };
}

// Relative tolerance for "the same number": two computations of one quantity, not float noise.
function sameNumber(a: number, b: number): boolean {
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

type SeRow = "cpu" | "throughput" | "openConnections";

// The busiest-SE row a limiting metric belongs to: the CPU parts add up to CPU; primary ingress is
// named the limit of a throughput-bound load whose ingress is most of it (utilisationOf).
const ROW_OF_METRIC: Record<SeMetric, SeRow> = {
    sslTps: "cpu",
    l7Rps: "cpu",
    l4Cps: "cpu",
    sslThroughput: "cpu",
    throughput: "throughput",
    ingress: "throughput",
    openConnections: "openConnections",
};

/**
 * The busiest SE, one row per distinct quantity: CPU, throughput, open connections and primary
 * ingress. Its load (peak) is the largest of the first three (model/seCapacity.ts utilisationOf),
 * so it is not a row of its own: the metric that carries it is labelled as the busiest SE with
 * its limiting resource (what the verdicts state). `carriers` names, per row, the VSs whose own
 * need that row is (their own rows are left out). Keys stay per metric, so a limit that moves
 * from CPU to throughput pairs each metric with itself across two states.
 */
function busiestSeFigures(u: SeUtilisation, carriers: ReadonlyMap<SeRow, readonly string[]>, afterFailure: boolean, f: GroupFigures): Figure[] {
    const limitRow = ROW_OF_METRIC[u.limiting];
    const busiest = `busiest SE${afterFailure ? " after one SE fails" : ""}`;
    // Every figure of a size between or beyond the table's rows says so (the report and diff print the label).
    const size = sizeNote(f.sizeLabel);
    const row = (metric: SeRow, key: string, label: string, value: number) => {
        const names = [...(carriers.get(metric) ?? [])].sort();
        const connections = metric === "openConnections" && f.openConnectionsScaled ? `open connections ${CONNECTIONS_SCALED}` : "";
        // The CPU-bound loads are what a dispatcher core takes cores from.
        const dispatcher = (metric === "cpu" || metric === "throughput") && f.dispatcherUnmeasured ? dispatcherNote(f.vcpusPerSe) : "";
        const cores = metric === "cpu" || metric === "throughput" ? f.dispatcherCores[metric] : "";
        const notes = [
            metric === limitRow ? `limited by ${limitingName(u)}` : "",
            names.length > 0 ? `the need of ${names.join(", ")}` : "",
            size,
            connections,
            dispatcher,
            cores,
        ].filter((x) => x !== "");
        return percent(key, `${metric === limitRow ? busiest : label}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`, value);
    };
    return [
        row("cpu", "busiestSeCpuPct", "busiest SE CPU", u.cpu),
        row("throughput", "busiestSeThroughputPct", "busiest SE throughput", u.throughput),
        row("openConnections", "busiestSeOpenConnectionsPct", "busiest SE open connections", u.openConnections),
        percent("busiestSeIngressPct", `busiest SE primary ingress${size ? ` (${size})` : ""}`, u.ingress),
    ];
}

function percent(key: string, label: string, fraction: number): Figure {
    return { key, label, value: fraction * 100, unit: "%", better: "lower", text: pct(fraction) };
}

function notComputed(key: string, label: string, unit: string, reason: string): Figure {
    return { key, label, unit, better: "lower", text: "not checked", notChecked: reason };
}

/**
 * A virtual service's entity; another stack's VS (the inventory) is load only on the SE group,
 * whose row and verdict Basis name it (EntityFigures.othersOnly).
 */
function vsEntity(vs: ResourceView): Omit<EntityFigures, "figures"> {
    return {
        system: "nsx-alb",
        kind: "virtualService",
        id: vs.name,
        label: `virtual service ${vs.name}`,
        urn: vs.urn,
        ...stackParts([vs]),
    };
}

/**
 * The NSX ALB figures in the cross-system shape (policies/pack/figures.ts): one entity per SE
 * group (the busiest SE's metrics, the one that limits it labelled so, the steady state of a
 * distributed active/standby pair, the SEs placement needs, the larger SE a fix names) and one per
 * virtual service (its peak on the SEs it counts on, unless that is the busiest SE's load, which
 * the group's row names it in), with "not checked" reasons where a figure cannot be computed.
 * Each distinct quantity is one figure: a change to one VS is one row of a diff.
 * @param stack - the stack (memoized evaluation).
 * @param config - nsx-alb-se-capacity's config (defaults when absent).
 */
export function nsxAlbFigures(stack: StackView, config: Partial<SeCapacityConfig> = {}): EntityFigures[] {
    const evaluation = nsxAlbEvaluation(stack, config);
    const out: EntityFigures[] = [];
    for (const e of evaluation.groups) {
        const urn = e.group.resource?.urn;
        const entity = {
            system: "nsx-alb" as const,
            kind: "seGroup",
            id: e.group.name,
            label: `SE group ${e.group.name}`,
            ...(urn ? { urn } : {}),
            // A group shared across stacks counts its owner's and every VS's stack.
            ...stackParts([e.group.resource, ...e.units.flatMap((u) => u.members.map((m) => m.placement.vs))]),
        };
        const f = groupFigures(e, evaluation.config);
        if (!f || !e.placement) {
            out.push({ ...entity, figures: [], notChecked: e.blocked?.reason ?? "its sizing cannot be read" });
        } else {
            const u = f.busiestSe;
            // A VS whose need is one of the busiest SE's rows (it alone makes that load) is that
            // number already: it is printed once, on the group's row, which names the VS.
            const rowOf = (v: VsFigures): SeRow | undefined =>
                v.peak !== undefined && v.utilisation && sameNumber(v.peak, u[ROW_OF_METRIC[v.utilisation.limiting]])
                    ? ROW_OF_METRIC[v.utilisation.limiting]
                    : undefined;
            const carriers = new Map<SeRow, string[]>();
            for (const v of f.perVs) {
                const row = rowOf(v);
                if (row) {
                    carriers.set(row, [...(carriers.get(row) ?? []), v.unit.head.vs.name]);
                }
            }
            const figures: Figure[] = busiestSeFigures(u, carriers, e.afterFailure !== undefined, f);
            figures.push({
                key: "sesNeeded",
                label: "SEs for placement",
                value: e.placement.sesNeeded,
                unit: "",
                better: "lower",
                text: String(e.placement.sesNeeded),
            });
            if (f.steadyState) {
                figures.push(
                    percent(
                        "steadyStateSePct",
                        e.afterFailure ? "busiest SE while all run (steady state)" : "busier SE while both run (steady state)",
                        f.steadyState.peak,
                    ),
                );
            }
            if (f.requiredVcpusPerSe !== undefined) {
                figures.push({
                    key: "requiredVcpusPerSe",
                    label: `vcpusPerSe the fix names (${sizeLabel(f.requiredVcpusPerSe, f.requiredDispatcher)})`,
                    value: f.requiredVcpusPerSe,
                    unit: "vCPUs",
                    better: "lower",
                    text: String(f.requiredVcpusPerSe),
                });
            }
            out.push({ ...entity, figures });
            for (const v of f.perVs) {
                for (const m of v.unit.members) {
                    const vs = m.placement.vs;
                    const head = m === v.unit.members[0];
                    const figures =
                        head && rowOf(v)
                            ? []
                            : [
                                  v.peak !== undefined && head && v.utilisation
                                      ? percent("vsPeakPct", vsPeakLabel(v.utilisation, e.placement.vsSes), v.peak)
                                      : notComputed(
                                            "vsPeakPct",
                                            "needs of its SEs",
                                            "%",
                                            head ? (v.notChecked ?? "not judged") : `counted with its SNI parent ${v.unit.head.vs.name}`,
                                        ),
                              ];
                    out.push({ ...vsEntity(vs), figures });
                }
            }
        }
        if (!f) {
            for (const unit of e.units) {
                for (const m of unit.members) {
                    out.push({
                        ...vsEntity(m.placement.vs),
                        figures: [],
                        notChecked: e.blocked?.reason ?? "the sizing of its SE group cannot be read",
                    });
                }
            }
        }
    }
    for (const p of evaluation.unresolved) {
        out.push({
            ...vsEntity(p.vs),
            figures: [],
            notChecked: p.unresolved?.reason ?? "its SE group is not known",
        });
    }
    return out;
}
