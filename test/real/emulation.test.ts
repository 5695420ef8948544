/**
 * The emulation against the real CLI where the program needs state (issue 21): a stack reference
 * to a deployed stack, a rename with an alias after a deploy, and the same pack given twice with
 * different configs. Each case runs the real `pulumi preview` and `node dist/preview/main.js` in
 * the same workspace (the emulation reads the same file backend), and compares verdicts and exit codes.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CliRun, createWorkspace, listedViolations, policiesSection, REPO_ROOT, stageProgram, Workspace } from "../../scripts/realCli/run";

const FIXTURES = path.join(REPO_ROOT, "test", "fixtures", "programs");

/** The verdicts a Policies section lists, as `level policy -> resource` ("(stack)" for the root stack), sorted. */
function verdictsOf(output: string): string[] {
    return listedViolations(policiesSection(output))
        .map((v) => `${v.level} ${v.policy} -> ${v.type === "pulumi:pulumi:Stack" ? "(stack)" : v.name}`)
        .sort();
}

/** The emulation in `dir`, with the workspace's environment (its file backend) unless `env` replaces it. */
function emulated(dir: string, args: string[], env: NodeJS.ProcessEnv): CliRun {
    const run = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist", "preview", "main.js"), dir, ...args], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...env, NO_COLOR: "1" },
    });
    return { stdout: run.stdout, stderr: run.stderr, exitCode: run.status ?? 1 };
}

function sideBySide(real: CliRun, emu: CliRun): string {
    return `\n--- real CLI (exit ${real.exitCode}) ---\n${real.stdout}${real.stderr}\n--- emulation (exit ${emu.exitCode}) ---\n${emu.stdout}${emu.stderr}`;
}

async function must(ws: Workspace, args: string[], cwd: string): Promise<CliRun> {
    const run = await ws.run(args, cwd);
    if (run.exitCode !== 0) {
        throw new Error(`pulumi ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`);
    }
    return run;
}

describe("a stack reference to a deployed stack", () => {
    let ws: Workspace;
    let site: string;
    let real: CliRun;
    let emu: CliRun;
    let exportFile: string;
    beforeAll(async () => {
        ws = createWorkspace();
        const network = stageProgram(path.join(FIXTURES, "stack-reference-network"), ws.dir).dir;
        await must(ws, ["stack", "init", "network", "--non-interactive"], network);
        await must(ws, ["up", "--yes", "--non-interactive", "--skip-preview", "--stack", "network"], network);
        exportFile = path.join(ws.dir, "network-export.json");
        await must(ws, ["stack", "export", "--stack", "network", "--file", exportFile], network);
        site = stageProgram(path.join(FIXTURES, "stack-reference-site"), ws.dir).dir;
        await must(ws, ["stack", "init", "dev", "--non-interactive"], site);
        real = await ws.run(["preview", "--non-interactive", "--stack", "dev", "--policy-pack", REPO_ROOT], site);
        emu = emulated(site, ["--policy-pack", REPO_ROOT, "--stack", "dev"], ws.env);
    });
    afterAll(() => ws?.dispose());

    it("the real CLI blocks the 280 ms zone it read from the other stack", () => {
        expect(real.exitCode, sideBySide(real, emu)).toBe(1);
        expect(verdictsOf(real.stdout), sideBySide(real, emu)).toContain("mandatory citrix-zone-rtt-limit -> latam-zone");
    });

    it("the emulation reads the same file backend: the same verdicts and exit code", () => {
        expect(emu.exitCode, sideBySide(real, emu)).toBe(real.exitCode);
        expect(verdictsOf(emu.stdout), sideBySide(real, emu)).toEqual(verdictsOf(real.stdout));
        expect(emu.stderr).not.toContain("not reproduced");
    });

    it("the emulation reads an export given with --stack-reference, without the backend", () => {
        const env = { ...ws.env };
        delete env.PULUMI_BACKEND_URL;
        const fromExport = emulated(site, ["--policy-pack", REPO_ROOT, "--stack-reference", `organization/perfguard-network/network=${exportFile}`], env);
        expect(fromExport.exitCode, sideBySide(real, fromExport)).toBe(real.exitCode);
        expect(verdictsOf(fromExport.stdout), sideBySide(real, fromExport)).toEqual(verdictsOf(real.stdout));
    });

    it("without the other stack: outputs unknown, one not-reproduced line, exit 1 (never a silent pass)", () => {
        const env = { ...ws.env, PULUMI_BACKEND_URL: `file://${path.join(ws.dir, "empty-backend")}` };
        fs.mkdirSync(path.join(ws.dir, "empty-backend"), { recursive: true });
        const blind = emulated(site, ["--policy-pack", REPO_ROOT], env);
        expect(blind.exitCode, sideBySide(real, blind)).toBe(1);
        const lines = blind.stderr.split("\n").filter((l) => l.includes("not reproduced"));
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain('stack reference "organization/perfguard-network/network"');
        expect(lines[0]).toContain("npm run preview:real");
        expect(verdictsOf(blind.stdout)).toContain("advisory citrix-zone-rtt-limit -> latam-zone");
    });
});

