/**
 * Stages a program for the real CLI: a copy outside the repository, with a node_modules that
 * holds what the program would use in place plus perfguard's stand-in provider SDKs.
 */
import * as fs from "fs";
import * as path from "path";
import { NPM_SDKS, STAND_IN_SDKS } from "../../preview/sdkResolution";
import { REPO_ROOT } from "./paths";

/**
 * Copies a program into a scratch folder outside the repository, so that `stack init` writes its
 * Pulumi.<stack>.yaml there and not into the program's folder (the stack's own file is carried
 * by carryStackConfig, the others are left out) (and, for a program inside this
 * repository, so that the Node.js language host does not take perfguard's own package.json as the
 * program's project root), with a node_modules beside it (stageNodeModules). A program anywhere on
 * disk works, with its own node_modules or none; one that imports a file from outside its folder
 * cannot be staged and fails with one line (StagingError).
 */
export function stageProgram(programDir: string, root: string): { dir: string; dispose(): void } {
    const source = path.resolve(programDir);
    if (!fs.existsSync(source) || !fs.statSync(source).isDirectory()) {
        throw new StagingError(`no program folder ${source}`);
    }
    const escaping = importsFromOutside(source);
    if (escaping) {
        throw new StagingError(escaping);
    }
    const dir = path.join(root, "program", path.basename(source));
    fs.cpSync(source, dir, {
        recursive: true,
        filter: (src) => path.basename(src) !== "node_modules" && !/^Pulumi\.[^/]+\.yaml$/.test(path.basename(src)),
    });
    stageNodeModules(source, path.join(dir, "node_modules"));
    return { dir, dispose: () => fs.rmSync(path.join(root, "program"), { recursive: true, force: true }) };
}

/** A program that cannot be staged, in one line. */
export class StagingError extends Error {}

/** The node_modules Node would use for `dir`: the nearest one in it or above it. */
export function nearestNodeModules(dir: string): string | undefined {
    for (let d = path.resolve(dir); ; d = path.dirname(d)) {
        const candidate = path.join(d, "node_modules");
        if (fs.existsSync(candidate) && fs.statSync(candidate).isDirectory()) {
            return candidate;
        }
        if (path.dirname(d) === d) {
            return undefined;
        }
    }
}

/**
 * Builds the staged program's node_modules: a link to each package of the node_modules the program
 * would use in place (its own, or one above it; perfguard's when there is none), then what is
 * missing there: `@pulumi/pulumi` from perfguard, and the providers' package names
 * (preview/sdkResolution.ts STAND_IN_SDKS) as packages made of perfguard's compiled stand-ins
 * (dist/examples/sdk). The stand-ins are copied, not linked, so that their own
 * `require("@pulumi/pulumi")` finds the program's copy beside them: one SDK, whose types the
 * program's resources share (with a second copy `Zone.id` fails to type-check, TS2339).
 * `@vates/pulumi-xenorchestra` is copied from perfguard's node_modules for the same reason.
 */
export function stageNodeModules(programDir: string, dest: string): void {
    const base = nearestNodeModules(programDir) ?? path.join(REPO_ROOT, "node_modules");
    fs.mkdirSync(dest, { recursive: true });
    for (const entry of fs.readdirSync(base)) {
        const from = path.join(base, entry);
        if (entry.startsWith("@") && fs.statSync(from).isDirectory()) {
            fs.mkdirSync(path.join(dest, entry), { recursive: true });
            for (const pkg of fs.readdirSync(from)) {
                fs.symlinkSync(path.join(from, pkg), path.join(dest, entry, pkg), "dir");
            }
        } else if (entry !== ".package-lock.json") {
            fs.symlinkSync(from, path.join(dest, entry));
        }
    }
    const has = (pkg: string) => fs.existsSync(path.join(dest, pkg, "package.json"));
    if (!has("@pulumi/pulumi")) {
        fs.mkdirSync(path.join(dest, "@pulumi"), { recursive: true });
        fs.symlinkSync(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi"), path.join(dest, "@pulumi", "pulumi"), "dir");
    }
    for (const [pkg, name] of Object.entries(STAND_IN_SDKS)) {
        if (has(pkg)) {
            continue;
        }
        const compiled = path.join(REPO_ROOT, "dist", "examples", "sdk", name);
        if (!fs.existsSync(`${compiled}.js`)) {
            throw new StagingError(`perfguard's stand-in for ${pkg} is not built (${compiled}.js): run npm run build in ${REPO_ROOT}`);
        }
        const out = path.join(dest, pkg);
        fs.rmSync(out, { recursive: true, force: true });
        fs.mkdirSync(out, { recursive: true });
        fs.copyFileSync(`${compiled}.js`, path.join(out, "index.js"));
        fs.copyFileSync(`${compiled}.d.ts`, path.join(out, "index.d.ts"));
        // No "pulumi" key: the language host then reports no plugin for it, and the CLI takes the
        // newest installed stand-in provider, as for the examples' classes.
        fs.writeFileSync(
            path.join(out, "package.json"),
            JSON.stringify(
                {
                    name: pkg,
                    version: "0.0.1",
                    main: "index.js",
                    types: "index.d.ts",
                    description: `perfguard's stand-in for ${pkg} (examples/sdk/${name}.ts)`,
                },
                null,
                4,
            ) + "\n",
        );
    }
    for (const pkg of NPM_SDKS) {
        if (!has(pkg)) {
            const from = path.join(REPO_ROOT, "node_modules", pkg);
            if (fs.existsSync(from)) {
                fs.rmSync(path.join(dest, pkg), { recursive: true, force: true });
                fs.cpSync(from, path.join(dest, pkg), { recursive: true, dereference: true });
            }
        }
    }
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*)["'](\.\.?\/[^"']*)["']/g;

/**
 * The first relative import (in the program's .ts/.js files, outside node_modules) whose target is
 * outside the program's folder, as the one line to print; undefined when there is none.
 */
export function importsFromOutside(programDir: string): string | undefined {
    const visit = (dir: string): string | undefined => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) {
                const found = entry.name === "node_modules" ? undefined : visit(full);
                if (found) {
                    return found;
                }
            } else if (/\.(?:ts|js|mts|cts|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) {
                for (const m of fs.readFileSync(full, "utf8").matchAll(RELATIVE_IMPORT)) {
                    const target = path.resolve(dir, m[1]);
                    if (path.relative(programDir, target).startsWith("..")) {
                        const sdk = /(?:^|\/)sdk\/(avi|citrix|vsphere)(?:\.ts)?$/.exec(m[1]);
                        const advice = sdk
                            ? `import "@pulumi/${sdk[1]}" instead (perfguard stages its stand-in under that name)`
                            : "move that module into the program's folder or publish it as a package";
                        return (
                            `${path.relative(process.cwd(), full) || full} imports "${m[1]}" from outside the program's folder, ` +
                            `which preview:real does not copy: ${advice}`
                        );
                    }
                }
            }
        }
        return undefined;
    };
    return visit(programDir);
}
