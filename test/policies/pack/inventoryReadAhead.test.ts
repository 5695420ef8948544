/**
 * Reading ahead (policies/pack/inventory/prefetch.ts): the stacks a resource's join keys reach are
 * read, and their views built with their facts, after its Analyze call; AnalyzeStack's merge then
 * finds them built. It decides nothing: the merge is the same with and without it.
 */
import * as fs from "fs";
import { afterEach, describe, expect, it } from "vitest";
import { resetInventory } from "../../../policies/pack/inventory/current";
import { withInventory } from "../../../policies/pack/inventory/merge";
import { noteAnalyzed } from "../../../policies/pack/inventory/prefetch";
import { INVENTORY_ENV, MAX_AGE_ENV } from "../../../policies/pack/inventory/types";
import { ResourceView } from "../../../policies/pack/resourceView";
import { fixture } from "../../support/inventoryStacks";

interface StateResource {
    urn: string;
    type: string;
    inputs?: Record<string, unknown>;
}

/** Team B's catalog-web as its preview has it (the fixture's inputs): one VS on the network team's shared-web. */
const teamB = (JSON.parse(fs.readFileSync(fixture("team-b.json"), "utf8")) as { deployment: { resources: StateResource[] } }).deployment.resources.find((r) =>
    r.urn.endsWith("::catalog-web"),
) as StateResource;
/** Its URN in stack `stack`: each case previews its own stack, so that what one read ahead is not another's. */
const urnIn = (stack: string, name = "catalog-web") => teamB.urn.replace("urn:pulumi:prod::", `urn:pulumi:${stack}::`).replace("::catalog-web", `::${name}`);
const ownView = (stack: string) => new ResourceView(urnIn(stack), teamB.type, "catalog-web", teamB.inputs ?? {});

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether a view's facts were parsed already (the merge alone never parses them). */
const factsParsed = (v: ResourceView) => (v as unknown as { factCache?: unknown }).factCache !== undefined;

/** What the merge gives: each view's URN, origin and props. */
const merged = (views: readonly ResourceView[]) => views.map((v) => ({ urn: v.urn, origin: v.origin, props: v.props }));

afterEach(() => {
    delete process.env[INVENTORY_ENV];
    delete process.env[MAX_AGE_ENV];
    resetInventory();
});

function useInventory(spec: string): void {
    process.env[INVENTORY_ENV] = spec;
    process.env[MAX_AGE_ENV] = "1000000";
    resetInventory();
}

describe("read-ahead", () => {
    const sources = [fixture("network.json"), fixture("team-a.json")].join(",");

    it("builds the views the merge then uses, with their facts parsed", async () => {
        useInventory(sources);
        noteAnalyzed({ urn: urnIn("ahead"), type: teamB.type, props: teamB.inputs });
        await tick();
        const foreign = withInventory([ownView("ahead")]).filter((v) => v.foreign);
        expect(foreign.map((v) => `${v.origin?.project}:${v.name}`)).toEqual([
            "network:network-prod",
            "network:controller",
            "network:shared-web",
            "team-a:team-a-prod",
            "team-a:controller",
            "team-a:checkout-api",
        ]);
        expect(foreign.filter(factsParsed).map((v) => v.name)).toEqual(foreign.map((v) => v.name));
    });

    it("without it, the merge builds the same views (facts parsed on first use)", async () => {
        useInventory(sources);
        const without = withInventory([ownView("same")]);
        expect(without.filter((v) => v.foreign && factsParsed(v))).toEqual([]);
        expect(without.filter((v) => v.foreign)).toHaveLength(6);
        useInventory(sources);
        noteAnalyzed({ urn: urnIn("same"), type: teamB.type, props: teamB.inputs });
        await tick();
        const withAhead = withInventory([ownView("same")]);
        expect(withAhead.filter((v) => v.foreign && factsParsed(v))).toHaveLength(6);
        expect(merged(withAhead)).toEqual(merged(without));
    });

    const quiet: Array<[string, () => void]> = [
        ["no inventory set", () => undefined],
        ["an inventory that cannot be read", () => useInventory("/nonexistent/perfguard-inventory.json")],
        ["a resource with no join key", () => useInventory(sources)],
    ];
    it.each(quiet)("%s: nothing read ahead, nothing thrown", async (name, setUp) => {
        setUp();
        const stack = `quiet-${quiet.findIndex(([n]) => n === name)}`;
        const noKey = name === "a resource with no join key";
        const type = noKey ? "random:index/randomString:RandomString" : teamB.type;
        expect(() => noteAnalyzed({ urn: urnIn(stack, "x"), type, props: noKey ? { length: 8 } : teamB.inputs })).not.toThrow();
        await tick();
        const views = noKey ? withInventory([new ResourceView(urnIn(stack, "x"), type, "x", { length: 8 })]) : withInventory([ownView(stack)]);
        expect(views.filter((v) => v.foreign && factsParsed(v))).toEqual([]);
    });
});
