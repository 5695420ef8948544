/**
 * How a program's imports of the provider SDKs resolve in the emulated preview, so that a program
 * written as a team writes it (`import * as citrix from "@pulumi/citrix"`) runs from anywhere on
 * disk, with its own node_modules or none:
 *
 * - `@pulumi/pulumi` (and its sub-modules) is always this runner's copy: the one the preview mocks
 *   are set on. A program's own copy would be a second SDK in the process.
 * - `@pulumi/citrix`, `@pulumi/avi`, `@pulumi/vsphere`, `@vates/pulumi-xenorchestra`: the program's
 *   own install when it has one (node_modules beside or above it); otherwise perfguard's stand-ins:
 *   examples/sdk/<package> (the real SDKs' type tokens and input names, limited to what the examples
 *   use; compiled into dist/examples/sdk) and, for Xen Orchestra, the npm SDK perfguard installs.
 * - What still cannot resolve fails with one line naming the import and what to do: a sub-module of
 *   a stand-in, or a relative path to perfguard's stand-ins (`../sdk/citrix`) from elsewhere.
 *
 * scripts/realCli/staging.ts stages the same packages for the real CLI (`npm run preview:real`).
 */
import * as fs from "fs";
import Module = require("module");
import * as path from "path";

/** The SDK package names a program imports, and the stand-in module (examples/sdk/<name>) of each. */
export const STAND_IN_SDKS: Readonly<Record<string, string>> = {
    "@pulumi/avi": "avi",
    "@pulumi/citrix": "citrix",
    "@pulumi/vsphere": "vsphere",
};

/** A real SDK perfguard itself installs from npm (a dependency of this repository). */
export const NPM_SDKS: readonly string[] = ["@vates/pulumi-xenorchestra"];

/** perfguard's root: the folder with PulumiPolicy.yaml above this module (source or dist/). */
export function perfguardRoot(from = __dirname): string {
    let dir = from;
    while (!fs.existsSync(path.join(dir, "PulumiPolicy.yaml")) && path.dirname(dir) !== dir) {
        dir = path.dirname(dir);
    }
    return dir;
}

/**
 * The file a stand-in resolves to: the compiled `dist/examples/sdk/<name>.js` when this module
 * runs compiled, the TypeScript source when it runs from source (ts-node), or undefined.
 */
export function standInFile(name: string, root = perfguardRoot(), compiled = __filename.endsWith(".js")): string | undefined {
    const candidates = [path.join(root, "examples", "sdk", `${name}.ts`)];
    if (compiled) {
        candidates.unshift(path.join(root, "dist", "examples", "sdk", `${name}.js`));
    }
    return candidates.find((f) => fs.existsSync(f));
}

/** The package part of a bare import (`@pulumi/citrix/zone` -> `@pulumi/citrix`), or undefined for a path. */
export function packageOf(request: string): string | undefined {
    if (request.startsWith(".") || path.isAbsolute(request)) {
        return undefined;
    }
    const parts = request.split("/");
    return request.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** An import that cannot resolve, worded as one line. */
export class SdkResolutionError extends Error {
    readonly code = "PERFGUARD_SDK_UNRESOLVED";
}

/** A relative import of perfguard's stand-in modules (`../sdk/citrix`, `../../examples/sdk/avi`). */
const RELATIVE_STAND_IN = /^(?:\.\.?\/)+(?:.*\/)?sdk\/(avi|citrix|vsphere)(?:\.ts)?$/;

const SDK_NAME_OF: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(STAND_IN_SDKS).map(([pkg, name]) => [name, pkg]));

/**
 * Where `request` goes when Node's own resolution failed (`notFound`), or undefined to rethrow
 * Node's error. Throws SdkResolutionError for a layout that cannot resolve.
 */
