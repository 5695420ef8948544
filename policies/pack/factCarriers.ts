/**
 * The carriers a resource's props hold facts on (docs/facts.md#carriers), as one table of readers:
 * a `tags` map or `key=value` list, a Citrix `metadatas`/`metadata` list (`{name, value}`), an Avi
 * `markers` list (`{key, values[]}`), a vSphere VM's `extraConfig` (`guestinfo.perfguard.<key>`).
 * What every carrier does alike (a container absent, a secret, unknown as a whole, of the wrong
 * shape) is done once, in readCarriers; a row says only how one entry of its carrier is read.
 */
import { factKeyDef } from "./factKeys";
import type { Facts } from "./factSet";
import { asFactKey, closeKey, guestinfoKeyProblem, isFactKey, keyProblem, nearMissKey, shownKey } from "./factSpelling";
import { FACT_PREFIX, FactPlace, GUESTINFO_PREFIX, REDACTED_SECRET } from "./factTypes";
import { field, foldCase, isRecord, isUnknown, UNKNOWN } from "./values";

const PREFIX_LENGTH = FACT_PREFIX.length;

/** Types whose `tags` cannot carry facts (ids, not text), and the carrier to use instead. */
const TAG_ID_CARRIERS: ReadonlyMap<string, string> = new Map([
    [
        "vsphere:index/virtualMachine:VirtualMachine",
        'a vsphere:index/tag:Tag named "<key>=<value>" in a TagCategory named perfguard (or named "perfguard:<key>=<value>"), attached through tags, or extraConfig "guestinfo.perfguard.<key>"',
    ],
    ["citrix:index/zone:Zone", 'metadatas [{ name: "perfguard:<key>", value: "<value>" }]'],
    ["citrix:index/machineCatalog:MachineCatalog", 'metadatas [{ name: "perfguard:<key>", value: "<value>" }]'],
    ["citrix:index/deliveryGroup:DeliveryGroup", 'metadatas [{ name: "perfguard:<key>", value: "<value>" }]'],
]);

/**
 * How to write the fact `key` = `value` on a resource of `type`, in its provider's own carrier
 * (docs/facts.md#carriers): what a fix tells the user to add. `perfguard:<key>` alone would be
 * wrong on a vSphere VM, whose carrier names it `guestinfo.perfguard.<key>`.
 */
export function factAsWritten(type: string, key: string, value: string): string {
    if (type === "vsphere:index/virtualMachine:VirtualMachine") {
        return `extraConfig "${GUESTINFO_PREFIX}${key}": "${value}"`;
    }
    if (type.startsWith("xenorchestra:")) {
        return `tags "${FACT_PREFIX}${key}=${value}"`;
    }
    if (type.startsWith("citrix:")) {
        return `metadatas { name: "${FACT_PREFIX}${key}", value: "${value}" }`;
    }
    if (type.startsWith("avi:")) {
        return `markers { key: "${FACT_PREFIX}${key}", values: ["${value}"] }`;
    }
    return `tags { "${FACT_PREFIX}${key}": "${value}" }`;
}

/** Collects the keys of facts written on a carrier the provider rejects, for one problem per resource. */
class CarrierCheck {
    readonly keys: string[] = [];
    constructor(readonly carrier: string | undefined) {}

    note(rawKey: string): void {
        if (this.carrier !== undefined) {
            const def = factKeyDef(rawKey.slice(PREFIX_LENGTH));
            this.keys.push(def ? `perfguard:${def.key}` : shownKey(rawKey));
        }
    }

    report(facts: Facts, type: string): void {
        if (this.carrier === undefined || this.keys.length === 0) {
            return;
        }
        const what = type.startsWith("vsphere:") ? "vSphere tag ids" : "Citrix tag GUIDs";
        const keys = [...new Set(this.keys)];
        const listed = keys.length <= 3 ? keys.join(", ") : `${keys.slice(0, 3).join(", ")} and ${keys.length - 3} more`;
        facts.addProblem({
            kind: "carrier",
            key: keys[0],
            problem: `tags carries ${keys.length === 1 ? "a fact" : `${keys.length} facts`} but holds ${what}`,
            fix: `move ${keys.length === 1 ? "it" : "them"} to ${this.carrier}`,
            basis: [`facts in tags (read, so the checks still run): ${listed}`, "carriers per provider: docs/facts.md#carriers"],
            message: `facts in tags (${listed}) sit on ${what}, which the provider rejects`,
        });
    }
}

