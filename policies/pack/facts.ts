/**
 * The one fact reader every policy uses. A fact is a `perfguard:` (or `perfguard_`) key/value
 * pair on a resource, on one of the carriers docs/facts.md lists: a `tags` map, a `tags` string
 * list (`key=value`), a Citrix `metadatas`/`metadata` list (`{name, value}`), an Avi `markers`
 * list (`{key, values[]}`), a vSphere VM's `extraConfig` (`guestinfo.perfguard.<key>`), or a
 * vSphere tag object attached to the VM (joined by the stack view, resources.ts).
 *
 * Unknowns are per value, never per container: one unknown tag hides only itself (it is counted
 * in `hidden`; the other keys read as declared, and `incomplete` says a needed key that reads
 * "absent" may be the hidden one), while a container unknown as a whole makes every key read "unknown".
 */
import {
    describeFactRange, EnumFactKey, EnumValue, FACT_KEYS, FactKey, factKeyDef, FactKeyDef, FactRole, NumberFactKey, TextFactKey,
} from "./factKeys";
import { escapeControl, shortName } from "./message";
import { describeValue, field, foldCase, isRecord, isUnknown, parsePlainDecimal, UNKNOWN } from "./values";

/**
 * What `pulumi policy analyze` (and `perfguard check`) hands a pack in place of a secret it could
 * not decrypt (the stack's passphrase or secrets provider missing). A fact behind it is not known:
 * a container or value that reads so makes the facts "redacted", and policies report "not checked".
 */
export const REDACTED_SECRET = "[secret]";

/** Where a fact was found, as named in messages: "tags", "metadatas", `vSphere tag "dc-role"`, ... */
export type FactPlace = string;

/** The outcome of reading one fact. `where` reads like `perfguard:rttMs in metadatas`. */
export type FactRead<T> =
    | { readonly state: "absent" }
    | { readonly state: "unknown" }
    | { readonly state: "invalid" }
    | { readonly state: "ok"; readonly value: T; readonly where: string };

/**
 * What is wrong with a fact, as perfguard-facts reports it:
 * - "value": a value that cannot be parsed, or two values in conflict (per resource);
 * - "key": a key that is not a fact key but was surely meant as one (once per key and preview);
 * - "carrier": facts on a carrier the provider rejects at apply (per resource).
 * Every text is escaped (escapeControl) and quotes values only as describeValue does.
 */
export interface FactProblem {
    readonly kind: "value" | "key" | "carrier";
    /** The canonical key (`perfguard:rttMs`), or the key as written for a "key" problem. */
    readonly key: string;
    /** A phrase without the resource name: `perfguard:rttMs is "160ms", not a plain decimal`. */
    readonly problem: string;
    /** A shorter phrase for the problem line when the full one does not fit (the full one then goes to the basis). */
    readonly short?: string;
    /** What to write instead. */
    readonly fix: string;
    /** Where it was found, and the values in conflict. */
    readonly basis: readonly string[];
    /** The problem as one phrase (older form, kept for --explain counts and tests). */
    readonly message: string;
}

/** One fact found outside the resource's props (a vSphere tag object attached to a VM). */
export interface JoinedFact {
    /** The key as written, with its prefix (`perfguard:citrixRole`). */
    readonly rawKey: string;
    readonly value: unknown;
    readonly place: FactPlace;
}

interface RawEntry {
    readonly value: unknown;
    readonly place: FactPlace;
}

/** The props of a resource that carry facts (a VM's vSphere tag objects are joined in the stack). */
export const FACT_CARRIERS: readonly string[] = ["tags", "metadata", "metadatas", "markers", "extraConfig"];

const PREFIX = "perfguard:";
const PREFIX_LENGTH = PREFIX.length;
const GUESTINFO_PREFIX = "guestinfo.perfguard.";
const LOWER_P = 0x70;
const SPACE = 0x20;