export function fallbackFor(request: string, fromFile: string | undefined, root = perfguardRoot(), compiled = __filename.endsWith(".js")): string | undefined {
    const from = fromFile ? ` (imported by ${fromFile})` : "";
    const relative = RELATIVE_STAND_IN.exec(request);
    if (relative) {
        throw new SdkResolutionError(
            `cannot find module '${request}'${from}: import "${SDK_NAME_OF[relative[1]]}" instead, ` +
                "which perfguard resolves to its stand-in wherever the program is",
        );
    }
    const pkg = packageOf(request);
    if (pkg === undefined) {
        return undefined;
    }
    const standIn = STAND_IN_SDKS[pkg];
    if (standIn !== undefined) {
        const file = standInFile(standIn, root, compiled);
        if (request !== pkg || file === undefined) {
            throw new SdkResolutionError(
                `cannot find module '${request}'${from}: ${pkg} is not installed beside the program, and ` +
                    (file === undefined
                        ? `perfguard's stand-in for it (examples/sdk/${standIn}.ts) is missing from ${root}`
                        : `perfguard's stand-in for it has no sub-modules: import "${pkg}"`) +
                    ` (or npm install the real SDK in the program's folder)`,
            );
        }
        return file;
    }
    if (NPM_SDKS.includes(pkg)) {
        try {
            return require.resolve(request, { paths: [root] });
        } catch {
            throw new SdkResolutionError(
                `cannot find module '${request}'${from}: npm install ${pkg} in the program's folder ` + `(or npm ci in ${root}, which installs it)`,
            );
        }
    }
    return undefined;
}

type ResolveFilename = (request: string, parent: { filename?: string | null } | NodeJS.Module | undefined, isMain: boolean, options?: unknown) => string;

/**
 * Installs the resolution above for everything this process requires from now on (the program
 * and its modules). Idempotent.
 */
export function installSdkResolution(root = perfguardRoot()): void {
    const mod = Module as unknown as { _resolveFilename: ResolveFilename & { perfguardSdk?: true } };
    if (mod._resolveFilename.perfguardSdk) {
        return;
    }
    const original = mod._resolveFilename;
    const resolve: ResolveFilename & { perfguardSdk?: true } = function (this: unknown, request, parent, isMain, options) {
        // One SDK in the process: the runner's, on which the mocks are set.
        if (request === "@pulumi/pulumi" || request.startsWith("@pulumi/pulumi/")) {
            return original.call(this, request, module, isMain, undefined);
        }
        try {
            return original.call(this, request, parent, isMain, options);
        } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") {
                throw err;
            }
            const fallback = fallbackFor(request, parent?.filename ?? undefined, root);
            if (fallback === undefined) {
                throw err;
            }
            return fallback;
        }
    };
    resolve.perfguardSdk = true;
    mod._resolveFilename = resolve;
}

/** Where a package's types are when the program has no install of its own: perfguard's copy. */
function ownTypes(pkg: string, root: string): string | undefined {
    const standIn = STAND_IN_SDKS[pkg];
    if (standIn !== undefined) {
        // The source in a checkout; the declarations the build writes beside the compiled stand-in.
        return [path.join(root, "examples", "sdk", `${standIn}.ts`), path.join(root, "dist", "examples", "sdk", `${standIn}.d.ts`)].find((f) =>
            fs.existsSync(f),
        );
    }
    try {
        return path.dirname(require.resolve(`${pkg}/package.json`, { paths: [root] }));
    } catch {
        return undefined;
    }
}

/**
 * TypeScript `paths` for type-checking a program in `programDir` with the same resolution as run
 * time (installSdkResolution): `@pulumi/pulumi` is always perfguard's copy; a provider SDK the
 * program does not install resolves to perfguard's stand-in (or its npm copy). Absolute targets, so
 * no baseUrl is needed.
 */
export function typeCheckPaths(programDir: string, root = perfguardRoot()): Record<string, string[]> {
    const paths: Record<string, string[]> = {};
    const pulumi = ownTypes("@pulumi/pulumi", root);
    if (pulumi !== undefined) {
        paths["@pulumi/pulumi"] = [pulumi];
        paths["@pulumi/pulumi/*"] = [path.join(pulumi, "*")];
    }
    for (const pkg of [...Object.keys(STAND_IN_SDKS), ...NPM_SDKS]) {
        try {
            // Once installSdkResolution runs in this process, a stand-in resolves too: not an install.
            const resolved = require.resolve(pkg, { paths: [programDir] });
            if (!(pkg in STAND_IN_SDKS) || !isStandInFile(resolved, STAND_IN_SDKS[pkg], root)) {
                continue; // the program's own install
            }
        } catch {
            // not installed beside the program: perfguard's copy below
        }
        const target = ownTypes(pkg, root);
        if (target !== undefined) {
            paths[pkg] = [target];
        }
    }
    return paths;
}

