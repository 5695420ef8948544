/**
 * The Citrix evaluation: every figure a Citrix verdict, `perfguard check --report`, `perfguard
 * size citrix` or `perfguard diff` shows, computed once per stack and config (memoized per stack
 * object) through model/. Policies turn these figures into verdicts; nothing else recomputes them.
 *
 * Rules (docs/models.md, Citrix):
 * - Each Delivery Group is one brokering lock. The throttle is per Delivery Controller and first
 *   come, first served: a controller's requests may all be for one group, so a lock can receive
 *   the sum of the throttles of every controller that brokers for it, bounded only by that
 *   group's own declared peak (a zone's peak does not bound one group: a storm can be all for
 *   one group). The proposed per-controller throttle is the most exposed lock's safe concurrency
 *   divided by the controllers that feed it.
 * - One Site database: each lock is judged on its own with the calibrated single-lock model. The
 *   source measured one Delivery Group; its plateaus (23.0/s at 10 ms ... 1.4/s at 250 ms) are that
 *   lock's hold time k·RTT + c, not a database ceiling. Only the database work per request, c, is
 *   shared: the Site's Σ X_g·c (seconds of database work per second) is shown, labelled "not
 *   measured beyond one Delivery Group", and never gates, scales a response or proposes a fix.
 *   A rate measured on this Site (measuredSiteBrokeredPerS, citrix-site-database-load's setting)
 *   may gate: the storms at once against it (citrix-site-database-load's verdict).
 * - A launch's RTT is that of the zone whose controllers broker it, taken as the VDA's zone.
 */
import { stackMemo } from "../pack/stackMemo";
import { predictGroupBrokering } from "../../model/deliveryGroupBrokering";
import type { StackView } from "../pack/resources";
import { effectiveConcurrency, GroupLoad, groupLoads, zoneDemand, zoneThrottle } from "./load";
import { citrixSite, Group, Site, Zone } from "./site";
import { safeConcurrency } from "./targets";
import { splitSites } from "./siteIdentity";
import type { CitrixEvaluation, CitrixEvaluationConfig, GroupEvaluation, LockFeed, ZoneEvaluation } from "./evaluationTypes";
import { lockSafeConcurrency, perControllerThrottle, settledThrottle, worstMix } from "./lockLimits";
import { rttNotes, zoneCoverage } from "./names";
import { schemaNumber, SITE_DATABASE_SCHEMA, TARGET_DEFAULTS } from "./schemas";
import { siteDatabase } from "./siteDatabase";

const memo = stackMemo<CitrixEvaluation>();

/** What the evaluation judges with where a caller gives no setting: every value the schemas' default. */
export const EVALUATION_DEFAULTS: CitrixEvaluationConfig = {
    ...TARGET_DEFAULTS,
    externalControllers: {},
    measuredSiteBrokeredPerS: schemaNumber(SITE_DATABASE_SCHEMA, "measuredSiteBrokeredPerS"),
    satelliteAtRttMs: schemaNumber(SITE_DATABASE_SCHEMA, "satelliteAtRttMs"),
};

/** The evaluation of `stack` with `config`, computed once per stack object and config. O(resources). */
export function citrixEvaluation(stack: StackView, config: Partial<CitrixEvaluationConfig> = {}): CitrixEvaluation {
    // An explicit undefined (a policy passing a setting it does not have) keeps the default.
    const given = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)) as Partial<CitrixEvaluationConfig>;
    const full: CitrixEvaluationConfig = { ...EVALUATION_DEFAULTS, ...given };
    const key = JSON.stringify([full.targetResponseS, full.errorBudgetPct, full.externalControllers, full.measuredSiteBrokeredPerS, full.satelliteAtRttMs]);
    return memo.of(stack, key, () => evaluate(citrixSite(stack, full.externalControllers), full));
}

