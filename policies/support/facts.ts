/**
 * The one fact reader every policy uses. A fact is a `perfguard:` (or `perfguard_`) key/value
 * pair on a resource, in a `tags` map, a `tags` string list (`key=value`), a Citrix
 * `metadata`/`metadatas` list (`{name, value}`) or an Avi `markers` list (`{key, values[]}`).
 */
import { describeFactRange, factKeyDef, FACT_KEYS, FactKeyDef } from "./factKeys";
import { describeValue, field, isRecord, isUnknown, parsePlainDecimal, UNKNOWN } from "./values";

/** Where a fact was found, as named in messages. */
export type FactPlace = "tags" | "tags list" | "metadata" | "metadatas" | "markers";

/** The outcome of reading one fact. `where` reads like `perfguard:rttMs in metadata`. */
export type FactRead<T> =
    | { readonly state: "absent" }
    | { readonly state: "unknown" }
    | { readonly state: "invalid" }
    | { readonly state: "ok"; readonly value: T; readonly where: string };

/** A fact that cannot be used, as `perfguard-facts` reports it (`key` is canonical or as written). */
export interface FactProblem {
    readonly key: string;
    readonly message: string;
}

interface RawEntry {
    readonly value: unknown;
    readonly place: FactPlace;
}

const PREFIX_LENGTH = "perfguard:".length;

function factKeyOf(rawKey: unknown): string | undefined {
    if (typeof rawKey !== "string" || rawKey.length <= PREFIX_LENGTH) {
        return undefined;
    }
    const prefix = rawKey.slice(0, PREFIX_LENGTH).toLowerCase();
    return prefix === "perfguard:" || prefix === "perfguard_" ? rawKey.slice(PREFIX_LENGTH) : undefined;
}

const LOWER_P = 0x70;

function isFactKey(rawKey: string): boolean {
    // Every tag of every resource comes here once per stack policy that scans the stack: reject
    // keys that cannot start with "perfguard" before slicing (which allocates two strings).
    if (rawKey.length < PREFIX_LENGTH || (rawKey.charCodeAt(0) | 0x20) !== LOWER_P) {
        return false;
    }
    const prefix = rawKey.slice(0, PREFIX_LENGTH).toLowerCase();
    return prefix === "perfguard:" || prefix === "perfguard_";
}

const SPACE = 0x20;
const NEAR_MISS_SEPARATOR = /[:_\-. =]/;

/** Edit distance, bounded: returns max + 1 as soon as it must exceed `max`. */
function editDistance(a: string, b: string, max: number): number {
    if (Math.abs(a.length - b.length) > max) {
        return max + 1;
    }
    let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        const current = [i];
        let best = i;
        for (let j = 1; j <= b.length; j++) {
            current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
            best = Math.min(best, current[j]);
        }
        if (best > max) {
            return max + 1;
        }
        previous = current;
    }
    return previous[b.length];
}

/**
 * A key that was surely meant as a fact but is not spelt as one (" perfguard:rttMs",
 * "perfgaurd:rttMs", "perfguard-rttMs"): reported, because it would otherwise be ignored and the
 * check that needs it would not run. Cheap for ordinary tags: only keys starting with p or space.
 */
function isNearMissKey(rawKey: string): boolean {
    const first = rawKey.charCodeAt(0) | 0x20;
    if (first !== LOWER_P && rawKey.charCodeAt(0) !== SPACE) {
        return false;
    }
    const trimmed = rawKey.trim();
    const separator = trimmed.search(NEAR_MISS_SEPARATOR);
    if (separator < 7 || separator > 11) {
        return false;
    }
    return editDistance(trimmed.slice(0, separator).toLowerCase(), "perfguard", 2) <= 2;
}

/** The key to use when `rawKey` is a fact key, allowing spaces around it (as values allow). */
function asFactKey(rawKey: string): string | undefined {
    if (isFactKey(rawKey)) {
        return rawKey.trimEnd();
    }
    if (rawKey.charCodeAt(0) === SPACE) {
        const trimmed = rawKey.trim();
        return isFactKey(trimmed) ? trimmed : undefined;
    }
    return undefined;
}

function nearMissProblem(rawKey: string, place: FactPlace): FactProblem {
    const shown = rawKey.length <= 64 ? `"${rawKey}"` : `a key of ${rawKey.length} characters`;
    return {
        key: rawKey,
        message: `key ${shown} in ${place} looks like a perfguard fact but is not spelt perfguard:<key> or perfguard_<key> (no spaces), so it is ignored and the check that needs it does not run`,
    };
}

const NO_PROBLEMS: readonly FactProblem[] = Object.freeze([]);
// Reads of missing facts are the common case in a stack scan: share their (immutable) results.
const ABSENT_READ: FactRead<never> = Object.freeze({ state: "absent" });
const UNKNOWN_READ: FactRead<never> = Object.freeze({ state: "unknown" });

