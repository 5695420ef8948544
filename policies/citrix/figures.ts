/**
 * Every Citrix figure as EntityFigures (policies/pack/figures.ts), for `check --report` and
 * `perfguard diff`: per zone, per Delivery Group lock, and the Site database, each `text` as the
 * verdicts print it. Read from the room's one evaluation (settings.ts); nothing here computes a figure.
 */
import type { EntityFigures, Figure, Membership } from "../pack/figures";
import { duration as durationText, num as fmt, pct as pctText } from "../pack/format";
import type { ResourceView, StackView } from "../pack/resources";
import { stackParts } from "../pack/stackParts";
import { groupRef, groupShort, zoneRef, zoneShort } from "./names";
import { citrixRoom, PackConfig } from "./settings";
import type { Group, Zone } from "./site";

function figure(
    key: string,
    label: string,
    unit: string,
    better: Figure["better"],
    value: number | undefined,
    text: (v: number) => string,
    notChecked: string,
): Figure {
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
function throttleFigure(
    key: string,
    label: string,
    better: Figure["better"],
    value: number | undefined,
    controllers: readonly { throttle: { state: string } }[],
    why: { none: string; unset: string; unknown: string },
): Figure {
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
    const { evaluation: e } = citrixRoom(stack, config);
    const out: EntityFigures[] = [];
    for (const z of e.zones) {
        const zone = z.zone;
        const rtt = zone.rttMs.state === "ok" ? zone.rttMs.value : undefined;
        const why = zone.daas
            ? "a Citrix DaaS resource location"
            : zone.rttMs.state === "ok"
              ? "nothing declared"
              : `its perfguard:rttMs is ${zone.rttMs.state === "absent" ? "not declared" : zone.rttMs.state}`;
        // The same coverage the verdicts' basis lines give (ZoneEvaluation.rtt, computed once).
        const rttNote = z.rtt && z.rtt.label !== "measured" ? `RTT not measured: the model ${z.rtt.text}` : undefined;
        out.push({
            system: "citrix",
            kind: "zone",
            id: zone.resource.name,
            label: zoneRef(zone),
            urn: zone.resource.urn,
            // A zone shared across stacks (the platform's): its own, its controllers', catalogs' and groups' stacks.
            ...stackParts(zoneResources(zone)),
            ...(zone.daas ? { notChecked: "a Citrix DaaS resource location (not judged by the Site-database model)" } : {}),
            members: zoneMembers(zone),
            figures: [
                noted(
                    figure("rttMs", "RTT", "ms", "lower", zone.daas ? undefined : rtt, (v) => `${fmt(v)} ms`, why),
                    rttNote,
                ),
                figure("concurrency", "concurrent requests into its groups' locks", "", "none", z.concurrency?.value, round1, why),
                throttleFigure("throttleSum", "throttles (sum)", "none", z.throttle.sum, zone.controllers, {
                    none: "no Delivery Controller in the stack",
                    unset: "a Delivery Controller of the zone sets no throttle: nothing caps its requests",
                    unknown: "a Delivery Controller's throttle is unknown in this preview",
                }),
                noted(figure("lockLimit", "most exposed lock sustains", "", "higher", z.lockLimit, round1, why), rttNote),
                noted(
                    figure(
                        "perController",
                        "proposed throttle per controller",
                        "",
                        "none",
                        z.perController,
                        round1,
                        zone.controllers.length === 0 ? "no Delivery Controller in the stack" : why,
                    ),
                    rttNote,
                ),
            ],
        });
    }
    for (const g of e.groups) {
        // The judged prediction (citrix-brokering-capacity's): first come, the worse of the expected
        // load and the zones' whole storm on this lock; the note says which and gives the other.
        const p = g.judged ?? g.prediction;
        const storm =
            g.firstCome !== undefined && p === g.firstCome && g.prediction
                ? `first come: its zones' whole storm on this lock (${round1(Math.round(g.prediction.concurrency * 10) / 10)} expected at an even split)`
                : undefined;
        const why = g.notChecked?.reason ?? (p ? "" : "no demand declared for it or its zones");
        // A group not checked says why on every figure, not a reason that merely follows from it.
        const launchWhy = g.notChecked?.reason ?? (g.load.users === undefined ? "no perfguard:users" : why);
        const implicit = g.group.implicit;
        const lockNote = [...(storm ? [storm] : []), ...g.rttNotes].join("; ") || undefined;
        const prediction = [
            noted(
                figure("meanResponseS", "mean response (worst zone)", "s", "lower", p?.worstMeanResponseS, (v) => `${fmt(v)} s`, why),
                lockNote,
            ),
            noted(
                figure("timedOutPct", "timed out", "%", "lower", p ? p.worstErrorRate * 100 : undefined, (v) => pctText(v / 100), why),
                lockNote,
            ),
            figure("brokeredPerS", "brokered/s", "req/s", "higher", g.brokeredPerS, (v) => fmt(v, 2), why),
            figure("launchTimeS", "launch time", "s", "lower", g.launchTimeS, durationText, launchWhy),
        ];
        // The lock of a zone without a Delivery Group is that zone's only lock: its concurrency,
        // throttles, safe concurrency and proposed throttle are the zone entity's concurrency,
        // throttleSum, lockLimit and perController. Listing them twice would show one change as two.
        const throttling: Figure[] = implicit
            ? []
            : [
                  noted(figure("concurrency", "concurrency at peak", "", "none", p?.concurrency, round1, why), storm),
                  g.exposure !== undefined && !g.exposure.bounded
                      ? throttleFigure(
                            "throttleExposure",
                            "throttles into its lock (first come)",
                            "lower",
                            undefined,
                            g.feeds.flatMap((f) => f.zone.controllers),
                            {
                                none: "no Delivery Controller in the stack",
                                unset: "a Delivery Controller feeding it sets no throttle: nothing caps what it puts on the lock",
                                unknown: "a Delivery Controller feeding it has a throttle unknown in this preview",
                            },
                        )
                      : figure(
                            "throttleExposure",
                            "throttles into its lock (first come)",
                            "",
                            "lower",
                            g.exposure?.value,
                            round1,
                            g.notChecked?.reason ?? (g.feeders === 0 ? "no Delivery Controller in the stack" : why || "no Delivery Controller"),
                        ),
                  noted(figure("safe", "safe concurrency", "", "higher", g.safe, round1, why || "no zone to judge"), lockNote),
                  noted(
                      figure("perController", "proposed throttle per controller", "", "none", g.perController, round1, why || "no Delivery Controller"),
                      lockNote,
                  ),
              ];
        out.push({
            // Its own label: the zone entity carries the zone's name, this one its lock's.
            system: "citrix",
            kind: implicit ? "zoneLock" : "deliveryGroup",
            id: g.group.resource.name,
            label: implicit ? `lock of ${groupRef(g.group)}` : groupRef(g.group),
            urn: g.group.resource.urn,
            // Another stack's group is load on a shared zone (the zone's row counts it); a zone's own lock is its zone's.
            ...stackParts(implicit ? g.group.shares.flatMap((s) => zoneResources(s.zone)) : [g.group.resource]),
            ...(g.notChecked ? { notChecked: g.notChecked.reason } : {}),
            // A zone's own lock: its zone entity carries the membership.
            ...(implicit ? {} : { members: [{ key: "zones", label: "zones", names: g.group.shares.map((s) => zoneShort(s.zone)).sort() }] }),
            figures: implicit ? prediction : [throttling[0], ...prediction, ...throttling.slice(1)],
        });
    }
    const d = e.database;
    // A sum over groups or zones is not known while one of its parts is not (fail closed): without
    // this, an unknown RTT would show the Site's figures falling, as if the stack had improved.
    const uncheckedGroups = e.groups
        .filter((g) => g.notChecked)
        .map((g) => (g.group.implicit ? `the lock of ${groupShort(g.group)}` : groupShort(g.group)))
        .sort();
    const unknownRtt = e.zones
        .filter((z) => !z.zone.daas && z.zone.rttMs.state !== "ok" && z.zone.rttMs.state !== "absent")
        .map((z) => zoneShort(z.zone))
        .sort();
    const unknownSatellites = e.database.satellitesUnknown.map((z) => zoneShort(z.zone)).sort();
    const groupsWhy =
        uncheckedGroups.length > 0 ? `not known while ${uncheckedGroups.join(", ")} ${uncheckedGroups.length === 1 ? "is" : "are"} not checked` : undefined;
    const databaseWhy =
        unknownRtt.length > 0
            ? `not known while the perfguard:rttMs of ${unknownRtt.join(", ")} is not known`
            : unknownSatellites.length > 0
              ? `not known while satellite ${unknownSatellites.join(", ")} has neither a throttle on every Delivery Controller nor perfguard:peakConcurrentLaunches`
              : undefined;
    out.push({
        system: "citrix",
        kind: "site",
        id: "site",
        label: "Site database",
        figures: [
            figure(
                "brokeredPerS",
                "brokered/s over all groups",
                "req/s",
                "higher",
                d.storms > 0 && !groupsWhy ? d.brokeredPerS : undefined,
                (v) => fmt(v, 2),
                groupsWhy ?? "no storm predicted",
            ),
            ...(e.database.capPerS !== undefined
                ? [figure("measuredPerS", "measured Site rate", "req/s", "none", e.database.capPerS, (v) => fmt(v, 2), "")]
                : []),
            figure(
                "databaseConcurrency",
                "satellite zones' concurrent requests",
                "",
                "lower",
                databaseWhy ? undefined : e.database.databaseConcurrency,
                round1,
                databaseWhy ?? "",
            ),
        ],
    });
    return out;
}

/** The resources a zone's figures rest on: the zone, its controllers, catalogs and Delivery Groups. */
function zoneResources(zone: Zone): Array<ResourceView | undefined> {
    return [zone.resource, ...zone.controllers.map((c) => c.resource), ...zone.catalogs.map((c) => c.resource), ...zone.groups.map((s) => s.group.resource)];
}

/**
 * What a zone's figures rest on that is no number: its Delivery Groups, and who declares the peak
 * and the users its locks are judged with (the zone, its groups). A group moved to another zone
 * changes the zone even where its figures round the same.
 */
function zoneMembers(zone: Zone): Membership[] {
    const groups = zone.groups.map((s) => s.group).filter((g) => !g.implicit);
    const declaring = (zoneHas: boolean, has: (g: Group) => boolean) =>
        [...(zoneHas ? [zoneShort(zone)] : []), ...groups.filter(has).map((g) => groupShort(g))].sort();
    return [
        { key: "deliveryGroups", label: "Delivery Groups", names: groups.map((g) => groupShort(g)).sort() },
        {
            key: "peakFrom",
            label: "peak declared by",
            names: declaring(zone.peakConcurrentLaunches.state === "ok", (g) => g.peakConcurrentLaunches.state === "ok"),
        },
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
