/**
 * `perfguard check` of a fleet whose folder or list holds a digest written by `perfguard
 * inventory` (cli/fleetSources.ts): the digest's stacks add their load and are not checked; a
 * stack that is also an export of the fleet is read from the export; a digest alone, where a
 * stack export is expected, is a one-line error naming it and what to do (exit 2). Before, any
 * digest in a fleet folder failed with "is not a stack export" (exit 2).
 * Fixtures: test/fixtures/inventory, through the built binary.
 */
import * as fs from "fs";
import * as path from "path";
import * as zlib from "zlib";
import { describe, expect, it } from "vitest";
import { fixture } from "../support/inventoryStacks";
import { perfguard, tempDir } from "./cliHarness";

const dir = tempDir();
const ENV = { PERFGUARD_INVENTORY: undefined, PERFGUARD_INVENTORY_MAX_AGE_HOURS: "100000" };

/** A folder holding copies of `exports` (fixture names) and, built from `digestOf`, `digest.json` (gzipped when asked). */
async function folder(name: string, exports: readonly string[], digestOf: readonly string[], gzip = false): Promise<string> {
    const at = path.join(dir, name);
    fs.mkdirSync(at, { recursive: true });
    for (const e of exports) {
        fs.copyFileSync(fixture(e), path.join(at, e));
    }
    if (digestOf.length > 0) {
        const digest = path.join(dir, `${name}-digest.json`);
        const built = await perfguard(["inventory", ...digestOf.map(fixture), "-o", digest], dir, ENV);
        expect(built.code).toBe(0);
        const bytes = fs.readFileSync(digest);
        fs.writeFileSync(path.join(at, "digest.json"), gzip ? zlib.gzipSync(bytes) : bytes);
    }
    return at;
}

interface CheckJson {
    mandatory: number;
    digests?: string[];
    loadOnly?: string[];
    fleet: Array<{ project: string; violations: Array<{ policyName: string; enforcementLevel: string; urn: string; message: string }> }>;
}

/** Each mandatory verdict: `project: policy -> resource busiest%`. */
function mandatory(json: CheckJson): string[] {
    return json.fleet.flatMap((s) =>
        s.violations
            .filter((v) => v.enforcementLevel === "mandatory")
            .map((v) => `${s.project}: ${v.policyName} -> ${v.urn.split("::").pop()} ${/busiest SE needs ([\d.]+%)/.exec(v.message)?.[1]}`),
    );
}

