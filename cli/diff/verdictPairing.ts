/**
 * The verdict half of `perfguard diff`: the (policy, resource) verdicts that appear or disappear
 * between two states, paired as a multiset per (policy, resource, level), mandatory first. Pure:
 * no I/O, independent of the input order.
 */

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

export interface VerdictChange {
    readonly change: "appeared" | "disappeared";
    readonly verdict: Verdict;
    /** For an appeared verdict whose (policy, resource) had a lower level in base. */
    readonly was?: "advisory";
}

function compareStrings(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

/** A problem line with its numbers masked: the same verdict with other figures has the same shape. */
function shapeOf(problem: string): string {
    return problem.replace(/\d+(?:[.,]\d+)*/g, "#");
}

export function verdictKey(v: Verdict): string {
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
            const demoted =
                v.level === "advisory" &&
                baseLevels.get(verdictKey(v))?.has("mandatory") &&
                !baseLevels.get(verdictKey(v))?.has("advisory") &&
                !headLevels.get(verdictKey(v))?.has("mandatory");
            if (demoted) {
                continue;
            }
            out.push(was ? { change: "appeared", verdict: v, was: "advisory" } : { change: "appeared", verdict: v });
        }
    }
    for (const [k, list] of b) {
        for (const v of unmatched(list, h.get(k) ?? [])) {
            // An advisory that became mandatory is reported once, as the new mandatory verdict.
            const promoted =
                v.level === "advisory" &&
                headLevels.get(verdictKey(v))?.has("mandatory") &&
                !baseLevels.get(verdictKey(v))?.has("mandatory") &&
                !headLevels.get(verdictKey(v))?.has("advisory");
            if (!promoted) {
                out.push({ change: "disappeared", verdict: v });
            }
        }
    }
    const rank = (c: VerdictChange) => (c.verdict.level === "mandatory" ? 0 : 2) + (c.change === "appeared" ? 0 : 1);
    return out.sort(
        (x, y) =>
            rank(x) - rank(y) ||
            compareStrings(x.verdict.policy, y.verdict.policy) ||
            compareStrings(x.verdict.urn, y.verdict.urn) ||
            compareStrings(x.verdict.problem, y.verdict.problem),
    );
}
