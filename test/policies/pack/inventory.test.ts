/**
 * The inventory reader (policies/pack/inventory): stack exports, folders, DIY file backends
 * (both layouts, gzipped or not), digests; errors naming their source; secrets never kept.
 */
import { sourceLabel } from "../../../policies/pack/inventory/messages";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as zlib from "zlib";
import { afterAll, describe, expect, it } from "vitest";
import { readInventory, withoutSecrets } from "../../../policies/pack/inventory/read";
import { inventoryNotices } from "../../../policies/pack/inventory/messages";
import { SECRET_MARK } from "../../../policies/pack/inventory/types";
import { fixture } from "../../support/inventoryStacks";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-inventory-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function exportOf(name: string): { version: number; deployment: unknown } {
    return JSON.parse(fs.readFileSync(fixture(name), "utf8")) as { version: number; deployment: unknown };
}

/** A DIY backend holding the three fixture stacks as checkpoints (`layout` project folders or the older flat one). */
function backend(dir: string, layout: "project" | "flat", gzip: readonly string[] = []): string {
    for (const [project, file] of [
        ["network", "network.json"],
        ["team-a", "team-a.json"],
        ["team-b", "team-b.json"],
    ]) {
        const folder = layout === "project" ? path.join(dir, ".pulumi", "stacks", project) : path.join(dir, ".pulumi", "stacks");
        fs.mkdirSync(folder, { recursive: true });
        const stackFile = layout === "project" ? "prod" : `${project}-prod`;
        const checkpoint = JSON.stringify({ version: 3, checkpoint: { stack: `organization/${project}/prod`, latest: exportOf(file).deployment } });
        if (gzip.includes(project)) {
            fs.writeFileSync(path.join(folder, `${stackFile}.json.gz`), zlib.gzipSync(checkpoint));
        } else {
            fs.writeFileSync(path.join(folder, `${stackFile}.json`), checkpoint);
        }
        // What the backend also keeps and the reader must skip.
        fs.writeFileSync(path.join(folder, `${stackFile}.json.bak`), "{ not json");
        fs.writeFileSync(path.join(folder, `${stackFile}.json.attrs`), "{}");
    }
    fs.mkdirSync(path.join(dir, ".pulumi", "history", "network", "prod"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".pulumi", "history", "network", "prod", "prod-1.checkpoint.json"), "{ broken");
    fs.writeFileSync(path.join(dir, ".pulumi", "meta.yaml"), layout === "project" ? "version: 1\n" : "version: 0\n");
    return `file://${dir}`;
}

const summary = (spec: string) => {
    const inv = readInventory(spec);
    return {
        stacks: inv.entries.map((e) => `${e.project}/${e.stack}@${e.time ?? "?"}:${e.resources.length}`),
        errors: inv.errors.map((e) => e.problem),
    };
};

const THREE = ["network/prod@2026-12-04T20:00:00Z:3", "team-a/prod@2026-12-04T21:00:00Z:3", "team-b/prod@2026-12-04T22:00:00Z:3"];

