/**
 * The Citrix section of `perfguard check --report`: per zone, per Delivery Group lock and for the
 * one Site database, the figures of the Citrix evaluation (citrixFigures), printed as the
 * verdicts print them. Nothing here computes a figure.
 */
import { citrixFigures, citrixRoom, ONE_GROUP_TESTED, PackConfig, SITE_WORK_NOT_MEASURED, stormsText } from "../../policies/citrix/evaluation";
import type { EntityFigures } from "../../policies/pack/figures";
import { num } from "../../policies/pack/format";
import type { StackView } from "../../policies/pack/resources";

/** Markdown-safe cell text: no pipes or line breaks. */
function cell(text: string): string {
    return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

function text(entity: EntityFigures, key: string): string {
    return entity.figures.find((f) => f.key === key)?.text ?? "-";
}

/** A figure's text with what it rests on where that was not measured ("120 ms (interpolated between 90 and 160 ms)"). */
function withNote(entity: EntityFigures, key: string): string {
    const f = entity.figures.find((x) => x.key === key);
    return f?.note ? `${f.text} (${f.note.replace(/^RTT not measured: the model /, "")})` : (f?.text ?? "-");
}

/**
 * Builds the section; "" when the stack has no Citrix zone.
 * Input: the stack as AnalyzeStack sends it, and the reconciled pack config (properties with defaults).
 */
export function citrixSection(stack: StackView, config: PackConfig): string {
    const { evaluation: e, decisions } = citrixRoom(stack, config);
    if (e.site.zones.length === 0) {
        return "";
    }
    const figures = citrixFigures(stack, config);
    // A proposal in the report follows from a verdict (citrix-broker-throttle's decisions); one no verdict asks for is labelled a suggestion.
    const proposal = (cellText: string, byVerdict: boolean) => (byVerdict || cellText === "-" ? cellText : `${cellText} (suggestion)`);
    const byUrn = new Map(figures.filter((f) => f.urn !== undefined).map((f) => [`${f.kind}\u0000${f.urn}`, f]));
    const zoneRows: string[] = [];
    for (const z of e.zones) {
        const zone = z.zone;
        const f = byUrn.get(`zone\u0000${zone.resource.urn}`)!;
        const peak = zone.peakConcurrentLaunches;
        // Its controllers in the stack and those externalControllers lists (the one evaluation has both).
        const listed = zone.controllers.length;
        const ddcs =
            listed === 0
                ? "none in stack"
                : `${listed} (throttles ${zone.controllers.map((c) => (c.throttle.state === "ok" ? String(c.throttle.value) : "none")).join(", ")})`;
        const rtt = zone.daas
            ? "Citrix DaaS (not judged)"
            : text(f, "rttMs") === "-"
              ? zone.rttMs.state === "absent"
                  ? "no perfguard:rttMs"
                  : `rttMs ${zone.rttMs.state}`
              : withNote(f, "rttMs");
        zoneRows.push(
            `| ${cell(f.label)} | ${rtt} | ${peak.state === "ok" ? `${peak.value}` : "-"} | ${text(f, "concurrency")} | ${zone.groups.length} | ${text(f, "lockLimit")} | ${proposal(text(f, "perController"), decisions.zoneProposed(zone))} | ${cell(ddcs)} |`,
        );
    }
    const groupRows: string[] = [];
    for (const g of e.groups) {
        const kind = g.group.implicit ? "zoneLock" : "deliveryGroup";
        const f = byUrn.get(`${kind}\u0000${g.group.resource.urn}`)!;
        // A zone's own lock: its throttling figures are listed once, on the zone (citrixFigures).
        const z = g.group.implicit ? byUrn.get(`zone\u0000${g.group.resource.urn}`) : undefined;
        const lock = (key: string, zoneKey: string) => (z ? text(z, zoneKey) : text(f, key));
        // A zone's own lock: its proposal is its zone's (the implicit group's resource is the zone).
        const ownZone = g.group.implicit ? e.zones.find((x) => x.zone.resource === g.group.resource) : undefined;
        const byVerdict = ownZone ? decisions.zoneProposed(ownZone.zone) : decisions.lockProposed(g.group);
        if (g.notChecked) {
            groupRows.push(`| ${cell(f.label)} | - | - | - | - | - | - | - | - | not checked: ${cell(g.notChecked.reason)} |`);
            continue;
        }
        const zones = g.feeds.map((x) => `${x.zone.zoneName} ${num(x.rttMs)} ms`).join(", ") || "-";
        const notMeasured = g.prediction && g.prediction.notMeasured.length > 0 ? " (not measured)" : "";
        const launch =
            text(f, "launchTimeS") === "-" ? (g.load.users === undefined ? "no perfguard:users" : "-") : `${text(f, "launchTimeS")} for ${g.load.users} users`;
        groupRows.push(
            `| ${cell(f.label)} | ${cell(zones)} | ${lock("concurrency", "concurrency")} | ${withNote(f, "meanResponseS")}${notMeasured} | ${text(f, "timedOutPct")} | ${text(f, "brokeredPerS")} | ${launch} | ${lock("throttleExposure", "throttleSum")} | ${lock("safe", "lockLimit")} | ${proposal(lock("perController", "perController"), byVerdict)} |`,
        );
    }
    const site = figures.find((f) => f.kind === "site")!;
    const d = e.database;
    const siteLines = [
        `- brokered/s over all groups (each lock on its own): ${text(site, "brokeredPerS")}`,
        // Σ X·c follows the brokered/s figure: known when it is (the same groups), never judged.
        `- database work: ${text(site, "brokeredPerS") === "-" ? "-" : num(d.databaseWorkS, 2)} s per s (${num(d.workPerRequestS * 1000)} ms each): ${SITE_WORK_NOT_MEASURED}`,
        d.capPerS !== undefined
            ? `- measured Site rate: ${text(site, "measuredPerS")}/s, ${d.capSource ?? ""}${d.capped ? `: the storms at once want more (responses ×${num(d.responseScale, 2)})` : ""}`
            : "- measured Site rate: none (measuredSiteBrokeredPerS of citrix-site-database-load): nothing gates on the Site's sum",
        `- satellite zones' concurrent requests against the database: ${text(site, "databaseConcurrency")}`,
        ...(d.storms > 1 ? [`- ${stormsText(d)} at once: ${ONE_GROUP_TESTED}`] : []),
    ];
    const targets = e.config;
    return (
        `## Citrix zones\n\nEach Delivery Group is its own brokering lock. Throttles are first come, first served: a lock can receive the sum of the throttles of every controller that brokers for it, bounded only by its group's own peak. Targets: mean response <= ${num(targets.targetResponseS)} s and timed-out requests <= ${num(targets.errorBudgetPct, 4)}%. A zone without a Delivery Group in the stack is one lock of its own. A throttle per controller that no citrix-broker-throttle verdict asks for (its locks already receive no more than they sustain, or its zone is below requireAtRttMs) is marked (suggestion).\n\n` +
        "| zone | RTT | peak | into its groups' locks | Delivery Groups | most exposed lock sustains | throttle per controller | Delivery Controllers |\n" +
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n" +
        zoneRows.join("\n") +
        "\n\n" +
        "### Delivery Group locks\n\nPredicted by the brokering model at the worse of each lock's expected concurrency (its peak shared over the zone's groups, capped by the throttles) and what first-come throttles can put on it (the group's own peak, else the zone's whole peak, within the zone's throttles); the worst zone's response and timeouts; launch times at the successful rate; each lock on its own (the source measured one Delivery Group, whose plateau is its lock's, not the Site database's).\n\n" +
        "| Delivery Group | zones | concurrency | mean response | timed out | brokered/s | launch | throttles into its lock | safe concurrency | throttle per controller |\n" +
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" +
        groupRows.join("\n") +
        "\n\n" +
        "### Site database\n\n" +
        siteLines.join("\n") +
        "\n\n"
    );
}
