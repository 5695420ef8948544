/**
 * `perfguard size citrix`: the brokering model at one RTT over a range of concurrencies, the
 * largest concurrency that meets the targets, and the throttle to set on each Delivery Controller.
 * Every figure is read from the Citrix evaluation (policies/citrix/evaluation.ts) of a synthetic
 * Site (cli/citrixSizingSite.ts) declared as a user would: the figures citrix-broker-throttle and
 * citrix-brokering-capacity judge on that Site, never recomputed here.
 *
 * Throttles are first come, first served: one group's storm can take every controller's requests,
 * so the table and the recommendation are one Delivery Group's lock taking the whole concurrency
 * (the other groups idle); a figure over all groups at once is labelled as such, and "not measured".
 *
 * Over 450 lines (why): the table, the JSON document and the plot input are three views of one
 * sizing, kept beside it so that none can show a figure the others do not.
 */
import { adviceMaxConcurrent, BrokeringCell, CITRIX_GUIDANCE, MEASURED_RTT_LEVELS, measuredAt, RttCoverage, rttCoverage } from "../model/citrixGuidance";
import { MEASURED_MAX_CONCURRENCY } from "../model/deliveryGroupBrokering";
import { adviceLimit, CitrixEvaluation, GroupEvaluation, MODEL_SOURCE, ONE_GROUP_TESTED, SITE_WORK_NOT_MEASURED } from "../policies/citrix/evaluation";
import { duration, num, pct, plural } from "../policies/pack/format";
import { evaluateSizingSite, SizingGroup } from "./citrixSizingSite";
import type { BrokeringPlotInput } from "./plots/brokeringPlot";
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

/** The evaluation's figures for one lock, or for the Site's groups at once. */
export interface CitrixLockFigures {
    /** Concurrent brokering requests on the lock (over all groups: their sum). */
    readonly concurrency: number;
    /** Mean response, s (over all groups: the worst group's). */
    readonly meanResponseS: number;
    /** After the Site database's cap (over all groups: the Site's total). */
    readonly brokeredPerS: number;
    readonly successfulPerS: number;
    /** Fraction 0..1 (over all groups: the worst group's). */
    readonly errorRate: number;
    /** Time to broker `users` launches at the successful rate, s (over all groups: the last storm's). */
    readonly launchTimeS: number;
}

/** One row of the table: one Delivery Group's lock taking the whole concurrency. */
export interface CitrixSizingRow extends CitrixLockFigures {
    /** Within both targets. */
    readonly meetsTargets: boolean;
}

/** What `size citrix` prints (and `--json` emits). */
export interface CitrixSizing {
    readonly input: CitrixSizingInput;
    /** One lock taking each concurrency (first come, first served: the judged case). */
    readonly rows: CitrixSizingRow[];
    /** The source's measured cells at exactly this RTT (empty when it was not measured). */
    readonly measured: BrokeringCell[];
    /** Whether the figures at this RTT were measured, interpolated between RTT levels or extrapolated. */
    readonly rtt: RttCoverage;
    /**
     * Largest concurrency the most exposed lock sustains within both targets (the evaluation's
     * lock limit; 0 = none): throttles are first come, first served, so a storm can put the whole
     * zone's concurrency on one group's lock unless that group's own peak bounds it.
     */
    readonly maxSafeConcurrency: number;
    /** The zone's concurrency the locks sustain at their declared peaks (= maxSafeConcurrency without peaks). */
    readonly zoneSafeConcurrency: number;
    /** At or above citrix-zone-rtt-limit's limit: the pack blocks the zone. */
    readonly blocked?: string;
    /**
     * DWORD ThrottledRequestAddressMaxConcurrentTransactions per brokering controller: the
     * evaluation's proposal (the most exposed lock's safe concurrency, within the 60 measured, over
     * the controllers feeding it), at least 1 when the lock sustains any (then only
     * `brokeringControllers` of them broker), 0 when no concurrency meets the targets.
     */
    readonly throttlePerController: number;
    /** Controllers that should broker at that throttle (fewer than `controllers` when safe < controllers). */
    readonly brokeringControllers: number;
    /** One lock taking every brokering controller's throttle (bounded by its own peak when declared); undefined when 0. */
    readonly atThrottle: CitrixLockFigures | undefined;
    /**
     * Every group at once at the throttle (spread evenly by machines, or each at its declared peak):
     * not the judged case, and not measured; undefined with one group or no throttle.
     */
    readonly allGroups: (CitrixLockFigures & { readonly how: string; readonly databaseWorkS: number; readonly workPerRequestS: number }) | undefined;
    /** The registry value's full path. */
    readonly throttleKey: string;
    readonly model: string;
    /** Per Delivery Group lock: its share of the zone's machines, the concurrency it sustains, and what the throttles can put on it. */
    readonly groups: Array<{ readonly share: number; readonly maxSafeConcurrency: number; readonly peak?: number; readonly exposure?: number }>;
    /** What rests on extrapolation ("not measured"); empty when nothing does. */
    readonly notMeasured: string[];
}

