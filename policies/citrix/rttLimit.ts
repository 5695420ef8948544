/**
 * The RTT limit citrix-zone-rtt-limit was configured with, for citrix-zone-rtt-warning's band.
 *
 * A policy sees only its own config (the SDK's getConfig), so the warning cannot read the limit's
 * `maxRttMs` directly. The SDK runs a pack's resource policies on each resource in the registry's
 * order, citrix-zone-rtt-limit before citrix-zone-rtt-warning (policies/index.ts), so the limit
 * records the value it judged a zone with, and the warning, on the same zone, takes it as the end
 * of its band. The record is per zone URN and read once, so it never leaks into another zone's
 * or another run's verdict; when the limit did not run on the zone (disabled, or its config
 * invalid), the warning keeps its own `belowRttMs`.
 */

let last: { urn: string; maxRttMs: number } | undefined;

/** citrix-zone-rtt-limit: the limit it is judging this zone with. */
export function recordRttLimit(urn: string, maxRttMs: number): void {
    last = { urn, maxRttMs };
}

/** citrix-zone-rtt-warning: the limit recorded on this zone, if any (consumed). */
export function takeRttLimit(urn: string): number | undefined {
    const found = last !== undefined && last.urn === urn ? last.maxRttMs : undefined;
    last = undefined;
    return found;
}
