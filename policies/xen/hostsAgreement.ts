/**
 * The `hosts` tables of the two Xen policies compared. Both policies declare the same schema
 * (settings.ts) and each stack policy reads only its own config, so a host given a different link,
 * bond, dom0 traffic or dedicated flag in each is judged with different figures by
 * xen-guest-network-share and xen-dom0-workload. `perfguard config check` names every such field.
 */
import { bondModeOf, XenHostConfig, xenDefaults } from "./settings";

/** The fields of a host entry, in the order a message lists them. */
const FIELDS = ["linkMBps", "bond", "dom0NetworkMBps", "dedicated"] as const;
export type HostField = (typeof FIELDS)[number];

/** One field of one host set differently in the two tables. */
export interface HostDifference {
    /** The host key as written in the first table (and in the second, when spelt otherwise). */
    readonly keys: readonly [string, string];
    readonly field: HostField;
    /** The field's value as each policy reads it, for a message ("not set" where a default or defaultLinkMBps applies). */
    readonly values: readonly [string, string];
}

function isObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Host keys are compared trimmed and case-insensitively, as the policies look them up (hosts.ts). */
function normalise(key: string): string {
    return key.trim().toLowerCase();
}

/** A field as the evaluation reads it, shown: defaults applied (only `true` says dedicated: settings.ts). */
function effective(entry: Partial<XenHostConfig>, field: HostField): string {
    switch (field) {
        case "linkMBps":
            return typeof entry.linkMBps === "number" ? JSON.stringify(entry.linkMBps) : "not set (defaultLinkMBps applies)";
        case "bond":
            return isObject(entry.bond) ? JSON.stringify({ members: entry.bond.members, mode: bondModeOf(entry.bond) }) : "no bond";
        case "dom0NetworkMBps":
            return JSON.stringify(typeof entry.dom0NetworkMBps === "number" ? entry.dom0NetworkMBps : xenDefaults.dom0NetworkMBps);
        case "dedicated":
            return JSON.stringify(entry.dedicated === true);
    }
}

/**
 * The fields of hosts in both tables whose values differ, sorted by host key, then field.
 * A host in one table only is not compared (the other policy has no entry for it).
 * @param a - one policy's `hosts` (any JSON value; only an object's entries are read). @param b - the other's.
 */
export function hostDifferences(a: unknown, b: unknown): HostDifference[] {
    if (!isObject(a) || !isObject(b)) {
        return [];
    }
    const second = new Map<string, string>();
    for (const key of Object.keys(b)) {
        if (!second.has(normalise(key))) {
            second.set(normalise(key), key);
        }
    }
    const out: HostDifference[] = [];
    const seen = new Set<string>();
    for (const key of Object.keys(a).sort()) {
        const other = second.get(normalise(key));
        if (other === undefined || seen.has(normalise(key)) || normalise(key) === "") {
            continue;
        }
        seen.add(normalise(key));
        const x = isObject(a[key]) ? (a[key] as Partial<XenHostConfig>) : {};
        const y = isObject(b[other]) ? (b[other] as Partial<XenHostConfig>) : {};
        for (const field of FIELDS) {
            const values = [effective(x, field), effective(y, field)] as const;
            if (values[0] !== values[1]) {
                out.push({ keys: [key, other], field, values });
            }
        }
    }
    return out;
}
