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
 * How a sizing is printed (the table with its recommendation, the JSON document) is in
 * cli/sizeCitrixText.ts; the plot's input is computed here, as it evaluates more concurrencies.
 */
import { BrokeringCell, CITRIX_GUIDANCE, measuredAt, RttCoverage, rttCoverage } from "../model/citrixGuidance";
import { MEASURED_MAX_CONCURRENCY } from "../model/deliveryGroupBrokering";
import { CitrixEvaluation, GroupEvaluation, MODEL_SOURCE, ONE_GROUP_TESTED } from "../policies/citrix/evaluation";
import { num } from "../policies/pack/format";
import { evaluateSizingSite, SizingGroup } from "./citrixSizingSite";
import type { BrokeringPlotInput } from "./plots/brokeringPlot";

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