/** Types whose `tags` cannot carry facts (ids, not text), and the carrier to use instead. */
const TAG_ID_CARRIERS: ReadonlyMap<string, string> = new Map([
    ["vsphere:index/virtualMachine:VirtualMachine", "a vsphere:index/tag:Tag named \"<key>=<value>\" in a TagCategory named perfguard (or named \"perfguard:<key>=<value>\"), attached through tags, or extraConfig \"guestinfo.perfguard.<key>\""],
    ["citrix:index/zone:Zone", "metadatas [{ name: \"perfguard:<key>\", value: \"<value>\" }]"],
    ["citrix:index/machineCatalog:MachineCatalog", "metadatas [{ name: \"perfguard:<key>\", value: \"<value>\" }]"],
    ["citrix:index/deliveryGroup:DeliveryGroup", "metadatas [{ name: \"perfguard:<key>\", value: \"<value>\" }]"],
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
        return `tags "${PREFIX}${key}=${value}"`;
    }
    if (type.startsWith("citrix:")) {
        return `metadatas { name: "${PREFIX}${key}", value: "${value}" }`;
    }
    if (type.startsWith("avi:")) {
        return `markers { key: "${PREFIX}${key}", values: ["${value}"] }`;
    }
    return `tags { "${PREFIX}${key}": "${value}" }`;
}