function weightOf(load: GroupLoad, zone: Zone): number {
    const c = load.classes.find((x) => x.zone === zone);
    const share = load.group.shares.find((s) => s.zone === zone);
    return c?.demand ?? share?.machines ?? 0;
}

function evaluateGroup(load: GroupLoad, config: CitrixEvaluationConfig): GroupEvaluation {
    const group = load.group;
    if (load.notChecked || load.classes.length === 0) {
        return { group, load, notChecked: load.notChecked, feeds: [], feeders: 0, rttNotes: [] };
    }
    const weights = load.classes.map((c) => weightOf(load, c.zone));
    const total = weights.reduce((sum, w) => sum + w, 0);
    const feeds: LockFeed[] = load.classes.map((c, i) => {
        const t = zoneThrottle(c.zone);
        const knownThrottles = c.zone.controllers.reduce((sum, x) => sum + (x.throttle.state === "ok" ? x.throttle.value : 0), 0);
        return {
            zone: c.zone,
            rttMs: c.rttMs,
            fraction: total > 0 ? weights[i] / total : 1 / weights.length,
            controllers: c.zone.controllers.length,
            knownThrottles,
            allThrottled: t.sum !== undefined,
        };
    });
    const feeders = feeds.reduce((sum, f) => sum + f.controllers, 0);
    const throttles = feeds.reduce((sum, f) => sum + f.knownThrottles, 0);
    const peak = group.peakConcurrentLaunches;
    // First come, first served: one storm can put min(what arrives, a zone's throttles) through
    // each zone's controllers, so the lock is judged at the worst mix the throttles allow (slowest
    // zones filled first), never only at the mix the machine counts suggest.
    const byMachines = lockSafeConcurrency(
        feeds.map((f) => ({ rttMs: f.rttMs, weight: f.fraction })),
        config,
    );
    const arriving = peak.state === "ok" ? peak.value : throttles;
    const worst = worstMix(feeds, arriving);
    const safe = worst.length > 0 ? Math.min(byMachines, lockSafeConcurrency(worst, config)) : byMachines;
    // The fix lowers the satellites' throttles where that is enough: a primary zone's requests hold
    // the lock briefly, so the worst mix after the change may fit. Where it does not (a zone below
    // the satellite RTT still brings lock-seconds, or is unthrottled), it lowers every feeding
    // controller's: first come, first served, only throttles adding up to the safe value bound it.
    const satelliteAt = config.satelliteAtRttMs;
    const satellitesOnly =
        feeds.some((f) => f.rttMs >= satelliteAt) && feeds.some((f) => f.rttMs < satelliteAt) ? feeds.filter((f) => f.rttMs >= satelliteAt) : undefined;
    const peakValue = peak.state === "ok" ? peak.value : undefined;
    const bySatellites = satellitesOnly ? settledThrottle(feeds, satellitesOnly, safe, peakValue, byMachines, config) : undefined;
    const fixFeeds = satellitesOnly && bySatellites !== undefined ? satellitesOnly : feeds;
    const fixFeeders = fixFeeds.reduce((sum, f) => sum + f.controllers, 0);
    const settled = fixFeeds === feeds ? settledThrottle(feeds, feeds, safe, peakValue, byMachines, config) : bySatellites;
    const byPeak = peak.state === "ok" && peak.value < throttles;
    const exposure =
        feeders > 0
            ? { value: byPeak && peak.state === "ok" ? peak.value : throttles, throttles, byPeak, bounded: byPeak || feeds.every((f) => f.allThrottled) }
            : undefined;
    const perController = feeders > 0 ? (settled ?? perControllerThrottle(safe, fixFeeders)) : undefined;
    const classes = load.classes
        .filter((c) => c.concurrency !== undefined && c.concurrency > 0)
        .map((c) => ({ zone: c.zone, rttMs: c.rttMs, concurrency: c.concurrency as number }));
    const prediction = classes.length > 0 ? predictGroupBrokering({ classes, users: load.users }) : undefined;
    const stormClasses = firstComeClasses(load, feeds);
    const expectedTotal = classes.reduce((sum, c) => sum + c.concurrency, 0);
    const stormTotal = stormClasses.reduce((sum, c) => sum + c.concurrency, 0);
    const firstCome = prediction && stormTotal > expectedTotal + 1e-9 ? predictGroupBrokering({ classes: stormClasses }) : undefined;
    let span: GroupEvaluation["span"];
    if (prediction && new Set(classes.map((c) => c.rttMs)).size > 1) {
        const fastestRtt = Math.min(...classes.map((c) => c.rttMs));
        const i = classes.findIndex((c) => c.rttMs === fastestRtt);
        // The fastest zone's users, as they would be with a lock of their own (same concurrency).
        const alone = predictGroupBrokering({ classes: [{ rttMs: fastestRtt, concurrency: classes[i].concurrency }] });
        const withOthersS = prediction.classes[i].meanResponseS;
        const errorRate = prediction.classes[i].errorRate;
        const advise = withOthersS >= 2 * alone.worstMeanResponseS || withOthersS > config.targetResponseS || errorRate > config.errorBudgetPct / 100;
        span = {
            fastest: classes[i].zone,
            rttMs: fastestRtt,
            concurrency: classes[i].concurrency,
            withOthersS,
            aloneS: alone.worstMeanResponseS,
            errorRate,
            advise,
        };
    }
    return {
        group,
        load,
        feeds,
        safe,
        feeders,
        exposure,
        perController,
        fixZones: fixFeeds.map((f) => f.zone),
        prediction,
        ...(firstCome ? { firstCome } : {}),
        span,
        rttNotes: rttNotes(feeds.map((f) => f.zone)),
    };
}

