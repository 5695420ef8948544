/**
 * The figure half of `perfguard diff`: entities of both sides paired by (system, kind, id), their
 * figures by key, each change worse, better or changed by the figure's own direction, at the
 * precision the verdicts print. Knows no system: the order of the systems and which figures follow
 * a shared scale come from each system's descriptor (cli/systems). Pure: no I/O, O(n) in entities
 * and figures (maps by key), independent of the input order.
 */
import type { EntityFigures, Figure, Membership } from "../../policies/pack/figures";
import { num } from "../../policies/pack/format";
import { systemOf } from "../systems";

export type Direction = "worse" | "better" | "changed" | "unchanged";

export interface FigureChange {
    readonly key: string;
    readonly label: string;
    readonly unit: string;
    readonly before: Figure | undefined;
    readonly after: Figure | undefined;
    /**
     * The two values as the diff prints them, in one format (figureTexts): what a reader compares.
     * Undefined for a side without the figure or where it is not computed.
     */
    readonly beforeText: string | undefined;
    readonly afterText: string | undefined;
    /** after - before, when both are computed. */
    readonly delta: number | undefined;
    readonly direction: Direction;
    /**
     * Both values printed finer, when the diff's texts are equal but the values are not ("36 min" and
     * "36 min" for 35.6 and 36.4 min): the move is shown, marked, and not counted as a change.
     */
    readonly precise?: { readonly before: string; readonly after: string };
    /**
     * A figure that moves only through a scale its system's entities share (FigureScaling in
     * policies/pack/system.ts): "site-database-share", a Delivery Group's figure that moves only
     * because the one Site database's cap is shared (its own uncapped figure is the same on both
     * sides; another group's storm came or went). Counted apart from worse and better.
     */
    readonly cause?: string;
}

/** A set of names an entity rests on (a zone's Delivery Groups) that differs between the sides; names sorted. */
export interface MembershipChange {
    readonly key: string;
    readonly label: string;
    /** Undefined for a side without the membership. */
    readonly before: readonly string[] | undefined;
    readonly after: readonly string[] | undefined;
    /** Names only one side has, sorted. */
    readonly gone: readonly string[];
    readonly added: readonly string[];
}

export interface EntityChange {
    readonly system: string;
    readonly kind: string;
    readonly id: string;
    readonly label: string;
    readonly status: "added" | "removed" | "changed" | "unchanged";
    /** Figures that differ (all figures of an added or removed entity). */
    readonly figures: readonly FigureChange[];
    /** Memberships that differ (a zone's Delivery Groups, who declares its peak); empty for an added or removed entity. */
    readonly members: readonly MembershipChange[];
    /** Entity-level "not checked" on each side. */
    readonly notChecked: { readonly before?: string; readonly after?: string };
}

// Figures closer than this (relative) are equal: float noise of the models' sums is not a change.
const RELATIVE_EPSILON = 1e-9;

function same(a: number, b: number): boolean {
    return Math.abs(a - b) <= RELATIVE_EPSILON * Math.max(1, Math.abs(a), Math.abs(b));
}

/** The smallest percentage pct() prints (four decimals): anything below it prints as "<0.0001%". */
export const PCT_FLOOR = 0.0001;

// pct()'s precision for one value (policies/pack/format.ts), in percent.
function pctDigits(p: number): number {
    return p >= 10 ? 1 : p >= 1 ? 2 : p >= 0.01 ? 3 : 4;
}

function belowFloor(f: Figure): boolean {
    return f.unit === "%" && f.value !== undefined && Math.abs(f.value) < PCT_FLOOR;
}

/**
 * Before and after in one format. A percentage figure's text comes from pct(), whose precision
 * follows the value's size and which rounds 0.00009% up to "0.0001%" but prints 0.00004% as
 * "<0.0001%": side by side that reads as a change that is not one. So both are printed with the
 * precision of the finer one (of those above the floor), and anything below the floor as
 * "<0.0001%" (0 stays "0%"). Other
 * units keep the evaluation's own text (their format does not depend on the value's size).
 */
export function figureTexts(before: Figure | undefined, after: Figure | undefined): { before: string | undefined; after: string | undefined } {
    const b = before?.value;
    const a = after?.value;
    if (before?.unit !== "%" || after?.unit !== "%" || a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b)) {
        return { before: b === undefined ? undefined : before?.text, after: a === undefined ? undefined : after?.text };
    }
    // A value below the floor (or 0) prints the same at any precision: the other side keeps its own.
    const shown = [a, b].filter((p) => Math.abs(p) >= PCT_FLOOR).map((p) => pctDigits(Math.abs(p)));
    const digits = Math.max(1, ...shown);
    const text = (p: number) => (p === 0 ? "0%" : Math.abs(p) < PCT_FLOOR ? `<${num(PCT_FLOOR, 4)}%` : `${num(p, digits)}%`);
    return { before: text(b), after: text(a) };
}