/** What a carrier's reader works on: the facts being read and what this resource's type implies. */
interface ReadInto {
    readonly facts: Facts;
    /** Notes facts in `tags` where the type's tags hold ids (reported once, after the tags). */
    readonly carrier: CarrierCheck;
    /** A VM's tag ids joined to their tag objects: the join counts what they hide, not the list. */
    readonly idsJoined: boolean;
}

/** One row of the table: the prop that holds the carrier, and how it reads one entry of each shape it takes. */
interface CarrierReader {
    readonly prop: string;
    /** Reads one item of the carrier as a list; absent: a list is not this carrier's shape. */
    readonly listEntry?: (item: unknown, into: ReadInto) => void;
    /** Reads one key of the carrier as a map; absent: a map is not this carrier's shape. */
    readonly mapEntry?: (map: Record<string, unknown>, rawKey: string, into: ReadInto) => void;
}

/** A key that is not a fact key: reported when it is surely meant as one (the check needing it would not run). */
function nearMiss(rawKey: string, place: FactPlace, facts: Facts): void {
    const meant = nearMissKey(rawKey);
    if (meant) {
        facts.addProblem(keyProblem(rawKey.trim(), place, meant, false));
    }
}

/** A `tags` map: `{ "perfguard:rttMs": "160" }`. */
function tagMapEntry(tags: Record<string, unknown>, rawKey: string, into: ReadInto): void {
    const key = asFactKey(rawKey);
    if (!key) {
        nearMiss(rawKey, "tags", into.facts);
        return;
    }
    into.carrier.note(key);
    into.facts.add(key, field(tags, rawKey), "tags");
}

/** A `tags` list: `["perfguard:rttMs=160"]`. */
function tagListEntry(item: unknown, into: ReadInto): void {
    const { facts } = into;
    if (isUnknown(item)) {
        if (!into.idsJoined) {
            facts.markHidden(); // hides only itself: its key is unknown, the other entries are read
        }
        return;
    }
    if (item === REDACTED_SECRET && !into.idsJoined) {
        facts.markRedactedEntry();
        return;
    }
    if (typeof item !== "string") {
        return;
    }
    const eq = item.indexOf("=");
    const rawKey = eq < 0 ? item : item.slice(0, eq);
    if (!asFactKey(rawKey)) {
        nearMiss(rawKey, "tags list", facts);
        return;
    }
    const key = rawKey.trim();
    into.carrier.note(key);
    if (eq < 0) {
        const def = factKeyDef(key.slice(PREFIX_LENGTH));
        const shown = def ? `perfguard:${def.key}` : shownKey(key);
        facts.addProblem({
            kind: "value",
            key: shown,
            problem: `tags list entry ${shown} has no "=value"`,
            fix: `write ${shown}=<value>`,
            basis: ["found in tags list"],
            message: `tag ${shown} in tags list has no "=value": write perfguard:<key>=<value>`,
        });
        return;
    }
    facts.add(key, item.slice(eq + 1), "tags list");
}

/**
 * A list of keyed objects: Citrix `{name, value}`, Avi `{key, values[]}`. An entry whose key is
 * unknown hides only itself; `valuesOf` gives the values of an entry whose key is a fact key.
 */
function keyedListEntry(keyField: string, place: FactPlace, valuesOf: (item: unknown) => readonly unknown[]): (item: unknown, into: ReadInto) => void {
    return (item, { facts }) => {
        if (item === REDACTED_SECRET) {
            facts.markRedactedEntry();
            return;
        }
        const name = field(item, keyField);
        if (name === UNKNOWN || isUnknown(item)) {
            facts.markHidden();
            return;
        }
        if (typeof name !== "string") {
            return;
        }
        const key = asFactKey(name);
        if (!key) {
            nearMiss(name, place, facts);
            return;
        }
        for (const value of valuesOf(item)) {
            facts.add(key, value, place);
        }
    };
}