describe("a zone renamed with an alias after a deploy", () => {
    let ws: Workspace;
    let real: CliRun;
    let emu: CliRun;
    beforeAll(async () => {
        ws = createWorkspace();
        const program = stageProgram(path.join(FIXTURES, "rename-alias"), ws.dir).dir;
        await must(ws, ["stack", "init", "dev", "--non-interactive"], program);
        await must(ws, ["up", "--yes", "--non-interactive", "--skip-preview", "--stack", "dev"], program);
        await must(ws, ["config", "set", "renamed", "true", "--stack", "dev"], program);
        real = await ws.run(["preview", "--non-interactive", "--stack", "dev", "--policy-pack", REPO_ROOT], program);
        emu = emulated(program, ["--policy-pack", REPO_ROOT, "--stack", "dev"], ws.env);
    });
    afterAll(() => ws?.dispose());

    // Its two unthrottled controllers are one cause: one mandatory verdict, on the zone (citrix-broker-throttle).
    it("the real CLI keeps the mandatory throttle verdict on the renamed zone", () => {
        expect(real.exitCode, sideBySide(real, emu)).toBe(1);
        expect(verdictsOf(real.stdout), sideBySide(real, emu)).toEqual([
            "advisory citrix-brokering-capacity -> emea-east-zone",
            "mandatory citrix-broker-throttle -> emea-east-zone",
        ]);
    });

    it("the emulation matches the alias against the same state: the same verdicts and exit code", () => {
        expect(emu.exitCode, sideBySide(real, emu)).toBe(real.exitCode);
        expect(verdictsOf(emu.stdout), sideBySide(real, emu)).toEqual(verdictsOf(real.stdout));
        expect(policiesSection(emu.stdout), sideBySide(real, emu)).toBe(policiesSection(real.stdout));
    });
});

describe("the same pack given twice with different configs", () => {
    let ws: Workspace;
    let program: string;
    let advisory: string;
    let empty: string;
    beforeAll(async () => {
        ws = createWorkspace();
        program = stageProgram(path.join(REPO_ROOT, "examples", "citrix-satellite-zones"), ws.dir).dir;
        await must(ws, ["stack", "init", "dev", "--non-interactive"], program);
        advisory = path.join(ws.dir, "advisory.json");
        empty = path.join(ws.dir, "empty.json");
        fs.writeFileSync(advisory, JSON.stringify({ all: "advisory" }));
        fs.writeFileSync(empty, "{}");
    });
    afterAll(() => ws?.dispose());

    it.each([
        ["default first", () => [empty, advisory]],
        ["advisory first", () => [advisory, empty]],
    ] as const)("%s: the emulation lists the CLI's verdicts, names the race and never exits 0 where the CLI could block", async (_label, order) => {
        const [first, second] = order();
        const args = ["--policy-pack", REPO_ROOT, "--policy-pack-config", first, "--policy-pack", REPO_ROOT, "--policy-pack-config", second];
        const real = await ws.run(["preview", "--non-interactive", "--stack", "dev", ...args], program);
        const emu = emulated(program, [...args, "--stack", "dev"], ws.env);
        // The CLI loads one plugin for both flags and analyzes twice: each of the 3 verdicts is listed twice,
        // at the levels of whichever config it kept (the loads race: runs have kept either).
        const withoutLevel = (list: string[]) => list.map((v) => v.replace(/^\S+ /, "")).sort();
        expect(verdictsOf(real.stdout).length, sideBySide(real, emu)).toBe(6);
        expect(withoutLevel(verdictsOf(emu.stdout)), sideBySide(real, emu)).toEqual(withoutLevel(verdictsOf(real.stdout)));
        // brokering-capacity and site-database-load are advisory in both configs; the others follow the config.
        const levels = new Set(
            verdictsOf(real.stdout)
                .filter((v) => !v.includes("brokering-capacity") && !v.includes("site-database-load"))
                .map((v) => v.split(" ")[0]),
        );
        expect(levels.size, sideBySide(real, emu)).toBe(1);
        // The emulation uses the first config, names the race, and exits 1 whatever the CLI did.
        const firstLevel = first === advisory ? "advisory" : "mandatory";
        expect(verdictsOf(emu.stdout), sideBySide(real, emu)).toContain(`${firstLevel} citrix-zone-rtt-limit -> latam-zone`);
        expect(emu.exitCode, sideBySide(real, emu)).toBe(1);
        expect(emu.stderr.split("\n").filter((l) => l.includes("not reproduced"))).toHaveLength(1);
    });
});