describe("sources", () => {
    const cases: Array<[string, () => string, { stacks: string[]; errors: string[] }]> = [
        ["one export", () => fixture("network.json"), { stacks: [THREE[0]], errors: [] }],
        ["several, comma-separated, with spaces", () => `${fixture("network.json")} , ${fixture("team-a.json")}`, { stacks: THREE.slice(0, 2), errors: [] }],
        [
            "a folder: its *.json only",
            () => {
                const dir = path.join(tmp, "folder");
                fs.mkdirSync(dir, { recursive: true });
                for (const f of ["network.json", "team-a.json"]) {
                    fs.copyFileSync(fixture(f), path.join(dir, f));
                }
                fs.writeFileSync(path.join(dir, "notes.txt"), "not an export");
                fs.writeFileSync(path.join(dir, "team-a.json.bak"), "{");
                return dir;
            },
            { stacks: THREE.slice(0, 2), errors: [] },
        ],
        ["a file:// backend, project folders, one gzipped", () => backend(path.join(tmp, "be1"), "project", ["team-a"]), { stacks: THREE, errors: [] }],
        [
            "a file:// backend, the older flat layout, all gzipped",
            () => backend(path.join(tmp, "be2"), "flat", ["network", "team-a", "team-b"]),
            { stacks: THREE, errors: [] },
        ],
        ["a missing file", () => path.join(tmp, "nope.json"), { stacks: [], errors: ["cannot be read (ENOENT)"] }],
        [
            "a backend without .pulumi/stacks",
            () => `file://${tmp}/empty`,
            { stacks: [], errors: ["has no .pulumi/stacks folder (not a DIY backend, or no stack in it)"] },
        ],
        [
            "truncated JSON",
            () => {
                const f = path.join(tmp, "truncated.json");
                fs.writeFileSync(f, fs.readFileSync(fixture("team-a.json"), "utf8").slice(0, 500));
                return f;
            },
            { stacks: [], errors: [expect.stringMatching(/^is not valid JSON/)] },
        ],
        [
            "an unknown export version",
            () => {
                const f = path.join(tmp, "v9.json");
                fs.writeFileSync(f, JSON.stringify({ ...exportOf("team-a.json"), version: 9 }));
                return f;
            },
            { stacks: [], errors: ["its version 9 is not one perfguard reads (1, 2, 3)"] },
        ],
        ["an empty variable", () => " , ", { stacks: [], errors: ["names no source"] }],
    ];
    it.each(cases)("%s", (_name, spec, expected) => {
        expect(summary(spec())).toEqual(expected);
    });

    it("one stack in two sources: the newer deployment counts, the other is named", () => {
        const older = path.join(tmp, "older-team-a.json");
        const doc = exportOf("team-a.json") as { deployment: { manifest: { time: string } } };
        doc.deployment.manifest.time = "2026-12-01T00:00:00Z";
        fs.writeFileSync(older, JSON.stringify(doc));
        const inv = readInventory(`${older},${fixture("team-a.json")}`);
        expect(inv.entries.map((e) => e.time)).toEqual(["2026-12-04T21:00:00Z"]);
        expect(inv.duplicates).toEqual([{ project: "team-a", stack: "prod", kept: fixture("team-a.json"), dropped: older }]);
    });
});

describe("secrets", () => {
    it("an encrypted or plaintext secret becomes the opaque mark", () => {
        const sig = "4dabf18193072939515e22adb298388d";
        expect(
            withoutSecrets({
                a: { [sig]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "C1" },
                b: [{ [sig]: "1b47061264138c4ac30d75fd1eb44270", plaintext: '"P1"' }],
                c: "ok",
            }),
        ).toEqual({ a: SECRET_MARK, b: [SECRET_MARK], c: "ok" });
        const inv = readInventory(fixture("network.json"));
        expect(JSON.stringify(inv)).not.toContain("SECRETCIPHERTEXT");
    });
});

describe("notices", () => {
    const now = Date.parse("2026-12-05T03:00:00Z");
    it("an unreadable source is mandatory and named; stale stacks are one advisory", () => {
        const inv = readInventory(`${fixture("network.json")},${path.join(tmp, "missing.json")}`);
        const notices = inventoryNotices(inv, now);
        expect(notices.map((n) => [n.level, n.message.problem])).toEqual([
            [
                "mandatory",
                `PERFGUARD_INVENTORY source ${path.join(tmp, "missing.json")} cannot be read (ENOENT): other stacks' load on shared objects is unknown.`,
            ],
        ]);
        const prev = process.env.PERFGUARD_INVENTORY_MAX_AGE_HOURS;
        process.env.PERFGUARD_INVENTORY_MAX_AGE_HOURS = "5";
        try {
            const stale = inventoryNotices(readInventory(`${fixture("network.json")},${fixture("team-a.json")},${fixture("team-b.json")}`), now);
            expect(stale.map((n) => [n.level, n.message.problem, n.message.basis])).toEqual([
                [
                    "advisory",
                    "inventory: 2 stack(s) deployed more than 5 h ago or at an unknown time (network/prod, team-a/prod): their load may have changed.",
                    ["network/prod: deployed 2026-12-04T20:00:00Z (7 h ago)", "team-a/prod: deployed 2026-12-04T21:00:00Z (6 h ago)"],
                ],
            ]);
        } finally {
            if (prev === undefined) {
                delete process.env.PERFGUARD_INVENTORY_MAX_AGE_HOURS;
            } else {
                process.env.PERFGUARD_INVENTORY_MAX_AGE_HOURS = prev;
            }
        }
    });
});

