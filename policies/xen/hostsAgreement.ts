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
    /** The field's value as each policy reads it, for a message (defaults and defaultLinkMBps applied). */
    readonly values: readonly [string, string];
    /** The table that lists the host, when only one does (the other policy judges it with its defaults). */
    readonly only?: "first" | "second";
}

function isObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Host keys are compared trimmed and case-insensitively, as the policies look them up (hosts.ts). */
function normalise(key: string): string {
    return key.trim().toLowerCase();
}

/** How a linkMBps taken from defaultLinkMBps is shown. */
const FROM_DEFAULT_LINK = " (defaultLinkMBps)";

/** The two policies' settings a host's figures also come from (defaultLinkMBps: a host with no linkMBps). */
interface Defaults {
    readonly defaultLinkMBps: unknown;
}

/** A field as the evaluation reads it, shown: defaults applied (only `true` says dedicated: settings.ts). */
function effective(entry: Partial<XenHostConfig>, field: HostField, defaults: Defaults): string {
    switch (field) {
        case "linkMBps":
            return typeof entry.linkMBps === "number"
                ? JSON.stringify(entry.linkMBps)
                : typeof defaults.defaultLinkMBps === "number"
                  ? `${JSON.stringify(defaults.defaultLinkMBps)}${FROM_DEFAULT_LINK}`
                  : "not set (no defaultLinkMBps either)";
        case "bond":
            return isObject(entry.bond) ? JSON.stringify({ members: entry.bond.members, mode: bondModeOf(entry.bond) }) : "no bond";
        case "dom0NetworkMBps":
            return JSON.stringify(typeof entry.dom0NetworkMBps === "number" ? entry.dom0NetworkMBps : xenDefaults.dom0NetworkMBps);
        case "dedicated":
            return JSON.stringify(entry.dedicated === true);
    }
}

/** The settings both policies take that change every host's figures, in the order a message lists them. */
const SHARED_SETTINGS = ["defaultLinkMBps", "dom0Share"] as const;

/** One of SHARED_SETTINGS set differently in the two policies. */
export interface SettingDifference {
    readonly setting: (typeof SHARED_SETTINGS)[number];
    readonly values: readonly [string, string];
}

/** The shared settings whose values (defaults applied: the reconciled config) differ between `a` and `b`, two policies' configs. */
export function settingDifferences(a: unknown, b: unknown): SettingDifference[] {
    const x = isObject(a) ? a : {};
    const y = isObject(b) ? b : {};
    const shown = (v: unknown) => (v === undefined || v === null ? "not set" : JSON.stringify(v));
    return SHARED_SETTINGS.flatMap((setting) => {
        const values = [shown(x[setting] ?? xenDefaults[setting]), shown(y[setting] ?? xenDefaults[setting])] as const;
        return values[0] !== values[1] ? [{ setting, values }] : [];
    });
}

/**
 * The fields of hosts whose figures differ between two policies' configs (each with its `hosts`
 * and defaultLinkMBps), sorted by host key, then field: every host either table lists (a host in
 * one only is judged by the other policy with its defaults), keys matched trimmed and
 * case-insensitively as the policies match them; a field equal once defaults apply is no difference.
 * @param a - one policy's config (any JSON value; only an object's entries are read). @param b - the other's.
 */
export function hostDifferences(a: unknown, b: unknown): HostDifference[] {
    const configA = isObject(a) ? a : {};
    const configB = isObject(b) ? b : {};
    const hostsA = isObject(configA.hosts) ? configA.hosts : {};
    const hostsB = isObject(configB.hosts) ? configB.hosts : {};
    const keysOf = (hosts: Record<string, unknown>) => {
        const byNorm = new Map<string, string>();
        for (const key of Object.keys(hosts).sort()) {
            if (normalise(key) !== "" && !byNorm.has(normalise(key))) {
                byNorm.set(normalise(key), key);
            }
        }
        return byNorm;
    };
    const first = keysOf(hostsA);
    const second = keysOf(hostsB);
    const out: HostDifference[] = [];
    for (const norm of [...new Set([...first.keys(), ...second.keys()])]) {
        const keyA = first.get(norm);
        const keyB = second.get(norm);
        const x = keyA !== undefined && isObject(hostsA[keyA]) ? (hostsA[keyA] as Partial<XenHostConfig>) : {};
        const y = keyB !== undefined && isObject(hostsB[keyB]) ? (hostsB[keyB] as Partial<XenHostConfig>) : {};
        for (const field of FIELDS) {
            const values = [
                effective(x, field, { defaultLinkMBps: configA.defaultLinkMBps }),
                effective(y, field, { defaultLinkMBps: configB.defaultLinkMBps }),
            ] as const;
            // The figure, not where it came from: 111 set and 111 from defaultLinkMBps judge alike.
            if (values[0].replace(FROM_DEFAULT_LINK, "") !== values[1].replace(FROM_DEFAULT_LINK, "")) {
                out.push({
                    keys: [keyA ?? (keyB as string), keyB ?? (keyA as string)],
                    only: keyA === undefined ? "second" : keyB === undefined ? "first" : undefined,
                    field,
                    values,
                });
            }
        }
    }
    return out.sort((p, q) => (p.keys[0] < q.keys[0] ? -1 : p.keys[0] > q.keys[0] ? 1 : FIELDS.indexOf(p.field) - FIELDS.indexOf(q.field)));
}
