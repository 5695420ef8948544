/**
 * docs/architecture.md's rules, checked on every relative import: imports point down (cli and
 * preview → a system's evaluation or the framework → model), no room imports another, no file
 * in cli/ or preview/ imports a policy file, and no source file outside test/ and examples/ is
 * part of an import cycle.
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

/** What cli/ may import of a room: its evaluation and its descriptor (policies/<room>/system.ts). */
const ROOM_FACES = ["evaluation", "system"];

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
                // cli → citrix: the evaluation (it re-exports what size and report need) and the room's descriptor only.
                if (area(file) === "cli" && area(target) === "citrix" && !ROOM_FACES.map((f) => path.join("policies", "citrix", f)).includes(target)) {
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
    it("only policy files have hyphenated names in a room (each one a policy id with its doc page)", () => {
        const hyphenated = ROOMS.flatMap((room) => sources(path.join("policies", room))).filter(isPolicyFile);
        const notPolicies = hyphenated.filter((f) => !fs.existsSync(path.join(ROOT, "docs", "policies", `${path.basename(f, ".ts")}.md`)));
        expect(hyphenated.length).toBeGreaterThan(0);
        expect(notPolicies).toEqual([]);
    });
    it("the framework names no system room", () => {
        expect(fs.readdirSync(path.join(ROOT, "policies")).sort()).toEqual(["citrix", "index.ts", "nsx-alb", "pack", "perfguard-facts.ts", "xen"]);
    });
});

/** Every source file of the project outside test/, examples/ and what is built or installed. */
function projectSources(dir = ""): string[] {
    const out: string[] = [];
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = path.join(dir, entry.name);
        if (entry.name.startsWith(".") || (dir === "" && ["node_modules", "test", "examples", "dist"].includes(entry.name))) {
            continue;
        }
        if (entry.isDirectory()) {
            out.push(...projectSources(rel));
        } else if (/\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
            out.push(rel);
        }
    }
    return out;
}

/**
 * The files `file` imports, resolved as TypeScript does (`./x` is x.ts or x/index.ts). Every kind
 * counts: `import type` (a type-only cycle still ties two modules' edits together), `export ... from`,
 * a side-effect `import "./x"`, and the lazy `await import("./x")` and `require`.
 */
