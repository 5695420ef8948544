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
import { MEASURED_MAX_CONCURRENCY, GroupPrediction, maxSafeGroupConcurrency, predictGroupBrokering, shareSiteCap } from "../../model/deliveryGroupBrokering";
import { BROKERING_PARAMS } from "../../model/brokering";
import { RttCoverage, rttCoverage } from "../../model/citrixGuidance";
import type { NotChecked } from "../pack/definePolicy";
import type { EntityFigures, Figure, Membership } from "../pack/figures";
import { cappedList, duration as durationText, num as fmt, pct as pctText } from "../pack/format";
import type { StackView } from "../pack/resources";
import { NAME_MAX, shortName } from "../pack/message";
import { field } from "../pack/values";
import { effectiveConcurrency, GroupLoad, groupLoads, zoneDemand, zoneThrottle } from "./load";
import { citrixSite, ExternalControllers, Group, Site, Zone } from "./site";
import { adviceLimit, BrokeringTargets, safeConcurrency } from "./targets";
import { siteRateOf } from "./siteSetting";
import { splitSites } from "./siteIdentity";

export { MODEL_SOURCE } from "./targets";
/** measuredSiteBrokeredPerS's one home and its deprecated copy (`perfguard config check` names the home). */
export { MOVED_SETTINGS } from "./siteSetting";
/** The type tokens a Site is read from (`size citrix` builds a synthetic Site of them). */
export { CATALOG_TYPE, GROUP_TYPE, ZONE_TYPE } from "./site";

/** The label every figure resting on several groups at once carries, on its own line. */
export const ONE_GROUP_TESTED = "not measured (one Delivery Group was tested)";

/** The label of the Site's shared database work: what no test measured, and what would. */
export const SITE_WORK_NOT_MEASURED = "not measured beyond one Delivery Group: measure the Site database under a storm";

/** What the evaluation depends on: each policy passes its own config, the defaults for the rest. */
export interface CitrixEvaluationConfig extends BrokeringTargets {
    /** Delivery Controllers another stack manages (citrix-broker-throttle's externalControllers). */
    readonly externalControllers?: ExternalControllers;
    /** Brokered/s measured on this Site's database; 0 or absent = not measured (nothing gates on the Site). */
    readonly measuredSiteBrokeredPerS?: number;
    /** Zones at or above this RTT count as satellites for the Site-database load (ms; default 90). */
    readonly satelliteAtRttMs?: number;
}

/** The defaults of every policy's targets (targets.ts), for consumers with no config. */
export const DEFAULT_EVALUATION_CONFIG: CitrixEvaluationConfig = { targetResponseS: 12, errorBudgetPct: 0.1, measuredSiteBrokeredPerS: 0, satelliteAtRttMs: 90 };

/** One zone's controllers as they feed one lock. */
export interface LockFeed {
    readonly zone: Zone;
    readonly rttMs: number;
    /** Part of the lock's demand from this zone (sums to 1 over the feeds). */
    readonly fraction: number;
    /** The zone's Delivery Controllers (each may broker for this lock). */
    readonly controllers: number;
    /** Sum of the zone's known throttles. */
    readonly knownThrottles: number;
    /** True when every controller of the zone has a known throttle. */
    readonly allThrottled: boolean;
}

/** One Delivery Group's lock and its figures. */
export interface GroupEvaluation {
    readonly group: Group;
    readonly load: GroupLoad;
    /** Why the group cannot be judged. */
    readonly notChecked?: NotChecked;
    readonly feeds: readonly LockFeed[];
    /** Most concurrent requests the lock sustains at the targets, with its zone mix (undefined when no feed). */
    readonly safe?: number;
    /** Controllers that broker for the lock, over all its zones. */
    readonly feeders: number;
    /**
     * First come, first served: the most concurrent requests the feeding controllers' known
     * throttles can put on this one lock, bounded by the group's own declared peak. `bounded`
     * is false when a feeding controller has no (or no known) throttle: the lock can receive more.
     */
    readonly exposure?: { readonly value: number; readonly throttles: number; readonly byPeak: boolean; readonly bounded: boolean };
    /** The per-controller throttle this lock allows: floor(min(safe, 60) / feeders). */
    readonly perController?: number;
    /** Zones whose throttles the fix lowers: the satellites of a group spanning a primary zone, else all. */
    readonly fixZones?: readonly Zone[];
    /**
     * The model at the lock's expected concurrency (declared peaks split over the groups, capped
     * by the throttles' shares), the lock on its own: what the Site's storms at once and the
     * launch time rest on.
     */
    readonly prediction?: GroupPrediction;
    /**
     * First come, first served: the lock at the most the declared storm can put on it, set only
     * when that is more than expected. From each zone, its whole peak (or this group's own peak
     * there) capped by the zone's whole throttles, never the group's share of them: every
     * department of a zone can take all of the zone's requests. Alone on the Site (no cap).
     */
    readonly firstCome?: GroupPrediction;
    /** What citrix-brokering-capacity judges: the worse (mean response) of the two. */
    readonly judged?: GroupPrediction;
    /** Brokered/s and successful/s of its lock, and the launch time of its storm. */
    readonly brokeredPerS?: number;
    readonly successfulPerS?: number;
    readonly launchTimeS?: number;
    /** Basis lines for the zones of its lock at an RTT the source did not measure (empty when all were measured). */
    readonly rttNotes: readonly string[];
    /** A group spanning zones at different RTTs: its fastest zone's response with and without the slower ones. */
    readonly span?: { readonly fastest: Zone; readonly rttMs: number; readonly concurrency: number; readonly withOthersS: number; readonly aloneS: number; readonly errorRate: number; readonly advise: boolean };
}

