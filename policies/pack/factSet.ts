/**
 * The facts of one resource: what its carriers hold (factCarriers.ts fills it), each key resolved
 * once into a FactRead (parsed within its range, or invalid with the problem recorded), and what
 * may be unseen (an unknown container or entry, a secret that was not decrypted).
 *
 * Unknowns are per value, never per container: one unknown tag hides only itself (it is counted
 * in `hidden`; the other keys read as declared, and `incomplete` says a needed key that reads
 * "absent" may be the hidden one), while a container unknown as a whole makes every key read "unknown".
 */
import { describeFactRange, EnumFactKey, EnumValue, FactKey, factKeyDef, FactKeyDef, FactRole, NumberFactKey, TextFactKey } from "./factKeys";
import { closeKey, keyProblem, suggestion } from "./factSpelling";
import { FACT_PREFIX, FactPlace, FactProblem, FactRead, REDACTED_SECRET } from "./factTypes";
import { escapeControl } from "./message";
import { describeValue, foldCase, isUnknown, parsePlainDecimal, UNKNOWN } from "./values";

interface RawEntry {
    readonly value: unknown;
    readonly place: FactPlace;
}

const PREFIX_LENGTH = FACT_PREFIX.length;

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

    /** @internal used by the carrier readers (factCarriers.ts) */
    add(rawKey: string, value: unknown, place: FactPlace): void {
        const def = factKeyDef(rawKey.slice(PREFIX_LENGTH));
        if (!def) {
            this.addProblem(keyProblem(rawKey, place, closeKey(foldCase(rawKey)), true));
            return;
        }
        this.addEntry(def, value, place);
    }

    /** @internal used by the carrier readers (factCarriers.ts) */
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

    /** @internal used by the carrier readers (factCarriers.ts) */
    addProblem(problem: FactProblem): void {
        (this.problemList ??= []).push(problem);
    }

    /** @internal used by the carrier readers (factCarriers.ts) */
    markUnknown(): void {
        this.containerUnknown = true;
    }

    /** @internal used by the carrier readers: a whole container is a secret that was not decrypted. */
    markRedacted(): void {
        this.redactedAny = true;
        this.containerUnknown = true;
    }

    /** @internal used by the carrier readers: one entry is a secret that was not decrypted; it hides only itself. */
    markRedactedEntry(): void {
        this.redactedAny = true;
        this.hiddenCount += 1;
    }

    /** @internal used by the carrier readers (factCarriers.ts) */
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
