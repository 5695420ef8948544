/**
 * What changed between two states of a stack: entities added, removed and changed (each changed
 * figure before → after with the difference, worse or better by the figure's own direction), and
 * the (policy, entity) verdicts that appear or disappear, mandatory first. Pure: no I/O, O(n) in
 * entities, figures and verdicts (maps by key), independent of the input order.
 */
import type { EntityFigures, Figure, Membership } from "../../policies/pack/figures";
import { num } from "../../policies/pack/format";

/** One side's verdict on one (policy, resource). */
export interface Verdict {
    readonly policy: string;
    /** The resource's URN, or "" for a verdict on the stack. */
    readonly urn: string;
    /** What a reader sees: `Type name` or "the stack". */
    readonly entity: string;
    readonly level: "mandatory" | "advisory";
    /** The message's problem line (the first line after the policy's description). */
    readonly problem: string;
    /** The whole message, for the folded details. */
    readonly message: string;
}

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
     * "site-database-share": a Delivery Group's figure that moves only because the one Site
     * database's cap is shared (its own uncapped figure is the same on both sides; another group's
     * storm came or went). Counted apart from worse and better.
     */
    readonly cause?: "site-database-share";
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
    readonly system: EntityFigures["system"];
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

export interface VerdictChange {
    readonly change: "appeared" | "disappeared";
    readonly verdict: Verdict;
    /** For an appeared verdict whose (policy, resource) had a lower level in base. */
    readonly was?: "advisory";
}

export interface DiffResult {
    readonly entities: readonly EntityChange[];
    readonly verdicts: readonly VerdictChange[];
    readonly counts: {
        readonly newMandatory: number;
        readonly goneMandatory: number;
        readonly newAdvisory: number;
        readonly goneAdvisory: number;
        readonly headMandatory: number;
        readonly worse: number;
        readonly better: number;
        readonly changed: number;
        /** Figures that moved only through the shared Site database (not in worse or better). */
        readonly siteShare: number;
        /** Memberships of entities that changed (a zone that gained or lost a Delivery Group). */
        readonly membership: number;
        /** Figures whose values moved below the diff's display precision (not counted as changes). */
        readonly belowPrecision: number;
        readonly added: number;
        readonly removed: number;
        readonly unchanged: number;
    };
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
    const text = (v: number, d: number) => minutes ? `${num(v / 60, d)} min`
        : before.unit === "%" ? `${num(v, d)}%` : before.unit === "" ? num(v, d) : `${num(v, d)} ${before.unit}`;
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
        const direction: Direction = same(before.value, after.value) || better === "none" ? "changed"
            : (delta < 0) === (better === "lower") ? "better" : "worse";
        return { ...base, delta, direction };
    }
    if (before && after && before.value === undefined && after.value === undefined && before.notChecked === after.notChecked && before.state === after.state) {
        return { ...base, delta: undefined, direction: "unchanged" };
    }
    // Computed on one side only, or on neither for different reasons: a change, neither worse nor better.
    return { ...base, delta: undefined, direction: "changed" };
}

const SYSTEM_ORDER: Record<EntityFigures["system"], number> = { citrix: 0, "nsx-alb": 1, xen: 2 };

function entityKey(e: EntityFigures): string {
    // The kind too: an SE group and a virtual service may share a name.
    return `${e.system}\u0000${e.kind}\u0000${e.id}`;
}

function compareStrings(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * How a Delivery Group's figure follows the Site database's response scale (policies/citrix/
 * evaluation.ts, underSiteCap and shareSiteCap): mean response and launch time × scale,
 * brokered/s ÷ scale. The timed-out share does not move with it.
 */
const SITE_SCALE_POWER: Readonly<Record<string, number>> = { meanResponseS: 1, launchTimeS: 1, brokeredPerS: -1 };
const SITE_SHARED_KINDS = new Set(["deliveryGroup", "zoneLock"]);

/** Each side's Site-database response scale (1 when the cap is not reached). */
export interface SiteScales {
    readonly base: number;
    readonly head: number;
}

/** A worse or better group figure whose own (uncapped) value is the same on both sides. */
function siteShareOnly(e: EntityFigures, c: FigureChange, scales: SiteScales | undefined): boolean {
    const power = SITE_SCALE_POWER[c.key];
    if (!scales || power === undefined || e.system !== "citrix" || !SITE_SHARED_KINDS.has(e.kind) || (c.direction !== "worse" && c.direction !== "better")) {
        return false;
    }
    const { base, head } = scales;
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
                key, label: ref.label,
                before: before ? [...before.names].sort(compareStrings) : undefined,
                after: after ? [...after.names].sort(compareStrings) : undefined,
                gone, added,
            });
        }
    }
    return out;
}