/**
 * Both values with the fewest more decimals that tell them apart (a time of 2 min or more in
 * minutes, as duration() prints it), or undefined when up to six do not.
 */
export function preciseTexts(before: Figure, after: Figure): { before: string; after: string } | undefined {
    const b = before.value as number;
    const a = after.value as number;
    const minutes = before.unit === "s" && Math.abs(a) >= 120 && Math.abs(b) >= 120;
    const text = (v: number, d: number) =>
        minutes ? `${num(v / 60, d)} min` : before.unit === "%" ? `${num(v, d)}%` : before.unit === "" ? num(v, d) : `${num(v, d)} ${before.unit}`;
    for (let d = 1; d <= 6; d++) {
        if (text(b, d) !== text(a, d)) {
            return { before: text(b, d), after: text(a, d) };
        }
    }
    return undefined;
}

/**
 * One figure on both sides. Not a change: the same value, the same text in the diff's format, or
 * (a percentage) both below the display floor; the reader could not tell them apart.
 */
export function figureChange(before: Figure | undefined, after: Figure | undefined): FigureChange {
    const ref = (after ?? before) as Figure;
    const texts = figureTexts(before, after);
    const base = { key: ref.key, label: ref.label, unit: ref.unit, before, after, beforeText: texts.before, afterText: texts.after };
    if (before?.value !== undefined && after?.value !== undefined) {
        if ((same(before.value, after.value) && before.text === after.text) || (belowFloor(before) && belowFloor(after))) {
            return { ...base, delta: 0, direction: "unchanged" };
        }
        if (texts.before === texts.after) {
            // The reader cannot tell them apart at the verdicts' precision: no change, but the move is
            // shown finer where it is one (below the floor both print "<0.0001%" at any precision).
            const precise = same(before.value, after.value) ? undefined : preciseTexts(before, after);
            return { ...base, delta: precise ? after.value - before.value : 0, direction: "unchanged", ...(precise ? { precise } : {}) };
        }
        const delta = after.value - before.value;
        const better = ref.better;
        const direction: Direction = same(before.value, after.value) || better === "none" ? "changed" : delta < 0 === (better === "lower") ? "better" : "worse";
        return { ...base, delta, direction };
    }
    if (before && after && before.value === undefined && after.value === undefined && before.notChecked === after.notChecked && before.state === after.state) {
        return { ...base, delta: undefined, direction: "unchanged" };
    }
    // Computed on one side only, or on neither for different reasons: a change, neither worse nor better.
    return { ...base, delta: undefined, direction: "changed" };
}

/** The registry's order of the systems; a system it does not list comes last. */
function systemRank(system: string): number {
    return systemOf(system)?.order ?? Number.MAX_SAFE_INTEGER;
}

function entityKey(e: EntityFigures): string {
    // The kind too: an SE group and a virtual service may share a name.
    return `${e.system}\u0000${e.kind}\u0000${e.id}`;
}