/** An Avi marker's values: each one a value of the fact (two that differ are a conflict); none reads as no value. */
function markerValues(item: unknown): readonly unknown[] {
    const values = field(item, "values");
    if (values === UNKNOWN) {
        return [UNKNOWN];
    }
    if (!Array.isArray(values) || values.length === 0) {
        return [undefined];
    }
    return (values as unknown[]).map((v): unknown => (isUnknown(v) ? UNKNOWN : v));
}

/** A vSphere VM's advanced settings: `guestinfo.perfguard.<key>` (the carrier that survives an apply). */
function extraConfigEntry(config: Record<string, unknown>, rawKey: string, { facts }: ReadInto): void {
    const trimmed = rawKey.trim();
    if (
        trimmed.length <= GUESTINFO_PREFIX.length ||
        (trimmed.charCodeAt(0) | 0x20) !== 0x67 ||
        foldCase(trimmed.slice(0, GUESTINFO_PREFIX.length)) !== GUESTINFO_PREFIX
    ) {
        if (isFactKey(trimmed)) {
            facts.addProblem(guestinfoKeyProblem(trimmed));
        }
        return;
    }
    const bare = trimmed.slice(GUESTINFO_PREFIX.length);
    const def = factKeyDef(bare);
    if (def) {
        facts.addEntry(def, field(config, rawKey), "extraConfig");
    } else {
        facts.addProblem(keyProblem(trimmed, "extraConfig", closeKey(foldCase(`perfguard:${bare}`)), true));
    }
}

/** Every carrier, in the order read (the order of the problems perfguard-facts reports). */
const CARRIERS: readonly CarrierReader[] = [
    { prop: "tags", listEntry: tagListEntry, mapEntry: tagMapEntry },
    { prop: "metadata", listEntry: keyedListEntry("name", "metadata", (item) => [field(item, "value")]) },
    { prop: "metadatas", listEntry: keyedListEntry("name", "metadatas", (item) => [field(item, "value")]) },
    { prop: "markers", listEntry: keyedListEntry("key", "markers", markerValues) },
    { prop: "extraConfig", mapEntry: extraConfigEntry },
];

/** The props of a resource that carry facts (a VM's vSphere tag objects are joined in the stack). */
export const FACT_CARRIERS: readonly string[] = CARRIERS.map((c) => c.prop);

/** Reads one carrier's container: what every carrier does alike, then each entry by the row's reader. */
function readCarrier(reader: CarrierReader, container: unknown, into: ReadInto): void {
    if (container === undefined || container === null) {
        return;
    }
    if (container === REDACTED_SECRET) {
        into.facts.markRedacted();
        return;
    }
    if (isUnknown(container)) {
        into.facts.markUnknown();
        return;
    }
    if (Array.isArray(container)) {
        if (reader.listEntry) {
            for (const item of container) {
                reader.listEntry(item, into);
            }
        }
        return;
    }
    if (isRecord(container) && reader.mapEntry) {
        for (const rawKey of Object.keys(container)) {
            reader.mapEntry(container, rawKey, into);
        }
    }
}

/**
 * Reads every carrier of `props` (a resource's plain props) into `facts`; `type` tells which
 * `tags` hold ids and cannot carry facts (vSphere, Citrix); `idsJoined` that a VM's tag ids were
 * joined to their tag objects. Never throws on odd input (unknowns, wrong types, huge lists).
 */
export function readCarriers(props: Record<string, unknown>, type: string, idsJoined: boolean, facts: Facts): void {
    const into: ReadInto = { facts, carrier: new CarrierCheck(TAG_ID_CARRIERS.get(type)), idsJoined };
    for (const reader of CARRIERS) {
        readCarrier(reader, field(props, reader.prop), into);
        if (reader.prop === "tags") {
            into.carrier.report(facts, type); // right after the tags, as their problem
        }
    }
}