/**
 * All facts of one resource, parsed once; reads are O(1). The maps are created on the first fact:
 * stack policies read the facts of every resource, and most resources have none.
 */
export class Facts {
    private entries: Map<string, RawEntry[]> | undefined;
    private resolved: Map<string, FactRead<number | string>> | undefined;
    private problemList: FactProblem[] | undefined;
    private containerUnknown = false;

    /** True when any fact container was unknown (preview): an absent fact may then exist. */
    get incomplete(): boolean {
        return this.containerUnknown;
    }

    /** Facts that cannot be parsed, conflict, or use a key perfguard does not know. */
    get problems(): readonly FactProblem[] {
        return this.problemList ?? NO_PROBLEMS;
    }

    /** Reads a numeric fact (a plain decimal within the key's range). */
    number(key: string): FactRead<number> {
        return this.read(key) as FactRead<number>;
    }

    /** Reads an enum fact (canonical spelling) or a text fact (trimmed). */
    text(key: string): FactRead<string> {
        return this.read(key) as FactRead<string>;
    }

    /** True when any fact (of any key, valid or not) was found. */
    get any(): boolean {
        return (this.entries?.size ?? 0) > 0 || (this.problemList?.length ?? 0) > 0;
    }

    /** @internal used by readFacts */
    add(rawKey: string, value: unknown, place: FactPlace): void {
        const bare = rawKey.slice(PREFIX_LENGTH);
        const def = factKeyDef(bare);
        if (!def) {
            this.addProblem({
                key: rawKey,
                message: `unknown fact key "${rawKey.length <= 64 ? rawKey : rawKey.slice(0, 64) + "..."}" in ${place}: perfguard reads ${FACT_KEYS.map((d) => d.key).join(", ")} (prefix perfguard: or perfguard_, any case); a misspelt key means the check that needs it does not run`,
            });
            return;
        }
        this.entries ??= new Map();
        let list = this.entries.get(def.key);
        if (!list) {
            list = [];
            this.entries.set(def.key, list);
        }
        list.push({ value, place });
    }

    /** @internal used by readFacts */
    addProblem(problem: FactProblem): void {
        (this.problemList ??= []).push(problem);
    }

    /** @internal used by readFacts */
    markUnknown(): void {
        this.containerUnknown = true;
    }

    /**
     * @internal resolves every collected key once, recording problems. A resource without any
     * fact gets the shared empty Facts: a stack scan keeps one per resource alive per policy.
     */
    finish(): Facts {
        if (!this.entries && !this.problemList && !this.containerUnknown) {
            return NO_FACTS;
        }
        if (this.entries) {
            this.resolved = new Map();
            for (const [key, list] of this.entries) {
                const def = factKeyDef(key) as FactKeyDef;
                this.resolved.set(key, resolve(def, list, this));
            }
        }
        return this;
    }

    private read(key: string): FactRead<number | string> {
        const found = this.resolved?.get(key);
        if (found) {
            return found;
        }
        return this.containerUnknown ? UNKNOWN_READ : ABSENT_READ;
    }
}

// Never mutated: only readFacts calls the @internal mutators, on the Facts it creates.
const NO_FACTS = new Facts();

function parseEntry(def: FactKeyDef, value: unknown): number | string | undefined {
    switch (def.kind) {
        case "number": {
            const n = parsePlainDecimal(value);
            if (n === undefined || n < def.min || n > def.max || (def.integer && !Number.isInteger(n))) {
                return undefined;
            }
            return n;
        }
        case "enum": {
            if (typeof value !== "string") {
                return undefined;
            }
            const lower = value.trim().toLowerCase();
            return def.values.find((v) => v.toLowerCase() === lower);
        }
        case "text": {
            if (typeof value !== "string") {
                return undefined;
            }
            const text = value.trim();
            return text.length > 0 && text.length <= def.maxLength ? text : undefined;
        }
    }
}

/** " (did you mean deliveryController?)" for an enum value within two edits of a valid one. */
function suggestion(def: FactKeyDef, value: unknown): string {
    if (def.kind !== "enum" || typeof value !== "string" || value.length > 64) {
        return "";
    }
    const lower = value.trim().toLowerCase();
    const close = def.values.find((v) => editDistance(lower, v.toLowerCase(), 2) <= 2);
    return close ? ` (did you mean ${close}?)` : "";
}

