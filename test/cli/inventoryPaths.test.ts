/**
 * Where `perfguard check` and `diff` read PERFGUARD_INVENTORY from: the pack process runs in the
 * pack's folder, so a relative source is made absolute against the user's folder before the pack
 * starts (a relative path once made `diff` pair the pack's "cannot be read" away on both sides: a
 * silent pass); a fleet check, which is its own inventory, refuses one set beside it (exit 2)
 * rather than leave it out silently. Fixtures: test/fixtures/inventory, through the built binary.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { absoluteSources, entriesOfSource } from "../../policies/pack/inventory/read";
import { fixture } from "../support/inventoryStacks";
import { perfguard, tempDir } from "./cliHarness";

const dir = tempDir();
const FIXTURES = path.dirname(fixture("team-b.json"));
const AGE = { PERFGUARD_INVENTORY_MAX_AGE_HOURS: "100000" };

describe("absoluteSources", () => {
    it.each([
        ["relative files, one with spaces", "network.json, team-a.json", `${path.join("/u", "network.json")},${path.join("/u", "team-a.json")}`],
        ["an absolute path and a file:// backend: kept", "/srv/inv/digest.json,file:///srv/state", "/srv/inv/digest.json,file:///srv/state"],
        ["a relative folder", "inv", path.join("/u", "inv")],
        ["a relative file:// backend (as Pulumi accepts it), its query kept", "file://./state?no_checksum=true", "file:///u/state?no_checksum=true"],
        ["a file:// backend in the home folder: kept", "file://~/state", "file://~/state"],
    ])("%s", (_name, spec, expected) => {
        expect(absoluteSources(spec, "/u")).toBe(expected);
    });

    it("a relative source the pack cannot find says where it looked", () => {
        expect(entriesOfSource("no-such-inventory.json")).toEqual([
            { source: "no-such-inventory.json", problem: "cannot be read (ENOENT; read from the policy pack's folder: give an absolute path)" },
        ]);
        expect(entriesOfSource("/no/such/inventory.json")).toEqual([{ source: "/no/such/inventory.json", problem: "cannot be read (ENOENT)" }]);
        expect(entriesOfSource("file://./no-such-state")).toEqual([
            {
                source: "file://./no-such-state",
                problem: "has no .pulumi/stacks folder in the policy pack's folder, where a relative file:// URL is read: give an absolute path",
            },
        ]);
    });
});

describe("a relative PERFGUARD_INVENTORY", () => {
    it.each([
        ["absolute (baseline)", `${fixture("network.json")},${fixture("team-a.json")}`],
        ["relative to the user's folder", "network.json,team-a.json"],
    ])("%s: check of team B judges the group at the combined figure, exit 1", async (_name, spec) => {
        const out = await perfguard(["check", fixture("team-b.json"), "--json"], FIXTURES, { ...AGE, PERFGUARD_INVENTORY: spec });
        expect(out.code).toBe(1);
        const json = JSON.parse(out.stdout) as { violations: Array<{ policyName: string; enforcementLevel: string; message: string }> };
        const capacity = json.violations.filter((v) => v.policyName === "nsx-alb-se-capacity" && v.enforcementLevel === "mandatory");
        expect(capacity.map((v) => /busiest SE needs ([\d.]+%)/.exec(v.message)?.[1])).toEqual(["123.8%"]);
        expect(json.violations.filter((v) => v.policyName === "perfguard-facts" && v.enforcementLevel === "mandatory")).toEqual([]);
    });

    it("relative to the user's folder: diff shows the combined figure and the new mandatory verdict, exit 1", async () => {
        const base = path.join(dir, "team-b-without.json");
        const doc = JSON.parse(fs.readFileSync(fixture("team-b.json"), "utf8")) as { deployment: { resources: Array<{ urn: string }> } };
        doc.deployment.resources = doc.deployment.resources.filter((r) => !r.urn.endsWith("::catalog-web"));
        fs.writeFileSync(base, JSON.stringify(doc));
        const out = await perfguard(["diff", base, fixture("team-b.json")], FIXTURES, { ...AGE, PERFGUARD_INVENTORY: "network.json,team-a.json" });
        expect(out.code).toBe(1);
        expect(out.stdout).toMatch(/\[mandatory\]\s+nsx-alb-se-capacity/);
        expect(out.stdout).toContain("123.8%");
        expect(out.stdout).not.toContain("cannot be read");
    });
});

describe("a fleet check with PERFGUARD_INVENTORY set", () => {
    it.each([
        ["unset (baseline): the fleet judged with itself, exit 1", undefined, 1, ""],
        [
            "set: refused, naming what to do, exit 2",
            fixture("vms-a.json"),
            2,
            "PERFGUARD_INVENTORY is set, but a check of several stacks judges them with each other only",
        ],
    ])("%s", async (_name, spec, code, stderr) => {
        const out = await perfguard(["check", fixture("network.json"), fixture("team-a.json"), fixture("team-b.json")], dir, {
            ...AGE,
            PERFGUARD_INVENTORY: spec,
        });
        expect(out.code).toBe(code);
        expect(out.stderr).toContain(stderr);
    });
});
