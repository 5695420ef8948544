/**
 * `perfguard size citrix`: the brokering model at one RTT over a range of concurrencies, the
 * largest concurrency that meets the targets, and the throttle to set on each Delivery Controller,
 * with the same models and the same arithmetic as citrix-broker-throttle.
 */
import { BrokeringPrediction, predictBrokering } from "../model/brokering";
import { MEASURED_MAX_CONCURRENCY, predictGroupBrokering, shareSiteCap } from "../model/deliveryGroupBrokering";
import { BrokeringCell, CITRIX_GUIDANCE, measuredAt } from "../model/citrixGuidance";
import { lockSafeConcurrency, MODEL_SOURCE, ONE_GROUP_TESTED, perControllerThrottle, siteCap } from "../policies/citrix/evaluation";
import { duration, num, pct, plural } from "../policies/pack/format";
import { table } from "./table";

/** Input of {@link sizeCitrix}; units in the names. */
export interface CitrixSizingInput {
    /** RTT between the zone's Delivery Controllers and the Site database, ms (0..10000). */
    readonly rttMs: number;
    /** Users launched in the logon storm (>= 0). */
    readonly users: number;
    /** Delivery Controllers of the zone that broker (>= 1). */
    readonly controllers: number;
    /** Highest acceptable mean brokering response, s (> 0). */
    readonly targetResponseS: number;
    /** Highest acceptable share of timed-out requests, percent (0..100; 0.1 = 0.1 %). */
    readonly errorBudgetPct: number;
    /** Delivery Groups with machines in the zone (>= 1; default 1): each is its own brokering lock. */
    readonly deliveryGroups?: number;
    /** Machines of each Delivery Group (length deliveryGroups; default equal): the zone's load splits in proportion. */
    readonly groupMachines?: readonly number[];
    /** Each Delivery Group's own declared peak (length deliveryGroups): bounds what its lock can receive. */
    readonly groupPeaks?: readonly number[];
    /** citrix-zone-rtt-limit's maxRttMs (default 250): at or above it the pack blocks the zone. */
    readonly maxRttMs?: number;
    /** Table range: first and last concurrency and step (requests; from >= 1, step >= 1). */
    readonly from: number;
    readonly to: number;
    readonly step: number;
}

/** One row of the table: the model at one concurrency. */
export interface CitrixSizingRow {
    /** Concurrent brokering requests (closed loop). */
    readonly concurrency: number;
    readonly meanResponseS: number;
    readonly brokeredPerS: number;
    readonly successfulPerS: number;
    /** Fraction 0..1. */
    readonly errorRate: number;
    /** Time to broker `users` launches, s. */
    readonly launchTimeS: number;
    /** Within both targets. */
    readonly meetsTargets: boolean;
}

/** What `size citrix` prints (and `--json` emits). */
export interface CitrixSizing {
    readonly input: CitrixSizingInput;
    readonly rows: CitrixSizingRow[];
    /** The source's measured cells at exactly this RTT (empty when it was not measured). */
    readonly measured: BrokeringCell[];
    /**
     * Largest concurrency one lock sustains within both targets (0 = none; 1000 = the search's
     * cap): throttles are first come, first served, so a storm can put the whole zone's
     * concurrency on one group's lock unless that group's own peak bounds it.
     */
    readonly maxSafeConcurrency: number;
    /** The zone's concurrency the locks sustain at their declared peaks (= maxSafeConcurrency when a lock is unbounded). */
    readonly zoneSafeConcurrency: number;
    /** The Site database's cap, requests/s, and where it comes from. */
    readonly siteCapPerS: number;
    readonly siteCapSource: string;
    /** At or above citrix-zone-rtt-limit's limit: the pack blocks the zone. */
    readonly blocked?: string;
    /**
     * DWORD ThrottledRequestAddressMaxConcurrentTransactions per brokering controller:
     * floor(maxSafeConcurrency / controllers), at least 1 when maxSafeConcurrency > 0 (then only
     * `brokeringControllers` of them broker), 0 when no concurrency meets the targets.
     */
    readonly throttlePerController: number;
    /** Controllers that should broker at that throttle (fewer than `controllers` when safe < controllers). */
    readonly brokeringControllers: number;
    /** The model at throttlePerController x brokeringControllers (undefined when 0). */
    readonly atThrottle: (BrokeringPrediction & { readonly concurrency: number }) | undefined;
    /** The registry value's full path. */
    readonly throttleKey: string;
    readonly model: string;
    /** Per Delivery Group lock: its share of the zone's load and the concurrency it sustains at the targets. */
    readonly groups: Array<{ readonly share: number; readonly maxSafeConcurrency: number; readonly peak?: number }>;
    /** What rests on extrapolation ("not measured"); empty when nothing does. */
    readonly notMeasured: string[];
}

