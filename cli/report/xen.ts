/**
 * The Xen section of `perfguard check --report`: per host the link, dom0's declared traffic and
 * the guests short of their need, then each guest's predicted share against its need and what
 * each dom0 workload costs the guests. Every figure is read from the Xen evaluation
 * (policies/xen/evaluation.ts), the one the two Xen policies judge, so the table and the
 * verdicts state the same numbers.
 */
import { num, plural } from "../../policies/pack/format";
import type { StackView } from "../../policies/pack/resources";
import { extrapolatedMark, mayDeclareNeed, NOT_CHECKED, xenEvaluation } from "../../policies/xen/evaluation";
import type { XenShareConfig } from "../../policies/xen/hosts";

// Guest and dom0 rows shown; the rest are counted (a report of 3,000 guests is not read row by row).
const ROWS = 100;

function cell(text: string): string {
    return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

function more(total: number, shown: number, what: string): string {
    return total > shown ? `\n\n... and ${plural(total - shown, what)} more (see the verdicts).` : "";
}

/**
 * Builds the section.
 * @param stack - the stack as the pack's stack policies see it.
 * @param config - xen-guest-network-share's reconciled config properties (defaults when absent).
 * @returns Markdown ending with a blank line, or "" when the stack has no Xen host and no guest with a need but no host.
 */
export function xenSection(stack: StackView, config: Partial<XenShareConfig> | undefined): string {
    const evaluation = xenEvaluation(stack, config);
    const unplacedNeeds = evaluation.layout.unplaced.some((g) => g.need.state !== "absent") || evaluation.layout.hostUnknown.some(mayDeclareNeed);
    if (evaluation.hosts.length === 0 && !unplacedNeeds) {
        return "";
    }
    const hostRows: string[] = [];
    const guestRows: string[] = [];
    const dom0Rows: string[] = [];
    for (const h of evaluation.hosts) {
        const m = h.model;
        const judged = h.guests.filter((g) => g.entry.state === "judged").length;
        const idle = h.guests.filter((g) => g.entry.state === "idle").length;
        const unknown = h.guests.filter((g) => g.entry.state === "unknown").length;
        const bond = m.bond ? `; bond ${m.bond.members} x ${num(m.bond.memberMBps, 2)} MB/s ${m.bond.mode} (${m.bond.where})` : "";
        const link = m.link ? `${num(m.link.mbps, 2)} MB/s (${m.link.where})${bond}${h.extrapolated ? `; ${h.extrapolated}` : ""}` : "none: not checked";
        // Every figure on a link beyond the measured one is marked (the host row says why).
        const x = extrapolatedMark(h);
        const short = !m.link ? (judged > 0 ? "not checked" : "-") : `${h.short.length} of ${judged}`;
        const counts = `${judged} judged, ${idle} idle${unknown > 0 ? `, ${unknown} not checked` : ""}`;
        hostRows.push(`| ${cell(h.host.name)} | ${cell(link)} | ${num(m.dom0TotalMBps, 2)} MB/s | ${counts} | ${short} |`);
        for (const g of h.guests) {
            if (g.entry.state === "idle") {
                continue;
            }
            const capped = g.entry.capMBps !== undefined ? ` (VIF cap ${num(g.entry.capMBps, 2)}: assumed transmit)` : "";
            const need = g.entry.needMBps !== undefined ? `${num(g.entry.needMBps, 2)} MB/s${capped}` : "-";
            const predicted = g.predictedMBps !== undefined ? `${num(g.predictedMBps, 2)} MB/s${x}` : "-";
            const verdict = g.short
                ? g.bondBound
                    ? `short (its ${plural(g.entry.bondVifs ?? 1, "VIF")} on the bond ${(g.entry.bondVifs ?? 1) === 1 ? "reaches" : "reach"} ${num(g.entry.bondCapMBps ?? 0, 2)} MB/s)`
                    : g.capOnly
                      ? "short (its VIF cap only)"
                      : "short"
                : g.notChecked !== undefined
                  ? `not checked: ${g.notChecked}`
                  : g.severalFlows
                    ? "met if several flows (LACP: one flow on one member)"
                    : "met";
            guestRows.push(`| ${cell(g.entry.guest.resource.name)} | ${cell(h.host.name)} | ${need} | ${predicted} | ${cell(verdict)} |`);
        }
        for (const d of h.dom0) {
            const role = d.service.management
                ? "management"
                : d.service.role.state === "ok"
                  ? d.service.role.value
                  : d.service.role.state === "absent"
                    ? "none"
                    : d.service.role.state;
            const sends =
                d.service.traffic.state === "ok"
                    ? `${num(d.service.traffic.value, 2)} MB/s`
                    : d.service.traffic.state === "absent"
                      ? "undeclared (idle)"
                      : `${d.service.traffic.state}: not counted`;
            const cost = d.guestsTotal ? `guests ${num(d.guestsTotal.without, 2)} → ${num(d.guestsTotal.withIt, 2)} MB/s${x}` : "-";
            dom0Rows.push(`| ${cell(d.service.resource.name)} | ${cell(h.host.name)} | ${cell(role)} | ${cell(sends)} | ${cost} |`);
        }
    }
    // Guests with no host, or a host unknown in this preview, that may declare a need: listed with
    // their reason (as the NSX virtual-service table lists its unchecked rows), never left out.
    const unplaced = [
        ...evaluation.layout.unplaced.filter((g) => g.need.state !== "absent").map((g) => ({ g, why: NOT_CHECKED.noHost })),
        ...evaluation.layout.hostUnknown.filter(mayDeclareNeed).map((g) => ({ g, why: NOT_CHECKED.hostUnknown })),
    ].sort((a, b) => (a.g.resource.name < b.g.resource.name ? -1 : a.g.resource.name > b.g.resource.name ? 1 : 0));
    for (const { g, why } of unplaced) {
        const need = g.need.state === "ok" ? `${num(g.need.value, 2)} MB/s` : "-";
        guestRows.push(`| ${cell(g.resource.name)} | - | ${need} | - | ${cell(`not checked: ${why}`)} |`);
    }
    const share = num(evaluation.config.dom0Share * 100, 1);
    let out =
        `## Xen hosts\n\nEach guest's predicted share of its host's link, as measured on downloads (receive): dom0 keeps >= ${share}% of the link while it receives, the guests split the rest (the model of xen-guest-network-share and xen-dom0-workload). A VIF cap limits transmit only: a capped need is assumed to be transmit.\n\n` +
        (hostRows.length > 0
            ? "| host | link | dom0 declared traffic | guests | short of their need |\n| --- | --- | --- | --- | --- |\n" + hostRows.join("\n") + "\n\n"
            : "");
    if (guestRows.length > 0) {
        out +=
            "### Guests\n\n| guest | host | needs | predicted | need |\n| --- | --- | --- | --- | --- |\n" +
            guestRows.slice(0, ROWS).join("\n") +
            more(guestRows.length, ROWS, "guest") +
            "\n\n";
    }
    if (dom0Rows.length > 0) {
        out +=
            "### dom0 services\n\n| dom0 service | host | role | transfers | its guests: without it → with it |\n| --- | --- | --- | --- | --- |\n" +
            dom0Rows.slice(0, ROWS).join("\n") +
            more(dom0Rows.length, ROWS, "dom0 service") +
            "\n\n";
    }
    return out;
}
