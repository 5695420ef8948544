/**
 * The version 3 digest (policies/pack/inventory/digest.ts, digestFile.ts, candidates.ts): read in
 * part, it gives the same stacks and the same verdicts as the exports it was built from and as the
 * older digests; the key-table search never leaves out a stack touchedStacks would select; cut,
 * changed or older files are errors naming the file.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { candidateEntries, hashKey, KeyTable, registerTabled } from "../../../policies/pack/inventory/candidates";
import { digestOf, encodeDigest } from "../../../policies/pack/inventory/digest";
import { readInventory } from "../../../policies/pack/inventory/read";
import { touchedStacks } from "../../../policies/pack/inventory/touched";
import { fixture, previewOf, withInventoryEnv } from "../../support/inventoryStacks";
import { runPolicies } from "../../support/policyHarness";

const FLEET = ["network.json", "network-dmz.json", "team-a.json", "team-b.json", "vms-a.json", "vms-b.json", "vdi-platform.json", "desktops-apac.json"];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-digest-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const BUILT = new Date("2026-12-05T00:00:00Z");

function write(name: string, bytes: Buffer | string): string {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, bytes);
    return file;
}

const inventory = readInventory(FLEET.map(fixture).join(","));
const digest = digestOf(inventory, BUILT);
const v3 = write("v3.json", encodeDigest(digest));

/** The stacks as `project/stack@time: resource names`, for comparing two readings. */
function shown(spec: string): string[] {
    const inv = readInventory(spec);
    expect(inv.errors).toEqual([]);
    return inv.entries.map((e) => `${e.project}/${e.stack}@${e.time}: ${e.resources.map((r) => `${r.urn}=${JSON.stringify(r.outputs)}`).join(", ")}`);
}

/** The digest `b` with its header line rewritten by `edit` (its body unchanged). */
function withHeader(b: Buffer, edit: (header: Record<string, unknown>) => Record<string, unknown>): Buffer {
    const nl = b.indexOf(0x0a);
    const header = JSON.parse(`${b.subarray(0, nl - 1).toString("utf8")}}`) as Record<string, unknown>;
    return Buffer.concat([Buffer.from(`${JSON.stringify(edit(header)).slice(0, -1)},\n`), b.subarray(nl + 1)]);
}