/** One zone's figures. */
export interface ZoneEvaluation {
    readonly zone: Zone;
    /** Concurrent requests its Delivery Groups' locks see from it at peak. */
    readonly concurrency?: { readonly value: number; readonly how: string };
    /** What its groups declare they need from it in all. */
    readonly demand?: number;
    readonly throttle: ReturnType<typeof zoneThrottle>;
    /** The judged locks its controllers feed. */
    readonly locks: readonly GroupEvaluation[];
    /** The smallest safe concurrency of its locks: what one storm on one lock may reach. */
    readonly lockLimit?: number;
    /** The per-controller throttle for its controllers: the most exposed lock's. */
    readonly perController?: number;
    /** What it allows toward the Site database: its throttles' sum, else its declared demand or peak. */
    readonly allowed?: { readonly value: number; readonly by: "throttles" | "peak" };
    /** How its RTT relates to the measured levels (undefined without a usable RTT). */
    readonly rtt?: RttCoverage;
}

/** The one Site database. */
export interface SiteEvaluation {
    /** The groups' predicted rates added up, each lock on its own, requests/s. */
    readonly uncappedPerS: number;
    /** The same: no cap applies to the locks' own figures. */
    readonly brokeredPerS: number;
    /**
     * The database work the storms at once ask of the Site database, s per s: Σ X_g·c, c the
     * lock's RTT-independent hold per request (lockFixedS of the brokering model). Not measured
     * beyond one Delivery Group: shown, never judged.
     */
    readonly databaseWorkS: number;
    /** c of that sum, s per request. */
    readonly workPerRequestS: number;
    /** measuredSiteBrokeredPerS when set (> 0): the only Site figure that gates. */
    readonly capPerS?: number;
    /** Where the measured figure comes from. */
    readonly capSource?: string;
    /** True when the storms at once want more than the measured figure. */
    readonly capped: boolean;
    /**
     * What the measured figure would multiply each lock's mean response by while the storms run at
     * once (Little's law; 1 when not capped). The locks' own figures are never scaled: this is
     * citrix-site-database-load's consequence line.
     */
    readonly responseScale: number;
    /** Locks whose storms were predicted at once (stormGroups + stormZones). */
    readonly storms: number;
    /** Of them, Delivery Groups of the stack. */
    readonly stormGroups: number;
    /** Of them, zones judged as their own lock (no Delivery Group in the stack). */
    readonly stormZones: number;
    /** Concurrent requests the satellite zones (>= satelliteAtRttMs) allow against the database. */
    readonly databaseConcurrency: number;
    readonly satellites: readonly ZoneEvaluation[];
    /** Satellite zones whose allowance is unknown. */
    readonly satellitesUnknown: readonly ZoneEvaluation[];
    /** Lines for figures resting on more than one group (each on its own line). */
    readonly notMeasured: readonly string[];
    /**
     * When capped (a measured figure only): the busiest lock (most brokered/s) and what throttling it alone takes to make
     * the storms fit the cap (its rate less the excess), or undefined `perController` when no
     * throttle of at least 1 does (then only staggering the storms or splitting the Site helps).
     */
    readonly relief?: { readonly group: GroupEvaluation; readonly uncappedPerS: number; readonly targetPerS: number; readonly perController?: number };
}

/** Everything the Citrix policies, report, size and diff read. */
export interface CitrixEvaluation {
    readonly site: Site;
    readonly config: CitrixEvaluationConfig;
    readonly zones: readonly ZoneEvaluation[];
    readonly groups: readonly GroupEvaluation[];
    readonly byGroup: ReadonlyMap<Group, GroupEvaluation>;
    readonly byZone: ReadonlyMap<Zone, ZoneEvaluation>;
    /** The stack's Site database (several Sites: the whole stack's, an upper bound; policies read `sites`). */
    readonly database: SiteEvaluation;
    /** Per Site (its provider's endpoint): its zones, groups and database; one entry, without a name, for one Site. */
    readonly sites: readonly SitePart[];
    readonly siteOfGroup: ReadonlyMap<Group, SitePart>;
    /** Why the zones' Sites cannot be told apart (`sites` then holds one part: its sums decide no verdict). */
    readonly sitesUnclear?: NotChecked;
}

/** One Citrix Site of the stack. */
export interface SitePart {
    /** Its provider's resource name(s), set only when the stack has several Sites. */
    readonly name?: string;
    readonly zones: readonly ZoneEvaluation[];
    readonly groups: readonly GroupEvaluation[];
    readonly database: SiteEvaluation;
}

const memo = stackMemo<CitrixEvaluation>();

/** The evaluation of `stack` with `config`, computed once per stack object and config. O(resources). */
export function citrixEvaluation(stack: StackView, config: Partial<CitrixEvaluationConfig> = {}): CitrixEvaluation {
    const full: CitrixEvaluationConfig = { ...DEFAULT_EVALUATION_CONFIG, ...config };
    const key = JSON.stringify([full.targetResponseS, full.errorBudgetPct, full.externalControllers ?? {}, full.measuredSiteBrokeredPerS ?? 0, full.satelliteAtRttMs ?? 90]);
    return memo.of(stack, key, () => evaluate(citrixSite(stack, full.externalControllers ?? {}), full));
}

/** The Site database's measured rate, when measuredSiteBrokeredPerS is set (> 0); else nothing gates on the Site. */
export function siteCap(measuredSiteBrokeredPerS: number | undefined): { capPerS: number; capSource: string } | undefined {
    return measuredSiteBrokeredPerS !== undefined && measuredSiteBrokeredPerS > 0
        ? { capPerS: measuredSiteBrokeredPerS, capSource: `measuredSiteBrokeredPerS ${measuredSiteBrokeredPerS}/s, set in the policy config (measured on this Site)` }
        : undefined;
}

