/**
 * `perfguard size citrix`: the brokering model at one RTT over a range of concurrencies, the
 * largest concurrency that meets the targets, and the throttle to set on each Delivery Controller,
 * with the same models and the same arithmetic as citrix-broker-throttle.
 */
import { BrokeringPrediction, maxSafeConcurrency, predictBrokering } from "../model/brokering";
import { MEASURED_MAX_CONCURRENCY, predictGroupBrokering } from "../model/deliveryGroupBrokering";
import { BrokeringCell, CITRIX_GUIDANCE, measuredAt, measuredLimit } from "../model/citrixGuidance";
import { MODEL_SOURCE } from "../policies/citrix/targets";
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
    /** Largest zone-wide concurrency within both targets (0 = none; 1000 = the search's cap). */
    readonly maxSafeConcurrency: number;
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
    readonly groups: Array<{ readonly share: number; readonly maxSafeConcurrency: number }>;
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

/** The zone at `concurrency` split over its groups' locks: worst response and errors, summed throughput. */
function zoneAt(rttMs: number, concurrency: number, users: number, shares: readonly number[]): BrokeringPrediction & { launchTimeS: number } {
    if (shares.length === 1) {
        const p = predictBrokering({ rttMs, concurrency, users });
        return { ...p, launchTimeS: p.launchTimeS as number };
    }
    let meanResponseS = 0;
    let brokeredPerS = 0;
    let successfulPerS = 0;
    let errorRate = 0;
    let launchTimeS = 0;
    for (const share of shares) {
        if (share <= 0) {
            continue;
        }
        const p = predictGroupBrokering({ classes: [{ rttMs, concurrency: concurrency * share }], users: users * share });
        const c = p.classes[0];
        meanResponseS = Math.max(meanResponseS, c.meanResponseS);
        brokeredPerS += c.brokeredPerS;
        successfulPerS += c.brokeredPerS * (1 - c.errorRate);
        errorRate = Math.max(errorRate, c.errorRate);
        launchTimeS = Math.max(launchTimeS, p.launchTimeS ?? 0);
    }
    return { meanResponseS, brokeredPerS, successfulPerS, errorRate, launchTimeS };
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
    for (let c = input.from; c <= input.to; c += input.step) {
        const p = zoneAt(rttMs, c, users, shares);
        rows.push({
            concurrency: c,
            meanResponseS: p.meanResponseS,
            brokeredPerS: p.brokeredPerS,
            successfulPerS: p.successfulPerS,
            errorRate: p.errorRate,
            launchTimeS: p.launchTimeS as number,
            meetsTargets: p.meanResponseS <= input.targetResponseS && p.errorRate <= budget,
        });
    }
    // One lock sustains safeOne; the zone's load splits by share, so the zone is safe while every
    // group's part is: the zone's budget is the sum over its groups (safeOne x groups when equal).
    // The model's, never above a measured cell that missed the targets (as the policies judge).
    const modelSafe = maxSafeConcurrency({ rttMs, targetResponseS: input.targetResponseS, errorBudget: budget });
    const safeOne = Math.min(modelSafe, measuredLimit(rttMs, input.targetResponseS, budget) ?? modelSafe);
    const safe = shares.length === 1 ? safeOne : Math.floor(Math.min(...shares.filter((x) => x > 0).map((x) => safeOne / x)) + 1e-9);
    // As citrix-broker-throttle's fix: the safe total, never above the most measured against one
    // Site database, split evenly, or 1 on that many controllers.
    const fixTotal = Math.min(safe, MEASURED_MAX_CONCURRENCY);
    const throttle = fixTotal === 0 ? 0 : Math.max(1, Math.floor(fixTotal / input.controllers));
    const brokering = fixTotal === 0 ? 0 : Math.min(input.controllers, fixTotal);
    const total = throttle * brokering;
    const atThrottle = total > 0 ? { concurrency: total, ...zoneAt(rttMs, total, users, shares) } : undefined;
    const notMeasured: string[] = [];
    if (shares.length > 1) {
        notMeasured.push(`${shares.length} Delivery Groups working at once on one Site database: not measured (each lock is modelled on its own)`);
    }
    if (safe > MEASURED_MAX_CONCURRENCY) {
        notMeasured.push(`the locks sustain ${safe} in the model, but the source measured at most ${MEASURED_MAX_CONCURRENCY} concurrent requests against one Site database: the throttle keeps the zone within ${MEASURED_MAX_CONCURRENCY}`);
    }
    return {
        input,
        rows,
        measured: [...measuredAt(rttMs)],
        maxSafeConcurrency: safe,
        throttlePerController: throttle,
        brokeringControllers: brokering,
        atThrottle,
        throttleKey: CITRIX_GUIDANCE.throttleKeyPath,
        model: MODEL_SOURCE,
        groups: shares.map((share) => ({ share, maxSafeConcurrency: safeOne })),
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
    if (s.maxSafeConcurrency === 0) {
        out += `Largest safe concurrency: none: even 1 concurrent request misses the targets at ${num(i.rttMs)} ms. Deploy a separate Site for this location.\n`;
        return out;
    }
    out += `Largest safe concurrency: ${plural(s.maxSafeConcurrency, "concurrent brokering request")} in the zone.\n`;
    if (s.groups.length > 1) {
        out += `Per Delivery Group lock: each sustains ${s.groups[0].maxSafeConcurrency} at the targets; the zone's load splits ${s.groups.map((g) => `${num(g.share * 100)}%`).join(" / ")} over them.\n`;
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
        out += `At ${plural(a.concurrency, "concurrent request")}: ${num(a.meanResponseS)} s mean response, ${num(a.brokeredPerS, 2)} brokered/s, ${pct(a.errorRate)} timed out, ${i.users} users launched in ${duration(a.launchTimeS ?? NaN)}.\n`;
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
                const p = zoneAt(i.rttMs, c, i.users, shares);
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
