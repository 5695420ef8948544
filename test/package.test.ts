/**
 * The package as the CLI and `pulumi policy publish` see it.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    name: string; version: string; main: string; dependencies: Record<string, string>; devDependencies: Record<string, string>;
};

function findPulumiCopies(dir: string, depth = 0): string[] {
    const found: string[] = [];
    const modules = path.join(dir, "node_modules");
    if (!fs.existsSync(modules) || depth > 6) {
        return found;
    }
    for (const entry of fs.readdirSync(modules)) {
        const scoped = entry.startsWith("@") ? fs.readdirSync(path.join(modules, entry)).map((e) => `${entry}/${e}`) : [entry];
        for (const name of scoped) {
            const full = path.join(modules, name);
            if (name === "@pulumi/pulumi") {
                found.push(full);
            }
            if (fs.statSync(full).isDirectory()) {
                found.push(...findPulumiCopies(full, depth + 1));
            }
        }
    }
    return found;
}

describe("package", () => {
    it("is perfguard 0.1.0 with compiled JavaScript as main", () => {
        expect(pkg.name).toBe("perfguard");
        expect(pkg.version).toBe("0.1.0");
        expect(pkg.main).toBe("dist/index.js");
        expect(fs.existsSync(path.join(ROOT, pkg.main))).toBe(true);
    });
    it("ships typescript 5 and ts-node 10 as runtime dependencies, so the CLI never falls back to TS 3.8", () => {
        expect(pkg.dependencies.typescript).toMatch(/^[~^]?5\./);
        expect(pkg.dependencies["ts-node"]).toMatch(/^[~^]?10\./);
        for (const dep of ["@pulumi/pulumi", "@pulumi/policy", "ajv"]) {
            expect(pkg.dependencies).toHaveProperty(dep);
        }
    });
    it("has exactly one copy of @pulumi/pulumi in node_modules", () => {
        expect(findPulumiCopies(ROOT).map((p) => path.relative(ROOT, p))).toEqual([path.join("node_modules", "@pulumi", "pulumi")]);
    });
    it("npm pack includes the compiled pack, PulumiPolicy.yaml and the docs", () => {
        const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
        const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
        expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/policies/index.js", "PulumiPolicy.yaml", "package.json", "README.md"]));
        expect(files.some((f) => f.startsWith("test/") || f.startsWith("node_modules/"))).toBe(false);
    });
    it("PulumiPolicy.yaml declares the nodejs runtime", () => {
        expect(fs.readFileSync(path.join(ROOT, "PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
    });
});