/**
 * A lock's safe concurrency: one zone gives safeConcurrency (the model, never above a measured
 * cell that missed the targets); several, the multi-class model with the zones' mix.
 */
export function lockSafeConcurrency(mix: readonly { rttMs: number; weight: number }[], targets: BrokeringTargets): number {
    const used = mix.filter((m) => m.weight > 0);
    if (used.length === 1 || new Set(used.map((m) => m.rttMs)).size === 1) {
        return used.length === 0 ? 0 : safeConcurrency(used[0].rttMs, targets);
    }
    const model = maxSafeGroupConcurrency(used, { targetResponseS: targets.targetResponseS, errorBudget: targets.errorBudgetPct / 100 });
    // The source's advice (at most 24 from 160 ms) bounds a mix whose every zone is that far.
    const advice = adviceLimit(Math.min(...used.map((m) => m.rttMs)), targets);
    return advice === undefined ? model : Math.min(model, advice);
}

/** The per-controller throttle a lock allows: its safe concurrency (within the 60 measured) over the controllers feeding it. */
export function perControllerThrottle(safe: number, feeders: number): number {
    return Math.max(0, Math.floor(Math.min(safe, MEASURED_MAX_CONCURRENCY) / Math.max(1, feeders)));
}


function weightOf(load: GroupLoad, zone: Zone): number {
    const c = load.classes.find((x) => x.zone === zone);
    const share = load.group.shares.find((s) => s.zone === zone);
    return c?.demand ?? share?.machines ?? 0;
}

/**
 * The worst mix one storm can bring to a lock: `arriving` requests, the slowest zones filled first,
 * each up to its controllers' throttles (all of them where a controller has no known throttle).
 */
export function worstMix(feeds: readonly LockFeed[], arriving: number): { rttMs: number; weight: number }[] {
    let left = Math.max(0, arriving);
    const mix: { rttMs: number; weight: number }[] = [];
    for (const f of [...feeds].sort((a, b) => b.rttMs - a.rttMs)) {
        const take = f.allThrottled ? Math.min(left, f.knownThrottles) : left;
        if (take > 0) {
            mix.push({ rttMs: f.rttMs, weight: take });
        }
        left -= take;
    }
    return mix;
}

/**
 * The largest per-controller throttle, at most `safe` split over `lowered`'s controllers, that
 * bounds the lock within what it then sustains: lowering throttles changes the worst mix the lock
 * can receive (slowest zones first), and so what it sustains; undefined when even 1 each does not.
 * At most `safe` steps of one worst-mix solve each (a lock sustains tens of requests).
 */
function settledThrottle(feeds: readonly LockFeed[], lowered: readonly LockFeed[], safe: number, peak: number | undefined, byMachines: number, config: CitrixEvaluationConfig): number | undefined {
    for (let each = perControllerThrottle(safe, lowered.reduce((sum, f) => sum + f.controllers, 0)); each >= 1; each -= 1) {
        const after = feeds.map((f) => (lowered.includes(f) ? { ...f, knownThrottles: each * f.controllers, allThrottled: true } : f));
        const sum = after.reduce((total, f) => total + f.knownThrottles, 0);
        const bounded = after.every((f) => f.allThrottled);
        const arriving = peak !== undefined ? (bounded ? Math.min(peak, sum) : peak) : bounded ? sum : Number.POSITIVE_INFINITY;
        if (!Number.isFinite(arriving)) {
            return undefined;
        }
        const worst = worstMix(after, arriving);
        const safeAfter = worst.length > 0 ? Math.min(byMachines, lockSafeConcurrency(worst, config)) : byMachines;
        if (arriving <= safeAfter) {
            return each;
        }
    }
    return undefined;
}

/** A zone's RTT coverage: how its RTT relates to the source's measured levels. */
export function zoneCoverage(zone: Zone): RttCoverage | undefined {
    return zone.rttMs.state === "ok" && !zone.daas ? rttCoverage(zone.rttMs.value) : undefined;
}

/**
 * Basis lines for zones at an RTT the source did not measure, one per coverage ("interpolated
 * between 90 and 160 ms: zone "a-zone" (120 ms)"); empty when every zone's RTT was measured.
 */