/**
 * Per zone, what one storm can put on this group's lock, first come, first served: the group's
 * own peak there, else the zone's whole peak (every group of the zone can take all of it), capped
 * by the zone's whole throttles; the throttles alone where no peak is declared but the expected
 * load is known (users with throttles). A zone with no expected load adds nothing.
 */
function firstComeClasses(load: GroupLoad, feeds: readonly LockFeed[]): Array<{ rttMs: number; concurrency: number }> {
    const own = load.group.peakConcurrentLaunches.state === "ok";
    const out: Array<{ rttMs: number; concurrency: number }> = [];
    for (const c of load.classes) {
        const feed = feeds.find((f) => f.zone === c.zone);
        if (c.concurrency === undefined || c.concurrency <= 0 || !feed) {
            continue;
        }
        const zonePeak = c.zone.peakConcurrentLaunches;
        const declared = own ? c.demand : zonePeak.state === "ok" ? zonePeak.value : undefined;
        const throttles = feed.allThrottled ? feed.knownThrottles : undefined;
        const value = declared !== undefined ? (throttles !== undefined ? Math.min(declared, throttles) : declared) : (throttles ?? c.concurrency);
        out.push({ rttMs: c.rttMs, concurrency: Math.max(value, c.concurrency) });
    }
    return out;
}

