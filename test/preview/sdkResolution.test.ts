/**
 * Own programs in the emulated preview (preview/sdkResolution.ts): a program importing the providers'
 * package names runs from anywhere on disk, with its own node_modules or none, and is judged as the
 * same program in the repository; a layout that cannot resolve fails with one line.
 * Runs the built preview (dist/, as `npm run preview` does; `npm test` builds first).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fallbackFor, packageOf, SdkResolutionError, standInFile } from "../../preview/sdkResolution";
import { copyTeamProgram } from "../support/teamProgram";

const ROOT = path.resolve(__dirname, "..", "..");
const EXAMPLE = path.join(ROOT, "examples", "citrix-satellite-zones");

function preview(programDir: string, cwd: string) {
    return spawnSync(process.execPath, [path.join(ROOT, "dist", "preview", "main.js"), programDir], {
        cwd,
        encoding: "utf8",
        timeout: 240_000,
        killSignal: "SIGKILL",
    });
}

describe("fallbackFor: what an import resolves to when the program has no install of it", () => {
    it.each([
        ["@pulumi/citrix", path.join(ROOT, "examples", "sdk", "citrix.ts")],
        ["@pulumi/avi", path.join(ROOT, "examples", "sdk", "avi.ts")],
        ["@pulumi/vsphere", path.join(ROOT, "examples", "sdk", "vsphere.ts")],
        ["@vates/pulumi-xenorchestra", require.resolve("@vates/pulumi-xenorchestra", { paths: [ROOT] })],
        ["@pulumi/aws", undefined],
        ["lodash", undefined],
        ["./helpers", undefined],
    ])("%s (from source) -> %s", (request, expected) => {
        expect(fallbackFor(request, "/teams/euc/index.ts", ROOT, false)).toBe(expected);
    });

    it("prefers the compiled stand-in when running compiled", () => {
        const compiled = standInFile("citrix", ROOT, true);
        expect(compiled === path.join(ROOT, "dist", "examples", "sdk", "citrix.js") || compiled === path.join(ROOT, "examples", "sdk", "citrix.ts")).toBe(true);
    });

    it.each([
        [
            "@pulumi/citrix/zone",
            /^cannot find module '@pulumi\/citrix\/zone' \(imported by \/teams\/euc\/index\.ts\): .*no sub-modules: import "@pulumi\/citrix"/,
        ],
        ["../../examples/sdk/citrix", /^cannot find module '\.\.\/\.\.\/examples\/sdk\/citrix' .*: import "@pulumi\/citrix" instead/],
        ["../sdk/avi", /: import "@pulumi\/avi" instead/],
    ])("%s cannot resolve: one line naming the import and the fix", (request, message) => {
        let thrown: unknown;
        try {
            fallbackFor(request, "/teams/euc/index.ts", ROOT, false);
        } catch (err) {
            thrown = err;
        }
        expect(thrown).toBeInstanceOf(SdkResolutionError);
        expect((thrown as Error).message).toMatch(message);
        expect((thrown as Error).message).not.toContain("\n");
    });

    it("a stand-in missing from perfguard is named, not silently skipped", () => {
        const empty = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-no-sdk-"));
        try {
            expect(() => fallbackFor("@pulumi/avi", undefined, empty, false)).toThrow(/stand-in for it \(examples\/sdk\/avi\.ts\) is missing/);
        } finally {
            fs.rmSync(empty, { recursive: true, force: true });
        }
    });

    it.each([
        ["@pulumi/citrix/zone", "@pulumi/citrix"],
        ["lodash/fp", "lodash"],
        ["./x", undefined],
        ["/abs", undefined],
    ])("packageOf(%s) = %s", (request, pkg) => {
        expect(packageOf(request)).toBe(pkg);
    });
});

describe("a team's program outside the repository", () => {
    let work = "";
    let inRepo: ReturnType<typeof preview>;
    const copyExample = (name: string): string => copyTeamProgram(EXAMPLE, work, name);
    beforeAll(() => {
        work = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-own-program-"));
        inRepo = preview(EXAMPLE, ROOT);
    }, 300_000);
    afterAll(() => {
        if (work) {
            fs.rmSync(work, { recursive: true, force: true });
        }
    });

    it("with no node_modules: the verdicts of the same program in the repository", () => {
        const dir = copyExample("no-modules");
        const run = preview("teams/no-modules", work);
        expect(inRepo.status).toBe(1);
        expect(inRepo.stdout).toMatch(/\[mandatory\] {2}citrix-zone-rtt-limit {2}\(citrix:index:Zone: latam-zone\)/);
        expect(run.stderr).toBe(inRepo.stderr);
        expect(run.status).toBe(1);
        expect(run.stdout).toBe(inRepo.stdout);
        expect(fs.existsSync(path.join(dir, "node_modules"))).toBe(false);
    }, 300_000);

    it("with its own node_modules holding a second @pulumi/pulumi: the same verdicts", () => {
        const dir = copyExample("own-modules");
        // A copy of the SDK (not a link into perfguard's), its dependencies linked beside it.
        const own = path.join(dir, "node_modules");
        fs.mkdirSync(path.join(own, "@pulumi"), { recursive: true });
        fs.cpSync(path.join(ROOT, "node_modules", "@pulumi", "pulumi"), path.join(own, "@pulumi", "pulumi"), { recursive: true, dereference: true });
        for (const entry of fs.readdirSync(path.join(ROOT, "node_modules"))) {
            if (entry !== "@pulumi" && entry !== ".bin" && entry !== "typescript") {
                fs.symlinkSync(path.join(ROOT, "node_modules", entry), path.join(own, entry));
            }
        }
        const run = preview(dir, work);
        expect(run.status, run.stderr).toBe(1);
        expect(run.stdout).toBe(inRepo.stdout);
    }, 300_000);

    it.each([
        [
            "a relative path to the repository's stand-ins",
            'import * as citrix from "../../examples/sdk/citrix";',
            /cannot find module '\.\.\/\.\.\/examples\/sdk\/citrix' \(imported by .*index\.ts\): import "@pulumi\/citrix" instead/,
        ],
        [
            "a sub-module of a stand-in",
            'import { Zone } from "@pulumi/citrix/zone";',
            /cannot find module '@pulumi\/citrix\/zone' .*no sub-modules: import "@pulumi\/citrix"/,
        ],
    ])(
        "%s fails with one line, exit 1",
        (_what, importLine, message) => {
            const dir = path.join(work, "teams", `bad-${importLine.length}`);
            fs.mkdirSync(dir, { recursive: true });
            fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: bad\nruntime: nodejs\n");
            fs.writeFileSync(
                path.join(dir, "index.ts"),
                `${importLine}\nvoid citrixOrZone;\n`.replace("citrixOrZone", importLine.includes("Zone }") ? "Zone" : "citrix"),
            );
            const run = preview(dir, work);
            expect(run.status).toBe(1);
            const lines = run.stderr.trim().split("\n");
            expect(lines).toEqual([`error: program ${dir} failed:`, expect.stringMatching(message)]);
        },
        300_000,
    );
});
