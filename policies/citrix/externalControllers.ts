/**
 * citrix-broker-throttle's `externalControllers` (Delivery Controllers another stack manages, keyed
 * by zone name): which zone each key names, and what is said of a key that names none. A key is
 * looked up as a controller's perfguard:citrixZone is (zoneJoin.ts: the zone's name input, its
 * Pulumi name, an alias's old name; this stack's zones and the inventory's). A key that names no
 * zone is a config that applies nowhere (a typo such as "emea-eats"): its controllers and their
 * throttles would be dropped without a word, so it is reported, as the pack reports every config
 * that cannot mean what it says (policies/pack/configReporting.ts), never passed over.
 */
import type { FactRead } from "../pack/facts";
import type { NotChecked } from "../pack/definePolicy";
import { shortName } from "../pack/message";
import { INVENTORY_ENV } from "../pack/inventory/types";
import { fold, JoinableZone, ZoneIndex, zoneLabel } from "./zoneJoin";

/** Delivery Controllers another stack manages, by zone name (citrix-broker-throttle config). */
export type ExternalControllers = Readonly<Record<string, ReadonlyArray<{ name: string; throttle?: number }>>>;

/** What a key's controllers are added to: a zone's controller list (site.ts's Zone). */
export interface ControlledZone extends JoinableZone {
    readonly controllers: Array<{ readonly name: string; readonly throttle: FactRead<number> }>;
}

/** The keys of externalControllers that name no single zone, sorted. */
export interface ExternalKeys {
    /** Keys that name no zone of this stack or the inventory, while every zone's name is known. */
    readonly unknown: readonly string[];
    /** Keys that name no zone while some zones' names are unknown in this preview: each may name one of them. */
    readonly unresolved: readonly string[];
    /** Keys that name several zones of Sites that cannot be told apart, with the candidates. */
    readonly ambiguous: ReadonlyArray<{ readonly key: string; readonly zones: readonly JoinableZone[] }>;
}

export const NO_EXTERNAL_KEYS: ExternalKeys = { unknown: [], unresolved: [], ambiguous: [] };

/**
 * Adds each key's controllers to the zone it names (O(keys)); never throws.
 * @param zones - every zone of the view (to tell "no such zone" from "a name unknown in this preview").
 * @returns the keys that name no single zone (their controllers are added nowhere).
 */
export function placeExternalControllers<Z extends ControlledZone>(externals: ExternalControllers, index: ZoneIndex<Z>, zones: readonly Z[]): ExternalKeys {
    const unknown: string[] = [];
    const ambiguous: Array<{ key: string; zones: readonly Z[] }> = [];
    for (const [key, list] of Object.entries(externals ?? {})) {
        const found = index.byName(key, undefined);
        if ("ambiguous" in found) {
            ambiguous.push({ key, zones: found.ambiguous });
            continue;
        }
        if ("none" in found) {
            unknown.push(key);
            continue;
        }
        // The schema makes each entry a list; a direct caller's odd value adds nothing (never throws).
        const entries: ExternalControllers[string] = Array.isArray(list) ? (list as ExternalControllers[string]) : [];
        for (const c of entries) {
            // A controller the zone already has (declared in this stack or read from the inventory,
            // with its own throttle) is the same machine listed again: counted once, as deployed.
            if (found.zone.controllers.some((known) => fold(known.name) === fold(String(c.name)))) {
                continue;
            }
            found.zone.controllers.push({
                name: c.name,
                throttle:
                    c.throttle === undefined ? { state: "absent" } : { state: "ok", value: c.throttle, where: "externalControllers in the policy config" },
            });
        }
    }
    const namesUnknown = zones.some((z) => z.nameUnknown);
    return {
        unknown: namesUnknown ? [] : unknown.sort(),
        unresolved: namesUnknown ? unknown.sort() : [],
        ambiguous: ambiguous.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    };
}

/** `"emea-eats", "emea-wset"`: keys as a message shows them (escaped, shortened, sorted; at most 3 and a count). */
function keyList(keys: readonly string[]): string {
    const shown = keys.slice(0, 3).map((k) => JSON.stringify(shortName(k, 40)));
    return keys.length > 3 ? `${shown.join(", ")} and ${keys.length - 3} more` : shown.join(", ");
}

/**
 * Why keys that name no zone leave their controllers uncounted, as a controller's
 * perfguard:citrixZone naming a zone this stack does not declare is not checked (site.ts
 * zoneNotOwned): without an inventory the key may name another stack's zone (the case
 * externalControllers exists for), so a typo cannot be told from it; with one, the zone is in no
 * stack it holds. Either way at the policy's `unverified` level, on the stack, never dropped.
 * @param zoneNames - the zones' names a key may use (this stack's and the inventory's), for the remedy.
 */
export function unknownKeysWhy(keys: readonly string[], zoneNames: readonly string[], inventoryHoldsStacks: boolean): NotChecked {
    const one = keys.length === 1;
    const names = [...new Set(zoneNames)].sort();
    const known =
        names.length > 0 ? `zones: ${keyList(names)}` : inventoryHoldsStacks ? "this stack and the inventory declare none" : "this stack declares none";
    const where = inventoryHoldsStacks ? "a zone in neither this stack nor the inventory" : "a zone this stack does not declare";
    return {
        reason: `externalControllers ${one ? "key" : "keys"} ${keyList(keys)} ${one ? "names" : "name"} ${where}: ${one ? "its" : "their"} controllers are counted in no zone`,
        remedy: inventoryHoldsStacks
            ? `correct the key to a zone's name input (${known}), or add the stack that declares the zone to ${INVENTORY_ENV}`
            : `correct the key to a zone's name input (${known}), or, for another stack's zone, set ${INVENTORY_ENV} to the stacks' state (docs/shared-capacity.md)`,
    };
}

/** Why a zone whose name is unknown in this preview is not checked: a key of externalControllers may name it. */
export function unresolvedKeysWhy(keys: readonly string[]): NotChecked {
    return {
        reason: `its name is unknown in this preview, and externalControllers ${keys.length === 1 ? "key" : "keys"} ${keyList(keys)} ${keys.length === 1 ? "names" : "name"} no known zone: ${keys.length === 1 ? "it" : "one"} may be this one`,
        remedy: "known after apply: run `pulumi policy analyze` (or `perfguard check`) after the update",
    };
}

/** Why a zone a key of externalControllers names among others is not checked: that key's controllers are not counted. */
export function ambiguousKeyWhy(key: string, zones: readonly JoinableZone[]): NotChecked {
    const names = zones.map(zoneLabel).sort();
    return {
        reason: `externalControllers key ${JSON.stringify(shortName(key, 40))} matches ${zones.length} zones of Sites that cannot be told apart (${names.slice(0, 3).join(", ")}${names.length > 3 ? ` and ${names.length - 3} more` : ""}), so its controllers are not counted`,
        remedy: "give the zones distinct names: externalControllers names a zone by its name alone",
    };
}