describe("the age limit PERFGUARD_INVENTORY_MAX_AGE_HOURS", () => {
    // At this time network/prod is 7 h old, team-a/prod 6 h, team-b/prod 5 h: none over the default 24 h.
    const now = Date.parse("2026-12-05T03:00:00Z");
    const three = () => readInventory(`${fixture("network.json")},${fixture("team-a.json")},${fixture("team-b.json")}`);
    it.each([
        ["unset (baseline): no stack older than 24 h, nothing said", undefined, []],
        ["48: nothing said", "48", []],
        [
            '"2h" (a typo): said, though no stack is older than the 24 h used',
            "2h",
            [["advisory", "inventory: PERFGUARD_INVENTORY_MAX_AGE_HOURS is not a positive number of hours: stacks are called stale after 24 h."]],
        ],
        [
            "6: the one stack older named",
            "6",
            [["advisory", "inventory: 1 stack(s) deployed more than 6 h ago or at an unknown time (network/prod): their load may have changed."]],
        ],
    ])("%s", (_name, value, expected) => {
        const prev = process.env.PERFGUARD_INVENTORY_MAX_AGE_HOURS;
        if (value === undefined) {
            delete process.env.PERFGUARD_INVENTORY_MAX_AGE_HOURS;
        } else {
            process.env.PERFGUARD_INVENTORY_MAX_AGE_HOURS = value;
        }
        try {
            expect(inventoryNotices(three(), now).map((n) => [n.level, n.message.problem])).toEqual(expected);
        } finally {
            if (prev === undefined) {
                delete process.env.PERFGUARD_INVENTORY_MAX_AGE_HOURS;
            } else {
                process.env.PERFGUARD_INVENTORY_MAX_AGE_HOURS = prev;
            }
        }
    });
});

/**
 * An inventory that is set but holds nothing (issue 32): an empty folder, a file:// backend with no
 * checkpoint, a digest of no stack. Named (mandatory, like an unreadable one: the load is unknown),
 * and shared objects are judged as without an inventory.
 */
describe("a source that holds no stack", () => {
    // The source as the problem line names it (its tail when long: the line stays within 160 characters wherever the checkout lives).
    const problem = (source: string) =>
        `PERFGUARD_INVENTORY source ${sourceLabel(source)} holds no stack exports: other stacks' load on shared objects is unknown.`;
    const emptyFolder = () => {
        const dir = path.join(tmp, "empty-folder");
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, "README.txt"), "exports go here");
        return dir;
    };
    const emptyBackend = () => {
        const dir = path.join(tmp, "empty-backend");
        fs.mkdirSync(path.join(dir, ".pulumi", "stacks"), { recursive: true });
        return `file://${dir}`;
    };
    const cases: Array<[string, () => string, (spec: string) => string[]]> = [
        ["baseline: one export", () => fixture("network.json"), () => []],
        ["an empty folder", emptyFolder, (spec) => [problem(spec)]],
        ["a file:// backend with no checkpoint", emptyBackend, (spec) => [problem(spec)]],
        ["a digest of no stack", () => fixture("empty-digest.json"), (spec) => [problem(spec)]],
        [
            "an empty folder at a CI runner's long path: its tail named, the line within 160 characters",
            () => {
                const dir = path.join(tmp, "runner-work-".repeat(8), "stack-exports");
                fs.mkdirSync(dir, { recursive: true });
                return dir;
            },
            (spec) => [problem(spec)],
        ],
        [
            "an export and an empty folder: the folder named",
            () => `${fixture("network.json")},${emptyFolder()}`,
            () => [problem(path.join(tmp, "empty-folder"))],
        ],
        [
            "a folder given with a trailing slash, holding an export: not named",
            () => {
                const dir = path.join(tmp, "one-export");
                fs.mkdirSync(dir, { recursive: true });
                fs.copyFileSync(fixture("team-a.json"), path.join(dir, "team-a.json"));
                return `${dir}/`;
            },
            () => [],
        ],
        ["a backend holding the stacks: not named", () => backend(path.join(tmp, "be3"), "project"), () => []],
    ];
    it.each(cases)("%s", (_name, spec, expected) => {
        const s = spec();
        const notices = inventoryNotices(readInventory(s), Date.parse("2026-12-05T03:00:00Z"));
        expect(notices.filter((n) => n.level === "mandatory").map((n) => n.message.problem)).toEqual(expected(s));
    });
});
