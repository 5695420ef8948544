// A program fails the preview however it fails, as under Pulumi's nodejs runtime (cmd/run):
// thrown at the top level, a registration whose input rejects, an SDK-logged error, an unhandled
// rejection or an uncaught exception after the top level finished. The error names the program
// dir and the program's message, without a stack trace.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { describeError } from "../../preview/mockedProgram";
import { PreviewError } from "../../preview/errors";
import { runProgram } from "../../preview/forkProgram";
import { program, quiet, THROWING_PROGRAM } from "./fixtures";

async function failure(dir: string, project: string): Promise<PreviewError> {
    const err = await runProgram(dir, { project, stack: "dev", config: {}, onOutput: quiet }).then(
        (resources) => new Error(`expected a failure, got ${resources.map((r) => r.name).join(", ")}`),
        (e: unknown) => e,
    );
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
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built module, as the runner loads it
    const compiled = require(path.resolve(__dirname, "..", "..", "dist", "preview", "forkProgram.js")) as typeof import("../../preview/forkProgram");

    it.each([
        ["unset (the host's default: type-check)", undefined],
        ['"false"', "false"],
    ])("with PULUMI_NODEJS_TRANSPILE_ONLY %s: fails with the compiler's error, as the real preview does", async (_label, value) => {
        const err = (await withTranspileOnly(value, () =>
            compiled.runProgram(program("type-error"), { project: "type-error", stack: "dev", config: {}, onOutput: quiet }).then(
                (resources) => new Error(`expected a failure, got ${resources.map((r) => r.name).join(", ")}`),
                (e: unknown) => e,
            ),
        )) as { exitCode?: number; message: string };
        expect(err.exitCode).toBe(1);
        expect(err.message).toContain("Unable to compile TypeScript");
        expect(err.message).toMatch(/index\.ts\(\d+,\d+\): error TS\d+: .*'metadata' does not exist in type 'ZoneArgs'/);
    });

    // A type error that involves a stand-in SDK (examples/sdk: only what the examples use) gets one
    // line of perfguard's saying so and how to check against the real SDK; any other type error,
    // and one against the program's own install of the SDK, gets none. The programs live outside
    // perfguard, with no node_modules (a team's program), unless the case installs the SDK.
    describe("a type error that involves a stand-in SDK names it", () => {
        const roots: string[] = [];
        afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

        /** A program `index.ts` in a fresh folder outside perfguard; `ownVsphere` installs a @pulumi/vsphere of its own. */
        function teamProgram(source: string, ownVsphere = false): string {
            const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-type-hint-"));
            roots.push(dir);
            fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: team\nruntime: nodejs\n");
            fs.writeFileSync(path.join(dir, "index.ts"), source);
            if (ownVsphere) {
                const pkg = path.join(dir, "node_modules", "@pulumi", "vsphere");
                fs.mkdirSync(pkg, { recursive: true });
                fs.writeFileSync(
                    path.join(pkg, "package.json"),
                    JSON.stringify({ name: "@pulumi/vsphere", version: "4.0.0", main: "index.js", types: "index.d.ts" }),
                );
                fs.writeFileSync(path.join(pkg, "index.js"), "exports.VirtualMachine = class VirtualMachine {};\n");
                fs.writeFileSync(
                    path.join(pkg, "index.d.ts"),
                    "export interface VirtualMachineArgs { resourcePoolId: string }\n" +
                        "export declare class VirtualMachine { constructor(name: string, args: VirtualMachineArgs); }\n",
                );
            }
            return dir;
        }

        const hint = (pkg: string, file: string, install: string, dir: string) =>
            `perfguard: this program was type-checked against perfguard's stand-in SDK for ${pkg} (${file}: only what the examples use), ` +
            `not the real one: to check against the real SDK, install it in the program's folder (${install}), then run npm run preview:real -- ${dir} ` +
            '(docs/real-cli.md, "Your own program")';
        const VSPHERE = ["@pulumi/vsphere", "examples/sdk/vsphere.ts", "npm install @pulumi/vsphere"] as const;
        const CITRIX = ["@pulumi/citrix", "examples/sdk/citrix.ts", "pulumi package add terraform-provider citrix/citrix"] as const;

        it.each([
            // Valid against the real vSphere SDK (numCoresPerSocket is one of its VirtualMachineArgs), not the stand-in's.
            [
                "an input the stand-in lacks",
                'import * as vsphere from "@pulumi/vsphere";\n' +
                    'new vsphere.VirtualMachine("ddc-01", { resourcePoolId: "pool", numCpus: 4, numCoresPerSocket: 2 });\n',
                false,
                /'numCoresPerSocket' does not exist in type 'VirtualMachineArgs'/,
                VSPHERE,
            ],
            [
                "an output the stand-in lacks",
                'import * as citrix from "@pulumi/citrix";\n' +
                    'const zone = new citrix.Zone("emea-zone", { name: "emea" });\nexport const site = zone.siteId;\n',
                false,
                /Property 'siteId' does not exist on type 'Zone'/,
                CITRIX,
            ],
            [
                "a type error of the program's own",
                'import * as citrix from "@pulumi/citrix";\n' +
                    'const rtt: number = "280";\nnew citrix.Zone("emea-zone", { name: "emea", metadatas: [{ name: "perfguard:rttMs", value: String(rtt) }] });\n',
                false,
                /Type 'string' is not assignable to type 'number'/,
                undefined,
            ],
            [
                "the program's own install of the SDK",
                'import * as vsphere from "@pulumi/vsphere";\n' + 'new vsphere.VirtualMachine("ddc-01", { resourcePoolId: "pool", numCoresPerSocket: 2 });\n',
                true,
                /'numCoresPerSocket' does not exist in type 'VirtualMachineArgs'/,
                undefined,
            ],
        ] as const)("%s", async (_label, source, own, compilerError, standIn) => {
            const dir = teamProgram(source, own);
            const err = (await withTranspileOnly(undefined, () =>
                compiled.runProgram(dir, { project: "team", stack: "dev", config: {}, onOutput: quiet }).then(
                    (resources) => new Error(`expected a failure, got ${resources.map((r) => r.name).join(", ")}`),
                    (e: unknown) => e,
                ),
            )) as { exitCode?: number; message: string };
            expect(err.exitCode, err.message).toBe(1);
            expect(err.message).toContain("Unable to compile TypeScript");
            expect(err.message).toMatch(compilerError);
            const lines = err.message.split("\n").filter((l) => l.startsWith("perfguard: "));
            expect(lines).toEqual(standIn ? [hint(standIn[0], standIn[1], standIn[2], fs.realpathSync(dir))] : []);
        });

        it("the bundled type-error fixture (a misspelt Citrix input) gets the hint too", async () => {
            const err = (await withTranspileOnly(undefined, () =>
                compiled.runProgram(program("type-error"), { project: "type-error", stack: "dev", config: {}, onOutput: quiet }).then(
                    () => new Error("expected a failure"),
                    (e: unknown) => e,
                ),
            )) as { message: string };
            expect(err.message.split("\n").filter((l) => l.startsWith("perfguard: "))).toEqual([hint(CITRIX[0], CITRIX[1], CITRIX[2], program("type-error"))]);
        });
    });

    it('with PULUMI_NODEJS_TRANSPILE_ONLY "true": runs, and the misspelt input is dropped (as the host does then)', async () => {
        const resources = await withTranspileOnly("true", () =>
            compiled.runProgram(program("type-error"), { project: "type-error", stack: "dev", config: {}, onOutput: quiet }),
        );
        expect(resources.map((r) => r.name)).toEqual(["type-error-dev", "emea-zone"]);
    });
});

describe("runProgram fails the preview", () => {
    it.each([
        ["a top-level throw", THROWING_PROGRAM, "throws", "zone catalogue is missing the RTT table"],
        ["a resource input that is a rejected promise", program("rejects-input"), "rejects-input", "async boom"],
        ["an unhandled rejection after the top level finished", program("unhandled-rejection"), "unhandled-rejection", "late lookup of the RTT table failed"],
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
            // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a SyntaxError is what the case needs
            new Function("const x = ;");
        } catch (e) {
            syntax = e;
        }
        expect(describeError(syntax, false)).not.toMatch(/^\s+at /m);
        const missing = Object.assign(new Error("Cannot find module '@pulumi/aws'\nRequire stack:\n- /p/index.ts"), { code: "MODULE_NOT_FOUND" });
        expect(describeError(missing, false)).toBe("Cannot find module '@pulumi/aws' (have you run npm install in the program's directory?)");
        expect(describeError("plain string", false)).toBe("a non-Error value was thrown: plain string");
        expect(describeError({ code: 7 }, false)).toBe('a non-Error value was thrown: {"code":7}');
    });
});