function compareStrings(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

/** Each side's value of a scale the entities of one system share (1 where nothing shares it). */
export interface SiteScales {
    readonly base: number;
    readonly head: number;
}

/** Per system id, each side's shared scale (the Citrix Site database's response scale). */
export type SystemScales = Readonly<Record<string, SiteScales>>;

/**
 * A worse or better figure whose own (unscaled) value is the same on both sides: it follows its
 * system's shared scale (the descriptor's `scaling`: which kinds, each figure's power) and moved
 * only through it.
 */
function sharedScaleOnly(e: EntityFigures, c: FigureChange, scales: SystemScales | undefined): boolean {
    const scaling = systemOf(e.system)?.scaling;
    const pair = scales?.[e.system];
    const power = scaling?.powers[c.key];
    if (!scaling || !pair || power === undefined || !scaling.kinds.includes(e.kind) || (c.direction !== "worse" && c.direction !== "better")) {
        return false;
    }
    const { base, head } = pair;
    if (!(base > 0 && head > 0 && Number.isFinite(base) && Number.isFinite(head)) || same(base, head)) {
        return false;
    }
    const own = (value: number, scale: number) => value / scale ** power;
    return same(own(c.before?.value as number, base), own(c.after?.value as number, head));
}

/** The memberships that differ between the sides, head's order then base's; names compared as sets. */
export function membershipChanges(base: readonly Membership[] | undefined, head: readonly Membership[] | undefined): MembershipChange[] {
    const b = new Map((base ?? []).map((m) => [m.key, m]));
    const a = new Map((head ?? []).map((m) => [m.key, m]));
    const out: MembershipChange[] = [];
    for (const key of new Set([...a.keys(), ...b.keys()])) {
        const before = b.get(key);
        const after = a.get(key);
        const was = new Set(before?.names ?? []);
        const now = new Set(after?.names ?? []);
        const gone = [...was].filter((n) => !now.has(n)).sort(compareStrings);
        const added = [...now].filter((n) => !was.has(n)).sort(compareStrings);
        if (gone.length > 0 || added.length > 0 || (before === undefined) !== (after === undefined)) {
            const ref = (after ?? before) as Membership;
            out.push({
                key,
                label: ref.label,
                before: before ? [...before.names].sort(compareStrings) : undefined,
                after: after ? [...after.names].sort(compareStrings) : undefined,
                gone,
                added,
            });
        }
    }
    return out;
}

/**
 * One side's entities by key. Another stack's object of the same name (a group `shared-web` of
 * another Avi Controller, joined from the inventory by its name) never hides this stack's or a
 * shared one: an entity of other stacks alone gives way.
 */
function byKey(list: readonly EntityFigures[]): Map<string, EntityFigures> {
    const out = new Map<string, EntityFigures>();
    for (const e of list) {
        const key = entityKey(e);
        const had = out.get(key);
        if (!(had && had.othersOnly !== true && e.othersOnly === true)) {
            out.set(key, e);
        }
    }
    return out;
}

/**
 * Pairs the entities of both sides by (system, id) and their figures by key.
 * @param scales - per system, each side's shared scale (the Site database's response scale), to
 *   mark the figures that move only through it.
 */
export function diffEntities(base: readonly EntityFigures[], head: readonly EntityFigures[], scales?: SystemScales): EntityChange[] {
    const before = byKey(base);
    const after = byKey(head);
    const keys = [...new Set([...before.keys(), ...after.keys()])];
    const out: EntityChange[] = [];
    for (const key of keys) {
        const b = before.get(key);
        const a = after.get(key);
        const ref = (a ?? b) as EntityFigures;
        // Other stacks' entities alone (PERFGUARD_INVENTORY: another team's VS, a group no side
        // uses) are no rows: their stacks are the same inventory on both sides, and the shared
        // object's row counts their load. A shared object one side starts or stops using stays.
        if ((!b || b.othersOnly === true) && (!a || a.othersOnly === true)) {
            continue;
        }
        // An entity with nothing of its own on either side (a VS whose need is its SE group's row)
        // is no entity of the diff: listing it as unchanged would say its need did not change.
        if (a && b && a.figures.length === 0 && b.figures.length === 0 && !a.notChecked && !b.notChecked) {
            continue;
        }
        const bf = new Map((b?.figures ?? []).map((f) => [f.key, f]));
        const af = new Map((a?.figures ?? []).map((f) => [f.key, f]));
        // Head's figure order, then figures only base had.
        const figureKeys = [...new Set([...(a?.figures ?? []).map((f) => f.key), ...(b?.figures ?? []).map((f) => f.key)])];
        const changes = figureKeys.map((k) => {
            const c = figureChange(b ? bf.get(k) : undefined, a ? af.get(k) : undefined);
            const scaling = systemOf(ref.system)?.scaling;
            return b && a && scaling && sharedScaleOnly(ref, c, scales) ? { ...c, cause: scaling.cause } : c;
        });
        const shown = (c: FigureChange) => c.direction !== "unchanged" || c.precise !== undefined;
        // A zone that lost its Delivery Group is changed even where its figures round the same.
        const members = b && a ? membershipChanges(b.members, a.members) : [];
        const status = !b ? "added" : !a ? "removed" : changes.some(shown) || members.length > 0 || b.notChecked !== a.notChecked ? "changed" : "unchanged";
        out.push({
            system: ref.system,
            kind: ref.kind,
            id: ref.id,
            label: ref.label,
            status,
            figures: status === "added" || status === "removed" ? changes : changes.filter(shown),
            members,
            notChecked: { ...(b?.notChecked ? { before: b.notChecked } : {}), ...(a?.notChecked ? { after: a.notChecked } : {}) },
        });
    }
    return out.sort((x, y) => systemRank(x.system) - systemRank(y.system) || compareStrings(x.kind, y.kind) || compareStrings(x.id, y.id));
}
