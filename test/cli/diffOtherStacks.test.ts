/**
 * `perfguard diff` with other stacks' entities (PERFGUARD_INVENTORY), without a pack: which rows
 * it shows (this stack's entities and the shared objects; never an entity of other stacks alone,
 * which both sides hold alike) and the inventory line under the sides (the stacks that joined this
 * stack's shared objects, named sorted; the stale stacks in the pack's advisory's words).
 * A compliant baseline (team B's VS on the network team's group, team A's VS on it too), one change per case.
 */
import { describe, expect, it } from "vitest";
import { diffStates } from "../../cli/diff/compare";
import { DiffInventory, inventoryLine, withJoinedStacks } from "../../cli/diff/inventory";
import type { EntityFigures } from "../../policies/pack/figures";

function group(busiest: number, parts: Partial<EntityFigures> = {}): EntityFigures {
    return {
        system: "nsx-alb",
        kind: "seGroup",
        id: "shared-web",
        label: "SE group shared-web",
        figures: [{ key: "busiestSeCpuPct", label: "busiest SE", value: busiest, unit: "%", better: "lower", text: `${busiest}%` }],
        ...parts,
    };
}

function vs(id: string, need: number, parts: Partial<EntityFigures> = {}): EntityFigures {
    return {
        system: "nsx-alb",
        kind: "virtualService",
        id,
        label: `virtual service ${id}`,
        figures: [{ key: "vsPeakPct", label: "needs of its 1 SE", value: need, unit: "%", better: "lower", text: `${need}%` }],
        ...parts,
    };
}

const NETWORK_AND_A = { stacks: ["network/prod", "team-a/prod"] };
/** Team A's VS: load only on the group; its row differs by presentation (on base it is the group's row). */
const CHECKOUT = (need: number) => vs("checkout-api (team-a/prod)", need, { othersOnly: true, stacks: ["team-a/prod"] });
/** Another controller's same-named group, reached by its name only: of network-dmz alone. */
const DMZ = group(0, { othersOnly: true, stacks: ["network-dmz/prod"] });

/** "id status: before → after" for each row of the diff, sorted. */
function rows(base: EntityFigures[], head: EntityFigures[]): string[] {
    return diffStates({ figures: base, verdicts: [] }, { figures: head, verdicts: [] })
        .entities.map((e) => `${e.id} ${e.status}: ${e.figures.map((f) => `${f.beforeText ?? "-"} → ${f.afterText ?? "-"}`).join(", ")}`)
        .sort();
}

describe("perfguard diff shows this stack's entities and the shared objects, not other stacks' alone", () => {
    const BASE = [group(75.9, NETWORK_AND_A), CHECKOUT(0), vs("catalog-web", 47.9)];
    it.each([
        { name: "no change (baseline)", base: BASE, head: BASE, rows: ["catalog-web unchanged: ", "shared-web unchanged: "] },
        {
            name: "team A's VS differs by presentation only: no row",
            base: BASE,
            head: [group(75.9, NETWORK_AND_A), CHECKOUT(75.9), vs("catalog-web", 47.9)],
            rows: ["catalog-web unchanged: ", "shared-web unchanged: "],
        },
        {
            // The first deploy: base's group holds team A's load alone (of other stacks alone there), head uses it.
            name: "a shared object the head starts to use keeps its base figure",
            base: [group(75.9, { othersOnly: true, ...NETWORK_AND_A }), CHECKOUT(75.9)],
            head: [group(123.8, NETWORK_AND_A), CHECKOUT(75.9), vs("catalog-web", 47.9)],
            rows: ["catalog-web added: - → 47.9%", "shared-web changed: 75.9% → 123.8%"],
        },
        {
            name: "a shared object the head stops using stays a row",
            base: [group(123.8, NETWORK_AND_A), CHECKOUT(75.9), vs("catalog-web", 47.9)],
            head: [group(75.9, { othersOnly: true, ...NETWORK_AND_A }), CHECKOUT(75.9)],
            rows: ["catalog-web removed: 47.9% → -", "shared-web changed: 123.8% → 75.9%"],
        },
        {
            name: "another controller's same-named group (others' alone) never hides the shared one, in either order",
            base: [DMZ, ...BASE],
            head: [group(123.8, NETWORK_AND_A), CHECKOUT(75.9), vs("catalog-web", 47.9), DMZ],
            rows: ["catalog-web unchanged: ", "shared-web changed: 75.9% → 123.8%"],
        },
        {
            name: "another stack's object no side uses: no row",
            base: [...BASE, vs("search-api (team-c/prod)", 10, { othersOnly: true, stacks: ["team-c/prod"] })],
            head: [...BASE, vs("search-api (team-c/prod)", 20, { othersOnly: true, stacks: ["team-c/prod"] })],
            rows: ["catalog-web unchanged: ", "shared-web unchanged: "],
        },
    ])("$name", (c) => {
        expect(rows(c.base, c.head)).toEqual(c.rows);
    });
});

describe("the inventory line names the stacks that joined this stack's shared objects", () => {
    const INV: DiffInventory = { spec: "inventory/digest.json", stacks: 8, joined: [], ownReplaced: false };
    const line = (inv: DiffInventory) => inventoryLine(inv).replace("other stacks' load counted on both sides: PERFGUARD_INVENTORY=inventory/digest.json ", "");
    it.each([
        {
            name: "baseline: the group's stacks",
            sides: [[group(75.9, NETWORK_AND_A)]],
            inv: INV,
            says: "(2 of its 8 stacks share objects with this stack: network/prod, team-a/prod)",
        },
        {
            name: "stacks of entities of other stacks alone are not counted (a same-named group, another team's VS elsewhere)",
            sides: [[group(75.9, NETWORK_AND_A), DMZ, vs("search-api (team-c/prod)", 10, { othersOnly: true, stacks: ["team-c/prod"] })]],
            inv: INV,
            says: "(2 of its 8 stacks share objects with this stack: network/prod, team-a/prod)",
        },
        {
            name: "either side's shared objects, sorted and deduplicated",
            sides: [[group(75.9, { stacks: ["team-a/prod", "network/prod"] })], [group(75.9, { stacks: ["team-c/prod", "network/prod"] })]],
            inv: INV,
            says: "(3 of its 8 stacks share objects with this stack: network/prod, team-a/prod, team-c/prod)",
        },
        {
            name: "more than five: the first five and a count",
            sides: [[group(75.9, { stacks: ["f/p", "e/p", "d/p", "c/p", "b/p", "a/p", "g/p"] })]],
            inv: { ...INV, stacks: 9 },
            says: "(7 of its 9 stacks share objects with this stack: a/p, b/p, c/p, d/p, e/p and 2 more)",
        },
        { name: "none", sides: [[group(10)]], inv: { ...INV, stacks: 1 }, says: "(none of its 1 stack shares an object with this stack)" },
        {
            name: "this stack's own entry replaced, and stale stacks in the advisory's words",
            sides: [[group(75.9, NETWORK_AND_A)]],
            inv: { ...INV, ownReplaced: true, stale: { hours: 24, stacks: ["a/p", "b/p", "c/p", "d/p"] } },
            says:
                "(2 of its 8 stacks share objects with this stack: network/prod, team-a/prod; this stack's own deployed entry replaced by each side; " +
                "4 stack(s) deployed more than 24 h ago or at an unknown time (a/p, b/p, c/p and 1 more): their load may have changed)",
        },
    ])("$name", (c) => {
        expect(line(withJoinedStacks(c.inv, c.sides))).toBe(c.says);
    });
});
