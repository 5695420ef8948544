/**
 * The inventory reader and the merge, fuzzed: truncated and malformed JSON, unknown versions,
 * gzip (whole and cut), secrets (never echoed), thousands of stacks, two stacks claiming one SE
 * group. No crash, no secret in any message, never a silent pass.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { digestOf, encodeDigest } from "../../policies/pack/inventory/digest";
import { readInventory } from "../../policies/pack/inventory/read";
import { emptySources } from "../../policies/pack/inventory/empty";
import { inventoryNotices } from "../../policies/pack/inventory/messages";
import { nsxAlbSeCapacity } from "../../policies/nsx-alb/nsx-alb-se-capacity";
import { perfguardFacts } from "../../policies/perfguard-facts";
import { runStackPolicy } from "../support/policyHarness";
import { parseMessage } from "../../policies/pack/message";
import { fixture, previewOf, withInventoryEnv } from "../support/inventoryStacks";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-inventory-fuzz-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const SECRET = "SECRETCIPHERTEXT";
const teamA = fs.readFileSync(fixture("team-a.json"));
let n = 0;

function write(bytes: Buffer | string): string {
    const file = path.join(tmp, `f${n++}.json`);
    fs.writeFileSync(file, bytes);
    return file;
}

/** Every notice of an inventory: never a secret, never a line over the limit. */
function checkNotices(spec: string): void {
    const inv = readInventory(spec);
    for (const notice of inventoryNotices(inv, Date.now())) {
        const text = JSON.stringify(notice);
        expect(text).not.toContain(SECRET);
        expect(notice.message.problem.length).toBeLessThanOrEqual(160);
    }
    expect(JSON.stringify(inv.entries)).not.toContain(SECRET);
    // Fail closed: a source that gives no stack is an error, or a source named as holding no stack
    // (a mandatory notice: an export of a stack with no resources adds no load, and alone is that).
    expect(inv.entries.length + inv.errors.length + emptySources(inv).length).toBeGreaterThan(0);
}

describe("the reader on damaged sources", () => {
    it("a cut export (plain or gzipped): an error naming it, or the stacks it still holds", () => {
        fc.assert(
            fc.property(fc.integer({ min: 0, max: teamA.length }), fc.boolean(), (cut, gz) => {
                const part = teamA.subarray(0, cut);
                checkNotices(write(gz ? zlib.gzipSync(part).subarray(0, Math.max(2, (cut % 60) + 2)) : part));
            }),
            { numRuns: RUNS },
        );
    });

    it("arbitrary JSON values and versions: never throws", () => {
        const doc = JSON.parse(teamA.toString("utf8")) as Record<string, unknown>;
        fc.assert(
            fc.property(fc.jsonValue(), fc.constantFrom("version", "deployment", "checkpoint", "kind", "stacks"), (junk, key) => {
                checkNotices(write(JSON.stringify({ ...doc, [key]: junk })));
                checkNotices(write(JSON.stringify(junk)));
            }),
            { numRuns: RUNS },
        );
    });
});