/** The sizing's Site: its groups' machines and peaks, and which group a concentrated storm hits. */
interface SiteShape {
    readonly rttMs: number;
    readonly users: number;
    readonly machines: readonly number[];
    readonly peaks?: readonly number[];
    /** The group a storm concentrates on: the one with the largest own peak (else the first). */
    readonly storm: number;
    readonly targets: { readonly targetResponseS: number; readonly errorBudgetPct: number };
}

function shapeOf(input: CitrixSizingInput): SiteShape {
    const n = Math.max(1, Math.floor(input.deliveryGroups ?? 1));
    const machines = input.groupMachines && input.groupMachines.length === n ? input.groupMachines : Array.from({ length: n }, () => 1);
    const peaks = input.groupPeaks && input.groupPeaks.length === n ? input.groupPeaks : undefined;
    return {
        rttMs: input.rttMs,
        users: input.users,
        machines,
        peaks,
        storm: peaks ? peaks.indexOf(Math.max(...peaks)) : 0,
        targets: { targetResponseS: input.targetResponseS, errorBudgetPct: input.errorBudgetPct },
    };
}

function groupOf(e: CitrixEvaluation, index: number): GroupEvaluation {
    const g = e.groups.find((x) => x.group.resource.name === `group-${index + 1}`);
    if (!g) {
        throw new Error(`size citrix: the synthetic Site has no group-${index + 1}`);
    }
    return g;
}

function lockFigures(g: GroupEvaluation): CitrixLockFigures {
    const p = g.prediction;
    if (!p) {
        throw new Error(`size citrix: the evaluation predicted nothing for ${g.group.resource.name}${g.notChecked ? ` (${g.notChecked.reason})` : ""}`);
    }
    return {
        concurrency: p.concurrency,
        meanResponseS: p.worstMeanResponseS,
        brokeredPerS: g.brokeredPerS ?? p.brokeredPerS,
        successfulPerS: g.successfulPerS ?? p.successfulPerS,
        errorRate: p.worstErrorRate,
        launchTimeS: g.launchTimeS ?? 0,
    };
}

/**
 * One group's storm: the storm group declares `peak` and all the users, the others declare a
 * peak of 0 (idle); `throttle` on each of `controllers` controllers, or none.
 */
function oneLock(shape: SiteShape, peak: number, controllers: number, throttle?: number): CitrixLockFigures {
    const groups = shape.machines.map((machines, i): SizingGroup =>
        i === shape.storm ? { machines, peak, users: shape.users } : { machines, peak: 0, users: 0 },
    );
    return lockFigures(groupOf(evaluateSizingSite({ rttMs: shape.rttMs, controllers, throttle, groups }, shape.targets), shape.storm));
}

/**
 * Every group at once: the zone's peak `concurrency` and users split by machines, or (with
 * per-group peaks) each group at its own peak; each lock on its own, their rates added up (the
 * source measured one group: its plateau is that lock's, not the Site database's).
 */