describe("a version 3 digest", () => {
    it("is one JSON document whose first line is its header: an older perfguard names its version", () => {
        const text = fs.readFileSync(v3, "utf8");
        const doc = JSON.parse(text) as { kind: string; version: number; stacks: unknown[]; slices: unknown[] };
        expect([doc.kind, doc.version, doc.stacks.length, doc.slices.length]).toEqual(["perfguard-inventory", 3, 8, 8]);
        expect(text.indexOf("\n")).toBeLessThan(text.indexOf('"slices"'));
    });

    it("reads back, in part, gzipped (whole) or not, as the same stacks as a version 2 digest of the same exports", () => {
        const v2 = write("v2.json", JSON.stringify({ ...digest, version: 2 }));
        const gz = write("v3.json.gz.json", zlib.gzipSync(fs.readFileSync(v3)));
        expect(shown(v3)).toEqual(shown(v2));
        expect(shown(gz)).toEqual(shown(v2));
    });

    it.each(["team-b.json", "network.json", "vms-b.json", "desktops-apac.json"])("previewing %s: the same verdicts as with the exports", async (previewed) => {
        const judge = (spec: string) =>
            withInventoryEnv(spec, async () =>
                (await runPolicies(policies, previewOf(previewed))).map((v) => `${v.policyName} ${v.enforcementLevel} ${v.message}`).sort(),
            );
        const fromExports = await judge(FLEET.map(fixture).join(","));
        expect(fromExports.length).toBeGreaterThan(0);
        expect(await judge(v3)).toEqual(fromExports);
    });

    it.each([
        ["cut after its header", (b: Buffer) => b.subarray(0, b.indexOf(0x0a) + 40), /is cut or was changed after it was written/],
        ["cut inside its header", (b: Buffer) => b.subarray(0, 60), /no complete header line/],
        ["grown", (b: Buffer) => Buffer.concat([b, Buffer.from(" ")]), /is cut or was changed after it was written/],
        ["a header that is not JSON", (b: Buffer) => Buffer.concat([b.subarray(0, 50), Buffer.from("}"), b.subarray(51)]), /malformed version 3 header/],
        ["a header listing no stacks over a body that holds some", (b: Buffer) => withHeader(b, (h) => ({ ...h, stacks: [] })), /stacks do not match its body/],
        [
            "a header that drops its last stack",
            (b: Buffer) => withHeader(b, (h) => ({ ...h, stacks: (h.stacks as unknown[]).slice(0, -1) })),
            /stacks do not match its body/,
        ],
    ])("%s: an error naming the file", (name, damage, problem) => {
        const file = write(`damaged-${name.replace(/\W+/g, "-")}.json`, damage(fs.readFileSync(v3)));
        const inv = readInventory(file);
        expect(inv.entries).toEqual([]);
        expect(inv.errors).toHaveLength(1);
        expect(inv.errors[0].source).toBe(file);
        expect(inv.errors[0].problem).toMatch(problem);
        expect(inv.errors[0].problem).toContain("rebuild it with perfguard inventory");
    });

    it("a stack's line that is not JSON: an error when it is read, never a stack silently empty", () => {
        const bytes = Buffer.from(fs.readFileSync(v3));
        const at = bytes.indexOf('"resources":[', bytes.indexOf('"slices"'));
        bytes[at + 13] = 0x7d; // "}" where a resource starts
        const file = write("bad-line.json", bytes);
        const inv = readInventory(file);
        expect(inv.errors).toEqual([]);
        inv.entries.forEach((e) => e.resources);
        expect(inv.errors.map((e) => e.problem)).toEqual(["has a stack (0) that is not valid JSON: rebuild it with perfguard inventory"]);
    });

    it("rewritten after its header was read: an error when a stack is read", () => {
        const file = write("changing.json", fs.readFileSync(v3));
        const inv = readInventory(file);
        fs.writeFileSync(file, encodeDigest(digestOf(inventory, new Date("2026-12-06T00:00:00Z"))));
        fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
        expect(inv.entries[0].resources).toEqual([]);
        expect(inv.errors.map((e) => e.problem)).toEqual([
            "changed while it was being read (written again?): read it again, or rebuild it with perfguard inventory",
        ]);
    });

    it("an unknown digest version names the versions read", () => {
        const inv = readInventory(write("v9.json", JSON.stringify({ kind: "perfguard-inventory", version: 9, stacks: [] })));
        expect(inv.errors.map((e) => e.problem)).toEqual(["a digest of an unknown version 9 (perfguard reads versions 1 to 3)"]);
    });
});

describe("the key-table search (candidates.ts)", () => {
    /** Stacks of keys from a small alphabet (collisions and shared objects likely), tabled as a digest's. */
    const stackArb = fc.record({
        keys: fc.uniqueArray(fc.constantFrom(..."abcdefghij".split("")), { maxLength: 4 }),
        objects: fc.array(fc.uniqueArray(fc.constantFrom(..."abcdefghij".split("")), { minLength: 2, maxLength: 3 }), { maxLength: 2 }),
    });

    it("touchedStacks on the candidates selects what it selects on every stack", () => {
        fc.assert(
            fc.property(
                fc.array(stackArb, { maxLength: 12 }),
                fc.uniqueArray(fc.constantFrom(..."abcdefghij".split("")), { maxLength: 3 }),
                fc.integer({ min: 0, max: 12 }),
                (stacks, own, untabled) => {
                    const indexes = stacks.map((s) => ({
                        keys: [...new Set([...s.keys, ...s.objects.flat()])].sort(),
                        objects: s.objects.map((o) => [...o].sort()),
                    }));
                    const entries = indexes.map((index, i) => ({ project: `p${i}`, stack: "prod", source: "s", resources: [], index }));
                    const pairs = indexes
                        .flatMap((ix, ordinal) => [...new Set(ix.keys.map(hashKey))].map((h) => [h, ordinal] as const))
                        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
                    const hex = (n: number) => n.toString(16).padStart(8, "0");
                    const text = pairs.map(([h, o]) => hex(h) + hex(o)).join("");
                    const table = new KeyTable(
                        (first, count) => text.slice(first * 16, (first + count) * 16),
                        pairs.length,
                        entries,
                        () => undefined,
                    );
                    // Some entries as an export's (not tabled): always candidates.
                    entries.forEach((e, i) => i >= untabled && registerTabled(e, table, indexes[i].objects));
                    const all = touchedStacks(own, indexes).map((i) => entries[i]);
                    const candidates = candidateEntries(entries, own, (e) => e.index!);
                    expect(
                        touchedStacks(
                            own,
                            candidates.map((e) => e.index!),
                        ).map((i) => candidates[i]),
                    ).toEqual(all);
                },
            ),
            { numRuns: 300 },
        );
    });
});