export function rttNotes(zones: readonly Zone[]): string[] {
    const byText = new Map<string, string[]>();
    for (const zone of new Set(zones)) {
        const c = zoneCoverage(zone);
        if (c && c.label !== "measured" && zone.rttMs.state === "ok") {
            byText.set(c.text, [...(byText.get(c.text) ?? []), `${zoneShort(zone)} (${fmt(zone.rttMs.value)} ms)`]);
        }
    }
    return [...byText.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([text, names]) => `RTT not measured, the model ${text}: ${cappedList(names)}`);
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
        return { zone: c.zone, rttMs: c.rttMs, fraction: total > 0 ? weights[i] / total : 1 / weights.length, controllers: c.zone.controllers.length, knownThrottles, allThrottled: t.sum !== undefined };
    });
    const feeders = feeds.reduce((sum, f) => sum + f.controllers, 0);
    const throttles = feeds.reduce((sum, f) => sum + f.knownThrottles, 0);
    const peak = group.peakConcurrentLaunches;
    // First come, first served: one storm can put min(what arrives, a zone's throttles) through
    // each zone's controllers, so the lock is judged at the worst mix the throttles allow (slowest
    // zones filled first), never only at the mix the machine counts suggest.
    const byMachines = lockSafeConcurrency(feeds.map((f) => ({ rttMs: f.rttMs, weight: f.fraction })), config);
    const arriving = peak.state === "ok" ? peak.value : throttles;
    const worst = worstMix(feeds, arriving);
    const safe = worst.length > 0 ? Math.min(byMachines, lockSafeConcurrency(worst, config)) : byMachines;
    // The fix lowers the satellites' throttles where that is enough: a primary zone's requests hold
    // the lock briefly, so the worst mix after the change may fit. Where it does not (a zone below
    // the satellite RTT still brings lock-seconds, or is unthrottled), it lowers every feeding
    // controller's: first come, first served, only throttles adding up to the safe value bound it.
    const satelliteAt = config.satelliteAtRttMs ?? 90;
    const satellitesOnly = feeds.some((f) => f.rttMs >= satelliteAt) && feeds.some((f) => f.rttMs < satelliteAt)
        ? feeds.filter((f) => f.rttMs >= satelliteAt) : undefined;
    const peakValue = peak.state === "ok" ? peak.value : undefined;
    const bySatellites = satellitesOnly ? settledThrottle(feeds, satellitesOnly, safe, peakValue, byMachines, config) : undefined;
    const fixFeeds = satellitesOnly && bySatellites !== undefined ? satellitesOnly : feeds;
    const fixFeeders = fixFeeds.reduce((sum, f) => sum + f.controllers, 0);
    const settled = fixFeeds === feeds ? settledThrottle(feeds, feeds, safe, peakValue, byMachines, config) : bySatellites;
    const byPeak = peak.state === "ok" && peak.value < throttles;
    const exposure = feeders > 0
        ? { value: byPeak && peak.state === "ok" ? peak.value : throttles, throttles, byPeak, bounded: byPeak || feeds.every((f) => f.allThrottled) }
        : undefined;
    const perController = feeders > 0 ? settled ?? perControllerThrottle(safe, fixFeeders) : undefined;
    const classes = load.classes.filter((c) => c.concurrency !== undefined && c.concurrency > 0).map((c) => ({ zone: c.zone, rttMs: c.rttMs, concurrency: c.concurrency as number }));
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
        span = { fastest: classes[i].zone, rttMs: fastestRtt, concurrency: classes[i].concurrency, withOthersS, aloneS: alone.worstMeanResponseS, errorRate, advise };
    }
    return { group, load, feeds, safe, feeders, exposure, perController, fixZones: fixFeeds.map((f) => f.zone), prediction, ...(firstCome ? { firstCome } : {}), span, rttNotes: rttNotes(feeds.map((f) => f.zone)) };
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
        const value = declared !== undefined ? (throttles !== undefined ? Math.min(declared, throttles) : declared) : throttles ?? c.concurrency;
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
    const sites = split.parts.length === 1 && split.parts[0].zones.length === site.zones.length
        ? [{ zones, groups, database: siteDatabase(predicted, groups, zones, config) }]
        : split.parts.map((part) => {
            const own = new Set(part.zones);
            // A Delivery Group is of the Site of its zones (a zone's own lock: that zone).
            const inSite = (g: GroupEvaluation) => g.group.shares.some((s) => own.has(s.zone));
            const siteGroups = groups.filter(inSite);
            return { name: part.name, zones: zones.filter((z) => own.has(z.zone)), groups: siteGroups, database: siteDatabase(predicted.filter(inSite), siteGroups, zones.filter((z) => own.has(z.zone)), config) };
        });
    const siteOfGroup = new Map(sites.flatMap((s) => s.groups.map((g) => [g.group, s] as const)));
    return {
        site, config, zones, groups, byGroup, byZone, sites, siteOfGroup,
        ...(split.unclear ? { sitesUnclear: split.unclear } : {}),
        // The whole stack's (the one Site's when there is one): what report, size and diff read.
        database: sites.length === 1 ? sites[0].database : siteDatabase(predicted, groups, zones, config),
    };
}

function evaluateZone(zone: Zone, loads: readonly GroupLoad[], byGroup: ReadonlyMap<Group, GroupEvaluation>, config: CitrixEvaluationConfig): ZoneEvaluation {
    const locks = zone.groups.map((s) => byGroup.get(s.group)).filter((g): g is GroupEvaluation => g !== undefined && g.safe !== undefined && g.feeds.some((f) => f.zone === zone));
    const judged = zone.rttMs.state === "ok" && !zone.daas;
    const concurrency = judged ? effectiveConcurrency(zone, loads) : undefined;
    const demand = zoneDemand(zone, loads);
    const throttle = zoneThrottle(zone);
    // With no judged lock (its groups not checked), the zone is one lock of its own at its RTT.
    const lockLimit = locks.length > 0 ? Math.min(...locks.map((g) => g.safe as number))
        : judged && zone.rttMs.state === "ok" ? safeConcurrency(zone.rttMs.value, config) : undefined;
    const per = locks.length > 0 ? locks.map((g) => g.perController).filter((p): p is number => p !== undefined)
        : lockLimit !== undefined && zone.controllers.length > 0 ? [perControllerThrottle(lockLimit, zone.controllers.length)] : [];
    const peak = zone.peakConcurrentLaunches;
    const allowedValue = throttle.sum ?? demand ?? (peak.state === "ok" ? peak.value : undefined);
    const rtt = zoneCoverage(zone);
    return {
        zone, concurrency, demand, throttle, locks, lockLimit, ...(rtt ? { rtt } : {}),
        perController: per.length > 0 ? Math.min(...per) : undefined,
        allowed: allowedValue === undefined ? undefined : { value: allowedValue, by: throttle.sum !== undefined ? "throttles" : "peak" },
    };
}

