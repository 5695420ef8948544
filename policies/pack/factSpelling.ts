/**
 * Spelling: which keys are fact keys, and the "did you mean" for the ones that nearly are
 * (`perfguard-rttMs`, `perfgaurd:rttMs`, an enum value one or two edits from an allowed one), with
 * the problems perfguard-facts reports for them. Every carrier and the fact set ask here.
 */
import { FACT_KEYS, factKeyDef, FactKeyDef } from "./factKeys";
import { FACT_PREFIX, FactPlace, FactProblem, GUESTINFO_PREFIX } from "./factTypes";
import { escapeControl } from "./message";
import { foldCase } from "./values";

const PREFIX_LENGTH = FACT_PREFIX.length;
const LOWER_P = 0x70;
const SPACE = 0x20;

/** True when `rawKey` starts with a fact prefix (`perfguard:` or `perfguard_`, any case). */
export function isFactKey(rawKey: string): boolean {
    // Every tag of every resource comes here once per stack policy that scans the stack: reject
    // keys that cannot start with "perfguard" before slicing (which allocates two strings).
    if (rawKey.length < PREFIX_LENGTH || (rawKey.charCodeAt(0) | 0x20) !== LOWER_P) {
        return false;
    }
    const prefix = foldCase(rawKey.slice(0, PREFIX_LENGTH));
    return prefix === "perfguard:" || prefix === "perfguard_";
}

/** The key to use when `rawKey` is a fact key, allowing spaces around it (as values allow). */
export function asFactKey(rawKey: string): string | undefined {
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
export function closeKey(folded: string): string | undefined {
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
export function shownKey(rawKey: string): string {
    return rawKey.length <= 64 ? `"${escapeControl(rawKey)}"` : `a key of ${rawKey.length} characters`;
}

/** The problem of a key that is not a fact key; `meant` is the key it nearly is. */
export function keyProblem(rawKey: string, place: FactPlace, meant: string | undefined, prefixed: boolean): FactProblem {
    const shown = shownKey(rawKey);
    const problem = meant ? `${shown} is not read as a fact (did you mean perfguard:${meant}?)` : `${shown} is not a perfguard fact key`;
    const fix = meant
        ? `rename it perfguard:${meant} (prefix perfguard: or perfguard_, any case, no spaces)`
        : "use a key from docs/facts.md, or remove the perfguard: prefix if it is not a fact";
    return {
        kind: "key",
        key: rawKey,
        problem,
        // The problem line keeps the key and the "did you mean" when they fit; fact keys run to 40
        // characters (perfguard:throttleMaxConcurrentTransactions).
        short:
            meant && rawKey.length <= 48
                ? `"${escapeControl(rawKey)}" is not a fact key (did you mean perfguard:${meant}?)`
                : rawKey.length <= 48
                  ? `"${escapeControl(rawKey)}" is not a fact key`
                  : "a key is not a fact key",
        fix,
        basis: [`found in ${place}${prefixed ? "" : "; a near miss of a fact key is reported because the check that needs it would not run"}`],
        message: `${problem} (in ${place})`,
    };
}

/**
 * A `perfguard:` key in extraConfig: meant as a fact, but extraConfig names facts
 * `guestinfo.perfguard.<key>` (vSphere passes only guestinfo.* settings to the guest), so it is
 * not read and the check that needs it does not run.
 */
export function guestinfoKeyProblem(rawKey: string): FactProblem {
    const def = factKeyDef(rawKey.slice(PREFIX_LENGTH).trim());
    const meant = def ? `${GUESTINFO_PREFIX}${def.key}` : undefined;
    const shown = shownKey(rawKey);
    const problem = meant ? `${shown} in extraConfig is not read as a fact (did you mean ${meant}?)` : `${shown} in extraConfig is not read as a fact`;
    return {
        kind: "key",
        key: rawKey,
        problem,
        short:
            rawKey.length <= 48
                ? `"${escapeControl(rawKey)}" in extraConfig is not read (facts there are guestinfo.perfguard.<key>)`
                : "a key in extraConfig is not read as a fact",
        fix: meant ? `rename it ${meant}` : "name it guestinfo.perfguard.<key> with a key from docs/facts.md",
        basis: ["found in extraConfig, where perfguard reads facts named guestinfo.perfguard.<key> only (docs/facts.md#carriers)"],
        message: `${problem} (in extraConfig)`,
    };
}

/** " (did you mean deliveryController?)" for an enum value within two edits of a valid one. */
export function suggestion(def: FactKeyDef, value: unknown): string {
    if (def.kind !== "enum" || typeof value !== "string" || value.length > 64) {
        return "";
    }
    const folded = foldCase(value.trim());
    const close = def.values.find((v) => editDistance(folded, foldCase(v), 2) <= 2);
    return close ? ` (did you mean ${close}?)` : "";
}