/** Each group's share of the zone's load: by machines when given, else equal. */
function groupShares(input: CitrixSizingInput): number[] {
    const n = Math.max(1, Math.floor(input.deliveryGroups ?? 1));
    const machines = input.groupMachines && input.groupMachines.length === n ? input.groupMachines : Array.from({ length: n }, () => 1);
    const total = machines.reduce((sum, m) => sum + m, 0);
    return machines.map((m) => (total > 0 ? m / total : 1 / n));
}

/**
 * The zone at `concurrency` split over its groups' locks (each its own queue, all on one Site
 * database): worst response and errors; brokered/s summed and capped by the Site database; the
 * launch time of the storm at the successful rate (a timed-out launch is retried).
 */
function zoneAt(rttMs: number, concurrency: number, users: number, shares: readonly number[], capPerS: number): BrokeringPrediction & { launchTimeS: number } {
    const locks = shares.map((share) => (share > 0 ? predictGroupBrokering({ classes: [{ rttMs, concurrency: concurrency * share }] }) : undefined));
    const storms = locks.map((p, i) => ({ brokeredPerS: p?.brokeredPerS ?? 0, successfulPerS: p?.successfulPerS ?? 0, users: users * shares[i] }));
    // One group is the calibrated single-lock model: its rate never reaches the plateau it was measured at.
    const shared = shares.length === 1 ? shareSiteCap(storms, Number.POSITIVE_INFINITY) : shareSiteCap(storms, capPerS);
    const used = locks.filter((p): p is NonNullable<typeof p> => p !== undefined);
    return {
        meanResponseS: Math.max(...used.map((p) => p.worstMeanResponseS)) * (shared.capped ? shared.responseScale : 1),
        errorRate: Math.max(...used.map((p) => p.worstErrorRate)),
        brokeredPerS: shared.totalPerS,
        successfulPerS: shared.storms.reduce((sum, x) => sum + x.successfulPerS, 0),
        launchTimeS: Math.max(...shared.storms.map((x, i) => (shares[i] > 0 ? x.launchTimeS ?? 0 : 0))),
    };
}

/**
 * Runs the sizing.
 * Input: CitrixSizingInput (validated by the CLI's option parsers).
 * Output: CitrixSizing. Throws RangeError from the model for out-of-range input.
 */
