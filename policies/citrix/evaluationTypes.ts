/**
 * The shapes of the Citrix evaluation (compute.ts fills them): per Delivery Group lock, per zone,
 * per Site database. Policies, `check --report`, `size` and `diff` read these; nothing recomputes them.
 */
import type { GroupPrediction } from "../../model/deliveryGroupBrokering";
import type { RttCoverage } from "../../model/citrixGuidance";
import type { NotChecked } from "../pack/definePolicy";
import type { GroupLoad, zoneThrottle } from "./load";
import type { ExternalControllers, Group, Site, Zone } from "./site";
import type { BrokeringTargets } from "./targets";

/** What the evaluation depends on (settings.ts reads it from the policies' configs; schemas.ts holds the defaults). */
export interface CitrixEvaluationConfig extends BrokeringTargets {
    /** Delivery Controllers another stack manages (citrix-broker-throttle's externalControllers). */
    readonly externalControllers: ExternalControllers;
    /** Brokered/s measured on this Site's database; 0 = not measured (nothing gates on the Site). */
    readonly measuredSiteBrokeredPerS: number;
    /** Zones at or above this RTT count as satellites for the Site-database load (ms). */
    readonly satelliteAtRttMs: number;
}

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
    readonly span?: {
        readonly fastest: Zone;
        readonly rttMs: number;
        readonly concurrency: number;
        readonly withOthersS: number;
        readonly aloneS: number;
        readonly errorRate: number;
        readonly advise: boolean;
    };
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
    /** The locks whose own per-controller throttle that is (its most exposed; empty without a judged lock). */
    readonly perControllerFrom: readonly Group[];
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