describe("perfguard check of a folder holding exports and a digest", () => {
    it.each([
        {
            name: "team B's export beside a digest of the network and team A: judged at the combined 123.8%",
            make: () => folder("b-and-digest", ["team-b.json"], ["network.json", "team-a.json"]),
            checked: ["team-b"],
            mandatory: ["team-b: nsx-alb-se-capacity -> catalog-web 123.8%"],
            loadOnly: ["network/prod", "team-a/prod"],
            summary: "(network/prod, team-a/prod)): 1 mandatory",
        },
        {
            name: "the same with the digest gzipped",
            make: () => folder("b-and-gz", ["team-b.json"], ["network.json", "team-a.json"], true),
            checked: ["team-b"],
            mandatory: ["team-b: nsx-alb-se-capacity -> catalog-web 123.8%"],
            loadOnly: ["network/prod", "team-a/prod"],
            summary: "(network/prod, team-a/prod)): 1 mandatory",
        },
        {
            // CI wrote the digest into the folder of the exports it was built from: the exports win, nothing counts twice.
            name: "the three exports beside the digest built from them: one cause, on the group, as without the digest",
            make: () => folder("all-and-digest", ["network.json", "team-a.json", "team-b.json"], ["network.json", "team-a.json", "team-b.json"]),
            checked: ["network", "team-a", "team-b"],
            mandatory: ["network: nsx-alb-se-capacity -> shared-web 123.8%"],
            loadOnly: [],
            summary: "its stacks are all exports here, read from the exports): 1 mandatory",
        },
    ])("$name", async (c) => {
        const at = await c.make();
        const report = path.join(dir, `${path.basename(at)}.md`);
        const run = await perfguard(["check", at, "--json", "--report", report], dir, ENV);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(1);
        const json = JSON.parse(run.stdout) as CheckJson;
        expect(json.fleet.map((s) => s.project)).toEqual(c.checked);
        expect(mandatory(json)).toEqual(c.mandatory);
        expect(json.digests).toEqual([path.join(at, "digest.json")]);
        expect(json.loadOnly).toEqual(c.loadOnly);
        // The report's figures count the digest's stacks too, each named with its stack.
        expect(fs.readFileSync(report, "utf8")).toContain("| checkout-api (team-a/prod) | shared-web (network/prod) |");
        const text = await perfguard(["check", at], dir, ENV);
        expect(text.stdout).toContain(`digest ${path.join(at, "digest.json")}: `);
        expect(text.stdout).toContain(c.summary);
    });

    it.each([
        { name: "a folder holding only a digest", args: async () => [await folder("digest-only", [], ["network.json", "team-a.json"])] },
        { name: "a digest given as the one file to check", args: async () => [path.join(await folder("digest-one", [], ["network.json"]), "digest.json")] },
    ])("$name: a one-line error naming the digest and what to do (exit 2)", async (c) => {
        const [arg] = await c.args();
        const digest = arg.endsWith(".json") ? arg : path.join(arg, "digest.json");
        const run = await perfguard(["check", arg], dir, ENV);
        expect(run.code).toBe(2);
        expect(run.stdout).toBe("");
        expect(run.stderr).toBe(
            `error: ${digest} is a perfguard inventory digest (other stacks' load), not a stack export: check the stacks' exports, with the digest in PERFGUARD_INVENTORY or beside them (a folder, or another argument of check)\n`,
        );
    });
});

describe("perfguard check of a fleet folder as `pulumi stack ls --all` exports it", () => {
    // `pulumi stack export` of a stack never deployed (or destroyed): a deployment with no resources.
    const EMPTY_EXPORT = JSON.stringify({ version: 3, deployment: { manifest: { time: "2026-12-05T10:00:00Z" }, secrets_providers: { type: "passphrase" } } });
    it.each([
        {
            name: "the three teams' exports (baseline): team B blocked at 123.8% on the group",
            extra: [] as string[],
            twice: false,
            stacks: 3,
            skipped: [] as string[],
        },
        {
            name: "plus an export with no resources: passed over, said once, the verdict unchanged",
            extra: ["new-stack.json"],
            twice: false,
            stacks: 3,
            skipped: ["new-stack.json"],
        },
        { name: "with team A's export also given as a file: one stack, read once", extra: [], twice: true, stacks: 3, skipped: [] },
    ])("$name", async (c) => {
        const at = await folder(`ls-all-${c.extra.length}-${c.twice}`, ["network.json", "team-a.json", "team-b.json"], []);
        for (const e of c.extra) {
            fs.writeFileSync(path.join(at, e), EMPTY_EXPORT);
        }
        const args = c.twice ? [at, path.join(at, "team-a.json")] : [at];
        const run = await perfguard(["check", ...args], dir, ENV);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(1);
        expect(run.stdout).toContain(`perfguard check (fleet of ${c.stacks} stacks, each judged with the others' load): 1 mandatory`);
        expect(run.stdout).toContain("its busiest SE needs 123.8%");
        expect(run.stdout.split("\n").filter((l) => l.includes("nothing to check or count"))).toEqual(
            c.skipped.map((f) => `perfguard check ${path.join(at, f)}: no resources (a stack never deployed, or destroyed): nothing to check or count.`),
        );
        const built = await perfguard(["inventory", at, "-o", path.join(dir, `${path.basename(at)}-inv.json`)], dir, ENV);
        expect(built.code).toBe(0);
    });
});
