/**
 * measuredSiteBrokeredPerS, the one Site database's measured rate: a room setting with one home,
 * citrix-site-database-load (the Site database's policy), read by the room from there. A config
 * that still sets it on citrix-brokering-capacity (its earlier second copy) keeps working: that
 * copy is read as a fallback, and `perfguard config check` names the one home.
 */
import { configOf } from "../pack/policyConfigs";
import type { StackView } from "../pack/resources";

/** The policy whose configSchema declares the setting. */
export const SITE_RATE_HOME = "citrix-site-database-load";
/** The setting's key. */
export const SITE_RATE_KEY = "measuredSiteBrokeredPerS";
/** Where an earlier release also accepted it: read as a fallback only. */
export const SITE_RATE_DEPRECATED_IN = "citrix-brokering-capacity";

/** Settings a config may still set in a policy that is no longer their home (for `config check`). */
export const MOVED_SETTINGS: readonly { readonly policy: string; readonly key: string; readonly home: string }[] = [
    { policy: SITE_RATE_DEPRECATED_IN, key: SITE_RATE_KEY, home: SITE_RATE_HOME },
];

function positive(value: unknown): number | undefined {
    return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The measured rate from the home's value, else the deprecated copy's; 0 when neither sets one. */
export function siteRateOf(home: unknown, deprecated: unknown): number {
    return positive(home) ?? positive(deprecated) ?? 0;
}

/** In a pack run: the home policy's own value, else the deprecated copy's, when that policy ran on this stack. */
export function measuredSiteRate(stack: StackView, own: number): number {
    return siteRateOf(own, configOf(stack, SITE_RATE_DEPRECATED_IN)?.[SITE_RATE_KEY]);
}