function resolve(def: FactKeyDef, list: readonly RawEntry[], problems: Pick<Facts, "addProblem">): FactRead<number | string> {
    const name = `perfguard:${def.key}`;
    if (list.some((e) => isUnknown(e.value))) {
        return { state: "unknown" };
    }
    let bad = false;
    const parsed: Array<{ value: number | string; place: FactPlace }> = [];
    for (const entry of list) {
        const value = parseEntry(def, entry.value);
        if (value === undefined) {
            bad = true;
            problems.addProblem({
                key: name,
                message: `fact ${name} in ${entry.place} has ${entry.value === undefined ? "no value" : describeValue(entry.value)}, which is not ${describeFactRange(def)}${suggestion(def, entry.value)}`,
            });
        } else {
            parsed.push({ value, place: entry.place });
        }
    }
    if (bad) {
        return { state: "invalid" };
    }
    const distinct = parsed.length === 1 ? undefined : new Set(parsed.map((p) => p.value));
    if (distinct && distinct.size > 1) {
        const shown = parsed.map((p) => `${describeValue(p.value)} in ${p.place}`).join(", ");
        problems.addProblem({ key: name, message: `fact ${name} has ${distinct.size} different values (${shown}); keep one` });
        return { state: "invalid" };
    }
    return { state: "ok", value: parsed[0].value, where: `${name} in ${parsed[0].place}` };
}

function readTags(tags: unknown, facts: Facts): void {
    if (tags === undefined || tags === null) {
        return;
    }
    if (isUnknown(tags)) {
        facts.markUnknown();
        return;
    }
    if (Array.isArray(tags)) {
        for (const item of tags) {
            if (isUnknown(item)) {
                facts.markUnknown();
                continue;
            }
            if (typeof item !== "string") {
                continue;
            }
            if (!asFactKey(item)) {
                if (isNearMissKey(item)) {
                    const eq = item.indexOf("=");
                    facts.addProblem(nearMissProblem(eq < 0 ? item : item.slice(0, eq), "tags list"));
                }
                continue;
            }
            const eq = item.indexOf("=");
            if (eq < 0) {
                const shown = factKeyOf(item) !== undefined && item.length <= 64 ? item : "an entry";
                facts.addProblem({ key: item, message: `tag "${shown}" in tags list has no "=value": write perfguard:<key>=<value>` });
                continue;
            }
            facts.add(item.slice(0, eq).trim(), item.slice(eq + 1), "tags list");
        }
        return;
    }
    if (isRecord(tags)) {
        for (const rawKey of Object.keys(tags)) {
            const key = asFactKey(rawKey);
            if (key) {
                facts.add(key, tags[rawKey], "tags");
            } else if (isNearMissKey(rawKey)) {
                facts.addProblem(nearMissProblem(rawKey, "tags"));
            }
        }
    }
}

function readNamedList(list: unknown, place: "metadata" | "metadatas", facts: Facts): void {
    if (list === undefined || list === null) {
        return;
    }
    if (isUnknown(list)) {
        facts.markUnknown();
        return;
    }
    if (!Array.isArray(list)) {
        return;
    }
    for (const item of list) {
        const name = field(item, "name");
        if (name === UNKNOWN || isUnknown(item)) {
            facts.markUnknown();
            continue;
        }
        const key = typeof name === "string" ? asFactKey(name) : undefined;
        if (key) {
            facts.add(key, field(item, "value"), place);
        } else if (typeof name === "string" && isNearMissKey(name)) {
            facts.addProblem(nearMissProblem(name, place));
        }
    }
}

function readMarkers(list: unknown, facts: Facts): void {
    if (list === undefined || list === null) {
        return;
    }
    if (isUnknown(list)) {
        facts.markUnknown();
        return;
    }
    if (!Array.isArray(list)) {
        return;
    }
    for (const item of list) {
        const key = field(item, "key");
        if (key === UNKNOWN || isUnknown(item)) {
            facts.markUnknown();
            continue;
        }
        const factKey = typeof key === "string" ? asFactKey(key) : undefined;
        if (!factKey) {
            if (typeof key === "string" && isNearMissKey(key)) {
                facts.addProblem(nearMissProblem(key, "markers"));
            }
            continue;
        }
        const values = field(item, "values");
        if (values === UNKNOWN) {
            facts.add(factKey, UNKNOWN, "markers");
        } else if (!Array.isArray(values) || values.length === 0) {
            facts.add(factKey, undefined, "markers");
        } else {
            for (const v of values) {
                facts.add(factKey, isUnknown(v) ? UNKNOWN : v, "markers");
            }
        }
    }
}

/**
 * Reads every perfguard fact of one resource.
 * @param props - the resource's plain props (see `unwrapProps`); anything else yields no facts.
 * @returns a Facts object; never throws on odd input (unknowns, wrong types, huge lists).
 */
export function readFacts(props: unknown): Facts {
    const facts = new Facts();
    if (isUnknown(props)) {
        facts.markUnknown();
        return facts.finish();
    }
    if (!isRecord(props)) {
        return facts.finish();
    }
    readTags(field(props, "tags"), facts);
    readNamedList(field(props, "metadata"), "metadata", facts);
    readNamedList(field(props, "metadatas"), "metadatas", facts);
    readMarkers(field(props, "markers"), facts);
    return facts.finish();
}
