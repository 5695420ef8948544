/**
 * Reads a program's Pulumi.yaml (project name, runtime, main) and Pulumi.<stack>.yaml (stack
 * config) the way the CLI and the Pulumi nodejs runtime use them: the project name names the
 * stack's URNs, `runtime` must be nodejs, `main`/package.json/index.{js,ts} pick the file that is
 * loaded, and the config becomes PULUMI_CONFIG.
 */
import * as fs from "fs";
import * as yaml from "js-yaml";
import * as path from "path";
import { PreviewError, SETUP_ERROR_EXIT, UNSUPPORTED_RUNTIME_EXIT } from "./errors";

/** Parses YAML, naming the file on error. */
function loadYaml(text: string, file: string): unknown {
    try {
        return yaml.load(text);
    } catch (err) {
        throw new PreviewError(`cannot parse ${file}: ${(err as Error).message}`);
    }
}

/** What the preview path needs from a project directory. */
export interface ProgramProject {
    /** The project directory (absolute), where Pulumi.yaml and Pulumi.<stack>.yaml are. */
    dir: string;
    /** Pulumi.yaml's `name`. */
    name: string;
    /** The file the runtime loads (absolute); never a file beside the project directory. */
    entry: string;
    /**
     * The working directory the program runs in (absolute), as the CLI picks it: `main`'s
     * directory when `main` is set (the directory itself, or the file's directory), else `dir`.
     */
    cwd: string;
    /** Warnings the Pulumi nodejs runtime would log while picking the entry (printed, not fatal). */
    warnings: string[];
}

/** Runtime names the preview path runs (Pulumi's nodejs runtime runs TypeScript and JavaScript). */
const NODEJS_RUNTIME = "nodejs";

/** Returns `<dir>/Pulumi.yaml` (or Pulumi.yml, which the CLI also reads), or undefined when neither exists. */
function projectFile(dir: string): string | undefined {
    return ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
}

/** Throws PreviewError (exit 2) unless `dir` exists and is a directory. */
function requireDirectory(dir: string): void {
    let stat: fs.Stats;
    try {
        stat = fs.statSync(dir);
    } catch {
        throw new PreviewError(`program directory ${dir} does not exist`, SETUP_ERROR_EXIT);
    }
    if (!stat.isDirectory()) {
        throw new PreviewError(`program directory ${dir} is not a directory`, SETUP_ERROR_EXIT);
    }
}

/**
 * Reads and checks Pulumi.yaml. Output: the parsed document (an object with a non-empty string
 * `name`) and the file's path. Throws PreviewError (exit 2) when the directory or the file is
 * missing, the YAML does not parse, or `name` is missing.
 */
function loadProjectFile(programDir: string): { file: string; doc: Record<string, unknown> } {
    requireDirectory(programDir);
    const file = projectFile(programDir);
    if (!file) {
        throw new PreviewError(`no Pulumi.yaml in program directory ${programDir}`, SETUP_ERROR_EXIT);
    }
    let doc: unknown;
    try {
        doc = loadYaml(fs.readFileSync(file, "utf8"), file);
    } catch (err) {
        throw new PreviewError((err as Error).message, SETUP_ERROR_EXIT);
    }
    if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
        throw new PreviewError(`${file} is not a YAML mapping`, SETUP_ERROR_EXIT);
    }
    const record = doc as Record<string, unknown>;
    if (typeof record.name !== "string" || record.name === "") {
        throw new PreviewError(`${file} has no project name`, SETUP_ERROR_EXIT);
    }
    return { file, doc: record };
}

/**
 * Returns the runtime name from Pulumi.yaml's `runtime`: a string (`runtime: nodejs`) or the
 * object form (`runtime: { name: nodejs, options: {...} }`). Throws PreviewError: exit 1 when
 * it is missing or malformed, exit 2 (UNSUPPORTED_RUNTIME_EXIT) when it names a runtime other than
 * nodejs (yaml, python, ...), with a pointer to `npm run preview:real`.
 */