/** One Site database's figures: its storms at once, the measured rate, its satellites. */
function siteDatabase(predicted: readonly GroupEvaluation[], groups: readonly GroupEvaluation[], zones: readonly ZoneEvaluation[], config: CitrixEvaluationConfig): SiteEvaluation {
    const measured = siteCap(config.measuredSiteBrokeredPerS);
    const shared = shareSiteCap(predicted.map((g) => ({ brokeredPerS: g.prediction!.brokeredPerS, successfulPerS: g.prediction!.successfulPerS })), measured?.capPerS ?? Number.POSITIVE_INFINITY);
    const relief = measured && shared.capped ? siteRelief(predicted, groups, shared.uncappedPerS - measured.capPerS) : undefined;
    const workPerRequestS = BROKERING_PARAMS.lockFixedS;
    const satelliteAt = config.satelliteAtRttMs ?? 90;
    const satellite = zones.filter((z) => !z.zone.daas && z.zone.rttMs.state === "ok" && z.zone.rttMs.value >= satelliteAt);
    const notMeasured: string[] = [];
    const stormZones = predicted.filter((g) => g.group.implicit).length;
    const stormCounts = { stormGroups: predicted.length - stormZones, stormZones };
    if (predicted.length > 1) {
        notMeasured.push(`${stormsText(stormCounts)} at once, ${fmt(shared.uncappedPerS)} brokered/s in all: ${ONE_GROUP_TESTED}`);
    }
    return {
        uncappedPerS: shared.uncappedPerS,
        brokeredPerS: shared.uncappedPerS,
        databaseWorkS: shared.uncappedPerS * workPerRequestS,
        workPerRequestS,
        ...(measured ?? {}),
        capped: measured !== undefined && shared.capped,
        responseScale: measured !== undefined && shared.capped ? shared.responseScale : 1,
        storms: predicted.length,
        ...stormCounts,
        databaseConcurrency: satellite.reduce((sum, z) => sum + (z.allowed?.value ?? 0), 0),
        satellites: satellite.filter((z) => z.allowed !== undefined),
        satellitesUnknown: satellite.filter((z) => z.allowed === undefined),
        notMeasured,
        ...(relief ? { relief } : {}),
    };
}

/**
 * The busiest lock's throttle that makes the Site's storms fit its database's cap alone: its
 * uncapped rate less the excess, reached at the largest whole concurrency (its zones' mix kept)
 * whose predicted rate is within it, split over its feeding controllers. At most one model solve
 * per concurrency step below its current one (tens), once per stack.
 */
function siteRelief(predicted: readonly GroupEvaluation[], groups: readonly GroupEvaluation[], excessPerS: number): SiteEvaluation["relief"] {
    const busiest = [...predicted].sort((a, b) => b.prediction!.brokeredPerS - a.prediction!.brokeredPerS || a.group.resource.name.localeCompare(b.group.resource.name))[0];
    if (!busiest) {
        return undefined;
    }
    const p = busiest.prediction!;
    const targetPerS = p.brokeredPerS - excessPerS;
    const group = groups.find((g) => g.group === busiest.group) ?? busiest;
    const base = { group, uncappedPerS: p.brokeredPerS, targetPerS };
    if (!(targetPerS > 0) || busiest.feeders === 0 || p.concurrency <= 0) {
        return base;
    }
    for (let total = Math.floor(p.concurrency); total >= busiest.feeders; total -= 1) {
        const q = predictGroupBrokering({ classes: p.classes.map((c) => ({ rttMs: c.rttMs, concurrency: (c.concurrency / p.concurrency) * total })) });
        if (q.brokeredPerS <= targetPerS) {
            return { ...base, perController: Math.floor(total / busiest.feeders) };
        }
    }
    return base;
}

/**
 * Whose storms the one Site database shares, as every message counts them: Delivery Groups and
 * zones judged as their own lock (no Delivery Group in the stack) apart, for a zone is no Delivery
 * Group: "1 Delivery Group's storm", "3 Delivery Groups' and 1 zone's storms", "2 zones' storms".
 */
export function stormsText(d: Pick<SiteEvaluation, "stormGroups" | "stormZones">): string {
    const whose = (n: number, one: string) => (n === 1 ? `1 ${one}'s` : `${n} ${one}s'`);
    const parts = [...(d.stormGroups > 0 ? [whose(d.stormGroups, "Delivery Group")] : []), ...(d.stormZones > 0 ? [whose(d.stormZones, "zone")] : [])];
    return `${parts.join(" and ") || "0 Delivery Groups'"} ${d.stormGroups + d.stormZones === 1 ? "storm" : "storms"}`;
}

/**
 * Whether a citrix-broker-throttle verdict proposes the lock's per-controller throttle: its
 * controllers' throttles can put more on it than it sustains, from a zone at or above
 * requireAtRttMs; or (given `zones`) a feeding zone's verdict (a controller without a throttle)
 * proposes the same value. Otherwise the figure is a suggestion (`check --report` labels it so).
 */
export function lockThrottleVerdict(g: GroupEvaluation, requireAtRttMs: number, zones?: ReadonlyMap<Zone, ZoneEvaluation>): boolean {
    const over = g.safe !== undefined && g.exposure !== undefined && g.exposure.value > g.safe && g.feeds.some((f) => !f.zone.daas && f.rttMs >= requireAtRttMs);
    return over || (zones !== undefined && g.perController !== undefined && g.feeds.some((f) => {
        const z = zones.get(f.zone);
        return z !== undefined && z.perController === g.perController && zoneThrottleVerdict(z, requireAtRttMs);
    }));
}

/**
 * Whether a citrix-broker-throttle verdict proposes the zone's per-controller throttle: the zone is
 * judged (at or above requireAtRttMs, with controllers) and a controller sets none, or one of its
 * locks receives more than it sustains.
 */
