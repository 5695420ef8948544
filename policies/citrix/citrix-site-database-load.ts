/**
 * citrix-site-database-load: the brokering requests of every satellite zone reach the one Site
 * database, so they add up (citrix-zones-latency-brokering.ja.txt: the total wanted at SQL must
 * be split across the remote controllers). The source measured at most 60 concurrent requests
 * against one database; beyond that nothing was measured.
 */
import { MEASURED_MAX_CONCURRENCY } from "../../model/deliveryGroupBrokering";
import { ZONE_TYPE } from "./site";
import { round } from "./load";
import { packEvaluation } from "./settings";
import type { SiteEvaluation } from "./evaluationTypes";
import { perControllerThrottle } from "./lockLimits";
import { groupShort, ONE_GROUP_TESTED, SITE_WORK_NOT_MEASURED, stormsText, zoneShort } from "./names";
import { configured } from "./targets";
import { SITE_DATABASE_SCHEMA } from "./schemas";
import { NotChecked, Report, stackPolicy } from "../pack/definePolicy";
import { shortName } from "../pack/message";
import { DAAS_REASON, rttDecision } from "./decisions";
import { cappedList, num, plural } from "../pack/format";
import { zoneFix } from "./throttleMessages";

export interface SiteDatabaseLoadConfig {
    /** Most concurrent brokering requests all satellite zones together may allow. */
    maxSiteConcurrentRequests: number;
    /** Zones at or above this RTT count as satellite zones (ms). */
    satelliteAtRttMs: number;
    /** Brokered/s measured on this Site's database (0 = not measured: nothing gates on the Site). The room's one home of it. */
    measuredSiteBrokeredPerS: number;
}

/**
 * Every zone's storms, satellites or not, broker through the one Site database. The source measured
 * one Delivery Group: its plateaus are that lock's hold time, not the database's ceiling, so the
 * storms at once (their locks' own rates added up) and the database work they ask (Σ X_g·c) are
 * shown and decide nothing. Only a rate measured on this Site (measuredSiteBrokeredPerS) gates:
 * the storms at once above it. Returns the clause the stack's applied decision ends with.
 */
function brokeredRate(db: SiteEvaluation, name: string | undefined, unclear: NotChecked | undefined, report: Report): string {
    if (db.storms === 0) {
        return "";
    }
    const against = db.capPerS !== undefined ? ` against the measured ${num(db.capPerS, 2)}/s` : "";
    // The stack's one applied decision (--explain keeps one per resource) ends with it.
    const shown = `; ${stormsText(db)} at once: ${num(db.uncappedPerS, 2)} brokered/s${against}, ${num(db.databaseWorkS, 2)} s of database work per s (${num(db.workPerRequestS * 1000)} ms each): ${SITE_WORK_NOT_MEASURED}`;
    if (!db.capped || db.capPerS === undefined) {
        return shown;
    }
    if (unclear) {
        // Storms of several Sites may be summed here: above the measured rate, not known to be one database's.
        report.notChecked({
            reason: `${stormsText(db)} at once want ${num(db.uncappedPerS)} brokered/s against the measured ${num(db.capPerS)}/s: ${unclear.reason}`,
            remedy: unclear.remedy,
        });
        return shown;
    }
    report({
        problem: `${stormsText(db)} ${db.storms === 1 ? "wants" : "at once want"} ${num(db.uncappedPerS)} brokered/s of ${siteDatabaseRef(name)}, above its measured ${num(db.capPerS)}/s: responses ×${num(db.responseScale, 2)}.`,
        fix: reliefFix(db.relief),
        basis: [db.capSource ?? "measuredSiteBrokeredPerS", ...(db.storms > 1 ? [`several Delivery Groups at once: ${ONE_GROUP_TESTED}`] : [])],
    });
    return shown;
}

/**
 * The fix of the Site's storms: stagger them, or throttle the busiest lock's zones to the value that
 * makes them fit (evaluation.ts, relief): "set" where a controller has none, "lower" where every
 * one has one; no throttle where even 1 per controller would not make them fit.
 */
function reliefFix(relief: SiteEvaluation["relief"]): string {
    if (!relief || relief.perController === undefined) {
        return relief && relief.targetPerS > 0
            ? `stagger the storms or split the Site (the busiest lock, ${groupShort(relief.group.group)}, would need under ${num(relief.targetPerS)}/s of its ${num(relief.uncappedPerS)}/s: below what 1 per Delivery Controller brokers)`
            : "stagger the storms or split the Site (throttling the busiest lock alone cannot make them fit)";
    }
    const zones = [...new Set(relief.group.feeds.map((f) => f.zone))].sort((a, b) => a.resource.name.localeCompare(b.resource.name));
    const controllers = zones.flatMap((z) => z.controllers);
    const unset = controllers.filter((c) => c.throttle.state !== "ok").length;
    const names = cappedList(
        zones.map((z) => zoneShort(z)),
        2,
    );
    return (
        `stagger the storms, ${unset > 0 ? "set" : "lower"} the throttles of ${names}${unset === 0 ? "" : unset === controllers.length ? " (none set)" : " (not all set)"} to ${relief.perController} each ` +
        `(the busiest lock then wants ${num(relief.targetPerS)}/s of its ${num(relief.uncappedPerS)}/s), or split the Site`
    );
}

