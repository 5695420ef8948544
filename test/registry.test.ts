/**
 * One registry lists every policy; files, docs, README and examples are checked against it.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { policies } from "../policies";
import { FACT_KEYS, factTableRow } from "../policies/support/factKeys";

const ROOT = path.resolve(__dirname, "..");
const names = policies.map((p) => p.name);
const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

function policyFiles(): string[] {
    return fs.readdirSync(path.join(ROOT, "policies")).filter((f) => f.endsWith(".ts") && f !== "index.ts").map((f) => f.replace(/\.ts$/, ""));
}

describe("the registry", () => {
    it("has unique, kebab-case names", () => {
        expect(new Set(names).size).toBe(names.length);
        for (const name of names) {
            expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        }
    });
    it("lists exactly one policy per file in policies/, named after it", () => {
        expect([...policyFiles()].sort()).toEqual([...names].sort());
    });
    it.each(policies.map((p) => [p.name, p] as const))("%s declares a sentence, a level and config defaults", (_name, p) => {
        expect(p.description).toMatch(/^[A-Z].*\.$/);
        expect(["advisory", "mandatory"]).toContain(p.enforcementLevel);
        for (const [key, schema] of Object.entries(p.configSchema?.properties ?? {})) {
            expect(schema, `${p.name}.${key}`).toHaveProperty("default");
            expect(schema, `${p.name}.${key}`).toHaveProperty("description");
        }
    });
});

describe("docs/policies/<id>.md", () => {
    it("has exactly one doc per policy", () => {
        const docs = fs.readdirSync(path.join(ROOT, "docs", "policies")).filter((f) => f.endsWith(".md")).map((f) => f.replace(/\.md$/, ""));
        expect(docs.sort()).toEqual([...names].sort());
    });
    it.each(policies.map((p) => [p.name, p] as const))("%s: title, description, level, sections, every config key", (name, p) => {
        const doc = fs.readFileSync(path.join(ROOT, "docs", "policies", `${name}.md`), "utf8");
        expect(doc.split("\n")[0]).toBe(`# ${name}`);
        expect(doc).toContain(p.description);
        expect(doc).toMatch(new RegExp(`\\| Default level \\| ${p.enforcementLevel} \\|`));
        expect(doc).toMatch(/\| Kind \| (resource|stack) policy/);
        expect(doc).toMatch(/\| Reported on \| /);
        for (const heading of ["## What it checks", "## Why", "## How to fix", "## Config", "## Example"]) {
            expect(doc, heading).toContain(`\n${heading}\n`);
        }
        const keys = Object.keys(p.configSchema?.properties ?? {});
        if (keys.length === 0) {
            expect(doc).toContain("This policy takes no config.");
        }
        for (const key of keys) {
            expect(doc, key).toMatch(new RegExp(`\\| \`${key}\` \\|`));
        }
    });
});

describe("README", () => {
    it.each(policies.map((p) => [p.name, p] as const))("lists %s with its default level", (name, p) => {
        expect(readme).toMatch(new RegExp(`\\| \\[\`${name}\`\\]\\(docs/policies/${name}\\.md\\) \\| ${p.enforcementLevel} \\|`));
    });
    it.each(FACT_KEYS.map((k) => [k.key, k] as const))("docs/facts.md documents the fact perfguard:%s as factKeys.ts defines it", (_key, def) => {
        expect(fs.readFileSync(path.join(ROOT, "docs", "facts.md"), "utf8")).toContain(`\n${factTableRow(def)}\n`);
    });
    it("points to the facts reference and its not-checked section", () => {
        expect(readme).toContain("(docs/facts.md#not-checked)");
        expect(fs.readFileSync(path.join(ROOT, "docs", "facts.md"), "utf8")).toContain("\n## Not checked\n");
    });
    it("has exactly two set-up commands, both starting with npm ci", () => {
        const setup = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("\n## ", readme.indexOf("## Quick start") + 5));
        const commands = setup.split("\n").filter((l) => l.startsWith("npm ci"));
        expect(commands).toHaveLength(2);
    });
});

describe("examples", () => {
    it("name only registered policies in expected-violations.json", () => {
        const dir = path.join(ROOT, "examples");
        for (const example of fs.readdirSync(dir)) {
            const file = path.join(dir, example, "expected-violations.json");
            if (!fs.existsSync(file)) {
                continue;
            }
            for (const v of JSON.parse(fs.readFileSync(file, "utf8")) as Array<{ policy: string }>) {
                expect(names, `${example}: ${v.policy}`).toContain(v.policy);
            }
        }
    });
});
