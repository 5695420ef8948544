/**
 * citrix-site-database-load: the brokering requests of every satellite zone reach the one Site
 * database, so they add up (citrix-zones-latency-brokering.ja.txt: the total wanted at SQL must
 * be split across the remote controllers). The source measured at most 60 concurrent requests
 * against one database; beyond that nothing was measured.
 */
import { MEASURED_MAX_CONCURRENCY } from "../../model/deliveryGroupBrokering";
import { ZONE_TYPE } from "./site";
import { round } from "./load";
import { cappedList, citrixEvaluation, ONE_GROUP_TESTED, perControllerThrottle, zoneShort } from "./evaluation";
import { configured } from "./targets";
import { stackPolicy } from "../pack/definePolicy";
import { DAAS_REASON, rttDecision } from "./decisions";
import { num, plural } from "../pack/format";
import { zoneFix } from "./throttleMessages";

export interface SiteDatabaseLoadConfig {
    /** Most concurrent brokering requests all satellite zones together may allow. */
    maxSiteConcurrentRequests: number;
    /** Zones at or above this RTT count as satellite zones (ms). */
    satelliteAtRttMs: number;
}

export const citrixSiteDatabaseLoad = stackPolicy<SiteDatabaseLoadConfig>({
    name: "citrix-site-database-load",
    description: "Satellite zones together should load the Site database only as measured.",
    enforcementLevel: "advisory",
    configSchema: {
        properties: {
            maxSiteConcurrentRequests: {
                type: "integer",
                minimum: 1,
                maximum: 1000000,
                default: MEASURED_MAX_CONCURRENCY,
                description: "Most concurrent brokering requests all satellite zones' throttles (or peaks) may allow against the Site database (default 60: the most the source measured against one database).",
            },
            satelliteAtRttMs: {
                type: "number",
                minimum: 0,
                maximum: 10000,
                default: 90,
                description: "Zones whose perfguard:rttMs is at or above this (ms) count as satellite zones (default 90, as citrix-broker-throttle's requireAtRttMs).",
            },
        },
    },
    types: [ZONE_TYPE],
    check(stack, config, report) {
        const evaluation = citrixEvaluation(stack, { satelliteAtRttMs: config.satelliteAtRttMs });
        const db = evaluation.database;
        for (const z of evaluation.zones) {
            const zone = z.zone;
            if (zone.daas) {
                report.notApplicable(DAAS_REASON, zone.resource);
                continue;
            }
            const rtt = rttDecision(zone, report);
            if (rtt && rtt.value < config.satelliteAtRttMs) {
                report.notApplicable(`RTT ${num(rtt.value)} ms (${rtt.where}) below satelliteAtRttMs ${num(config.satelliteAtRttMs)} ms: not a satellite zone`, zone.resource);
            }
        }
        // What each satellite allows: its throttles when every controller has one, else its
        // declared peak (its own plus the part of Delivery Groups' own peaks in it).
        const parts = db.satellites.map((z) => `${zoneShort(z.zone)} ${round(z.allowed!.value)} (${z.allowed!.by})`);
        for (const z of db.satellites) {
            report.applied(`${round(z.allowed!.value)} concurrent requests toward the Site database (${z.allowed!.by === "throttles" ? "sum of its throttles" : "its peak"})`, z.zone.resource);
        }
        // Unknown allowances could only add: with one of them the sum is not known (fail closed).
        for (const z of db.satellitesUnknown) {
            report.notChecked({ reason: "a satellite zone with neither a throttle on every Delivery Controller nor perfguard:peakConcurrentLaunches", remedy: "declare perfguard:peakConcurrentLaunches on the zone, or the throttles of its controllers" }, z.zone.resource);
        }
        const total = db.databaseConcurrency;
        report.applied(`${round(total)} concurrent requests from ${plural(parts.length, "satellite zone")} against maxSiteConcurrentRequests ${config.maxSiteConcurrentRequests}`);
        if (total <= config.maxSiteConcurrentRequests) {
            return;
        }
        const only = db.satellites.length === 1 ? db.satellites[0].zone : undefined;
        report({
            problem: `${plural(parts.length, "satellite zone")} ${parts.length === 1 ? "allows" : "allow"} ${round(total)} concurrent brokering requests against the one Site database, above the ${config.maxSiteConcurrentRequests} measured: not measured beyond it.`,
            fix: only && only.controllers.length > 0
                ? `${zoneFix(only, perControllerThrottle(config.maxSiteConcurrentRequests, only.controllers.length))}, or move the zone to a separate Site`
                : `split the ${config.maxSiteConcurrentRequests} over the satellite zones' Delivery Controllers with their throttles (about ${Math.floor(config.maxSiteConcurrentRequests / parts.length)} per zone), or move zones to separate Sites`,
            basis: [
                `per zone: ${cappedList(parts)}`, // sorted (AnalyzeStack order is arbitrary), at most five named
                `maxSiteConcurrentRequests ${configured(config.maxSiteConcurrentRequests, MEASURED_MAX_CONCURRENCY)}: the most the 7.7 tests ran on one database; satellites from ${num(config.satelliteAtRttMs)} ms (satelliteAtRttMs)`,
                `several zones' Delivery Groups at once: ${ONE_GROUP_TESTED}`,
            ],
        });
    },
});