export function zoneThrottleVerdict(z: ZoneEvaluation, requireAtRttMs: number): boolean {
    const zone = z.zone;
    if (zone.daas || zone.rttMs.state !== "ok" || zone.rttMs.value < requireAtRttMs || zone.controllers.length === 0) {
        return false;
    }
    return zone.controllers.some((c) => c.throttle.state === "absent") || z.locks.some((g) => lockThrottleVerdict(g, requireAtRttMs));
}

/** The name input of a resource when known and different from its resource name. */
function nameInput(props: unknown): string | undefined {
    const value = field(props, "name");
    return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/**
 * How every Citrix message names a zone: its resource name, with the zone's name (what
 * perfguard:citrixZone names) where they differ: `zone "sydney-zone" (name "sydney")`.
 */
export function zoneRef(zone: Zone, capital = false, rttMs?: number): string {
    const name = shortName(zone.resource.name);
    const notes = [
        ...(zone.zoneName !== zone.resource.name ? [`name "${shortName(zone.zoneName)}"`] : []),
        ...(rttMs !== undefined ? [`${fmt(rttMs)} ms`] : []),
        // Another stack's zone (PERFGUARD_INVENTORY): named with its stack, as deployed then.
        ...(zone.resource.origin ? [`stack ${zone.resource.origin.project}/${zone.resource.origin.stack}${zone.resource.origin.time ? ` deployed ${zone.resource.origin.time}` : ""}`] : []),
    ];
    return `${capital ? "Zone" : "zone"} "${name}"${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`;
}

/** A zone in a fix or basis line: its resource name (the problem line gave its name input), at most `nameMax` characters. */
export function zoneShort(zone: Zone, nameMax = NAME_MAX): string {
    // Another stack's zone (PERFGUARD_INVENTORY): its stack and deployment time, where its controllers are changed.
    const o = zone.resource.origin;
    return `zone "${shortName(zone.resource.name, nameMax)}"${o ? ` (stack ${o.project}/${o.stack}${o.time ? `, deployed ${o.time}` : ""})` : ""}`;
}

/**
 * A problem line that names its entity with the name note when it fits in 160 characters, else
 * without it (the resource name alone); `short` given as a function of the longest name it may
 * print, names are then shortened further (shortName's ellipsis) until the line fits.
 */
export function fitted(make: (ref: string) => string, full: string, short: string | ((nameMax: number) => string), max = 160): string {
    const line = make(full);
    if (line.length <= max) {
        return line;
    }
    if (typeof short === "string") {
        return make(short);
    }
    let n = NAME_MAX;
    let shorter = make(short(n));
    while (shorter.length > max && n > MIN_NAME) {
        n -= 1;
        shorter = make(short(n));
    }
    return shorter;
}

/** The shortest a name is cut to in a problem line (a few characters still tell names apart). */
const MIN_NAME = 12;

/** How every Citrix message names a Delivery Group (a zone judged as a lock of its own: the zone). */
export function groupRef(group: Group, capital = false): string {
    if (group.implicit) {
        const zone = group.shares[0]?.zone;
        if (zone) {
            return zoneRef(zone, capital);
        }
    }
    const own = nameInput(group.resource.props);
    const differs = own !== undefined && own !== group.resource.name ? ` (name "${shortName(own)}")` : "";
    return `Delivery Group "${shortName(group.resource.name)}"${differs}`;
}

/** A Delivery Group by its resource name alone (a zone judged as a lock of its own: the zone). */
export function groupShort(group: Group, capital = false, nameMax = NAME_MAX): string {
    const zone = group.implicit ? group.shares[0]?.zone : undefined;
    return zone ? `${capital ? "Zone" : "zone"} "${shortName(zone.resource.name, nameMax)}"` : `Delivery Group "${shortName(group.resource.name, nameMax)}"`;
}

/** The pack config by policy name, as the engine hands it (properties with defaults). */
export type PackConfig = Readonly<Record<string, { readonly properties?: Readonly<Record<string, unknown>> } | undefined>>;

function numberOr(value: unknown, fallback: number): number {
    return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function propsOf(config: PackConfig | undefined, policy: string): Readonly<Record<string, unknown>> {
    return config?.[policy]?.properties ?? {};
}

/**
 * The evaluations each Citrix policy judges with, from the pack's config: citrix-brokering-capacity
 * (predictions, launch times), citrix-broker-throttle (first-come exposure, proposed throttle;
 * with its externalControllers) and citrix-site-database-load (satellites).
 */
export function citrixEvaluations(stack: StackView, config?: PackConfig): { capacity: CitrixEvaluation; throttle: CitrixEvaluation; database: CitrixEvaluation } {
    const cap = propsOf(config, "citrix-brokering-capacity");
    const thr = propsOf(config, "citrix-broker-throttle");
    const db = propsOf(config, "citrix-site-database-load");
    const externals = thr.externalControllers !== null && typeof thr.externalControllers === "object" ? thr.externalControllers as ExternalControllers : {};
    return {
        capacity: citrixEvaluation(stack, { targetResponseS: numberOr(cap.targetResponseS, 12), errorBudgetPct: numberOr(cap.errorBudgetPct, 0.1) }),
        throttle: citrixEvaluation(stack, { targetResponseS: numberOr(thr.targetResponseS, 12), errorBudgetPct: numberOr(thr.errorBudgetPct, 0.1), externalControllers: externals }),
        // measuredSiteBrokeredPerS: its one home, else the deprecated copy (siteSetting.ts).
        database: citrixEvaluation(stack, { satelliteAtRttMs: numberOr(db.satelliteAtRttMs, 90), measuredSiteBrokeredPerS: siteRateOf(db.measuredSiteBrokeredPerS, cap.measuredSiteBrokeredPerS) }),
    };
}

function figure(key: string, label: string, unit: string, better: Figure["better"], value: number | undefined, text: (v: number) => string, notChecked: string): Figure {
    return value === undefined || !Number.isFinite(value)
        ? value === Number.POSITIVE_INFINITY
            ? stated(key, label, unit, better, "never", "nothing succeeds at this concurrency")
            : { key, label, unit, better, text: "-", notChecked }
        : { key, label, unit, better, value, text: text(value) };
}

/** A figure without a number that is a known state, worded once for the report and diff (Figure.state). */
function stated(key: string, label: string, unit: string, better: Figure["better"], state: string, why: string): Figure {
    return { key, label, unit, better, text: state, state, notChecked: why };
}

/** "no cap": a throttle figure where a Delivery Controller sets none (absent, not unknown), so nothing caps it. */
export const NO_CAP = "no cap";

/**
 * A throttle sum that has no value: "no cap" when a controller sets no throttle (absent: a known
 * state, and the worse one whatever the others are), else not checked (unknown in the preview,
 * or no controller).
 */
function throttleFigure(key: string, label: string, better: Figure["better"], value: number | undefined, controllers: readonly { throttle: { state: string } }[], why: { none: string; unset: string; unknown: string }): Figure {
    if (value !== undefined) {
        return figure(key, label, "", better, value, round1, "");
    }
    if (controllers.length === 0) {
        return figure(key, label, "", better, undefined, round1, why.none);
    }
    return controllers.some((c) => c.throttle.state === "absent")
        ? stated(key, label, "", better, NO_CAP, why.unset)
        : figure(key, label, "", better, undefined, round1, why.unknown);
}

/**
 * Every Citrix figure as EntityFigures (policies/pack/figures.ts), for `check --report` and
 * `perfguard diff`: per zone, per Delivery Group lock, and the Site database. Each `text` is the
 * figure as the verdicts print it.
 */
export function citrixFigures(stack: StackView, config?: PackConfig): EntityFigures[] {
    const { capacity, throttle, database } = citrixEvaluations(stack, config);
    const out: EntityFigures[] = [];
    for (const z of capacity.zones) {
        const zone = z.zone;
        const t = throttle.byZone.get(zone) ?? throttle.zones.find((x) => x.zone.resource.urn === zone.resource.urn);
        const rtt = zone.rttMs.state === "ok" ? zone.rttMs.value : undefined;
        const why = zone.daas ? "a Citrix DaaS resource location" : zone.rttMs.state === "ok" ? "nothing declared" : `its perfguard:rttMs is ${zone.rttMs.state === "absent" ? "not declared" : zone.rttMs.state}`;
        // The same coverage the verdicts' basis lines give (ZoneEvaluation.rtt, computed once).
        const rttNote = z.rtt && z.rtt.label !== "measured" ? `RTT not measured: the model ${z.rtt.text}` : undefined;
        out.push({
            system: "citrix", kind: "zone", id: zone.resource.name, label: zoneRef(zone), urn: zone.resource.urn,
            ...(zone.daas ? { notChecked: "a Citrix DaaS resource location (not judged by the Site-database model)" } : {}),
            members: zoneMembers(zone),
            figures: [
                noted(figure("rttMs", "RTT", "ms", "lower", zone.daas ? undefined : rtt, (v) => `${fmt(v)} ms`, why), rttNote),
                figure("concurrency", "concurrent requests into its groups' locks", "", "none", z.concurrency?.value, round1, why),
                throttleFigure("throttleSum", "throttles (sum)", "none", t?.throttle.sum, (t?.zone ?? zone).controllers, {
                    none: "no Delivery Controller in the stack",
                    unset: "a Delivery Controller of the zone sets no throttle: nothing caps its requests",
                    unknown: "a Delivery Controller's throttle is unknown in this preview",
                }),
                noted(figure("lockLimit", "most exposed lock sustains", "", "higher", t?.lockLimit, round1, why), rttNote),
                noted(figure("perController", "proposed throttle per controller", "", "none", t?.perController, round1, zone.controllers.length === 0 ? "no Delivery Controller in the stack" : why), rttNote),
            ],
        });
    }
    for (const g of capacity.groups) {
        const t = throttle.groups.find((x) => x.group.resource.urn === g.group.resource.urn);
        // The judged prediction (citrix-brokering-capacity's): first come, the worse of the expected
        // load and the zones' whole storm on this lock; the note says which and gives the other.
        const p = g.judged ?? g.prediction;
        const storm = g.firstCome !== undefined && p === g.firstCome && g.prediction ? `first come: its zones' whole storm on this lock (${round1(Math.round(g.prediction.concurrency * 10) / 10)} expected at an even split)` : undefined;
        const why = g.notChecked?.reason ?? (p ? "" : "no demand declared for it or its zones");
        // A group not checked says why on every figure, not a reason that merely follows from it.
        const launchWhy = g.notChecked?.reason ?? (g.load.users === undefined ? "no perfguard:users" : why);
        const implicit = g.group.implicit;
        const lockNote = [...(storm ? [storm] : []), ...g.rttNotes].join("; ") || undefined;
        const prediction = [
            noted(figure("meanResponseS", "mean response (worst zone)", "s", "lower", p?.worstMeanResponseS, (v) => `${fmt(v)} s`, why), lockNote),
            noted(figure("timedOutPct", "timed out", "%", "lower", p ? p.worstErrorRate * 100 : undefined, (v) => pctText(v / 100), why), lockNote),
            figure("brokeredPerS", "brokered/s", "req/s", "higher", g.brokeredPerS, (v) => fmt(v, 2), why),
            figure("launchTimeS", "launch time", "s", "lower", g.launchTimeS, durationText, launchWhy),
        ];
        // The lock of a zone without a Delivery Group is that zone's only lock: its concurrency,
        // throttles, safe concurrency and proposed throttle are the zone entity's concurrency,
        // throttleSum, lockLimit and perController. Listing them twice would show one change as two.
        const throttling: Figure[] = implicit ? [] : [
            noted(figure("concurrency", "concurrency at peak", "", "none", p?.concurrency, round1, why), storm),
            t?.exposure !== undefined && !t.exposure.bounded
                ? throttleFigure("throttleExposure", "throttles into its lock (first come)", "lower", undefined, t.feeds.flatMap((f) => f.zone.controllers), {
                    none: "no Delivery Controller in the stack",
                    unset: "a Delivery Controller feeding it sets no throttle: nothing caps what it puts on the lock",
                    unknown: "a Delivery Controller feeding it has a throttle unknown in this preview",
                })
                : figure("throttleExposure", "throttles into its lock (first come)", "", "lower", t?.exposure?.value, round1, g.notChecked?.reason ?? (t?.feeders === 0 ? "no Delivery Controller in the stack" : why || "no Delivery Controller")),
            noted(figure("safe", "safe concurrency", "", "higher", t?.safe, round1, why || "no zone to judge"), lockNote),
            noted(figure("perController", "proposed throttle per controller", "", "none", t?.perController, round1, why || "no Delivery Controller"), lockNote),
        ];
        out.push({
            // Its own label: the zone entity carries the zone's name, this one its lock's.
            system: "citrix", kind: implicit ? "zoneLock" : "deliveryGroup", id: g.group.resource.name, label: implicit ? `lock of ${groupRef(g.group)}` : groupRef(g.group), urn: g.group.resource.urn,
            ...(g.notChecked ? { notChecked: g.notChecked.reason } : {}),
            // A zone's own lock: its zone entity carries the membership.
            ...(implicit ? {} : { members: [{ key: "zones", label: "zones", names: g.group.shares.map((s) => zoneShort(s.zone)).sort() }] }),
            figures: implicit ? prediction : [throttling[0], ...prediction, ...throttling.slice(1)],
        });
    }
    const d = capacity.database;
    // A sum over groups or zones is not known while one of its parts is not (fail closed): without
    // this, an unknown RTT would show the Site's figures falling, as if the stack had improved.
    const uncheckedGroups = capacity.groups.filter((g) => g.notChecked).map((g) => (g.group.implicit ? `the lock of ${groupShort(g.group)}` : groupShort(g.group))).sort();
    const unknownRtt = capacity.zones.filter((z) => !z.zone.daas && z.zone.rttMs.state !== "ok" && z.zone.rttMs.state !== "absent").map((z) => zoneShort(z.zone)).sort();
    const unknownSatellites = database.database.satellitesUnknown.map((z) => zoneShort(z.zone)).sort();
    const groupsWhy = uncheckedGroups.length > 0 ? `not known while ${uncheckedGroups.join(", ")} ${uncheckedGroups.length === 1 ? "is" : "are"} not checked` : undefined;
    const databaseWhy = unknownRtt.length > 0 ? `not known while the perfguard:rttMs of ${unknownRtt.join(", ")} is not known`
        : unknownSatellites.length > 0 ? `not known while satellite ${unknownSatellites.join(", ")} has neither a throttle on every Delivery Controller nor perfguard:peakConcurrentLaunches` : undefined;
    out.push({
        system: "citrix", kind: "site", id: "site", label: "Site database",
        figures: [
            figure("brokeredPerS", "brokered/s over all groups", "req/s", "higher", d.storms > 0 && !groupsWhy ? d.brokeredPerS : undefined, (v) => fmt(v, 2), groupsWhy ?? "no storm predicted"),
            ...(database.database.capPerS !== undefined ? [figure("measuredPerS", "measured Site rate", "req/s", "none", database.database.capPerS, (v) => fmt(v, 2), "")] : []),
            figure("databaseConcurrency", "satellite zones' concurrent requests", "", "lower", databaseWhy ? undefined : database.database.databaseConcurrency, round1, databaseWhy ?? ""),
        ],
    });
    return out;
}

/**
 * What a zone's figures rest on that is no number: its Delivery Groups, and who declares the peak
 * and the users its locks are judged with (the zone, its groups). A group moved to another zone
 * changes the zone even where its figures round the same.
 */
function zoneMembers(zone: Zone): Membership[] {
    const groups = zone.groups.map((s) => s.group).filter((g) => !g.implicit);
    const declaring = (zoneHas: boolean, has: (g: Group) => boolean) => [...(zoneHas ? [zoneShort(zone)] : []), ...groups.filter(has).map((g) => groupShort(g))].sort();
    return [
        { key: "deliveryGroups", label: "Delivery Groups", names: groups.map((g) => groupShort(g)).sort() },
        { key: "peakFrom", label: "peak declared by", names: declaring(zone.peakConcurrentLaunches.state === "ok", (g) => g.peakConcurrentLaunches.state === "ok") },
        { key: "usersFrom", label: "users declared by", names: declaring(zone.users.state === "ok", (g) => g.users.state === "ok") },
    ];
}

/** A figure with the note on what it rests on, when there is one and the figure has a value. */
function noted(f: Figure, note: string | undefined): Figure {
    return note === undefined || f.value === undefined ? f : { ...f, note };
}

function round1(value: number): string {
    return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
