/**
 * How every Citrix message and figure names things: zones, Delivery Groups (a zone judged as a
 * lock of its own: the zone), the storms one Site database shares, the RTT coverage notes, and the
 * "not measured" labels. Wording only: messages import this, never the evaluation's computation.
 */
import { RttCoverage, rttCoverage } from "../../model/citrixGuidance";
import { cappedList, num as fmt } from "../pack/format";
import { NAME_MAX, shortName } from "../pack/message";
import { field } from "../pack/values";
import type { Group, Zone } from "./site";

/** The label every figure resting on several groups at once carries, on its own line. */
export const ONE_GROUP_TESTED = "not measured (one Delivery Group was tested)";

/** The label of the Site's shared database work: what no test measured, and what would. */
export const SITE_WORK_NOT_MEASURED = "not measured beyond one Delivery Group: measure the Site database under a storm";

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

/**
 * Whose storms the one Site database shares, as every message counts them: Delivery Groups and
 * zones judged as their own lock (no Delivery Group in the stack) apart, for a zone is no Delivery
 * Group: "1 Delivery Group's storm", "3 Delivery Groups' and 1 zone's storms", "2 zones' storms".
 */
export function stormsText(d: { readonly stormGroups: number; readonly stormZones: number }): string {
    const whose = (n: number, one: string) => (n === 1 ? `1 ${one}'s` : `${n} ${one}s'`);
    const parts = [...(d.stormGroups > 0 ? [whose(d.stormGroups, "Delivery Group")] : []), ...(d.stormZones > 0 ? [whose(d.stormZones, "zone")] : [])];
    return `${parts.join(" and ") || "0 Delivery Groups'"} ${d.stormGroups + d.stormZones === 1 ? "storm" : "storms"}`;
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
        ...(zone.resource.origin
            ? [
                  `stack ${zone.resource.origin.project}/${zone.resource.origin.stack}${zone.resource.origin.time ? ` deployed ${zone.resource.origin.time}` : ""}`,
              ]
            : []),
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
