/**
 * One Site database's figures: the storms of its locks at once, the rate measured on this Site
 * (the only Site figure that gates), its satellite zones, and the relief a measured cap asks.
 */
import { predictGroupBrokering, shareSiteCap } from "../../model/deliveryGroupBrokering";
import { BROKERING_PARAMS } from "../../model/brokering";
import { num as fmt } from "../pack/format";
import type { CitrixEvaluationConfig, GroupEvaluation, SiteEvaluation, ZoneEvaluation } from "./evaluationTypes";
import { ONE_GROUP_TESTED, stormsText } from "./names";

/** The Site database's measured rate, when measuredSiteBrokeredPerS is set (> 0); else nothing gates on the Site. */
export function siteCap(measuredSiteBrokeredPerS: number | undefined): { capPerS: number; capSource: string } | undefined {
    return measuredSiteBrokeredPerS !== undefined && measuredSiteBrokeredPerS > 0
        ? {
              capPerS: measuredSiteBrokeredPerS,
              capSource: `measuredSiteBrokeredPerS ${measuredSiteBrokeredPerS}/s, set in the policy config (measured on this Site)`,
          }
        : undefined;
}

/** One Site database's figures: its storms at once, the measured rate, its satellites. */
export function siteDatabase(
    predicted: readonly GroupEvaluation[],
    groups: readonly GroupEvaluation[],
    zones: readonly ZoneEvaluation[],
    config: CitrixEvaluationConfig,
): SiteEvaluation {
    const measured = siteCap(config.measuredSiteBrokeredPerS);
    const shared = shareSiteCap(
        predicted.map((g) => ({ brokeredPerS: g.prediction!.brokeredPerS, successfulPerS: g.prediction!.successfulPerS })),
        measured?.capPerS ?? Number.POSITIVE_INFINITY,
    );
    const relief = measured && shared.capped ? siteRelief(predicted, groups, shared.uncappedPerS - measured.capPerS) : undefined;
    const workPerRequestS = BROKERING_PARAMS.lockFixedS;
    const satelliteAt = config.satelliteAtRttMs;
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
    const busiest = [...predicted].sort(
        (a, b) => b.prediction!.brokeredPerS - a.prediction!.brokeredPerS || a.group.resource.name.localeCompare(b.group.resource.name),
    )[0];
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
