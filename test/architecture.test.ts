/**
 * docs/architecture.md's rules, checked on every relative import: imports point down (cli and
 * preview → a system's evaluation or the framework → model), no room imports another, and no file
 * in cli/ or preview/ imports a policy file.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const ROOMS = ["citrix", "nsx-alb", "xen"];

function sources(dir: string): string[] {
    const out: string[] = [];
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            out.push(...sources(rel));
        } else if (entry.name.endsWith(".ts")) {
            out.push(rel);
        }
    }
    return out;
}

/** Every relative import of `file`, as a repository-relative path without extension. */
function importsOf(file: string): string[] {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const found: string[] = [];
    for (const m of text.matchAll(/(?:from|import\(|require\()\s*"(\.{1,2}\/[^"]+)"/g)) {
        found.push(path.relative(ROOT, path.resolve(ROOT, path.dirname(file), m[1])).replace(/\.(js|ts)$/, ""));
    }
    return found;
}

/** The area a repository path belongs to: "model", "pack", a room, "registry", "cli", ... */
function area(p: string): string {
    const parts = p.replace(/\.ts$/, "").split(path.sep);
    if (parts[0] === "policies") {
        if (parts.length === 2) {
            return parts[1] === "index" ? "registry" : "pack-policy";
        }
        return parts[1];
    }
    return parts[0];
}

const isPolicyFile = (p: string): boolean => p.startsWith("policies" + path.sep) && path.basename(p).includes("-");

const ALLOWED: Readonly<Record<string, readonly string[]>> = {
    model: ["model"],
    pack: ["pack", "model"],
    citrix: ["citrix", "pack", "model"],
    "nsx-alb": ["nsx-alb", "pack", "model"],
    xen: ["xen", "pack", "model"],
    "pack-policy": ["pack", "pack-policy"],
    registry: ["citrix", "nsx-alb", "xen", "pack-policy"],
};

describe("imports point one way (docs/architecture.md)", () => {
    const files = ["model", "policies", "cli", "preview"].flatMap((d) => sources(d));
    it.each(Object.keys(ALLOWED))("%s imports only what lies beneath it", (from) => {
        const bad: string[] = [];
        for (const file of files.filter((f) => area(f) === from)) {
            for (const target of importsOf(file)) {
                if (!ALLOWED[from].includes(area(target))) {
                    bad.push(`${file} -> ${target}`);
                }
            }
        }
        expect(bad).toEqual([]);
    });
    it("no file in cli/ or preview/ imports a policy file or another room's internals beyond its evaluation", () => {
        const bad: string[] = [];
        for (const file of files.filter((f) => ["cli", "preview"].includes(area(f)))) {
            for (const target of importsOf(file)) {
                if (isPolicyFile(target) || area(target) === "registry") {
                    bad.push(`${file} -> ${target}`);
                }
                if (area(file) === "preview" && ROOMS.includes(area(target))) {
                    bad.push(`${file} -> ${target}`);
                }
                // cli → citrix: the evaluation only (it re-exports what size and report need).
                if (area(file) === "cli" && area(target) === "citrix" && target !== path.join("policies", "citrix", "evaluation")) {
                    bad.push(`${file} -> ${target}`);
                }
            }
        }
        expect(bad).toEqual([]);
    });
    it("cli/ reads NSX ALB only through its evaluation (never a policy file or its messages)", () => {
        const bad: string[] = [];
        for (const file of files.filter((f) => area(f) === "cli")) {
            for (const target of importsOf(file)) {
                // The evaluation's modules (evaluation, config, fit, figures, names, ...): not a policy (hyphenated) nor a message builder.
                const name = path.basename(target);
                if (area(target) === "nsx-alb" && (name.includes("-") || name.endsWith("Messages"))) {
                    bad.push(`${file} -> ${target}`);
                }
            }
        }
        expect(bad).toEqual([]);
    });
    it("the framework names no system room", () => {
        expect(fs.readdirSync(path.join(ROOT, "policies")).sort()).toEqual(["citrix", "index.ts", "nsx-alb", "pack", "perfguard-facts.ts", "xen"]);
    });
});
