// A program fails the preview however it fails, as under Pulumi's nodejs runtime (cmd/run):
// thrown at the top level, a registration whose input rejects, an SDK-logged error, an unhandled
// rejection or an uncaught exception after the top level finished. The error names the program
// dir and the program's message, without a stack trace.
import * as path from "path";
import { describe, expect, it } from "vitest";
import { describeError } from "../../preview/mockedProgram";
import { PreviewError } from "../../preview/errors";
import { runProgram } from "../../preview/forkProgram";
import { program, quiet, THROWING_PROGRAM } from "./fixtures";

async function failure(dir: string, project: string): Promise<PreviewError> {
    const err = await runProgram(dir, { project, stack: "dev", config: {}, onOutput: quiet }).then(
        (resources) => new Error(`expected a failure, got ${resources.map((r) => r.name).join(", ")}`), (e: unknown) => e);
    expect(err).toBeInstanceOf(PreviewError);
    return err as PreviewError;
}

describe("a program that logs an error through pulumi.log.error", () => {
    it("does not fail the preview (the real CLI exits 0 and prints the error as a diagnostic)", async () => {
        const resources = await runProgram(program("logs-error"), { project: "logs-error", stack: "dev", config: {}, onOutput: quiet });
        expect(resources.map((r) => r.name)).toEqual(["logs-error-dev", "zone-a"]);
    });
});

describe("a TypeScript program with a type error (the CLI's Node.js host type-checks it)", () => {
    /** Runs the type-error fixture with PULUMI_NODEJS_TRANSPILE_ONLY as given (npm test sets "true"). */
    async function withTranspileOnly<T>(value: string | undefined, run: () => Promise<T>): Promise<T> {
        const saved = process.env["PULUMI_NODEJS_TRANSPILE_ONLY"];
        if (value === undefined) {
            delete process.env["PULUMI_NODEJS_TRANSPILE_ONLY"];
        } else {
            process.env["PULUMI_NODEJS_TRANSPILE_ONLY"] = value;
        }
        try {
            return await run();
        } finally {
            if (saved === undefined) {
                delete process.env["PULUMI_NODEJS_TRANSPILE_ONLY"];
            } else {
                process.env["PULUMI_NODEJS_TRANSPILE_ONLY"] = saved;
            }
        }
    }

    // The compiled runner (dist/, as npm run preview and the pack's users run it): run from source,
    // the runner is itself loaded through ts-node, which then compiles the program too.
    const compiled = require(path.resolve(__dirname, "..", "..", "dist", "preview", "forkProgram.js")) as typeof import("../../preview/forkProgram");

    it.each([
        ["unset (the host's default: type-check)", undefined],
        ["\"false\"", "false"],
    ])("with PULUMI_NODEJS_TRANSPILE_ONLY %s: fails with the compiler's error, as the real preview does", async (_label, value) => {
        const err = await withTranspileOnly(value, () => compiled.runProgram(program("type-error"), { project: "type-error", stack: "dev", config: {}, onOutput: quiet }).then(
            (resources) => new Error(`expected a failure, got ${resources.map((r) => r.name).join(", ")}`), (e: unknown) => e)) as { exitCode?: number; message: string };
        expect(err.exitCode).toBe(1);
        expect(err.message).toContain("Unable to compile TypeScript");
        expect(err.message).toMatch(/index\.ts\(\d+,\d+\): error TS\d+: .*'metadata' does not exist in type 'ZoneArgs'/);
    });

    it("with PULUMI_NODEJS_TRANSPILE_ONLY \"true\": runs, and the misspelt input is dropped (as the host does then)", async () => {
        const resources = await withTranspileOnly("true", () => compiled.runProgram(program("type-error"), { project: "type-error", stack: "dev", config: {}, onOutput: quiet }));
        expect(resources.map((r) => r.name)).toEqual(["type-error-dev", "emea-zone"]);
    });
});

describe("runProgram fails the preview", () => {
    it.each([
        ["a top-level throw", THROWING_PROGRAM, "throws", "zone catalogue is missing the RTT table"],
        ["a resource input that is a rejected promise", program("rejects-input"), "rejects-input", "async boom"],
        ["an unhandled rejection after the top level finished", program("unhandled-rejection"), "unhandled-rejection",
            "late lookup of the RTT table failed"],
        ["an exception thrown from a timer", program("uncaught-exception"), "uncaught-exception", "timer could not read the RTT table"],
    ])("on %s: exit 1, the program dir and its message, no stack trace", async (_label, dir, project, cause) => {
        const err = await failure(dir, project);
        expect(err.exitCode).toBe(1);
        expect(err.message).toContain(`program ${dir} failed:\n`);
        expect(err.message).toContain(cause);
        expect(err.message).not.toMatch(/^\s+at /m);
    });

    it("reports a rejection that reaches several promises once", async () => {
        const err = await failure(program("rejects-input"), "rejects-input");
        expect(err.message.split("\n").filter((line) => line.includes("async boom"))).toHaveLength(1);
    });
});

describe("runProgram loads the program Pulumi would", () => {
    it.each([
        ["Pulumi.yaml main: src/index.ts", "main-file", "zone-from-main"],
        ["Pulumi.yaml main: app (a directory)", "main-dir", "zone-from-main-dir"],
        ["package.json main", "package-main", "zone-from-package-main"],
        ["the directory, not sibling.ts beside it", "sibling", "zone-from-directory"],
    ])("%s", async (_label, name, zone) => {
        const resources = await runProgram(program(name), { project: name, stack: "dev", config: {}, onOutput: quiet });
        expect(resources.map((r) => r.name)).toEqual([`${name}-dev`, zone]);
    });
});

describe("describeError", () => {
    it("gives the message alone, the stack only when debugging", () => {
        const err = new Error("boom");
        expect(describeError(err, false)).toBe("boom");
        expect(describeError(err, true)).toContain("    at ");
    });

    it("keeps a SyntaxError's location, shortens a missing module, and renders non-Error values", () => {
        let syntax: unknown;
        try {
            new Function("const x = ;");
        } catch (e) {
            syntax = e;
        }
        expect(describeError(syntax, false)).not.toMatch(/^\s+at /m);
        const missing = Object.assign(new Error("Cannot find module '@pulumi/aws'\nRequire stack:\n- /p/index.ts"), { code: "MODULE_NOT_FOUND" });
        expect(describeError(missing, false)).toBe("Cannot find module '@pulumi/aws' (have you run npm install in the program's directory?)");
        expect(describeError("plain string", false)).toBe("a non-Error value was thrown: plain string");
        expect(describeError({ code: 7 }, false)).toBe("a non-Error value was thrown: {\"code\":7}");
    });
});