/** One Site database's satellites against maxSiteConcurrentRequests; `site` is the clause brokeredRate returned. */
function siteLoad(
    db: SiteEvaluation,
    name: string | undefined,
    unclear: NotChecked | undefined,
    site: string,
    config: SiteDatabaseLoadConfig,
    report: Report,
): void {
    // What each satellite allows: its throttles when every controller has one, else its
    // declared peak (its own plus the part of Delivery Groups' own peaks in it).
    const parts = db.satellites.map((z) => `${zoneShort(z.zone)} ${round(z.allowed!.value)} (${z.allowed!.by})`);
    for (const z of db.satellites) {
        report.applied(
            `${round(z.allowed!.value)} concurrent requests toward the Site database (${z.allowed!.by === "throttles" ? "sum of its throttles" : "its peak"})`,
            z.zone.resource,
        );
    }
    // Unknown allowances could only add: with one of them the sum is not known (fail closed).
    for (const z of db.satellitesUnknown) {
        report.notChecked(
            {
                reason: "a satellite zone with neither a throttle on every Delivery Controller nor perfguard:peakConcurrentLaunches",
                remedy: "declare perfguard:peakConcurrentLaunches on the zone, or the throttles of its controllers",
            },
            z.zone.resource,
        );
    }
    const total = db.databaseConcurrency;
    const whose = name === undefined ? "" : ` of citrix provider "${shortName(name)}"`;
    report.applied(
        `${round(total)} concurrent requests from ${plural(parts.length, "satellite zone")}${whose} against maxSiteConcurrentRequests ${config.maxSiteConcurrentRequests}${site}`,
    );
    if (total <= config.maxSiteConcurrentRequests) {
        return;
    }
    if (unclear) {
        report.notChecked({
            reason: `${round(total)} concurrent requests from ${plural(parts.length, "satellite zone")} against maxSiteConcurrentRequests ${config.maxSiteConcurrentRequests}: ${unclear.reason}`,
            remedy: unclear.remedy,
        });
        return;
    }
    const only = db.satellites.length === 1 ? db.satellites[0] : undefined;
    // Each zone's share of the database's measured concurrency is also bounded by what its own
    // most exposed lock sustains (24 at 160 ms): a share above it would fail citrix-broker-throttle.
    const even = Math.floor(config.maxSiteConcurrentRequests / parts.length);
    const shares = db.satellites.map((z) => ({ z, share: Math.min(even, Math.floor(z.lockLimit ?? even)) }));
    const uniform = shares.every((x) => x.share === shares[0].share);
    const shareText = uniform ? `about ${shares[0]?.share ?? even} per zone` : cappedList(shares.map((x) => `${zoneShort(x.z.zone)} ${x.share}`));
    report({
        problem: `${plural(parts.length, "satellite zone")} ${parts.length === 1 ? "allows" : "allow"} ${round(total)} concurrent brokering requests against ${siteDatabaseRef(name)}, above the ${config.maxSiteConcurrentRequests} measured: not measured beyond it.`,
        fix:
            only && only.zone.controllers.length > 0
                ? `${zoneFix(only.zone, perControllerThrottle(Math.min(config.maxSiteConcurrentRequests, only.lockLimit ?? config.maxSiteConcurrentRequests), only.zone.controllers.length))}, or move the zone to a separate Site`
                : `split the ${config.maxSiteConcurrentRequests} over the satellite zones' Delivery Controllers with their throttles (${shareText}, each within what its zone's lock sustains), or move zones to separate Sites`,
        basis: [
            `per zone: ${cappedList(parts)}`, // sorted (AnalyzeStack order is arbitrary), at most five named
            `maxSiteConcurrentRequests ${configured(config.maxSiteConcurrentRequests, MEASURED_MAX_CONCURRENCY)}: the most the 7.7 tests ran on one database; satellites from ${num(config.satelliteAtRttMs)} ms (satelliteAtRttMs)`,
            `several zones' Delivery Groups at once: ${ONE_GROUP_TESTED}`,
        ],
    });
}

/** "the one Site database" for the stack's one Site, else that Site's by its provider's resource name. */
function siteDatabaseRef(name: string | undefined): string {
    return name === undefined ? "the one Site database" : `the Site database of citrix provider "${shortName(name)}"`;
}

export const citrixSiteDatabaseLoad = stackPolicy<SiteDatabaseLoadConfig>({
    name: "citrix-site-database-load",
    description: "Satellite zones together should load the Site database only as measured.",
    enforcementLevel: "advisory",
    configSchema: { properties: { ...SITE_DATABASE_SCHEMA } },
    types: [ZONE_TYPE],
    check(stack, config, report) {
        // The room's one evaluation: measuredSiteBrokeredPerS and satelliteAtRttMs are this policy's
        // (their home; a copy still set on citrix-brokering-capacity is read where this sets none).
        const evaluation = packEvaluation(stack);
        // One database per Site (its provider's endpoint): each Site's storms and satellites on their own.
        const shown = evaluation.sites.map((part) => brokeredRate(part.database, part.name, evaluation.sitesUnclear, report));
        for (const z of evaluation.zones) {
            const zone = z.zone;
            if (zone.daas) {
                report.notApplicable(DAAS_REASON, zone.resource);
                continue;
            }
            const rtt = rttDecision(zone, report);
            if (rtt && rtt.value < config.satelliteAtRttMs) {
                report.notApplicable(
                    `RTT ${num(rtt.value)} ms (${rtt.where}) below satelliteAtRttMs ${num(config.satelliteAtRttMs)} ms: not a satellite zone`,
                    zone.resource,
                );
            }
        }
        evaluation.sites.forEach((part, i) => siteLoad(part.database, part.name, evaluation.sitesUnclear, shown[i], config, report));
    },
});
