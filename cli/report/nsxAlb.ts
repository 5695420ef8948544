/**
 * The NSX ALB section of `perfguard check --report`: per SE group the figures the verdicts state
 * (the busiest SE where placement puts the load: the surviving SE of a legacy active/standby
 * pair, the primary SE's ingress under native scale-out), and per virtual service what it needs
 * of the SEs it counts on. Every number is read from policies/nsx-alb/evaluation.ts with the
 * config the pack was given; nothing is recomputed here.
 */
import { nsxAlbEvaluation } from "../../policies/nsx-alb/evaluation";
import { seCapacityConfigOf } from "../../policies/nsx-alb/config";
import { groupFigures } from "../../policies/nsx-alb/figures";
import { GroupEvaluation } from "../../policies/nsx-alb/groupTypes";
import { CONNECTIONS_SCALED, dispatcherNote, limitingName, needsText } from "../../policies/nsx-alb/names";
import { num, pct } from "../../policies/pack/format";
import type { StackView } from "../../policies/pack/resources";

/** The reconciled config entry of one policy (levels and properties with defaults). */
type ConfigEntries = Readonly<Record<string, { readonly properties?: Readonly<Record<string, unknown>> } | undefined>>;

/** Markdown-safe cell text: no pipes or line breaks. */
function cell(text: string): string {
    return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

function groupName(e: GroupEvaluation): string {
    // The resource name, as the verdicts on the group name it.
    return cell(e.group.resource ? e.group.resource.name : `${e.group.name} (policy config)`);
}

/**
 * Builds the section.
 * @param stack - the stack as the pack's stack policies see it.
 * @param config - the reconciled policy config (nsx-alb-se-capacity's properties are used).
 * @returns Markdown ending with a blank line, or "" when the stack has no SE group.
 */
export function nsxAlbSection(stack: StackView, config: ConfigEntries): string {
    const evaluation = nsxAlbEvaluation(stack, seCapacityConfigOf(config["nsx-alb-se-capacity"]?.properties));
    if (evaluation.groups.length === 0) {
        return "";
    }
    const groupRows: string[] = [];
    const vsRows: string[] = [];
    for (const e of evaluation.groups) {
        const name = groupName(e);
        const f = groupFigures(e, evaluation.config);
        const vss = e.units.reduce((n, u) => n + u.members.length, 0);
        if (!f || !e.sizing || !e.placement) {
            groupRows.push(`| ${name} | - | - | ${vss} | - | - | - | - | - | - | not checked: ${cell(e.blocked?.reason ?? "its sizing cannot be read")} |`);
            for (const unit of e.units) {
                for (const m of unit.members) {
                    vsRows.push(
                        `| ${cell(m.placement.vs.name)} | ${name} | - | not checked: ${cell(e.blocked?.reason ?? "the sizing of its SE group cannot be read")} |`,
                    );
                }
            }
            continue;
        }
        const { spec } = e.sizing;
        const p = e.placement;
        const u = f.busiestSe;
        const mode =
            spec.haMode === "HA_MODE_LEGACY_ACTIVE_STANDBY"
                ? "legacy active/standby (after a failover)"
                : spec.haMode === "HA_MODE_SHARED_PAIR"
                  ? `active/active, ${p.rule}`
                  : e.afterFailure
                    ? `N+M, ${p.rule}, bufferSe 0 (after one of ${e.afterFailure.running} SEs fails)`
                    : `N+M, ${p.rule}`;
        const throughput = u.ingress > 0 ? `${pct(u.throughput)} (primary SE ingress ${pct(u.ingress)})` : pct(u.throughput);
        const steady = f.steadyState ? pct(f.steadyState.peak) : "-";
        // The verdict's own options (VS-level ones too: scaleoutEcmp, perfguard:ingressPct), read from the evaluation.
        const fix = f.fits ? "fits" : f.fixOptions.length > 0 ? f.fixOptions.join("; or ") : "nothing within the provider's ranges";
        // A group without a VS has no verdict figure: nothing to print but that.
        const figures =
            e.units.length === 0
                ? "- | - | - | - | -"
                : `${pct(u.cpu)} | ${throughput} | ${pct(u.openConnections)} | ${pct(u.peak)} (${limitingName(u)}) | ${steady}`;
        // A size off the table's rows, or open connections scaled by memory, says so (the evaluation's labels).
        // "not measured" (a dispatcher core below 4 vCPUs): the dispatcher note says from which row.
        const notes = [
            f.sizeLabel === "extrapolated" ? "extrapolated, not measured" : f.sizeLabel === "interpolated" ? "interpolated" : "",
            f.openConnectionsScaled ? `open connections ${CONNECTIONS_SCALED}` : "",
            f.dispatcherUnmeasured ? dispatcherNote(spec.vcpusPerSe) : "",
            ...new Set([f.dispatcherCores.cpu, f.dispatcherCores.throughput]),
        ].filter((x) => x !== "");
        const size = `${spec.vcpusPerSe} vCPU, ${num(spec.memoryPerSeMb / 1024, 2)} GB${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
        groupRows.push(
            `| ${name} | ${size} | ${cell(mode)} | ${vss} | ${p.sesNeeded} of ${p.sesMax} | ${figures} | ${e.units.length === 0 ? "no VS" : cell(fix)} |`,
        );
        for (const v of f.perVs) {
            for (const m of v.unit.members) {
                const head = m === v.unit.members[0];
                const needs = !head
                    ? `counted with its SNI parent ${cell(v.unit.head.vs.name)}`
                    : v.peak !== undefined && v.utilisation
                      ? `${needsText(v.utilisation, p.vsSes)} (${limitingName(v.utilisation)})`
                      : `not checked: ${cell(v.notChecked ?? "not judged")}`;
                vsRows.push(
                    `| ${cell(m.placement.vs.name)} | ${name} | ${head && v.unit.ingressAssumed ? "no direction: all counted as ingress" : "-"} | ${needs} |`,
                );
            }
        }
    }
    for (const p of evaluation.unresolved) {
        vsRows.push(`| ${cell(p.vs.name)} | - | - | not checked: ${cell(p.unresolved?.reason ?? "its SE group is not known")} |`);
    }
    return (
        `## NSX ALB SE groups\n\nThe busiest SE of each group as placement loads it (NSX ALB 20.1.6 per-SE table): in legacy active/standby the SE that carries every VS after a failover, under native scale-out a VS's primary SE with all its ingress; fixes keep ${num(evaluation.config.headroomPct)}% headroom. The figures are those of nsx-alb-se-capacity's verdicts.\n\n` +
        "| SE group | size per SE | HA mode, placement | VSs | SEs | busiest SE CPU | throughput | open connections | busiest SE | steady state | fix |\n" +
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" +
        groupRows.join("\n") +
        "\n\n" +
        "### Virtual services\n\n" +
        "| virtual service | SE group | throughput direction | needs |\n" +
        "| --- | --- | --- | --- |\n" +
        vsRows.join("\n") +
        "\n\n"
    );
}