/** A TypeScript diagnostic as the stand-in hint reads it: its file, its flattened text, the files of its related information. */
export interface TypeDiagnostic {
    readonly file?: string;
    readonly text: string;
    readonly related?: readonly string[];
}

/** How to install each stand-in's real SDK in a program's folder (docs/real-cli.md, "Your own program"). */
const REAL_SDK_INSTALL: Readonly<Record<string, string>> = {
    "@pulumi/avi": "pulumi package add terraform-provider vmware/avi",
    "@pulumi/citrix": "pulumi package add terraform-provider citrix/citrix",
    "@pulumi/vsphere": "npm install @pulumi/vsphere",
};

const EXPORTED = /\bexport\s+(?:declare\s+)?(?:abstract\s+)?(?:class|interface|type|enum|const|let|function|namespace)\s+([A-Za-z_$][\w$]*)/g;

/** The names a stand-in module exports (its classes and their `...Args` types), read from its file. */
function exportedNames(file: string): Set<string> {
    try {
        return new Set([...fs.readFileSync(file, "utf8").matchAll(EXPORTED)].map((m) => m[1]));
    } catch {
        return new Set();
    }
}

/** Is `file` perfguard's stand-in module `name` (the source, or the compiled module and its declarations)? */
function isStandInFile(file: string, name: string, root: string): boolean {
    const f = path.resolve(file);
    return [path.join(root, "examples", "sdk"), path.join(root, "dist", "examples", "sdk")].some(
        (dir) => path.dirname(f) === dir && path.basename(f).replace(/\.(d\.ts|ts|js)$/, "") === name,
    );
}

/**
 * One line for a failed type check that involves a stand-in SDK the program was checked against
 * (a diagnostic in the stand-in's file, or naming one of its types: `ZoneArgs`, `VirtualMachine`):
 * the stand-ins declare only what the examples use, so a program valid against the real SDK can fail
 * here. Undefined when no diagnostic involves a stand-in, or the program installs the real SDKs.
 */
export function standInTypeHint(diagnostics: readonly TypeDiagnostic[], programDir: string, root = perfguardRoot()): string | undefined {
    const mapped = typeCheckPaths(programDir, root);
    const involved: string[] = [];
    for (const [pkg, name] of Object.entries(STAND_IN_SDKS)) {
        const target = mapped[pkg]?.[0];
        if (target === undefined || !isStandInFile(target, name, root)) {
            continue; // the program's own install, or no stand-in: checked against the real SDK
        }
        const names = exportedNames(target);
        const quoted = (text: string) => [...text.matchAll(/['"]([^'"\n]+)['"]/g)].flatMap((m) => m[1].split(/[^\w$]+/));
        const hit = diagnostics.some(
            (d) =>
                [d.file, ...(d.related ?? [])].some((f) => f !== undefined && isStandInFile(f, name, root)) ||
                d.text.includes(pkg) ||
                d.text.includes(`examples/sdk/${name}`) ||
                quoted(d.text).some((w) => names.has(w)),
        );
        if (hit) {
            involved.push(pkg);
        }
    }
    if (involved.length === 0) {
        return undefined;
    }
    const files = involved.map((pkg) => `examples/sdk/${STAND_IN_SDKS[pkg]}.ts`).join(", ");
    const install = involved.map((pkg) => REAL_SDK_INSTALL[pkg]).join("; ");
    return (
        `perfguard: this program was type-checked against perfguard's stand-in SDK for ${involved.join(" and ")} (${files}: only what the examples use), ` +
        `not the real one: to check against the real SDK, install it in the program's folder (${install}), then run npm run preview:real -- ${programDir} ` +
        '(docs/real-cli.md, "Your own program")'
    );
}