function checkRuntime(file: string, runtime: unknown): void {
    let name: unknown = runtime;
    if (runtime !== null && typeof runtime === "object" && !Array.isArray(runtime)) {
        name = (runtime as Record<string, unknown>).name;
    }
    if (typeof name !== "string" || name === "") {
        throw new PreviewError(`${file} has no runtime (expected runtime: ${NODEJS_RUNTIME})`, SETUP_ERROR_EXIT);
    }
    if (name !== NODEJS_RUNTIME) {
        // Not a verdict: a refusal (exit 2), so that no gate reads it as a pass.
        throw new PreviewError(
            "perfguard's emulation runs TypeScript and JavaScript programs only (runtime: nodejs); " +
                `${file} says runtime: ${name}: run npm run preview:real -- ${path.dirname(file)} for the Pulumi CLI's verdicts`,
            UNSUPPORTED_RUNTIME_EXIT,
        );
    }
}

/** Node's file resolution for a path without a trailing slash: the file, else `<p>.js`, else `<p>.ts`. */
function asFile(p: string): string | undefined {
    return [p, `${p}.js`, `${p}.ts`].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

/**
 * Resolves a directory as Node's `require("<dir>/")` does once ts-node is registered: its
 * package.json `main` (a file or directory), else index.js, else index.ts. Output: the file,
 * or undefined when there is none. `warnings` receives the runtime's warning when index.js and
 * index.ts are both present (index.js is loaded, as Node's extension order makes it).
 */
function directoryEntry(dir: string, warnings: string[]): string | undefined {
    const pkgMain = readPackageJson(dir)?.main;
    if (typeof pkgMain === "string" && pkgMain !== "") {
        const target = path.resolve(dir, pkgMain);
        const found = asFile(target) ?? (isDirectory(target) ? directoryEntry(target, warnings) : undefined);
        if (found) {
            return found;
        }
    }
    const js = path.join(dir, "index.js");
    const ts = path.join(dir, "index.ts");
    if (fs.existsSync(js) && fs.existsSync(ts)) {
        warnings.push("Found a TypeScript project containing an index.js file and no explicit entrypoint in " + "Pulumi.yaml - Pulumi will use index.js");
    }
    return [js, ts].find((f) => fs.existsSync(f));
}

function isDirectory(p: string): boolean {
    return fs.existsSync(p) && fs.statSync(p).isDirectory();
}

/** Parses `<dir>/package.json`; undefined when absent or not a JSON object (Node would fail later). */
function readPackageJson(dir: string): Record<string, unknown> | undefined {
    const file = path.join(dir, "package.json");
    if (!fs.existsSync(file)) {
        return undefined;
    }
    try {
        const doc = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
        return doc !== null && typeof doc === "object" && !Array.isArray(doc) ? (doc as Record<string, unknown>) : undefined;
    } catch {
        return undefined;
    }
}

/**
 * The entry point package.json declares, as the Pulumi nodejs runtime reads it when Pulumi.yaml
 * has no `main`: `exports` (a string, or `exports["."]` as a string or its default/require/import),
 * else `main`. Output: the path as written, or undefined.
 */
function packageEntrypoint(pkg: Record<string, unknown>): string | undefined {
    const exports = pkg.exports;
    if (typeof exports === "string") {
        return exports;
    }
    if (exports !== null && typeof exports === "object" && !Array.isArray(exports)) {
        const dot = (exports as Record<string, unknown>)["."];
        if (typeof dot === "string") {
            return dot;
        }
        if (dot !== null && typeof dot === "object") {
            const d = dot as Record<string, unknown>;
            const chosen = d.default ?? d.require ?? d.import;
            return typeof chosen === "string" ? chosen : undefined;
        }
        return undefined;
    }
    return typeof pkg.main === "string" && pkg.main !== "" ? pkg.main : undefined;
}

/**
 * Picks the program file in directory `dir` as the Pulumi nodejs runtime does for a program
 * given as a directory: package.json's entry point (its `exports`, else `main`) when that path
 * exists (else a warning, as the runtime logs), then the directory itself (package.json `main`,
 * index.js, index.ts). Output: an absolute file path. Throws PreviewError (exit 2) when none exists.
 */
function programInDirectory(dir: string, warnings: string[]): string {
    const pkg = readPackageJson(dir);
    const declared = pkg ? packageEntrypoint(pkg) : undefined;
    if (declared !== undefined) {
        const target = path.resolve(dir, declared);
        const found = asFile(target) ?? (isDirectory(target) ? directoryEntry(target, warnings) : undefined);
        if (found) {
            return found;
        }
        warnings.push(`Could not find entry point '${declared}' specified in package.json; using '${dir}' instead`);
    }
    const found = directoryEntry(dir, warnings);
    if (!found) {
        throw new PreviewError(`no program to run in ${dir}: no index.ts or index.js (and no package.json main that exists)`, SETUP_ERROR_EXIT);
    }
    return found;
}

/**
 * Resolves Pulumi.yaml's `main` as the CLI does: a path relative to the project directory that
 * stays inside it and exists. A directory runs with that directory as cwd and is resolved like a
 * project directory; a file runs with its directory as cwd. Output: { entry, cwd }.
 * Throws PreviewError (exit 2) when `main` is not a string, absolute, outside the project, or missing.
 */
function resolveMain(file: string, projectDir: string, main: unknown, warnings: string[]): { entry: string; cwd: string } {
    if (typeof main !== "string" || main === "") {
        throw new PreviewError(`${file}: main must be a path relative to the project directory`, SETUP_ERROR_EXIT);
    }
    if (path.isAbsolute(main)) {
        throw new PreviewError(`${file}: project 'main' must be a relative path (main: ${main})`, SETUP_ERROR_EXIT);
    }
    const target = path.resolve(projectDir, main);
    const relative = path.relative(projectDir, target);
    if (relative.startsWith("..") || path.isAbsolute(relative)) {
        throw new PreviewError(`${file}: project 'main' must be a subfolder (main: ${main})`, SETUP_ERROR_EXIT);
    }
    let stat: fs.Stats;
    try {
        stat = fs.statSync(target);
    } catch {
        throw new PreviewError(`${file}: project 'main' could not be read: ${target} does not exist (main: ${main})`, SETUP_ERROR_EXIT);
    }
    if (stat.isDirectory()) {
        return { entry: programInDirectory(target, warnings), cwd: target };
    }
    return { entry: target, cwd: path.dirname(target) };
}

/**
 * Reads `<programDir>/Pulumi.yaml` and picks the program to run as the CLI and the Pulumi nodejs
 * runtime do: Pulumi.yaml's `main` (a file, or a directory resolved like the project directory)
 * if set, else the project directory's package.json entry point, else index.js/index.ts in it.
 * A file beside the directory with the directory's name (`app.ts` next to `app/`) is never loaded.
 * Output: ProgramProject. Throws PreviewError (exit 2) when the directory does not exist, has no
 * Pulumi.yaml or project name, the runtime is not nodejs, or `main` / the entry does not resolve.
 */
export function readProject(programDir: string): ProgramProject {
    const dir = path.resolve(programDir);
    const { file, doc } = loadProjectFile(dir);
    checkRuntime(file, doc.runtime);
    const warnings: string[] = [];
    const { entry, cwd } =
        doc.main !== undefined && doc.main !== null ? resolveMain(file, dir, doc.main, warnings) : { entry: programInDirectory(dir, warnings), cwd: dir };
    return { dir, name: doc.name as string, entry, cwd, warnings };
}

/**
 * Returns the project name from `<programDir>/Pulumi.yaml`.
 * Throws PreviewError (exit 2) when the directory or file is missing, unparsable or has no string `name`.
 */
export function readProjectName(programDir: string): string {
    return loadProjectFile(path.resolve(programDir)).doc.name as string;
}

/**
 * Returns the stack's config as the CLI passes it in PULUMI_CONFIG: keys `<namespace>:<key>`
 * (bare keys get the project namespace), values as strings (objects JSON-encoded).
 * Reads Pulumi.yaml's `config:` defaults, then `<programDir>/Pulumi.<stack>.yaml` over them (a
 * missing file: the defaults alone). Secure (encrypted) values cannot be decrypted without the CLI
 * and are left out (stackConfigNotReproduced names them). Throws PreviewError on unparsable YAML.
 */
export function readStackConfig(programDir: string, project: string, stack: string): Record<string, string> {
    // The project's own defaults (Pulumi.yaml `config:`) first: the CLI gives the program those
    // the stack file does not set, as preview:real's CLI does.
    const out: Record<string, string> = projectConfigDefaults(programDir, project);
    const file = path.join(programDir, `Pulumi.${stack}.yaml`);
    if (!fs.existsSync(file)) {
        return out;
    }
    const doc = loadYaml(fs.readFileSync(file, "utf8"), file) as { config?: Record<string, unknown> } | null;
    for (const [key, value] of Object.entries(doc?.config ?? {})) {
        if (value !== null && typeof value === "object" && "secure" in value) {
            continue;
        }
        out[fullConfigKey(key, project)] = typeof value === "string" ? value : JSON.stringify(value);
    }
    return out;
}

function fullConfigKey(key: string, project: string): string {
    return key.includes(":") ? key : `${project}:${key}`;
}

/**
 * Pulumi.yaml's `config:` values as the CLI adds them to the stack's config: a bare value is the
 * key's default, an object its `default` (a project key) or `value` (another namespace's key);
 * an object with neither (only `type`, `description`) gives nothing.
 */
function projectConfigDefaults(programDir: string, project: string): Record<string, string> {
    const file = projectFile(programDir);
    const doc = file ? (loadYaml(fs.readFileSync(file, "utf8"), file) as { config?: unknown } | null) : null;
    const config = doc?.config;
    const out: Record<string, string> = {};
    if (config === null || typeof config !== "object" || Array.isArray(config)) {
        return out;
    }
    for (const [key, entry] of Object.entries(config as Record<string, unknown>)) {
        const spec = entry !== null && typeof entry === "object" && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
        const value = spec === undefined ? entry : "default" in spec ? spec.default : "value" in spec ? spec.value : undefined;
        if (value !== undefined && value !== null) {
            out[fullConfigKey(key, project)] = typeof value === "string" ? value : JSON.stringify(value);
        }
    }
    return out;
}

/**
 * The stack file's config the emulation cannot give the program as the CLI would: its secret
 * values (the emulation decrypts nothing; a program reading one fails or falls back to its
 * default) and an ESC `environment:`. Each is a "not reproduced" feature (exit 1).
 */
export function stackConfigNotReproduced(programDir: string, stack: string): string[] {
    const name = `Pulumi.${stack}.yaml`;
    const file = path.join(programDir, name);
    if (!fs.existsSync(file)) {
        return [];
    }
    const doc = loadYaml(fs.readFileSync(file, "utf8"), file) as { config?: Record<string, unknown>; environment?: unknown } | null;
    const secure = Object.entries(doc?.config ?? {})
        .filter(([, v]) => v !== null && typeof v === "object" && "secure" in v)
        .map(([k]) => k)
        .sort();
    return [
        ...(secure.length > 0
            ? [`the secret config ${secure.join(", ")} of ${name} (the emulation decrypts no secret; npm run preview:real does, with PULUMI_CONFIG_PASSPHRASE)`]
            : []),
        ...(doc?.environment !== undefined && doc?.environment !== null ? [`the ESC environment of ${name} (environment:)`] : []),
    ];
}
