/**
 * `perfguard inventory` (the digest PERFGUARD_INVENTORY reads) and `perfguard check` of several
 * stacks as one fleet, through the built binary, on the fixtures of test/fixtures/inventory.
 */
import * as fs from "fs";
import * as path from "path";
import * as zlib from "zlib";
import { describe, expect, it } from "vitest";
import { readInventory } from "../../policies/pack/inventory/read";
import { fixture } from "../support/inventoryStacks";
import { perfguard, tempDir } from "./cliHarness";

const dir = tempDir();

describe("perfguard inventory", () => {
    it("writes a digest of only what the policies read, which reads back as the same stacks", async () => {
        const out = path.join(dir, "digest", "fleet.json");
        const run = await perfguard(["inventory", fixture("network.json"), fixture("team-a.json"), fixture("vms-a.json"), "-o", out]);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        expect(run.stdout).toBe(`perfguard inventory: 3 stack(s), 8 of 11 resources kept (the ones policies read); digest written to ${out}.\n`);
        const text = fs.readFileSync(out, "utf8");
        expect(text).not.toMatch(/SECRETCIPHERTEXT/);
        const back = readInventory(out);
        expect(back.errors).toEqual([]);
        // Resources by URN (type first): the provider's token sorts after avi:, before xenorchestra:.
        expect(back.entries.map((e) => `${e.project}/${e.stack}@${e.time}: ${e.resources.map((r) => r.urn.split("::").pop()).join(", ")}`)).toEqual([
            "network/prod@2026-12-04T20:00:00Z: shared-web, controller",
            "team-a/prod@2026-12-04T21:00:00Z: checkout-api, controller",
            "vms-a/prod@2026-12-04T21:30:00Z: xo, a-db, a-web-1, a-web-2",
        ]);
    });

    it("fails naming a source it cannot read (exit 2), writing nothing", async () => {
        const out = path.join(dir, "never.json");
        const missing = path.join(dir, "missing.json");
        const run = await perfguard(["inventory", fixture("network.json"), missing, "-o", out]);
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(`error: inventory source ${missing} cannot be read (ENOENT)\n`);
        expect(fs.existsSync(out)).toBe(false);
    });

    it("fails naming a source that holds no stack (an empty folder: a failed export step), writing nothing", async () => {
        const out = path.join(dir, "never-empty.json");
        const empty = path.join(dir, "empty-exports");
        fs.mkdirSync(empty, { recursive: true });
        const run = await perfguard(["inventory", fixture("network.json"), empty, "-o", out]);
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(`error: inventory source ${empty} holds no stack exports\n`);
        expect(fs.existsSync(out)).toBe(false);
    });
});

describe("perfguard check of a fleet", () => {
    /** A file:// backend of the three NSX stacks (team B's checkpoint gzipped). */
    function nsxBackend(): string {
        const root = path.join(dir, "backend");
        for (const name of ["network", "team-a", "team-b"]) {
            const folder = path.join(root, ".pulumi", "stacks", name);
            fs.mkdirSync(folder, { recursive: true });
            const doc = JSON.parse(fs.readFileSync(fixture(`${name}.json`), "utf8")) as { deployment: unknown };
            const text = JSON.stringify({ version: 3, checkpoint: { stack: `organization/${name}/prod`, latest: doc.deployment } });
            fs.writeFileSync(path.join(folder, name === "team-b" ? "prod.json.gz" : "prod.json"), name === "team-b" ? zlib.gzipSync(text) : text);
        }
        return `file://${root}`;
    }

    // Before: the cause was reported three times, once per contributing stack (shared-web, checkout-api, catalog-web).
    it("a file:// backend of the three stacks: shared-web at 123.8% reported once, on the group, naming the contributing stacks", async () => {
        const run = await perfguard(["check", nsxBackend(), "--json"]);
        expect(run.code).toBe(1);
        const json = JSON.parse(run.stdout) as {
            mandatory: number;
            fleet: Array<{ project: string; violations: Array<{ policyName: string; urn: string; message: string; enforcementLevel: string }> }>;
        };
        const mandatory = json.fleet.flatMap((s) => s.violations.filter((v) => v.enforcementLevel === "mandatory").map((v) => ({ project: s.project, v })));
        expect(
            mandatory.map(({ project, v }) => `${project}: ${v.policyName} -> ${v.urn.split("::").pop()} ${/busiest SE needs ([\d.]+%)/.exec(v.message)?.[1]}`),
        ).toEqual(["network: nsx-alb-se-capacity -> shared-web 123.8%"]);
        expect(json.mandatory).toBe(1);
        expect(mandatory[0].v.message.split("\n").pop()).toBe(
            'Basis: one cause in 3 stacks of the fleet, reported once here: network/prod "shared-web", team-a/prod "checkout-api", team-b/prod "catalog-web"',
        );
    });

    it("--report lists the shared object's contributions per stack", async () => {
        const report = path.join(dir, "fleet-report.md");
        const run = await perfguard(["check", nsxBackend(), "--report", report]);
        expect(run.code).toBe(1);
        const text = fs.readFileSync(report, "utf8");
        expect(text).toContain("| checkout-api (team-a/prod) | shared-web (network/prod) | - | 75.9% of its 1 SE (CPU total (summed, not measured)) |");
        expect(text).toContain("| catalog-web (team-b/prod) | shared-web (network/prod) | - | 47.9% of its 1 SE (CPU total (summed, not measured)) |");
        expect(text).toContain("1 mandatory and 0 advisory violations");
    });

    // One document of every stack's verdicts (the writers are shared by every format: two of them here).
    it.each(["sarif", "markdown"])("--format %s accepts a fleet: the one verdict, on the group", async (format) => {
        const run = await perfguard(["check", nsxBackend(), "--format", format]);
        expect(run.code).toBe(1);
        expect(run.stdout).toContain("shared-web");
        expect(run.stdout).not.toContain('checkout-api" 123.8');
    });
});
