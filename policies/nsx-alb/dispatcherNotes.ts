/**
 * The notes an SE group's figures carry when its dispatcher layout is not the one the table
 * measured (a dedicated dispatcher core below 4 vCPUs; a numDispatcherCores the row was not measured with).
 */
import { vsKind } from "../../model/seCapacity";
import { DispatcherFigure, measuredDispatcherCores } from "../../model/seTable";
import { DISPATCHER_MIN_VCPUS, fieldText } from "./seGroupFields";
import { listLabels, plural } from "../pack/format";
import { GroupEvaluation } from "./groupTypes";

/**
 * Whether the group's SEs dedicate a dispatcher core below 4 vCPUs: the 1 and 2 vCPU rows were
 * measured without one (the source's dispatcher/proxy note), so with 2 vCPUs one core is left to
 * proxy: its proxy figures are judged on the (vcpus - 1) row, a layout not measured.
 */
export function dispatcherUnmeasured(e: GroupEvaluation): boolean {
    // The setting judged (the field's, or "true" of the two judgements of an unread field).
    return e.sizing !== undefined && e.sizing.spec.vcpusPerSe < DISPATCHER_MIN_VCPUS && e.sizing.spec.dedicatedDispatcher;
}

/**
 * The note a busiest-SE row carries when the stack's numDispatcherCores is not the dispatcher
 * layout its figures were measured with; "" when it is, or when numDispatcherCores is 0 (the
 * provider default: the Controller deduces the count; taken as the layout the table states).
 * The source states 1 dispatcher core for the 4 vCPU row (2 for its L4 throughput test) and 2
 * for the 6 vCPU row (model/data measuredDispatcherCores); no count for the 1 and 2 vCPU rows.
 * A dispatcher core below 4 vCPUs already moves the figures to another row (dispatcherNote).
 * @param row - "cpu" (SSL TPS, L7 RPS, L4 CPS, SSL throughput) or "throughput" (plain throughput of the VSs' kinds).
 */
export function dispatcherCoresNote(e: GroupEvaluation, row: "cpu" | "throughput"): string {
    const read = e.group.fields.numDispatcherCores;
    const spec = e.sizing?.spec;
    if (!spec || dispatcherUnmeasured(e)) {
        return "";
    }
    const demands = e.units.flatMap((u) => u.demands);
    const kinds: Array<{ kind: DispatcherFigure; name: string }> =
        row === "cpu"
            ? demands.some(
                  (d) => d.sslTps !== undefined || d.l7Rps !== undefined || d.l4Cps !== undefined || (d.throughputGbps !== undefined && vsKind(d) === "l7ssl"),
              )
                ? [{ kind: "other", name: "CPU-bound figures" }]
                : []
            : [...new Set(demands.filter((d) => d.throughputGbps !== undefined).map(vsKind))]
                  .sort()
                  .map((k) => (k === "l4" ? { kind: "l4Throughput" as const, name: "L4 throughput" } : { kind: "other" as const, name: "L7 throughput" }));
    if (kinds.length === 0 || (read.state === "ok" && read.value === 0)) {
        return "";
    }
    if (read.state !== "ok") {
        return read.state === "unknown"
            ? "numDispatcherCores unknown in this preview: the dispatcher layout may not be the measured one, not measured"
            : "numDispatcherCores invalid (perfguard-facts reports it): dispatcher layout not known, not measured";
    }
    const n = read.value;
    const names = [...new Set(kinds.filter((k) => measuredDispatcherCores(spec.vcpusPerSe, k.kind) !== n).map((k) => k.name))];
    if (names.length === 0) {
        return "";
    }
    const off = kinds.find((k) => measuredDispatcherCores(spec.vcpusPerSe, k.kind) !== n) as { kind: DispatcherFigure };
    const measured = measuredDispatcherCores(spec.vcpusPerSe, off.kind);
    const set = fieldText("numDispatcherCores", n, read.where);
    return measured === undefined
        ? `${set}: the table states no dispatcher count for ${spec.vcpusPerSe} vCPUs per SE, not measured`
        : `${set}: the ${spec.vcpusPerSe} vCPU row's ${listLabels(names)} measured with ${plural(measured, "dispatcher core")}, not measured`;
}

/** The Basis line of the group's numDispatcherCores notes (its CPU and throughput rows), or none. */
export function dispatcherCoresBasis(e: GroupEvaluation): string[] {
    return [...new Set([dispatcherCoresNote(e, "cpu"), dispatcherCoresNote(e, "throughput")].filter((x) => x !== ""))];
}