function allAtOnce(
    shape: SiteShape,
    concurrency: number,
    controllers: number,
    throttle?: number,
): CitrixLockFigures & { how: string; databaseWorkS: number; workPerRequestS: number } {
    const byPeaks = shape.peaks !== undefined;
    const e = evaluateSizingSite(
        {
            rttMs: shape.rttMs,
            controllers,
            throttle,
            ...(byPeaks ? { zoneUsers: shape.users } : { zonePeak: concurrency, zoneUsers: shape.users }),
            groups: shape.machines.map((machines, i) => ({ machines, ...(shape.peaks ? { peak: shape.peaks[i] } : {}) })),
        },
        shape.targets,
    );
    const locks = shape.machines
        .map((_m, i) => groupOf(e, i))
        .filter((g) => g.prediction !== undefined)
        .map(lockFigures);
    return {
        how: byPeaks ? "every group at its own peak at once" : `spread evenly over the ${shape.machines.length} groups by machines`,
        concurrency: locks.reduce((sum, l) => sum + l.concurrency, 0),
        meanResponseS: Math.max(...locks.map((l) => l.meanResponseS)),
        brokeredPerS: e.database.brokeredPerS,
        databaseWorkS: e.database.databaseWorkS,
        workPerRequestS: e.database.workPerRequestS,
        successfulPerS: locks.reduce((sum, l) => sum + l.successfulPerS, 0),
        errorRate: Math.max(...locks.map((l) => l.errorRate)),
        launchTimeS: Math.max(...locks.map((l) => l.launchTimeS)),
    };
}

/**
 * Runs the sizing.
 * Input: CitrixSizingInput (validated by the CLI's option parsers).
 * Output: CitrixSizing. Throws RangeError from the model for out-of-range input.
 */
