/**
 * The one fact reader every policy uses. A fact is a `perfguard:` (or `perfguard_`) key/value
 * pair on a resource, on one of the carriers docs/facts.md lists (factCarriers.ts reads them), or
 * on a vSphere tag object attached to the VM (joined by the stack view, resources.ts). The facts
 * of a resource are a Facts (factSet.ts); a key that is nearly a fact key is caught by its
 * spelling (factSpelling.ts). This module is the entry point the rooms import.
 */
import { readCarriers } from "./factCarriers";
import { factKeyDef, FactKeyDef } from "./factKeys";
import { Facts } from "./factSet";
import type { JoinedFact } from "./factTypes";
import { escapeControl, shortName } from "./message";
import { isRecord, isUnknown } from "./values";

export { FACT_CARRIERS, factAsWritten } from "./factCarriers";
export { Facts } from "./factSet";
export { FACT_PREFIX, REDACTED_SECRET } from "./factTypes";
export type { FactPlace, FactProblem, FactRead, JoinedFact } from "./factTypes";

/**
 * Reads every perfguard fact of one resource.
 * @param props - the resource's plain props (see `unwrapProps`); anything else yields no facts.
 * @param type - its type token: tells which `tags` cannot carry facts (vSphere, Citrix).
 * @param joined - facts found on objects attached to it (vSphere tags), and how many of those are unknown.
 * @returns a Facts object; never throws on odd input (unknowns, wrong types, huge lists).
 */
export function readFacts(
    props: unknown,
    type = "",
    joined?: { readonly facts: readonly JoinedFact[]; readonly hidden: number; readonly unknown?: boolean },
): Facts {
    const facts = new Facts();
    if (isUnknown(props)) {
        facts.markUnknown();
    } else if (isRecord(props)) {
        readCarriers(props, type, joined !== undefined, facts);
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
