/**
 * Machines per catalog (issue 33) under the REAL Pulumi CLI and the emulation:
 * test/fixtures/programs/uneven-catalogs, one Delivery Group over a 900-VDA catalog at 2 ms and a
 * 100-VDA catalog at 160 ms, with machineCount literal (stack dev) or through apply() (stack
 * apply), and reversed (stacks reversed, reversed-apply: 900 VDAs behind the 160 ms zone). The
 * preview's verdicts do not depend on the form; the emulation prints the real CLI's Policies:
 * section; after `pulumi up`, `pulumi policy analyze --stack` joins the counts by id (the stand-in
 * providers keep `id` among the outputs, as bridged providers do) and gives the preview's verdicts.
 */
import { spawnSync } from "child_process";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import {
    analyzeStack,
    CliRun,
    listedViolations,
    policiesSection,
    realCliAvailable,
    realPreview,
    REPO_ROOT,
    withDeployedStack,
} from "../../scripts/realCli/run";

const present = realCliAvailable();
if (!present) {
    console.warn("test/real/unevenCatalogs.test.ts skipped: no Pulumi CLI (npm run real-cli:setup)");
}

const PROGRAM = path.join(REPO_ROOT, "test", "fixtures", "programs", "uneven-catalogs");
const STACKS = ["dev", "apply", "reversed", "reversed-apply"];

function verdictsOf(output: string): string[] {
    return listedViolations(policiesSection(output))
        .map((v) => `${v.level} ${v.policy} -> ${v.type === "pulumi:pulumi:Stack" ? "(stack)" : v.name}`)
        .sort();
}

function emulated(stack: string): CliRun {
    const run = spawnSync(
        process.execPath,
        [path.join(REPO_ROOT, "dist", "preview", "main.js"), PROGRAM, "--policy-pack", REPO_ROOT, ...(stack === "dev" ? [] : ["--stack", stack])],
        { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", PULUMI_BACKEND_URL: "" }, timeout: 300_000 },
    );
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

/** The Policies: section with the root stack's name (project-stack) made the same for every stack. */
function stackNeutral(section: string): string {
    return section.replace(/\(pulumi:pulumi:Stack: [^)]+\)/g, "(pulumi:pulumi:Stack: <project>-<stack>)");
}

describe.skipIf(!present)("one Delivery Group over uneven catalogs", () => {
    const real = new Map<string, CliRun>();
    const emu = new Map<string, CliRun>();
    const analyzed = new Map<string, CliRun>();
    beforeAll(async () => {
        for (const stack of STACKS) {
            real.set(stack, await realPreview(PROGRAM, { stack }));
            emu.set(stack, emulated(stack));
        }
        for (const stack of ["dev", "reversed"]) {
            analyzed.set(
                stack,
                await withDeployedStack(
                    PROGRAM,
                    async (deployed) => {
                        expect(deployed.up.exitCode, deployed.up.stdout + deployed.up.stderr).toBe(0);
                        return analyzeStack(deployed);
                    },
                    { stack },
                ),
            );
        }
    }, 3_600_000);

    it.each(STACKS)("%s: the emulation prints the real CLI's Policies: section and exit code", (stack) => {
        const r = real.get(stack) as CliRun;
        const e = emu.get(stack) as CliRun;
        expect(e.exitCode, `${r.stdout}${r.stderr}\n---\n${e.stdout}${e.stderr}`).toBe(r.exitCode);
        expect(policiesSection(e.stdout)).toBe(policiesSection(r.stdout));
        expect(r.stdout).not.toContain("split evenly");
    });

    it("literal and apply() counts give the same section; the 900 VDAs at 160 ms block (exit 1), the 100 do not (exit 0)", () => {
        const section = (s: string) => stackNeutral(policiesSection((real.get(s) as CliRun).stdout));
        expect(section("apply")).toBe(section("dev"));
        expect(section("reversed-apply")).toBe(section("reversed"));
        expect(real.get("dev")?.exitCode).toBe(0);
        expect(real.get("reversed")?.exitCode).toBe(1);
        expect(verdictsOf((real.get("reversed") as CliRun).stdout)).toContain("mandatory citrix-broker-throttle -> office-group");
    });

    it.each(["dev", "reversed"])("%s after pulumi up: policy analyze --stack joins by id and gives the preview's verdicts", (stack) => {
        const a = analyzed.get(stack) as CliRun;
        expect(verdictsOf(a.stdout), a.stdout + a.stderr).toEqual(verdictsOf((real.get(stack) as CliRun).stdout));
        expect(a.exitCode).toBe((real.get(stack) as CliRun).exitCode);
        expect(a.stdout).not.toContain("split evenly");
    });
});
