/**
 * Own programs under the REAL Pulumi CLI (`npm run preview:real`): a team's program outside the
 * repository, importing the providers' package names, staged by scripts/realCli/staging.ts with its own
 * node_modules or none: the verdicts and exit code of the same program in the repository. With its
 * own node_modules (a second @pulumi/pulumi), the stand-ins staged as `@pulumi/citrix` and
 * `@pulumi/vsphere` use the program's SDK, so the program type-checks (no TS2339 on `Zone.id`).
 * A program importing a file from outside its folder cannot be staged: one line.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliRun, listedViolations, policiesSection, realCliAvailable, realCliBinDir, realPreview, REPO_ROOT, StagingError } from "../../scripts/realCli/run";
import { copyTeamProgram } from "../support/teamProgram";

const present = realCliAvailable();
if (!present) {
    console.warn(`test/real/ownPrograms.test.ts skipped: no Pulumi CLI and language host in ${realCliBinDir()} (npm run real-cli:setup)`);
}

const EXAMPLE = path.join(REPO_ROOT, "examples", "citrix-satellite-zones");

function verdicts(run: CliRun): string[] {
    return listedViolations(policiesSection(run.stdout))
        .map((v) => `${v.level} ${v.policy} ${v.type ?? ""} ${v.name ?? ""}`)
        .sort();
}

describe.skipIf(!present)("a team's program outside the repository, under the real CLI", () => {
    let work = "";
    let inRepo: CliRun;
    const copyExample = (name: string): string => copyTeamProgram(EXAMPLE, work, name);
    beforeAll(async () => {
        work = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-own-real-"));
        inRepo = await realPreview(EXAMPLE);
    }, 300_000);
    afterAll(() => {
        if (work) {
            fs.rmSync(work, { recursive: true, force: true });
        }
    });

    it("with no node_modules: the repository's verdicts, exit 1", async () => {
        const run = await realPreview(copyExample("no-modules"));
        expect(inRepo.exitCode).toBe(1);
        expect(verdicts(inRepo)).toContain("mandatory citrix-zone-rtt-limit citrix:index:Zone latam-zone");
        expect(run.exitCode, run.stdout + run.stderr).toBe(1);
        expect(verdicts(run)).toEqual(verdicts(inRepo));
        expect(policiesSection(run.stdout)).toBe(policiesSection(inRepo.stdout));
    });

    it("with its own node_modules holding a second @pulumi/pulumi: type-checks and gives the same verdicts", async () => {
        const dir = copyExample("own-modules");
        const own = path.join(dir, "node_modules");
        fs.mkdirSync(path.join(own, "@pulumi"), { recursive: true });
        fs.cpSync(path.join(REPO_ROOT, "node_modules", "@pulumi", "pulumi"), path.join(own, "@pulumi", "pulumi"), { recursive: true, dereference: true });
        for (const entry of fs.readdirSync(path.join(REPO_ROOT, "node_modules"))) {
            if (entry !== "@pulumi" && entry !== ".bin") {
                fs.symlinkSync(path.join(REPO_ROOT, "node_modules", entry), path.join(own, entry));
            }
        }
        const run = await realPreview(dir);
        expect(run.stdout + run.stderr).not.toMatch(/TS\d{4}/);
        expect(run.exitCode, run.stdout + run.stderr).toBe(1);
        expect(verdicts(run)).toEqual(verdicts(inRepo));
        // The program's folder is left as it was: nothing staged into its node_modules.
        expect(fs.existsSync(path.join(own, "@pulumi", "citrix"))).toBe(false);
    });

    it("importing the stand-ins by a relative path from outside its folder: one line naming the fix", async () => {
        const dir = path.join(work, "teams", "relative");
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: relative\nruntime: nodejs\n");
        fs.writeFileSync(path.join(dir, "index.ts"), 'import * as citrix from "../../examples/sdk/citrix";\nnew citrix.Zone("z", { name: "z" });\n');
        const err = await realPreview(dir).then(
            () => undefined,
            (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(StagingError);
        expect((err as Error).message).toMatch(
            /index\.ts imports "\.\.\/\.\.\/examples\/sdk\/citrix" from outside the program's folder, which preview:real does not copy: import "@pulumi\/citrix" instead/,
        );
        expect((err as Error).message).not.toContain("\n");
    });
});