/**
 * Pairs the entities of both sides by (system, id) and their figures by key.
 * @param scales - each side's Site-database response scale, to mark the group figures that move only through it.
 */
export function diffEntities(base: readonly EntityFigures[], head: readonly EntityFigures[], scales?: SiteScales): EntityChange[] {
    const before = new Map(base.map((e) => [entityKey(e), e]));
    const after = new Map(head.map((e) => [entityKey(e), e]));
    const keys = [...new Set([...before.keys(), ...after.keys()])];
    const out: EntityChange[] = [];
    for (const key of keys) {
        const b = before.get(key);
        const a = after.get(key);
        const ref = (a ?? b) as EntityFigures;
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
            return b && a && siteShareOnly(ref, c, scales) ? { ...c, cause: "site-database-share" as const } : c;
        });
        const shown = (c: FigureChange) => c.direction !== "unchanged" || c.precise !== undefined;
        // A zone that lost its Delivery Group is changed even where its figures round the same.
        const members = b && a ? membershipChanges(b.members, a.members) : [];
        const status = !b ? "added" : !a ? "removed"
            : changes.some(shown) || members.length > 0 || b.notChecked !== a.notChecked ? "changed" : "unchanged";
        out.push({
            system: ref.system, kind: ref.kind, id: ref.id, label: ref.label, status,
            figures: status === "added" || status === "removed" ? changes : changes.filter(shown),
            members,
            notChecked: { ...(b?.notChecked ? { before: b.notChecked } : {}), ...(a?.notChecked ? { after: a.notChecked } : {}) },
        });
    }
    return out.sort((x, y) => SYSTEM_ORDER[x.system] - SYSTEM_ORDER[y.system] || compareStrings(x.kind, y.kind) || compareStrings(x.id, y.id));
}

/** A problem line with its numbers masked: the same verdict with other figures has the same shape. */
function shapeOf(problem: string): string {
    return problem.replace(/\d+(?:[.,]\d+)*/g, "#");
}

function verdictKey(v: Verdict): string {
    return `${v.policy}\u0000${v.urn}`;
}

/**
 * The verdicts that appear or disappear. One policy may give one resource several verdicts
 * (perfguard-facts: one per unreadable fact), so each (policy, resource, level) is compared as a
 * multiset: a verdict with the same problem line on both sides is no change; of the rest, as many
 * as both sides have are the same verdicts with other numbers (the figures say those, so no
 * change); what head has beyond that appeared, what base has beyond that disappeared. A pair that
 * goes from advisory to mandatory is a new mandatory verdict (`was` "advisory"), the reverse a gone
 * one. Of the unmatched, a pair whose lines differ only in their numbers is paired first, then the
 * rest in the order of their problem lines (deterministic).
 */
