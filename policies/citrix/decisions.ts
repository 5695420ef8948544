/** Decisions the Citrix zone policies share: a zone's RTT fact, and Citrix DaaS zones. */
import type { Report } from "../pack/definePolicy";
import { AFTER_APPLY, Zone } from "./site";
import { shortName } from "../pack/message";
import { field, isUnknown } from "../pack/values";

/** Reason every Site-database policy gives for a Citrix DaaS zone. */
export const DAAS_REASON = "a Citrix DaaS resource location (resourceLocationId set): no Site database over the WAN to model";

/** A DaaS zone: "not checked" when it declares brokering facts, else not applicable. */
export function daasNotChecked(zone: Zone, report: Report): void {
    if (zone.rttMs.state !== "absent" || zone.peakConcurrentLaunches.state !== "absent") {
        report.notChecked({ reason: DAAS_REASON, remedy: "judge it against Citrix Cloud's published limits; remove perfguard:rttMs from it" }, zone.resource);
    } else {
        report.notApplicable(DAAS_REASON, zone.resource);
    }
}

/** A zone whose perfguard:rttMs reads absent but may be hidden (an unknown entry of its fact carriers). */
export const RTT_HIDDEN = {
    reason: "no perfguard:rttMs found, but an entry of its fact carriers is unknown in this preview",
    remedy: AFTER_APPLY,
};

/** The zone's RTT when usable; otherwise records why not (unknown: not checked) and returns undefined. */
export function rttDecision(zone: Zone, report: Report): { value: number; where: string } | undefined {
    const rtt = zone.rttMs;
    switch (rtt.state) {
        case "ok":
            return { value: rtt.value, where: rtt.where };
        case "unknown":
            report.notChecked({ reason: "its perfguard:rttMs is unknown in this preview", remedy: AFTER_APPLY }, zone.resource);
            return undefined;
        case "invalid":
            report.notApplicable("perfguard:rttMs is invalid (perfguard-facts reports it)", zone.resource);
            return undefined;
        default:
            if (zone.resource.facts.incomplete) {
                report.notChecked(RTT_HIDDEN, zone.resource);
            } else {
                report.notApplicable("no perfguard:rttMs fact on this zone", zone.resource);
            }
            return undefined;
    }
}

/** A zone as every Citrix message names it: the resource name, with its `name` input where they differ. */
/**
 * A problem line that names the zone with its name note when it fits in 160 characters, else by
 * its resource name alone (as evaluation.ts's fitted does for the stack policies).
 */
export function zoneLine(zone: { name: string; props: unknown }, make: (ref: string) => string): string {
    const full = make(zoneName(zone));
    return full.length <= 160 ? full : make(`Zone "${shortName(zone.name)}"`);
}

export function zoneName(zone: { name: string; props: unknown }): string {
    const value = field(zone.props, "name");
    const own = typeof value === "string" && !isUnknown(value) && value.trim() ? value.trim() : undefined;
    return `Zone "${shortName(zone.name)}"${own !== undefined && own !== zone.name ? ` (name "${shortName(own)}")` : ""}`;
}
