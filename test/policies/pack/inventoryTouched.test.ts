/**
 * Which of the inventory's stacks a preview reads (policies/pack/inventory/touched.ts): the stacks
 * touching a shared object of the previewed stack, through its other identities (uuid <-> name);
 * never an unrelated stack, and the verdicts with the whole fleet equal those with the touched stacks.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { readInventory } from "../../../policies/pack/inventory/read";
import { stackIndex, touchedStacks } from "../../../policies/pack/inventory/touched";
import type { InventoryEntry } from "../../../policies/pack/inventory/types";
import { fixture, previewOf, withInventoryEnv } from "../../support/inventoryStacks";
import { runPolicies } from "../../support/policyHarness";

const FLEET = ["network.json", "network-dmz.json", "team-a.json", "team-b.json", "vms-a.json", "vms-b.json", "vdi-platform.json", "desktops-apac.json"];
const entries = readInventory(FLEET.map(fixture).join(",")).entries;

function byName(project: string): InventoryEntry {
    return entries.find((e) => e.project === project)!;
}

/** The projects the previewed project's own resources touch among the others. */
function touchedBy(project: string, others: readonly InventoryEntry[] = entries.filter((e) => e.project !== project)): string[] {
    const own = stackIndex(byName(project).resources).keys;
    return touchedStacks(
        own,
        others.map((e) => stackIndex(e.resources)),
    )
        .map((i) => others[i].project)
        .sort();
}

/** A copy of team A's stack whose VS names the group by `?name=` query (no uuid in it). */
function byNameQuery(): InventoryEntry {
    const a = byName("team-a");
    return {
        ...a,
        project: "team-c",
        resources: a.resources.map((r) =>
            r.type.includes("Virtualservice") ? { ...r, outputs: { ...r.outputs, seGroupRef: "/api/serviceenginegroup/?name=shared-web" } } : r,
        ),
    };
}

describe("touched stacks", () => {
    it.each([
        // Team B's VS names shared-web by URL: the group's stacks (also the DMZ Controller's same-named one) and team A's VS on it.
        ["team-b", ["network", "network-dmz", "team-a"]],
        ["team-a", ["network", "network-dmz", "team-b"]],
        ["network", ["network-dmz", "team-a", "team-b"]],
        // b-api's host is the one team A's guests use.
        ["vms-b", ["vms-a"]],
        // One Citrix Site per fleet: the platform's zone and controllers.
        ["desktops-apac", ["vdi-platform"]],
        ["vdi-platform", ["desktops-apac"]],
    ])("%s touches %j", (project, expected) => {
        expect(touchedBy(project)).toEqual(expected);
    });

    it.each([
        ["the same case (baseline)", (h: string) => h, ["vms-a"]],
        ["upper case", (h: string) => h.toUpperCase(), ["vms-a"]],
    ])("vms-b's affinityHost in %s still touches vms-a (hosts match in any case)", (_name, write, expected) => {
        const b = byName("vms-b");
        const moved = {
            ...b,
            project: "vms-c",
            resources: b.resources.map((r) =>
                typeof r.outputs.affinityHost === "string" ? { ...r, outputs: { ...r.outputs, affinityHost: write(r.outputs.affinityHost) } } : r,
            ),
        };
        const others = entries.filter((e) => e.project !== "vms-b");
        expect(
            touchedStacks(
                stackIndex(moved.resources).keys,
                others.map((e) => stackIndex(e.resources)),
            )
                .map((i) => others[i].project)
                .sort(),
        ).toEqual(expected);
    });

    it("a stack naming the group by ?name= joins through the group's uuid and name", () => {
        const others = [...entries.filter((e) => e.project !== "team-b"), byNameQuery()];
        expect(touchedBy("team-b", others)).toContain("team-c");
    });

    it("without the group's stack, a by-name reference is not reached from a uuid", () => {
        const others = [byName("team-a"), byNameQuery()];
        expect(touchedBy("team-b", others)).toEqual(["team-a"]);
    });
});

describe("verdicts with unrelated stacks in the inventory", () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-touched-"));
    afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

    /** 300 stacks of team A's and vms-a's resources moved to another SE group and another host: they touch nothing of the fleet. */
    function unrelatedDigest(): string {
        const moved = (e: InventoryEntry, i: number) => ({
            project: `${e.project}-other-${i}`,
            stack: e.stack,
            time: e.time,
            resources: e.resources.map(
                (r) =>
                    JSON.parse(
                        JSON.stringify(r)
                            .replaceAll(`::${e.project}::`, `::${e.project}-other-${i}::`)
                            .replaceAll("serviceenginegroup-3f1c2a9e", "serviceenginegroup-00000000")
                            .replace(/"affinityHost":"[^"]*"/g, '"affinityHost":"host-elsewhere"'),
                    ) as unknown,
            ),
        });
        const stacks = Array.from({ length: 150 }, (_, i) => [moved(byName("team-a"), i), moved(byName("vms-a"), i)]).flat();
        const file = path.join(tmp, "unrelated.json");
        fs.writeFileSync(file, JSON.stringify({ kind: "perfguard-inventory", version: 1, stacks }));
        return file;
    }

    it.each(["team-b.json", "network.json", "vms-b.json", "desktops-apac.json"])("previewing %s: the same verdicts", async (previewed) => {
        const fleet = FLEET.map(fixture).join(",");
        const digest = unrelatedDigest();
        const judge = (spec: string) =>
            withInventoryEnv(spec, async () =>
                (await runPolicies(policies, previewOf(previewed))).map((v) => `${v.policyName} ${v.enforcementLevel} ${v.message}`).sort(),
            );
        const alone = await judge(fleet);
        expect(alone.length).toBeGreaterThan(0);
        expect(await judge(`${fleet},${digest}`)).toEqual(alone);
    });
});