export function diffVerdicts(base: readonly Verdict[], head: readonly Verdict[]): VerdictChange[] {
    const groups = (list: readonly Verdict[]) => {
        const m = new Map<string, Verdict[]>();
        for (const v of list) {
            const k = `${verdictKey(v)}\u0000${v.level}`;
            m.set(k, [...(m.get(k) ?? []), v]);
        }
        return m;
    };
    const b = groups(base);
    const h = groups(head);
    const levelsOf = (list: readonly Verdict[]) => {
        const m = new Map<string, Set<Verdict["level"]>>();
        for (const v of list) {
            m.set(verdictKey(v), (m.get(verdictKey(v)) ?? new Set()).add(v.level));
        }
        return m;
    };
    const baseLevels = levelsOf(base);
    const headLevels = levelsOf(head);
    /** `mine` less what `other` matches: same problem line first, then as many of the rest as other has left. */
    const unmatched = (mine: readonly Verdict[], other: readonly Verdict[]): Verdict[] => {
        const counts = new Map<string, number>();
        for (const v of other) {
            counts.set(v.problem, (counts.get(v.problem) ?? 0) + 1);
        }
        const rest: Verdict[] = [];
        for (const v of [...mine].sort((x, y) => compareStrings(x.problem, y.problem))) {
            const n = counts.get(v.problem) ?? 0;
            if (n > 0) {
                counts.set(v.problem, n - 1);
            } else {
                rest.push(v);
            }
        }
        // Then the same verdict with other numbers: the problem line with its numbers masked. Without
        // this, "4 Delivery Groups' storms want 26.7/s" (base: 31.2/s) could be paired away in place
        // of a new verdict of the same policy whose line sorts first.
        const shapes = new Map<string, number>();
        for (const [problem, n] of counts) {
            if (n > 0) {
                const shape = shapeOf(problem);
                shapes.set(shape, (shapes.get(shape) ?? 0) + n);
            }
        }
        const unpaired: Verdict[] = [];
        for (const v of rest) {
            const shape = shapeOf(v.problem);
            const n = shapes.get(shape) ?? 0;
            if (n > 0) {
                shapes.set(shape, n - 1);
            } else {
                unpaired.push(v);
            }
        }
        const otherLeft = [...shapes.values()].reduce((sum, n) => sum + n, 0);
        return unpaired.slice(Math.min(otherLeft, unpaired.length));
    };
    const out: VerdictChange[] = [];
    for (const [k, list] of h) {
        for (const v of unmatched(list, b.get(k) ?? [])) {
            const was = v.level === "mandatory" && !baseLevels.get(verdictKey(v))?.has("mandatory") && baseLevels.get(verdictKey(v))?.has("advisory");
            // A mandatory verdict that became advisory is reported once, as the gone mandatory one.
            const demoted = v.level === "advisory" && baseLevels.get(verdictKey(v))?.has("mandatory") && !baseLevels.get(verdictKey(v))?.has("advisory")
                && !headLevels.get(verdictKey(v))?.has("mandatory");
            if (demoted) {
                continue;
            }
            out.push(was ? { change: "appeared", verdict: v, was: "advisory" } : { change: "appeared", verdict: v });
        }
    }
    for (const [k, list] of b) {
        for (const v of unmatched(list, h.get(k) ?? [])) {
            // An advisory that became mandatory is reported once, as the new mandatory verdict.
            const promoted = v.level === "advisory" && headLevels.get(verdictKey(v))?.has("mandatory") && !baseLevels.get(verdictKey(v))?.has("mandatory")
                && !headLevels.get(verdictKey(v))?.has("advisory");
            if (!promoted) {
                out.push({ change: "disappeared", verdict: v });
            }
        }
    }
    const rank = (c: VerdictChange) => (c.verdict.level === "mandatory" ? 0 : 2) + (c.change === "appeared" ? 0 : 1);
    return out.sort((x, y) => rank(x) - rank(y) || compareStrings(x.verdict.policy, y.verdict.policy) || compareStrings(x.verdict.urn, y.verdict.urn) || compareStrings(x.verdict.problem, y.verdict.problem));
}

/** The whole comparison. */
export function diffStates(base: { figures: readonly EntityFigures[]; verdicts: readonly Verdict[] }, head: { figures: readonly EntityFigures[]; verdicts: readonly Verdict[] }, scales?: SiteScales): DiffResult {
    const entities = diffEntities(base.figures, head.figures, scales);
    const verdicts = diffVerdicts(base.verdicts, head.verdicts);
    const figures = entities.filter((e) => e.status === "changed").flatMap((e) => e.figures);
    const count = (change: VerdictChange["change"], level: Verdict["level"]) => verdicts.filter((v) => v.change === change && v.verdict.level === level).length;
    return {
        entities,
        verdicts,
        counts: {
            newMandatory: count("appeared", "mandatory"),
            goneMandatory: count("disappeared", "mandatory"),
            newAdvisory: count("appeared", "advisory"),
            goneAdvisory: count("disappeared", "advisory"),
            headMandatory: new Set(head.verdicts.filter((v) => v.level === "mandatory").map(verdictKey)).size,
            worse: figures.filter((f) => f.direction === "worse" && !f.cause).length,
            better: figures.filter((f) => f.direction === "better" && !f.cause).length,
            changed: figures.filter((f) => f.direction === "changed").length,
            siteShare: figures.filter((f) => f.cause === "site-database-share").length,
            membership: entities.filter((e) => e.status === "changed").reduce((n, e) => n + e.members.length, 0),
            belowPrecision: figures.filter((f) => f.precise !== undefined).length,
            added: entities.filter((e) => e.status === "added").length,
            removed: entities.filter((e) => e.status === "removed").length,
            unchanged: entities.filter((e) => e.status === "unchanged").length,
        },
    };
}