function evaluate(site: Site, config: CitrixEvaluationConfig): CitrixEvaluation {
    const loads = groupLoads(site);
    const first = loads.map((load) => evaluateGroup(load, config));
    // Each lock on its own (the calibrated single-lock model): the source's plateaus are one lock's
    // hold time, so nothing caps the Site's sum unless a rate measured on this Site says so.
    const predicted = first.filter((g) => g.prediction !== undefined);
    const groups = first.map((g): GroupEvaluation => {
        const p = g.prediction;
        if (!p) {
            return g;
        }
        const judged = g.firstCome && g.firstCome.worstMeanResponseS > p.worstMeanResponseS ? g.firstCome : p;
        const users = g.load.users;
        const launchTimeS = users === undefined ? undefined : users === 0 ? 0 : p.successfulPerS > 0 ? users / p.successfulPerS : Number.POSITIVE_INFINITY;
        return { ...g, judged, brokeredPerS: p.brokeredPerS, successfulPerS: p.successfulPerS, ...(launchTimeS === undefined ? {} : { launchTimeS }) };
    });
    const byGroup = new Map(groups.map((g) => [g.group, g]));
    const zones = site.zones.map((zone) => evaluateZone(zone, loads, byGroup, config));
    const byZone = new Map(zones.map((z) => [z.zone, z]));
    // The Site database is per Site (its provider's endpoint, siteIdentity.ts): one Site, the stack's.
    const split = splitSites(site.zones, site.links);
    const sites =
        split.parts.length === 1 && split.parts[0].zones.length === site.zones.length
            ? [{ zones, groups, database: siteDatabase(predicted, groups, zones, config) }]
            : split.parts.map((part) => {
                  const own = new Set(part.zones);
                  // A Delivery Group is of the Site of its zones (a zone's own lock: that zone).
                  const inSite = (g: GroupEvaluation) => g.group.shares.some((s) => own.has(s.zone));
                  const siteGroups = groups.filter(inSite);
                  return {
                      name: part.name,
                      zones: zones.filter((z) => own.has(z.zone)),
                      groups: siteGroups,
                      database: siteDatabase(
                          predicted.filter(inSite),
                          siteGroups,
                          zones.filter((z) => own.has(z.zone)),
                          config,
                      ),
                  };
              });
    const siteOfGroup = new Map(sites.flatMap((s) => s.groups.map((g) => [g.group, s] as const)));
    return {
        site,
        config,
        zones,
        groups,
        byGroup,
        byZone,
        sites,
        siteOfGroup,
        ...(split.unclear ? { sitesUnclear: split.unclear } : {}),
        // The whole stack's (the one Site's when there is one): what report, size and diff read.
        database: sites.length === 1 ? sites[0].database : siteDatabase(predicted, groups, zones, config),
    };
}

function evaluateZone(zone: Zone, loads: readonly GroupLoad[], byGroup: ReadonlyMap<Group, GroupEvaluation>, config: CitrixEvaluationConfig): ZoneEvaluation {
    const locks = zone.groups
        .map((s) => byGroup.get(s.group))
        .filter((g): g is GroupEvaluation => g !== undefined && g.safe !== undefined && g.feeds.some((f) => f.zone === zone));
    const judged = zone.rttMs.state === "ok" && !zone.daas;
    const concurrency = judged ? effectiveConcurrency(zone, loads) : undefined;
    const demand = zoneDemand(zone, loads);
    const throttle = zoneThrottle(zone);
    // With no judged lock (its groups not checked), the zone is one lock of its own at its RTT.
    const lockLimit =
        locks.length > 0
            ? Math.min(...locks.map((g) => g.safe as number))
            : judged && zone.rttMs.state === "ok"
              ? safeConcurrency(zone.rttMs.value, config)
              : undefined;
    const per =
        locks.length > 0
            ? locks.map((g) => g.perController).filter((p): p is number => p !== undefined)
            : lockLimit !== undefined && zone.controllers.length > 0
              ? [perControllerThrottle(lockLimit, zone.controllers.length)]
              : [];
    const peak = zone.peakConcurrentLaunches;
    const allowedValue = throttle.sum ?? demand ?? (peak.state === "ok" ? peak.value : undefined);
    const rtt = zoneCoverage(zone);
    const perController = per.length > 0 ? Math.min(...per) : undefined;
    return {
        zone,
        concurrency,
        demand,
        throttle,
        locks,
        lockLimit,
        ...(rtt ? { rtt } : {}),
        perController,
        perControllerFrom: locks.filter((g) => g.perController !== undefined && g.perController === perController).map((g) => g.group),
        allowed: allowedValue === undefined ? undefined : { value: allowedValue, by: throttle.sum !== undefined ? "throttles" : "peak" },
    };
}