export function sizeCitrix(input: CitrixSizingInput): CitrixSizing {
    const { rttMs, users } = input;
    const budget = input.errorBudgetPct / 100;
    const rows: CitrixSizingRow[] = [];
    const shares = groupShares(input);
    const { capPerS, capSource } = siteCap(undefined);
    for (let c = input.from; c <= input.to; c += input.step) {
        const p = zoneAt(rttMs, c, users, shares, capPerS);
        rows.push({
            concurrency: c,
            meanResponseS: p.meanResponseS,
            brokeredPerS: p.brokeredPerS,
            successfulPerS: p.successfulPerS,
            errorRate: p.errorRate,
            launchTimeS: p.launchTimeS,
            meetsTargets: p.meanResponseS <= input.targetResponseS && p.errorRate <= budget,
        });
    }
    // The same functions as the Citrix evaluation: one lock's safe concurrency (the model, never
    // above a measured cell that missed the targets), and first come, first served: every
    // controller's throttle can go to one lock, unless that group's own peak bounds it.
    const targets = { targetResponseS: input.targetResponseS, errorBudgetPct: input.errorBudgetPct };
    const safeOne = lockSafeConcurrency([{ rttMs, weight: 1 }], targets);
    const peaks = input.groupPeaks && input.groupPeaks.length === shares.length ? input.groupPeaks : undefined;
    const exposed = peaks === undefined || peaks.some((p) => p > safeOne);
    const zoneSafe = peaks === undefined ? safeOne : peaks.reduce((sum, p) => sum + Math.min(p, safeOne), 0);
    const fixTotal = exposed ? Math.min(safeOne, MEASURED_MAX_CONCURRENCY) : Math.min(zoneSafe, MEASURED_MAX_CONCURRENCY);
    const each = exposed ? perControllerThrottle(safeOne, input.controllers) : perControllerThrottle(fixTotal, input.controllers);
    // Fewer controllers than requests at 1 each: only that many broker.
    const throttle = fixTotal === 0 ? 0 : Math.max(1, each);
    const brokering = fixTotal === 0 ? 0 : Math.min(input.controllers, Math.max(1, Math.floor(fixTotal / throttle)));
    const total = throttle * brokering;
    const atThrottle = total > 0 ? { concurrency: total, ...zoneAt(rttMs, total, users, shares, capPerS) } : undefined;
    const notMeasured: string[] = [];
    if (shares.length > 1) {
        notMeasured.push(`${shares.length} Delivery Groups' brokered/s and launch time at once on one Site database (capped at ${num(capPerS, 2)}/s, ${capSource}): ${ONE_GROUP_TESTED}`);
    }
    if (safeOne > MEASURED_MAX_CONCURRENCY) {
        notMeasured.push(`one lock sustains ${safeOne} in the model, but the source measured at most ${MEASURED_MAX_CONCURRENCY} concurrent requests against one Site database: the throttle keeps a lock within ${MEASURED_MAX_CONCURRENCY}`);
    }
    const limit = input.maxRttMs ?? CITRIX_GUIDANCE.maxZoneRttMs;
    return {
        input,
        rows,
        measured: [...measuredAt(rttMs)],
        maxSafeConcurrency: safeOne,
        zoneSafeConcurrency: zoneSafe,
        siteCapPerS: capPerS,
        siteCapSource: capSource,
        ...(rttMs >= limit ? { blocked: `at ${num(rttMs)} ms the pack blocks this zone (citrix-zone-rtt-limit: ${num(limit)} ms or more): Citrix advises a separate Site (own Site database) for this location` } : {}),
        throttlePerController: throttle,
        brokeringControllers: brokering,
        atThrottle,
        throttleKey: CITRIX_GUIDANCE.throttleKeyPath,
        model: MODEL_SOURCE,
        groups: shares.map((share, i) => ({ share, maxSafeConcurrency: safeOne, ...(peaks ? { peak: peaks[i] } : {}) })),
        notMeasured,
    };
}

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
 * Renders the human output: inputs, the table (with the measured cells at this RTT when the
 * source measured it), the largest safe concurrency and the throttle per controller.
 * Output: text ending with "\n".
 */