export function sizeCitrix(input: CitrixSizingInput): CitrixSizing {
    const shape = shapeOf(input);
    const budget = input.errorBudgetPct / 100;
    // The evaluation of the Site as declared (no throttle yet): the most exposed lock's safe
    // concurrency and the per-controller throttle citrix-broker-throttle proposes.
    const declared = evaluateSizingSite(
        {
            rttMs: input.rttMs,
            controllers: input.controllers,
            groups: shape.machines.map((machines, i) => ({ machines, ...(shape.peaks ? { peak: shape.peaks[i] } : {}) })),
        },
        shape.targets,
    );
    const zone = declared.zones[0];
    const safe = zone?.lockLimit ?? 0;
    const fixTotal = Math.min(safe, MEASURED_MAX_CONCURRENCY);
    // A row meets the targets when the model does and the measurements do not overrule it (the
    // lock's safe concurrency stops below a measured cell that missed them).
    const rows: CitrixSizingRow[] = [];
    for (let c = input.from; c <= input.to; c += input.step) {
        const p = oneLock(shape, c, input.controllers);
        rows.push({ ...p, meetsTargets: p.meanResponseS <= input.targetResponseS && p.errorRate <= budget && c <= safe });
    }
    // Fewer requests than controllers at 1 each: only that many broker.
    const throttle = fixTotal === 0 ? 0 : Math.max(1, zone?.perController ?? 0);
    const brokering = fixTotal === 0 ? 0 : Math.min(input.controllers, Math.max(1, Math.floor(fixTotal / throttle)));
    const several = shape.machines.length > 1;
    const atThrottle = throttle > 0 ? oneLock(shape, shape.peaks ? shape.peaks[shape.storm] : throttle * brokering, brokering, throttle) : undefined;
    const allGroups = throttle > 0 && several ? allAtOnce(shape, throttle * brokering, brokering, throttle) : undefined;
    // What the throttles then put on each lock (first come, first served), from the same evaluation.
    const throttled =
        throttle > 0
            ? evaluateSizingSite(
                  {
                      rttMs: input.rttMs,
                      controllers: brokering,
                      throttle,
                      groups: shape.machines.map((machines, i) => ({ machines, ...(shape.peaks ? { peak: shape.peaks[i] } : {}) })),
                  },
                  shape.targets,
              )
            : undefined;
    const totalMachines = shape.machines.reduce((sum, m) => sum + m, 0);
    const groups = shape.machines.map((machines, i) => {
        const g = groupOf(declared, i);
        const exposure = throttled ? groupOf(throttled, i).exposure?.value : undefined;
        return {
            share: totalMachines > 0 ? machines / totalMachines : 1 / shape.machines.length,
            maxSafeConcurrency: g.safe ?? 0,
            ...(shape.peaks ? { peak: shape.peaks[i] } : {}),
            ...(exposure !== undefined ? { exposure } : {}),
        };
    });
    const zoneSafe = shape.peaks ? groups.reduce((sum, g) => sum + Math.min(g.peak ?? 0, g.maxSafeConcurrency), 0) : safe;
    const notMeasured: string[] = [];
    if (several) {
        notMeasured.push(
            `${shape.machines.length} Delivery Groups at once on one Site database (each lock on its own, their rates added up, no Site cap): ${ONE_GROUP_TESTED}`,
        );
    }
    if (safe > MEASURED_MAX_CONCURRENCY) {
        notMeasured.push(
            `one lock sustains ${safe} in the model, but the source measured at most ${MEASURED_MAX_CONCURRENCY} concurrent requests against one Site database: the throttle keeps a lock within ${MEASURED_MAX_CONCURRENCY}`,
        );
    }
    const limit = input.maxRttMs ?? CITRIX_GUIDANCE.maxZoneRttMs;
    return {
        input,
        rows,
        measured: [...measuredAt(input.rttMs)],
        rtt: rttCoverage(input.rttMs),
        maxSafeConcurrency: safe,
        zoneSafeConcurrency: zoneSafe,
        ...(input.rttMs >= limit
            ? {
                  blocked: `at ${num(input.rttMs)} ms the pack blocks this zone (citrix-zone-rtt-limit: ${num(limit)} ms or more): Citrix advises a separate Site (own Site database) for this location`,
              }
            : {}),
        throttlePerController: throttle,
        brokeringControllers: brokering,
        atThrottle,
        allGroups,
        throttleKey: CITRIX_GUIDANCE.throttleKeyPath,
        model: MODEL_SOURCE,
        groups,
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

/**
 * What `--plot` draws: mean response and error rate of one lock at every concurrency from `from`
 * to `to` (step 1), with the measured cells at this RTT; with several groups, also every group at
 * once (the zone's load spread evenly by machines: not judged, not measured). Figures from the
 * same evaluation as the table. Pure (the chart module is loaded by its caller).
 */
export function citrixPlotInput(s: CitrixSizing): BrokeringPlotInput {
    const i = s.input;
    const shape = shapeOf(i);
    const span = Array.from({ length: Math.max(1, i.to - Math.max(1, i.from) + 1) }, (_, k) => Math.max(1, i.from) + k);
    const rows = span.map((c) => {
        const p = oneLock(shape, c, i.controllers);
        return { concurrency: c, meanResponseS: p.meanResponseS, errorRate: p.errorRate };
    });
    const even = { ...shape, peaks: undefined };
    const zone =
        s.groups.length > 1
            ? {
                  groups: s.groups.length,
                  rows: span.map((c) => {
                      const p = allAtOnce(even, c, i.controllers);
                      return { concurrency: c, meanResponseS: p.meanResponseS, errorRate: p.errorRate };
                  }),
              }
            : undefined;
    return {
        zone,
        rttMs: i.rttMs,
        targetResponseS: i.targetResponseS,
        errorBudget: i.errorBudgetPct / 100,
        rows,
        measured: s.measured.map((c) => ({ concurrency: c.concurrentRequests, meanResponseS: c.meanResponseS, errorPct: c.errorPct })),
    };
}

/**
 * Draws `--plot` (citrixPlotInput). Loads the renderer (and its charting library) only here.
 * Output: the SVG text. Throws when the renderer or its library is missing.
 */
export async function citrixPlotSvg(s: CitrixSizing): Promise<string> {
    const { brokeringPlotSvg } = await import("./plots/brokeringPlot");
    return brokeringPlotSvg(citrixPlotInput(s));
}
