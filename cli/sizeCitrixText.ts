/**
 * How `perfguard size citrix` prints a sizing (cli/sizeCitrix.ts computes it): the text table
 * with its recommendation and the JSON document, two views of the same figures.
 */
import { adviceMaxConcurrent, BrokeringCell, MEASURED_RTT_LEVELS } from "../model/citrixGuidance";
import { MEASURED_MAX_CONCURRENCY } from "../model/deliveryGroupBrokering";
import { adviceLimit, ONE_GROUP_TESTED, SITE_WORK_NOT_MEASURED } from "../policies/citrix/evaluation";
import { duration, num, pct, plural } from "../policies/pack/format";

import { table } from "./table";
import type { CitrixSizing } from "./sizeCitrix";

function measuredText(cell: BrokeringCell | undefined): string {
    if (!cell) {
        return "";
    }
    const response = cell.meanResponseS === null ? "n/a" : `${num(cell.meanResponseS)} s`;
    const brokered = cell.brokeredPerS === null ? "n/a" : `${num(cell.brokeredPerS, 2)} /s`;
    const errors = cell.errorPct === null ? "n/a" : `${num(cell.errorPct, 2)}%`;
    return `${response}, ${brokered}, ${errors}`;
}

/**
 * Renders the human output: inputs, what the RTT rests on, the table (one lock taking each
 * concurrency, with the measured cells at this RTT when the source measured it), the largest safe
 * concurrency and the throttle per controller, then every group at once (labelled: not judged,
 * not measured). Output: text ending with "\n".
 */
export function formatCitrixSizing(s: CitrixSizing): string {
    const i = s.input;
    const several = s.groups.length > 1;
    const byConcurrency = new Map(s.measured.map((c) => [c.concurrentRequests, c]));
    const header = [several ? "on one lock" : "concurrency", "mean response", "brokered", "timed out", `launch of ${i.users} users`, "meets targets"];
    const align: Array<"left" | "right"> = ["right", "right", "right", "right", "right", "left"];
    if (s.measured.length > 0) {
        header.push(`measured at ${num(i.rttMs)} ms`);
        align.push("left");
    }
    const rows = s.rows.map((r) => {
        const cells = [
            `${r.concurrency}`,
            `${num(r.meanResponseS)} s`,
            `${num(r.brokeredPerS, 2)} /s`,
            pct(r.errorRate),
            duration(r.launchTimeS),
            r.meetsTargets ? "yes" : "no",
        ];
        if (s.measured.length > 0) {
            cells.push(measuredText(byConcurrency.get(r.concurrency)));
        }
        return cells;
    });
    let out = `Citrix zone at ${num(i.rttMs)} ms RTT to the Site database, ${i.users} users, ${i.controllers} Delivery Controller${i.controllers === 1 ? "" : "s"}, ${plural(s.groups.length, "Delivery Group")}\n`;
    out += `Targets: mean response <= ${num(i.targetResponseS)} s, timed-out requests <= ${num(i.errorBudgetPct, 4)}%. Model: ${s.model}.\n`;
    if (s.rtt.label !== "measured") {
        out += `RTT ${num(i.rttMs)} ms was not measured: every figure is the model's, ${s.rtt.text} (the source measured ${MEASURED_RTTS}).\n`;
    }
    if (several) {
        out += `Each row is one Delivery Group's lock taking the whole concurrency: throttles are first come, first served, so one group's storm can take every controller's requests.\n`;
    }
    out += "\n" + table(header, rows, align);
    out += "\n";
    if (s.blocked) {
        out += `Blocked: ${s.blocked}.\n`;
    }
    if (s.maxSafeConcurrency === 0) {
        out += `Largest safe concurrency: none: even 1 concurrent request misses the targets at ${num(i.rttMs)} ms. Deploy a separate Site for this location.\n`;
        return out;
    }
    const advice = adviceMaxConcurrent(i.rttMs);
    const notes = [
        ...(s.rtt.label === "measured" ? [] : [s.rtt.text]),
        ...(advice !== undefined && s.maxSafeConcurrency === advice.value && adviceLimit(i.rttMs, i) !== undefined
            ? [`bounded by advice: ${advice.text}`]
            : []),
    ];
    out += `Largest safe concurrency: ${plural(s.maxSafeConcurrency, "concurrent brokering request")} on one Delivery Group's lock${notes.length > 0 ? ` (${notes.join("; ")})` : ""}.\n`;
    if (several) {
        const bounded = s.groups.every((g) => g.peak !== undefined && g.peak <= g.maxSafeConcurrency);
        out += bounded
            ? `Every group's own peak (${s.groups.map((g) => g.peak).join(" / ")}) is within what its lock sustains; the throttle still keeps one lock within ${s.maxSafeConcurrency} should a storm exceed its group's peak.\n`
            : `Throttles are first come, first served: a storm can put every controller's requests on one of the ${s.groups.length} locks, so each controller's throttle keeps one lock within ${s.maxSafeConcurrency}.\n`;
    }
    for (const note of s.notMeasured) {
        out += `Note: ${note}.\n`;
    }
    if (s.maxSafeConcurrency > MEASURED_MAX_CONCURRENCY) {
        out += `Note: the source measured up to ${MEASURED_MAX_CONCURRENCY} concurrent requests; beyond that the figure is the model's extrapolation, not a measurement.\n`;
    }
    if (s.brokeringControllers < i.controllers) {
        out += `Throttle: set ${s.throttleKey} to ${s.throttlePerController} on ${s.brokeringControllers} of the ${i.controllers} Delivery Controllers and retire the others from brokering (or deploy a separate Site).\n`;
    } else {
        out += `Throttle per controller: set ${s.throttleKey} to ${s.throttlePerController} on each of the ${i.controllers} Delivery Controllers (${s.throttlePerController * i.controllers} in all), and declare it with perfguard:throttleMaxConcurrentTransactions.\n`;
    }
    const a = s.atThrottle;
    if (a) {
        out += `At ${plural(a.concurrency, "concurrent request")}${several ? " on one lock" : ""}: ${num(a.meanResponseS)} s mean response, ${num(a.brokeredPerS, 2)} brokered/s (${num(a.successfulPerS, 2)} successful), ${pct(a.errorRate)} timed out, ${i.users} users launched in ${duration(a.launchTimeS)}.\n`;
    }
    const all = s.allGroups;
    if (all) {
        out += `All ${s.groups.length} groups at once (${all.how}; not the judged case): ${num(all.concurrency)} concurrent requests, worst ${num(all.meanResponseS)} s mean response, ${num(all.brokeredPerS, 2)} brokered/s on the Site, ${pct(all.errorRate)} timed out, launched in ${duration(all.launchTimeS)}.\n`;
        out += `Site database: ${num(all.brokeredPerS, 2)} brokered/s over ${s.groups.length} Delivery Groups, ${num(all.databaseWorkS, 2)} s of database work per s (${num(all.workPerRequestS * 1000)} ms each): ${SITE_WORK_NOT_MEASURED}.\n`;
    }
    return out;
}