export function formatCitrixSizing(s: CitrixSizing): string {
    const i = s.input;
    const byConcurrency = new Map(s.measured.map((c) => [c.concurrentRequests, c]));
    const header = ["concurrency", "mean response", "brokered", "timed out", `launch of ${i.users} users`, "meets targets"];
    const align: Array<"left" | "right"> = ["right", "right", "right", "right", "right", "left"];
    if (s.measured.length > 0) {
        header.push(`measured at ${num(i.rttMs)} ms${s.groups.length > 1 ? " (one group)" : ""}`);
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
    out += `Targets: mean response <= ${num(i.targetResponseS)} s, timed-out requests <= ${num(i.errorBudgetPct, 4)}%. Model: ${s.model}.\n\n`;
    out += table(header, rows, align);
    out += "\n";
    if (s.blocked) {
        out += `Blocked: ${s.blocked}.\n`;
    }
    if (s.maxSafeConcurrency === 0) {
        out += `Largest safe concurrency: none: even 1 concurrent request misses the targets at ${num(i.rttMs)} ms. Deploy a separate Site for this location.\n`;
        return out;
    }
    out += `Largest safe concurrency: ${plural(s.maxSafeConcurrency, "concurrent brokering request")} on one Delivery Group's lock.\n`;
    if (s.groups.length > 1) {
        out += s.groups.some((g) => g.peak === undefined || g.peak > s.maxSafeConcurrency)
            ? `Throttles are first come, first served: a storm can put every controller's requests on one of the ${s.groups.length} locks, so each controller's throttle keeps one lock within ${s.maxSafeConcurrency}.\n`
            : `Every group's own peak (${s.groups.map((g) => g.peak).join(" / ")}) is within what its lock sustains: the zone sustains ${s.zoneSafeConcurrency}.\n`;
    }
    for (const note of s.notMeasured) {
        out += `Note: ${note}.\n`;
    }
    if (s.maxSafeConcurrency > MEASURED_CONCURRENCY_MAX) {
        out += `Note: the source measured up to ${MEASURED_CONCURRENCY_MAX} concurrent requests; beyond that the figure is the model's extrapolation, not a measurement.\n`;
    }
    if (s.brokeringControllers < i.controllers) {
        out += `Throttle: set ${s.throttleKey} to ${s.throttlePerController} on ${s.brokeringControllers} of the ${i.controllers} Delivery Controllers and retire the others from brokering (or deploy a separate Site).\n`;
    } else {
        out += `Throttle per controller: set ${s.throttleKey} to ${s.throttlePerController} on each of the ${i.controllers} Delivery Controllers (${s.throttlePerController * i.controllers} in all), and declare it with perfguard:throttleMaxConcurrentTransactions.\n`;
    }
    const a = s.atThrottle;
    if (a) {
        out += `At ${plural(a.concurrency, "concurrent request")}: ${num(a.meanResponseS)} s mean response, ${num(a.brokeredPerS, 2)} brokered/s (${num(a.successfulPerS, 2)} successful), ${pct(a.errorRate)} timed out, ${i.users} users launched in ${duration(a.launchTimeS ?? NaN)}.\n`;
        if (s.groups.length > 1) {
            out += `${num(a.brokeredPerS, 2)} brokered/s and the launch time over ${s.groups.length} Delivery Groups: ${ONE_GROUP_TESTED}.\n`;
        }
    }
    return out;
}

/** The most concurrent brokering requests the source measured (citrix-brokering.json, 60-request rows). */
const MEASURED_CONCURRENCY_MAX = 60;

/** The JSON document of `size citrix --json` (units in the field names; error rates as fractions and percent). */
export function citrixSizingJson(s: CitrixSizing, plot?: string): Record<string, unknown> {
    return {
        command: "size citrix",
        input: s.input,
        model: s.model,
        rows: s.rows.map((r) => ({ ...r, errorPct: r.errorRate * 100 })),
        measured: s.measured.map((c) => ({ concurrency: c.concurrentRequests, meanResponseS: c.meanResponseS, brokeredPerS: c.brokeredPerS, errorPct: c.errorPct, launch10kUsersS: c.launch10kUsersS })),
        maxSafeConcurrency: s.maxSafeConcurrency,
        zoneSafeConcurrency: s.zoneSafeConcurrency,
        siteCapPerS: s.siteCapPerS,
        ...(s.blocked ? { blocked: s.blocked } : {}),
        throttlePerController: s.throttlePerController,
        brokeringControllers: s.brokeringControllers,
        throttleKey: s.throttleKey,
        atThrottle: s.atThrottle ?? null,
        deliveryGroups: s.groups,
        notMeasured: s.notMeasured,
        ...(plot ? { plot } : {}),
    };
}

/**
 * Draws `--plot`: predicted mean response and error rate at every concurrency from `from` to
 * `to` (step 1), with the measured cells at this RTT. Loads the renderer (and its charting library)
 * only here. Output: the SVG text. Throws when the renderer or its library is missing.
 */
export async function citrixPlotSvg(s: CitrixSizing): Promise<string> {
    const { brokeringPlotSvg } = await import("./plots/brokeringPlot");
    const i = s.input;
    const rows = [];
    for (let c = Math.max(1, i.from); c <= i.to; c++) {
        const p = predictBrokering({ rttMs: i.rttMs, concurrency: c });
        rows.push({ concurrency: c, meanResponseS: p.meanResponseS, errorRate: p.errorRate });
    }
    // Several Delivery Groups: each lock is drawn as one group (with the measured cells, which are
    // one group's), and the zone's load over all of them as a second line.
    const shares = groupShares(i);
    const zone = shares.length > 1
        ? {
            groups: shares.length,
            rows: Array.from({ length: Math.max(1, i.to - Math.max(1, i.from) + 1) }, (_, k) => {
                const c = Math.max(1, i.from) + k;
                const p = zoneAt(i.rttMs, c, i.users, shares, s.siteCapPerS);
                return { concurrency: c, meanResponseS: p.meanResponseS, errorRate: p.errorRate };
            }),
        }
        : undefined;
    return brokeringPlotSvg({
        zone,
        rttMs: i.rttMs,
        targetResponseS: i.targetResponseS,
        errorBudget: i.errorBudgetPct / 100,
        rows,
        measured: s.measured.map((c) => ({ concurrency: c.concurrentRequests, meanResponseS: c.meanResponseS, errorPct: c.errorPct })),
    });
}
