// Which file a program directory runs, as the CLI and the Pulumi nodejs runtime pick it, and the
// project problems reported before anything starts (exit 1 as the CLI, one clear line).
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { PreviewError } from "../../preview/errors";
import { readProject, readProjectName } from "../../preview/projectFiles";
import { program, SAMPLE_PROGRAM } from "./fixtures";

/** A temporary project: `files` maps relative paths to contents. */
function project(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-project-"));
    for (const [file, text] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
    }
    return dir;
}

function failure(fn: () => unknown): PreviewError {
    try {
        fn();
    } catch (err) {
        expect(err).toBeInstanceOf(PreviewError);
        return err as PreviewError;
    }
    throw new Error("expected a PreviewError");
}

describe("readProject: the program file", () => {
    it("is index.ts in the project directory by default", () => {
        expect(readProject(SAMPLE_PROGRAM)).toEqual({
            dir: SAMPLE_PROGRAM,
            name: "sample",
            entry: path.join(SAMPLE_PROGRAM, "index.ts"),
            cwd: SAMPLE_PROGRAM,
            warnings: [],
        });
    });

    it("is never a file beside the directory named like it (sibling.ts next to sibling/)", () => {
        expect(fs.existsSync(`${program("sibling")}.ts`)).toBe(true);
        expect(readProject(program("sibling")).entry).toBe(path.join(program("sibling"), "index.ts"));
        // Also when the directory is given with a trailing slash or relative to the cwd.
        expect(readProject(program("sibling") + path.sep).entry).toBe(path.join(program("sibling"), "index.ts"));
        expect(readProject(path.relative(process.cwd(), program("sibling"))).entry).toBe(path.join(program("sibling"), "index.ts"));
    });

    it("is Pulumi.yaml's main: file, run from that file's directory (runtime in the object form)", () => {
        const dir = program("main-file");
        expect(readProject(dir)).toMatchObject({ name: "main-file", entry: path.join(dir, "src", "index.ts"), cwd: path.join(dir, "src") });
    });

    it("is resolved inside Pulumi.yaml's main: directory, run from that directory", () => {
        const dir = program("main-dir");
        expect(readProject(dir)).toMatchObject({ entry: path.join(dir, "app", "index.ts"), cwd: path.join(dir, "app") });
    });

    it("is package.json's main when Pulumi.yaml has none", () => {
        const dir = program("package-main");
        expect(readProject(dir)).toMatchObject({ entry: path.join(dir, "lib", "program.ts"), cwd: dir });
    });

    it("follows package.json exports before main, and warns and falls back when the entry is missing", () => {
        const withExports = project({
            "Pulumi.yaml": "name: p\nruntime: nodejs\n",
            "package.json": JSON.stringify({ exports: { ".": { require: "./a.ts" } }, main: "b.ts" }),
            "a.ts": "",
            "b.ts": "",
            "index.ts": "",
        });
        expect(readProject(withExports).entry).toBe(path.join(withExports, "a.ts"));
        const missing = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\n", "package.json": JSON.stringify({ main: "gone.js" }), "index.ts": "" });
        const resolved = readProject(missing);
        expect(resolved.entry).toBe(path.join(missing, "index.ts"));
        expect(resolved.warnings).toEqual([`Could not find entry point 'gone.js' specified in package.json; using '${missing}' instead`]);
    });

    it("prefers index.js over index.ts, as Node's require does, with the runtime's warning", () => {
        const dir = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\n", "index.js": "", "index.ts": "" });
        const resolved = readProject(dir);
        expect(resolved.entry).toBe(path.join(dir, "index.js"));
        expect(resolved.warnings[0]).toContain("Pulumi will use index.js");
    });
});

describe("readProject: project problems are exit 1 (as the CLI) with one line", () => {
    it("names a program directory that does not exist", () => {
        const dir = path.join(os.tmpdir(), "perfguard-no-such-program");
        const err = failure(() => readProject(dir));
        expect(err.exitCode).toBe(1);
        expect(err.message).toBe(`program directory ${dir} does not exist`);
        expect(failure(() => readProjectName(dir)).message).toBe(`program directory ${dir} does not exist`);
    });

    it("names a missing Pulumi.yaml", () => {
        const dir = project({ "index.ts": "" });
        expect(failure(() => readProject(dir))).toMatchObject({ exitCode: 1, message: `no Pulumi.yaml in program directory ${dir}` });
    });

    it("refuses a runtime other than nodejs, in either form", () => {
        const dir = program("python-runtime");
        expect(failure(() => readProject(dir))).toMatchObject({
            exitCode: 2,
            message:
                "perfguard's emulation runs TypeScript and JavaScript programs only (runtime: nodejs); " +
                `${path.join(dir, "Pulumi.yaml")} says runtime: python: run npm run preview:real -- ${dir} for the Pulumi CLI's verdicts`,
        });
        const yamlForm = project({ "Pulumi.yaml": "name: p\nruntime: yaml\nresources: {}\n" });
        expect(failure(() => readProject(yamlForm))).toMatchObject({ exitCode: 2 });
        expect(failure(() => readProject(yamlForm)).message).toContain("says runtime: yaml: run npm run preview:real");
        const objectForm = project({ "Pulumi.yaml": "name: p\nruntime:\n  name: go\n", "main.go": "" });
        expect(failure(() => readProject(objectForm)).message).toContain("says runtime: go");
        const none = project({ "Pulumi.yaml": "name: p\n", "index.ts": "" });
        expect(failure(() => readProject(none)).message).toContain("has no runtime (expected runtime: nodejs)");
    });

    it("rejects a main: that is absolute, outside the project, or missing, as the CLI does", () => {
        const abs = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\nmain: /etc/index.ts\n" });
        expect(failure(() => readProject(abs))).toMatchObject({ exitCode: 1 });
        expect(failure(() => readProject(abs)).message).toContain("project 'main' must be a relative path");
        const outside = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\nmain: ../elsewhere\n" });
        expect(failure(() => readProject(outside)).message).toContain("project 'main' must be a subfolder");
        const missing = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\nmain: src/index.ts\n", "index.ts": "" });
        expect(failure(() => readProject(missing)).message).toContain(
            `project 'main' could not be read: ${path.join(missing, "src", "index.ts")} does not exist`,
        );
    });

    it("names a directory with nothing to run", () => {
        const dir = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\n" });
        expect(failure(() => readProject(dir))).toMatchObject({ exitCode: 1 });
        expect(failure(() => readProject(dir)).message).toContain(`no program to run in ${dir}`);
    });
});