describe("the reader on damaged version 3 digests (read in part)", () => {
    const digest = encodeDigest(
        digestOf(readInventory(["network.json", "team-a.json", "vms-a.json"].map(fixture).join(",")), new Date("2026-12-05T00:00:00Z")),
    );

    /** Reads `file` and every stack's resources (each line read late): never throws, never an empty answer. */
    function readAll(file: string): void {
        checkNotices(file);
        const inv = readInventory(file);
        const resources = inv.entries.reduce((n, e) => n + e.resources.length + (e.index?.keys.length ?? 0), 0);
        // A stack read as empty is an error (a damaged line), never a stack silently without its load.
        expect(resources > 0 || inv.errors.length > 0).toBe(true);
    }

    it("cut anywhere (plain or gzipped): an error naming it, never a crash", () => {
        fc.assert(
            fc.property(fc.integer({ min: 0, max: digest.length - 1 }), fc.boolean(), (cut, gz) => {
                const part = digest.subarray(0, cut);
                const file = write(gz ? zlib.gzipSync(part) : part);
                readAll(file);
                // A gzipped digest is parsed whole: a cut of only its final newline loses nothing.
                const lost = digest.subarray(cut).toString("utf8").trim() !== "" || !gz;
                expect(readInventory(file).errors.length > 0).toBe(lost);
            }),
            { numRuns: RUNS },
        );
    });

    it("any byte changed (same length): no crash, and what is read is an error or well-formed stacks", () => {
        fc.assert(
            fc.property(fc.integer({ min: 0, max: digest.length - 1 }), fc.integer({ min: 0, max: 255 }), (at, byte) => {
                const bytes = Buffer.from(digest);
                bytes[at] = byte;
                readAll(write(bytes));
            }),
            { numRuns: RUNS },
        );
    });

    it("arbitrary JSON in its header's fields: never throws", () => {
        const text = digest.toString("utf8");
        const nl = text.indexOf("\n");
        const header = JSON.parse(`${text.slice(0, nl - 1)}}`) as Record<string, unknown>;
        fc.assert(
            fc.property(fc.jsonValue(), fc.constantFrom("stacks", "tableAt", "bytes", "built"), (junk, key) => {
                const line = JSON.stringify({ ...header, [key]: junk }).slice(0, -1);
                readAll(write(`${line},\n${text.slice(nl + 1)}`));
            }),
            { numRuns: RUNS },
        );
    });
});

describe("the merge on large and conflicting inventories", () => {
    it("2,000 stacks of one VS each on shared-web: read once, the group judged with all of them", async () => {
        const doc = JSON.parse(teamA.toString("utf8")) as { deployment: { resources: Array<{ urn: string; outputs?: Record<string, unknown> }> } };
        const stacks = Array.from({ length: 2000 }, (_, i) => {
            const project = `app-${String(i).padStart(4, "0")}`;
            return {
                project,
                stack: "prod",
                time: "2026-12-04T21:00:00Z",
                resources: doc.deployment.resources.map((r) => ({ ...r, urn: r.urn.replace("::team-a::", `::${project}::`) })),
            };
        });
        const digest = write(JSON.stringify({ kind: "perfguard-inventory", version: 1, stacks }));
        const out = await withInventoryEnv(`${fixture("network.json")},${digest}`, () => runStackPolicy(nsxAlbSeCapacity, previewOf("team-b.json")));
        expect(out.map((v) => [v.enforcementLevel, parseMessage(v.message).problem.startsWith('Serviceenginegroup "shared-web"')])).toEqual([
            ["mandatory", true],
        ]);
        expect(out[0].message).toContain("and 1995 more");
        expect(out[0].message).not.toContain(SECRET);
        // 2,000 VSs on one group: the fix search places the group once per candidate (3 s of CPU
        // since distributed placement keeps running sums; 335 s before): a time limit, not a timing assertion.
    }, 120_000);

    it("two stacks claiming one SE group (same uuid): not checked naming both stacks, and judged on each (both fail)", async () => {
        const copy = JSON.parse(fs.readFileSync(fixture("network.json"), "utf8").replace(/::network::/g, "::network-copy::")) as object;
        const out = await withInventoryEnv(`${fixture("network.json")},${write(JSON.stringify(copy))},${fixture("team-a.json")}`, async () => [
            ...(await runStackPolicy(nsxAlbSeCapacity, previewOf("team-b.json"))),
            ...(await runStackPolicy(perfguardFacts as never, previewOf("team-b.json"))),
        ]);
        expect(out.map((v) => [v.enforcementLevel, parseMessage(v.message).problem]).sort()).toEqual([
            ["advisory", "1 resource not checked, for 1 reason (below); their verdicts are unknown."],
            [
                "mandatory",
                'Serviceenginegroup "shared-web": its busiest SE needs 123.8% with 2 VS shares on it (limit 80%): its VSs would drop traffic at peak.',
            ],
            [
                "mandatory",
                'Serviceenginegroup "shared-web": its busiest SE needs 123.8% with 2 VS shares on it (limit 80%): its VSs would drop traffic at peak.',
            ],
        ]);
        expect(out.map((v) => v.message).join("\n")).toContain(
            'seGroupRef matches 2 SE groups (Serviceenginegroup "shared-web" (stack network-copy/prod), Serviceenginegroup "shared-web" (stack network/prod))',
        );
    });
});
