/**
 * The package as the CLI and `pulumi policy publish` see it.
 */
import { execFileSync, spawnSync, SpawnSyncReturns } from "child_process";
import * as fs from "fs";
import { isBuiltin } from "module";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NPM_SDKS } from "../preview/sdkResolution";

const ROOT = path.resolve(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    main: string;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    optionalDependencies?: Record<string, string>;
    dependencyRoles: Record<string, string[]>;
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
    it("gives every shipped dependency one role (docs/architecture.md, Dependencies by role); tests' own are devDependencies", () => {
        const shipped = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})].sort();
        const roles = Object.entries(pkg.dependencyRoles);
        expect(roles.map(([role]) => role)).toEqual(["pack", "preview", "cli"]);
        expect(roles.flatMap(([, deps]) => deps).sort()).toEqual(shipped);
        // What the emulated preview resolves by name at run time (a program's real provider SDK) ships with it.
        expect(pkg.dependencyRoles.preview).toEqual(expect.arrayContaining([...NPM_SDKS, "typescript", "ts-node", "@grpc/grpc-js"]));
        for (const sdk of NPM_SDKS) {
            expect(pkg.devDependencies).not.toHaveProperty(sdk);
        }
    });
    it("has exactly one copy of @pulumi/pulumi in node_modules", () => {
        expect(findPulumiCopies(ROOT).map((p) => path.relative(ROOT, p))).toEqual([path.join("node_modules", "@pulumi", "pulumi")]);
    });
    it("npm pack includes the compiled pack, PulumiPolicy.yaml and the docs", () => {
        const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
            cwd: ROOT,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "ignore"],
        });
        const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
        expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/policies/index.js", "PulumiPolicy.yaml", "package.json", "README.md"]));
        expect(files.some((f) => f.startsWith("test/") || f.startsWith("node_modules/"))).toBe(false);
    });
    it("npm pack leaves the bench and real-CLI scripts out and ships the prepare script", () => {
        const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
            cwd: ROOT,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "ignore"],
        });
        const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
        expect(files.filter((f) => f.startsWith("dist/scripts/"))).toEqual([]);
        expect(files.filter((f) => f.startsWith("scripts/"))).toEqual(["scripts/prepare.cjs"]);
        // From a checkout they still run (dist/scripts is built there): npm run calibrate, bench, preview:real.
        const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
        expect(scripts.prepare).toBe("node scripts/prepare.cjs");
        expect(scripts.calibrate).toContain("dist/scripts/");
    });
    it("PulumiPolicy.yaml declares the nodejs runtime", () => {
        expect(fs.readFileSync(path.join(ROOT, "PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
    });
});

/**
 * What a consumer's CLI does with the published tarball (pulumi/pulumi pkg/backend/httpstate/policypack.go,
 * installRequiredPolicy): extract the `npm pack` tarball's `package/` folder, then the Node.js language
 * host's dependency install, `npm install --loglevel=error` in that folder, lifecycle scripts included
 * (the root package's `prepare` runs). No sources, no tsconfig, only the package's own dependencies.
 * The local npm cache serves them (`--prefer-offline`: the registry is asked only for what it lacks).
 */
describe("the published tarball installs and judges like the checkout", () => {
    let work = "";
    let packageDir = "";
    let install: SpawnSyncReturns<string>;
    beforeAll(() => {
        work = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-package-"));
        // dist/ is built by `npm test`; a publisher's `npm pack` builds it through `prepare`.
        const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
            cwd: ROOT,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "ignore"],
        });
        const tarball = path.join(work, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
        execFileSync("tar", ["-xzf", tarball, "-C", work]);
        packageDir = path.join(work, "package");
        install = spawnSync("npm", ["install", "--loglevel=error", "--prefer-offline", "--no-audit", "--no-fund"], {
            cwd: packageDir,
            encoding: "utf8",
            timeout: 540_000,
            killSignal: "SIGKILL",
        });
    }, 600_000);
    // Removing the installed node_modules (~230 MB) takes minutes on a loaded machine.
    afterAll(() => {
        if (work) {
            fs.rmSync(work, { recursive: true, force: true });
        }
    }, 300_000);

    it("has no sources or build config in the tarball, so a build could not run there", () => {
        expect(fs.existsSync(path.join(packageDir, "tsconfig.build.json"))).toBe(false);
        expect(fs.existsSync(path.join(packageDir, "policies"))).toBe(false);
        expect(fs.existsSync(path.join(packageDir, "dist", "index.js"))).toBe(true);
        expect(fs.existsSync(path.join(packageDir, "dist", "scripts"))).toBe(false);
        expect(fs.existsSync(path.join(packageDir, "scripts", "prepare.cjs"))).toBe(true);
    });

    it("npm install succeeds there, with the prepare script a no-op", () => {
        expect(install.error, String(install.error)).toBeUndefined();
        expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
        expect(install.stdout + install.stderr).not.toMatch(/TS\d{4}|error/i);
        expect(fs.existsSync(path.join(packageDir, "dist", "index.js"))).toBe(true);
        expect(fs.existsSync(path.join(packageDir, "node_modules", "@pulumi", "policy", "package.json"))).toBe(true);
        expect(findPulumiCopies(packageDir).map((p) => path.relative(packageDir, p))).toEqual([path.join("node_modules", "@pulumi", "pulumi")]);
    });

    it("declares every package dist/ requires as a runtime dependency (no devDependency at run time)", () => {
        const used = new Set<string>();
        const walk = (dir: string): void => {
            for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
                const full = path.join(dir, entry.name);
                if (entry.isDirectory()) {
                    walk(full);
                } else if (entry.name.endsWith(".js")) {
                    for (const m of fs.readFileSync(full, "utf8").matchAll(/\brequire\("([^".][^"]*)"\)/g)) {
                        const name = m[1].startsWith("@") ? m[1].split("/").slice(0, 2).join("/") : m[1].split("/")[0];
                        // (A package name: a comment's `require("<dir>/")` is not one.)
                        if (/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(name) && !isBuiltin(name)) {
                            used.add(name);
                        }
                    }
                }
            }
        };
        walk(path.join(packageDir, "dist"));
        const shipped = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as {
            dependencies: Record<string, string>;
            optionalDependencies?: Record<string, string>;
        };
        const declared = new Set([...Object.keys(shipped.dependencies), ...Object.keys(shipped.optionalDependencies ?? {})]);
        expect([...used].filter((dep) => !declared.has(dep)).sort()).toEqual([]);
        // ts-node: the preview runs programs with it (dist/preview/mockedProgram.js); typescript: its peer,
        // the real-SDK type check, and what @pulumi/pulumi's run-policy-pack takes before its vendored TS 3.8.
        expect([...used]).toEqual(expect.arrayContaining(["@pulumi/policy", "@pulumi/pulumi", "ts-node", "typescript"]));
    });

    it("judges an example exactly as the checkout does (npm run preview --policy-pack <extracted>)", () => {
        const preview = (packDir: string) =>
            spawnSync(
                process.execPath,
                [path.join(ROOT, "dist", "preview", "main.js"), path.join(ROOT, "examples", "citrix-satellite-zones"), "--policy-pack", packDir],
                {
                    cwd: ROOT,
                    encoding: "utf8",
                    timeout: 240_000,
                    killSignal: "SIGKILL",
                },
            );
        const fromTarball = preview(packageDir);
        const fromCheckout = preview(ROOT);
        expect(fromCheckout.status).toBe(1);
        expect(fromTarball.status).toBe(fromCheckout.status);
        const withoutPath = (out: string, dir: string) => out.split(`(local: ${dir})`).join("(local: <pack>)");
        expect(withoutPath(fromTarball.stdout, packageDir)).toBe(withoutPath(fromCheckout.stdout, ROOT));
        expect(fromTarball.stdout).toMatch(/\[mandatory\] {2}citrix-zone-rtt-limit/);
    }, 600_000);

    it("runs its own emulated preview on a program that imports a real provider SDK (@vates/pulumi-xenorchestra), as the checkout does", () => {
        const example = path.join(ROOT, "examples", "xen-guest-layout");
        const preview = (root: string) =>
            spawnSync(
                process.execPath,
                [
                    path.join(root, "dist", "preview", "main.js"),
                    example,
                    "--policy-pack-config",
                    path.join(example, "policy-config.json"),
                    "--policy-pack",
                    root,
                ],
                {
                    cwd: root,
                    encoding: "utf8",
                    timeout: 240_000,
                    killSignal: "SIGKILL",
                },
            );
        const fromTarball = preview(packageDir);
        const fromCheckout = preview(ROOT);
        expect(fromCheckout.stderr).not.toMatch(/cannot find module/i);
        expect(fromTarball.stderr).not.toMatch(/cannot find module/i);
        expect(fromTarball.status).toBe(fromCheckout.status);
        const withoutPath = (out: string, dir: string) => out.split(`(local: ${dir})`).join("(local: <pack>)");
        expect(withoutPath(fromTarball.stdout, packageDir)).toBe(withoutPath(fromCheckout.stdout, ROOT));
        expect(fromTarball.stdout).toMatch(/xen-guest-network-share/);
    }, 600_000);
});