/** "10, 45, 90, 160 and 250 ms": the RTT levels of the source. */
const MEASURED_RTTS = `${MEASURED_RTT_LEVELS.slice(0, -1).join(", ")} and ${MEASURED_RTT_LEVELS[MEASURED_RTT_LEVELS.length - 1]} ms`;

/** The JSON document of `size citrix --json` (units in the field names; error rates as fractions and percent). */
export function citrixSizingJson(s: CitrixSizing, plot?: string): Record<string, unknown> {
    return {
        command: "size citrix",
        input: s.input,
        model: s.model,
        rtt: s.rtt,
        rowsAre: s.groups.length > 1 ? "one Delivery Group's lock taking the whole concurrency (first come, first served)" : "the zone's one lock",
        rows: s.rows.map((r) => ({ ...r, errorPct: r.errorRate * 100 })),
        measured: s.measured.map((c) => ({
            concurrency: c.concurrentRequests,
            meanResponseS: c.meanResponseS,
            brokeredPerS: c.brokeredPerS,
            errorPct: c.errorPct,
            launch10kUsersS: c.launch10kUsersS,
        })),
        maxSafeConcurrency: s.maxSafeConcurrency,
        zoneSafeConcurrency: s.zoneSafeConcurrency,
        ...(s.blocked ? { blocked: s.blocked } : {}),
        throttlePerController: s.throttlePerController,
        brokeringControllers: s.brokeringControllers,
        throttleKey: s.throttleKey,
        atThrottle: s.atThrottle ?? null,
        allGroups: s.allGroups ? { ...s.allGroups, notMeasured: ONE_GROUP_TESTED } : null,
        deliveryGroups: s.groups,
        notMeasured: s.notMeasured,
        ...(plot ? { plot } : {}),
    };
}