function resolvedImportsOf(file: string, known: ReadonlySet<string>): string[] {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const found = new Set<string>();
    for (const m of text.matchAll(/(?:\bfrom|\bimport\s*\(|\brequire\s*\(|^\s*import)\s*["'](\.{1,2}\/[^"']+)["']/gm)) {
        const base = path.join(path.dirname(file), m[1]).replace(/\.(js|ts|mjs|mts|cjs|cts)$/, "");
        const target = [".ts", ".mts", ".cts", path.join("", "index.ts")]
            .map((ext) => (ext.startsWith(".") ? base + ext : path.join(base, ext)))
            .find((c) => known.has(c));
        if (target !== undefined) {
            found.add(target);
        }
    }
    return [...found].sort();
}

/** The import cycles of a graph: its strongly connected components of two or more files (or one importing itself), each as a path that closes. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
    // Tarjan's algorithm, iterative: the graph is a few hundred files, but recursion depth should not depend on it.
    let counter = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const components: string[][] = [];
    for (const root of [...graph.keys()].sort()) {
        if (index.has(root)) {
            continue;
        }
        const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
        index.set(root, counter);
        low.set(root, counter++);
        stack.push(root);
        onStack.add(root);
        while (work.length > 0) {
            const top = work[work.length - 1];
            const edges = graph.get(top.node) ?? [];
            if (top.next < edges.length) {
                const to = edges[top.next++];
                if (!index.has(to)) {
                    index.set(to, counter);
                    low.set(to, counter++);
                    stack.push(to);
                    onStack.add(to);
                    work.push({ node: to, next: 0 });
                } else if (onStack.has(to)) {
                    low.set(top.node, Math.min(low.get(top.node) as number, index.get(to) as number));
                }
                continue;
            }
            work.pop();
            if (work.length > 0) {
                const parent = work[work.length - 1].node;
                low.set(parent, Math.min(low.get(parent) as number, low.get(top.node) as number));
            }
            if (low.get(top.node) === index.get(top.node)) {
                const component: string[] = [];
                let member: string;
                do {
                    member = stack.pop() as string;
                    onStack.delete(member);
                    component.push(member);
                } while (member !== top.node);
                if (component.length > 1 || (graph.get(top.node) ?? []).includes(top.node)) {
                    components.push(component.sort());
                }
            }
        }
    }
    // Name each component by one closed path through it (shortest from its first file back to itself).
    return components
        .map((component) => {
            const inside = new Set(component);
            const start = component[0];
            const previous = new Map<string, string>();
            const queue = [start];
            let end: string | undefined;
            while (queue.length > 0 && end === undefined) {
                const node = queue.shift() as string;
                for (const to of graph.get(node) ?? []) {
                    if (!inside.has(to)) {
                        continue;
                    }
                    if (to === start) {
                        end = node;
                        break;
                    }
                    if (!previous.has(to)) {
                        previous.set(to, node);
                        queue.push(to);
                    }
                }
            }
            const cycle = [start];
            for (let node = end as string; node !== start; node = previous.get(node) as string) {
                cycle.splice(1, 0, node);
            }
            return [...cycle, start];
        })
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

describe("no import cycle (docs/architecture.md)", () => {
    it("finds a cycle, names it, and ignores a graph without one", () => {
        const graph = new Map<string, string[]>([
            ["a", ["b"]],
            ["b", ["c"]],
            ["c", ["a", "d"]],
            ["d", []],
            ["e", ["e"]],
            ["f", ["d"]],
        ]);
        expect(importCycles(graph)).toEqual([
            ["a", "b", "c", "a"],
            ["e", "e"],
        ]);
        expect(
            importCycles(
                new Map([
                    ["a", ["b"]],
                    ["b", []],
                ]),
            ),
        ).toEqual([]);
    });
    it("no source file outside test/ and examples/ imports itself through other files (type-only and lazy imports included)", () => {
        const files = projectSources();
        expect(files.length).toBeGreaterThan(100);
        const known = new Set(files);
        const graph = new Map(files.map((f) => [f, resolvedImportsOf(f, known)]));
        // The lazy import of cli/diff/plots from cli/diff/run is seen: the walk reads import() too.
        expect(graph.get(path.join("cli", "diff", "run.ts"))).toContain(path.join("cli", "diff", "plots.ts"));
        const cycles = importCycles(graph).map((cycle) => cycle.join(" -> "));
        expect(cycles).toEqual([]);
    });
});

describe("the system registry (cli/systems/index.ts)", () => {
    it("cli/ names no system outside cli/systems/: report, diff and plots loop over the registry", () => {
        const ids = /"(citrix|nsx-alb|xen)"/;
        const bad = [
            path.join("cli", "report.ts"),
            ...sources(path.join("cli", "diff")),
            path.join("policies", "pack", "figures.ts"),
            path.join("policies", "pack", "system.ts"),
        ].filter((f) => ids.test(fs.readFileSync(path.join(ROOT, f), "utf8")));
        expect(bad).toEqual([]);
    });
});

describe("files with one job (issue 31)", () => {
    const sizes = projectSources()
        .map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), "utf8") }))
        .map(({ file, text }) => ({ file, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0), head: text.slice(0, 2000) }));
    it("no source file outside test/ and examples/ is over 600 lines", () => {
        expect(sizes.filter((s) => s.lines > 600).map((s) => `${s.file}: ${s.lines}`)).toEqual([]);
    });
    it("at most four are over 450 lines, and each says why at its top", () => {
        const long = sizes.filter((s) => s.lines > 450);
        expect(long.length, long.map((s) => s.file).join(", ")).toBeLessThanOrEqual(4);
        expect(long.filter((s) => !/Over 450 lines \(why\):/.test(s.head)).map((s) => s.file)).toEqual([]);
    });
});