function isFactKey(rawKey: string): boolean {
    // Every tag of every resource comes here once per stack policy that scans the stack: reject
    // keys that cannot start with "perfguard" before slicing (which allocates two strings).
    if (rawKey.length < PREFIX_LENGTH || (rawKey.charCodeAt(0) | 0x20) !== LOWER_P) {
        return false;
    }
    const prefix = foldCase(rawKey.slice(0, PREFIX_LENGTH));
    return prefix === "perfguard:" || prefix === "perfguard_";
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

/** Edit distance, bounded: returns max + 1 as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
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

const FOLDED_FULL_KEYS: ReadonlyArray<{ folded: string; key: string }> = FACT_KEYS.flatMap((d) => [
    { folded: foldCase(`perfguard:${d.key}`), key: d.key },
    { folded: foldCase(`perfguard_${d.key}`), key: d.key },
]);
const MIN_FULL = Math.min(...FOLDED_FULL_KEYS.map((k) => k.folded.length));
const MAX_FULL = Math.max(...FOLDED_FULL_KEYS.map((k) => k.folded.length));

/** The known key within edit distance 2 of `folded` (a full key with its prefix), if any. */
function closeKey(folded: string): string | undefined {
    let best: { key: string; distance: number } | undefined;
    for (const candidate of FOLDED_FULL_KEYS) {
        const distance = editDistance(folded, candidate.folded, 2);
        if (distance <= 2 && (!best || distance < best.distance)) {
            best = { key: candidate.key, distance };
        }
    }
    return best?.key;
}

/**
 * The fact key `rawKey` was surely meant as, when it is not spelt as one: a known key after a
 * separator other than ":" or "_" (`perfguard-rttMs`, `perfguard.rttMs`), or within edit distance 2
 * of one (`perfguard:rtMs`, `perfgaurd:rttMs`). Ordinary tags (`perfguard-exempt`,
 * `perfguard.version`, `owner`) are not. Cheap for ordinary tags: a length test, then a letter.
 */
export function nearMissKey(rawKey: string): string | undefined {
    const trimmed = rawKey.trim();
    if (trimmed.length < MIN_FULL - 2 || trimmed.length > MAX_FULL + 2) {
        return undefined;
    }
    const folded = foldCase(trimmed);
    if (folded.charCodeAt(0) !== LOWER_P && !folded.includes("guard")) {
        return undefined;
    }
    if (folded.startsWith("perfguard") && folded.length > 10 && folded[9] !== ":" && folded[9] !== "_") {
        const def = factKeyDef(trimmed.slice(10));
        if (def) {
            return def.key;
        }
    }
    return closeKey(folded);
}

/** A key as messages show it: quoted and escaped when short, else by its length. */
function shownKey(rawKey: string): string {
    return rawKey.length <= 64 ? `"${escapeControl(rawKey)}"` : `a key of ${rawKey.length} characters`;
}

function keyProblem(rawKey: string, place: FactPlace, meant: string | undefined, prefixed: boolean): FactProblem {
    const shown = shownKey(rawKey);
    const problem = meant
        ? `${shown} is not read as a fact (did you mean perfguard:${meant}?)`
        : `${shown} is not a perfguard fact key`;
    const fix = meant
        ? `rename it perfguard:${meant} (prefix perfguard: or perfguard_, any case, no spaces)`
        : "use a key from docs/facts.md, or remove the perfguard: prefix if it is not a fact";
    return {
        kind: "key",
        key: rawKey,
        problem,
        // The problem line keeps the key and the "did you mean" when they fit; fact keys run to 40
        // characters (perfguard:throttleMaxConcurrentTransactions).
        short: meant && rawKey.length <= 48
            ? `"${escapeControl(rawKey)}" is not a fact key (did you mean perfguard:${meant}?)`
            : rawKey.length <= 48 ? `"${escapeControl(rawKey)}" is not a fact key` : "a key is not a fact key",
        fix,
        basis: [`found in ${place}${prefixed ? "" : "; a near miss of a fact key is reported because the check that needs it would not run"}`],
        message: `${problem} (in ${place})`,
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
    private hiddenCount = 0;
    private redactedAny = false;

    /**
     * True when a fact may be unseen: a container unknown as a whole, or an entry (or an attached
     * vSphere tag) whose key is unknown in the preview (`hidden`). A fact the policy needs that
     * reads "absent" is then not known to be undeclared: the policy reports "not checked".
     */
    get incomplete(): boolean {
        return this.containerUnknown || this.hiddenCount > 0;
    }

    /** True when a fact container or value is an encrypted secret this run could not decrypt (`[secret]`). */
    get redacted(): boolean {
        return this.redactedAny;
    }

    /** True when a fact container was unknown as a whole (preview): every absent key reads "unknown". */
    get containerIncomplete(): boolean {
        return this.containerUnknown;
    }

    /** Entries of a known container whose key is unknown in the preview: each hides only itself. */
    get hidden(): number {
        return this.hiddenCount;
    }

    /** Facts that cannot be parsed, conflict, use a key perfguard does not know, or sit on a carrier the provider rejects. */
    get problems(): readonly FactProblem[] {
        return this.problemList ?? NO_PROBLEMS;
    }

    /** Reads a numeric fact (a plain decimal within the key's range). */
    number(key: NumberFactKey): FactRead<number> {
        return this.lookup(key) as FactRead<number>;
    }

    /** Reads a text fact (trimmed), or an enum fact (canonical spelling; `enum` types the value). */
    text(key: TextFactKey | EnumFactKey): FactRead<string> {
        return this.lookup(key) as FactRead<string>;
    }

    /** Reads an enum fact: the value is one of the key's values, in its canonical spelling. */
    enum<K extends EnumFactKey>(key: K): FactRead<EnumValue<K>> {
        return this.lookup(key) as FactRead<EnumValue<K>>;
    }

    /** Reads any fact (for --explain, which lists every key). */
    read(key: FactKey): FactRead<number | string> {
        return this.lookup(key);
    }

    /** The canonical keys found on this resource (valid, invalid or unknown), in the order found. */
    get keys(): readonly string[] {
        return this.entries ? [...this.entries.keys()] : [];
    }

    /** True when any fact (of any key, valid or not) was found. */
    get any(): boolean {
        return (this.entries?.size ?? 0) > 0 || (this.problemList?.length ?? 0) > 0;
    }

    /** The roles this resource takes through its facts (a Delivery Controller, a dom0 service). */
    get roles(): readonly FactRole[] {
        const roles: FactRole[] = [];
        if (this.enum("citrixRole").state === "ok") {
            roles.push("deliveryController");
        }
        const domain = this.enum("xenDomain");
        if (domain.state === "ok" && domain.value === "dom0") {
            roles.push("dom0");
        }
        return roles;
    }

    /** @internal used by readFacts */
    add(rawKey: string, value: unknown, place: FactPlace): void {
        const def = factKeyDef(rawKey.slice(PREFIX_LENGTH));
        if (!def) {
            this.addProblem(keyProblem(rawKey, place, closeKey(foldCase(rawKey)), true));
            return;
        }
        this.addEntry(def, value, place);
    }

    /** @internal used by readFacts */
    addEntry(def: FactKeyDef, value: unknown, place: FactPlace): void {
        if (value === REDACTED_SECRET) {
            // A secret that was not decrypted: its value is not known, not invalid.
            this.redactedAny = true;
            value = UNKNOWN;
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

    /** @internal used by readFacts: a whole container is a secret that was not decrypted. */
    markRedacted(): void {
        this.redactedAny = true;
        this.containerUnknown = true;
    }

    /** @internal used by readFacts: one entry is a secret that was not decrypted; it hides only itself. */
    markRedactedEntry(): void {
        this.redactedAny = true;
        this.hiddenCount += 1;
    }

    /** @internal used by readFacts */
    markHidden(): void {
        this.hiddenCount += 1;
    }

    /**
     * @internal resolves every collected key once, recording problems. A resource without any
     * fact gets the shared empty Facts: a stack scan keeps one per resource alive per policy.
     */
    finish(): Facts {
        if (!this.entries && !this.problemList && !this.containerUnknown && this.hiddenCount === 0 && !this.redactedAny) {
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

    private lookup(key: string): FactRead<number | string> {
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
            const folded = foldCase(value.trim());
            return def.values.find((v) => foldCase(v) === folded);
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
/**
 * A fact value as an invalid-value message may quote it. Facts arrive unwrapped even when the
 * program made them secrets (the policy SDK hands Analyze and AnalyzeStack plain values), so only
 * what looks like a mistyped figure is quoted: a number with a unit or separator ("160ms",
 * "30MB/s", "1,000", "1e3") for a numeric fact. Anything else is described by its shape.
 */
function describeFactValue(def: FactKeyDef, value: unknown): string {
    if (typeof value === "string") {
        const v = value.trim();
        const figure = def.kind === "number" && /^[-+]?[0-9][0-9.,eE+-]{0,9}\s?[A-Za-z/%]{0,6}$/.test(v);
        // The pattern admits no control character and no quote: safe to quote as written. A word
        // is never quoted, even a near miss of an allowed one: a short secret can be one ("dsa"
        // for rsa); the "did you mean" suggestion names the allowed word instead.
        return figure ? `"${v}"` : `a value of ${value.length} characters`;
    }
    return describeValue(value);
}

function suggestion(def: FactKeyDef, value: unknown): string {
    if (def.kind !== "enum" || typeof value !== "string" || value.length > 64) {
        return "";
    }
    const folded = foldCase(value.trim());
    const close = def.values.find((v) => editDistance(folded, foldCase(v), 2) <= 2);
    return close ? ` (did you mean ${close}?)` : "";
}

/** The kind of value a key takes, in a few words, for the problem line. */
function shortKind(def: FactKeyDef): string {
    switch (def.kind) {
        case "number":
            return def.integer ? "a whole number in range" : "a plain decimal in range";
        case "enum":
            return `one of ${def.values.join(", ")}`;
        case "text":
            return `a text of 1 to ${def.maxLength} characters`;
    }
}

function resolve(def: FactKeyDef, list: readonly RawEntry[], problems: Pick<Facts, "addProblem">): FactRead<number | string> {
    const name = `perfguard:${def.key}`;
    if (list.some((e) => isUnknown(e.value))) {
        return UNKNOWN_READ;
    }
    let bad = false;
    const parsed: Array<{ value: number | string; place: FactPlace }> = [];
    for (const entry of list) {
        const value = parseEntry(def, entry.value);
        if (value === undefined) {
            bad = true;
            const shown = entry.value === undefined ? "no value" : describeFactValue(def, entry.value);
            const hint = suggestion(def, entry.value);
            problems.addProblem({
                kind: "value",
                key: name,
                problem: `${name} has ${shown}, not ${shortKind(def)}${hint}`,
                short: `${name} is not ${shortKind(def)}`,
                fix: `set ${name} to ${describeFactRange(def)}${def.kind === "number" ? ", without a unit" : ""}`,
                basis: [`${name} in ${escapeControl(entry.place)}`],
                message: `fact ${name} in ${escapeControl(entry.place)} has ${shown}, which is not ${describeFactRange(def)}${hint}`,
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
        const shown = parsed.map((p) => `${describeValue(p.value)} in ${escapeControl(p.place)}`).join(", ");
        problems.addProblem({
            kind: "value",
            key: name,
            problem: `${name} has ${distinct.size} different values`,
            fix: `keep one value of ${name} on this resource`,
            basis: [shown],
            message: `fact ${name} has ${distinct.size} different values (${shown}); keep one`,
        });
        return { state: "invalid" };
    }
    return { state: "ok", value: parsed[0].value, where: `${name} in ${parsed[0].place}` };
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

function readTagList(tags: readonly unknown[], facts: Facts, carrier: CarrierCheck, idsJoined: boolean): void {
    for (const item of tags) {
        if (isUnknown(item)) {
            if (!idsJoined) {
                facts.markHidden(); // hides only itself: its key is unknown, the other entries are read
            }
            continue;
        }
        if (item === REDACTED_SECRET && !idsJoined) {
            facts.markRedactedEntry();
            continue;
        }
        if (typeof item !== "string") {
            continue;
        }
        const eq = item.indexOf("=");
        const rawKey = eq < 0 ? item : item.slice(0, eq);
        if (!asFactKey(rawKey)) {
            const meant = nearMissKey(rawKey);
            if (meant) {
                facts.addProblem(keyProblem(rawKey.trim(), "tags list", meant, false));
            }
            continue;
        }
        carrier.note(rawKey.trim());
        if (eq < 0) {
            const def = factKeyDef(rawKey.trim().slice(PREFIX_LENGTH));
            const key = def ? `perfguard:${def.key}` : shownKey(rawKey.trim());
            facts.addProblem({
                kind: "value",
                key,
                problem: `tags list entry ${key} has no "=value"`,
                fix: `write ${key}=<value>`,
                basis: ["found in tags list"],
                message: `tag ${key} in tags list has no "=value": write perfguard:<key>=<value>`,
            });
            continue;
        }
        facts.add(rawKey.trim(), item.slice(eq + 1), "tags list");
    }
}

function readTags(tags: unknown, facts: Facts, carrier: CarrierCheck, idsJoined: boolean): void {
    if (tags === undefined || tags === null) {
        return;
    }
    if (tags === REDACTED_SECRET) {
        facts.markRedacted();
        return;
    }
    if (isUnknown(tags)) {
        facts.markUnknown();
        return;
    }
    if (Array.isArray(tags)) {
        readTagList(tags, facts, carrier, idsJoined);
        return;
    }
    if (isRecord(tags)) {
        for (const rawKey of Object.keys(tags)) {
            const key = asFactKey(rawKey);
            if (key) {
                carrier.note(key);
                facts.add(key, field(tags, rawKey), "tags");
            } else {
                const meant = nearMissKey(rawKey);
                if (meant) {
                    facts.addProblem(keyProblem(rawKey.trim(), "tags", meant, false));
                }
            }
        }
    }
}

function readNamedList(list: unknown, place: "metadata" | "metadatas", facts: Facts): void {
    if (list === undefined || list === null) {
        return;
    }
    if (list === REDACTED_SECRET) {
        facts.markRedacted();
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
        if (item === REDACTED_SECRET) {
            facts.markRedactedEntry();
            continue;
        }
        const name = field(item, "name");
        if (name === UNKNOWN || isUnknown(item)) {
            facts.markHidden();
            continue;
        }
        const key = typeof name === "string" ? asFactKey(name) : undefined;
        if (key) {
            facts.add(key, field(item, "value"), place);
        } else if (typeof name === "string") {
            const meant = nearMissKey(name);
            if (meant) {
                facts.addProblem(keyProblem(name.trim(), place, meant, false));
            }
        }
    }
}

function readMarkers(list: unknown, facts: Facts): void {
    if (list === undefined || list === null) {
        return;
    }
    if (list === REDACTED_SECRET) {
        facts.markRedacted();
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
        if (item === REDACTED_SECRET) {
            facts.markRedactedEntry();
            continue;
        }
        const key = field(item, "key");
        if (key === UNKNOWN || isUnknown(item)) {
            facts.markHidden();
            continue;
        }
        const factKey = typeof key === "string" ? asFactKey(key) : undefined;
        if (!factKey) {
            const meant = typeof key === "string" ? nearMissKey(key) : undefined;
            if (meant) {
                facts.addProblem(keyProblem((key as string).trim(), "markers", meant, false));
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
 * A `perfguard:` key in extraConfig: meant as a fact, but extraConfig names facts
 * `guestinfo.perfguard.<key>` (vSphere passes only guestinfo.* settings to the guest), so it is
 * not read and the check that needs it does not run.
 */
function guestinfoKeyProblem(rawKey: string): FactProblem {
    const def = factKeyDef(rawKey.slice(PREFIX_LENGTH).trim());
    const meant = def ? `${GUESTINFO_PREFIX}${def.key}` : undefined;
    const shown = shownKey(rawKey);
    const problem = meant ? `${shown} in extraConfig is not read as a fact (did you mean ${meant}?)` : `${shown} in extraConfig is not read as a fact`;
    return {
        kind: "key",
        key: rawKey,
        problem,
        short: rawKey.length <= 48 ? `"${escapeControl(rawKey)}" in extraConfig is not read (facts there are guestinfo.perfguard.<key>)` : "a key in extraConfig is not read as a fact",
        fix: meant ? `rename it ${meant}` : "name it guestinfo.perfguard.<key> with a key from docs/facts.md",
        basis: ["found in extraConfig, where perfguard reads facts named guestinfo.perfguard.<key> only (docs/facts.md#carriers)"],
        message: `${problem} (in extraConfig)`,
    };
}

/** A vSphere VM's advanced settings: `guestinfo.perfguard.<key>` (the carrier that survives an apply). */
function readExtraConfig(config: unknown, facts: Facts): void {
    if (config === undefined || config === null) {
        return;
    }
    if (config === REDACTED_SECRET) {
        facts.markRedacted();
        return;
    }
    if (isUnknown(config)) {
        facts.markUnknown();
        return;
    }
    if (!isRecord(config)) {
        return;
    }
    for (const rawKey of Object.keys(config)) {
        const trimmed = rawKey.trim();
        if (trimmed.length <= GUESTINFO_PREFIX.length || (trimmed.charCodeAt(0) | 0x20) !== 0x67 || foldCase(trimmed.slice(0, GUESTINFO_PREFIX.length)) !== GUESTINFO_PREFIX) {
            if (isFactKey(trimmed)) {
                facts.addProblem(guestinfoKeyProblem(trimmed));
            }
            continue;
        }
        const bare = trimmed.slice(GUESTINFO_PREFIX.length);
        const def = factKeyDef(bare);
        if (def) {
            facts.addEntry(def, field(config, rawKey), "extraConfig");
        } else {
            facts.addProblem(keyProblem(trimmed, "extraConfig", closeKey(foldCase(`perfguard:${bare}`)), true));
        }
    }
}

/**
 * Reads every perfguard fact of one resource.
 * @param props - the resource's plain props (see `unwrapProps`); anything else yields no facts.
 * @param type - its type token: tells which `tags` cannot carry facts (vSphere, Citrix).
 * @param joined - facts found on objects attached to it (vSphere tags), and how many of those are unknown.
 * @returns a Facts object; never throws on odd input (unknowns, wrong types, huge lists).
 */
export function readFacts(props: unknown, type = "", joined?: { readonly facts: readonly JoinedFact[]; readonly hidden: number; readonly unknown?: boolean }): Facts {
    const facts = new Facts();
    if (isUnknown(props)) {
        facts.markUnknown();
    } else if (isRecord(props)) {
        const carrier = new CarrierCheck(TAG_ID_CARRIERS.get(type));
        // A VM's tag ids joined to their tag objects: the join counts what they hide.
        readTags(field(props, "tags"), facts, carrier, joined !== undefined);
        carrier.report(facts, type);
        readNamedList(field(props, "metadata"), "metadata", facts);
        readNamedList(field(props, "metadatas"), "metadatas", facts);
        readMarkers(field(props, "markers"), facts);
        readExtraConfig(field(props, "extraConfig"), facts);
    }
    if (joined) {
        for (const fact of joined.facts) {
            facts.add(fact.rawKey, fact.value, fact.place);
        }
        for (let i = 0; i < joined.hidden; i++) {
            facts.markHidden();
        }
        if (joined.unknown) {
            facts.markUnknown();
        }
    }
    return facts.finish();
}

/** A fact on a resource that no policy reads it on, as perfguard-facts reports it (advisory). */
export interface MisplacedFact {
    readonly key: string;
    readonly def: FactKeyDef;
}

/**
 * The facts of `facts` that no policy reads on a resource of `type` with its roles (`perfguard:rttMs`
 * on a VM): they have no effect, which their author surely did not mean.
 */
export function misplacedFacts(facts: Facts, type: string): MisplacedFact[] {
    const found = facts.keys;
    if (found.length === 0) {
        return [];
    }
    const roles = facts.roles;
    const out: MisplacedFact[] = [];
    for (const key of found) {
        const def = factKeyDef(key) as FactKeyDef;
        const on = def.readOn;
        if (on === "any" || on.types?.includes(type) || on.roles?.some((r) => roles.includes(r))) {
            continue;
        }
        out.push({ key: `perfguard:${def.key}`, def });
    }
    return out;
}

/** A label for the problem line: `VirtualMachine "ddc-01"`, the name escaped and shortened to `max` characters. */
export function problemLabel(type: string, name: string, max = 40): string {
    const colon = type.lastIndexOf(":");
    const kind = colon >= 0 ? type.slice(colon + 1) : type;
    const escaped = escapeControl(name);
    const shown = max >= 40 ? shortName(name) : escaped.length <= max ? escaped : `${escaped.slice(0, max - 1)}…`;
    return `${escapeControl(kind) || "resource"} "${shown}"`;
}

export { PREFIX as FACT_PREFIX };
