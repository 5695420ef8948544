/**
 * The published pack under the REAL Pulumi CLI: `npm pack` (what `pulumi policy publish` uploads),
 * its `package/` folder extracted as a consumer's CLI extracts it (installRequiredPolicy in
 * pulumi/pulumi pkg/backend/httpstate/policypack.go), `pulumi install` there (the Node.js language
 * host's `npm install`, lifecycle scripts included), then an example previewed with that folder as
 * `--policy-pack`: the same verdicts and exit code as the checkout, alone and as a second pack beside
 * the checkout (the same pack enforced at two levels), in both orders.
 *
 * Needs `npm run real-cli:setup`. npm takes the dependencies from the local cache first
 * (npm_config_prefer_offline), asking the registry only for what it lacks.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
    CliRun,
    createWorkspace,
    listedViolations,
    ListedViolation,
    policiesSection,
    realCliAvailable,
    realCliBinDir,
    realPreview,
    REPO_ROOT,
    Workspace,
} from "../../scripts/realCli/run";

const present = realCliAvailable();
if (!present) {
    console.warn(`test/real/publish.test.ts skipped: no Pulumi CLI and language host in ${realCliBinDir()} (npm run real-cli:setup)`);
}

const EXAMPLE = path.join(REPO_ROOT, "examples", "citrix-satellite-zones");

function key(v: ListedViolation): string {
    return `${v.level} ${v.policy} ${v.type ?? "(stack)"} ${v.name ?? ""}`;
}

/** The violations of a run, sorted. */
function verdicts(run: CliRun): string[] {
    return listedViolations(policiesSection(run.stdout)).map(key).sort();
}

/** The pack headings of a `Policies:` section (`❌ perfguard@v0.1.0 (local: <dir>)`), in order. */
function packHeadings(run: CliRun): string[] {
    return policiesSection(run.stdout)
        .split("\n")
        .filter((l) => /^ {4}\S/.test(l))
        .map((l) => l.trim());
}

describe.skipIf(!present)("the published tarball under the real CLI", () => {
    let ws: Workspace;
    let packageDir = "";
    let install: CliRun;
    let checkout: CliRun;
    beforeAll(async () => {
        ws = createWorkspace();
        // dist/ is built by `npm run test:real`; a publisher's `npm pack` builds it through `prepare`.
        const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", ws.dir], {
            cwd: REPO_ROOT,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "ignore"],
        });
        const tarball = path.join(ws.dir, (JSON.parse(out) as Array<{ filename: string }>)[0].filename);
        fs.mkdirSync(path.join(ws.dir, "consumer"));
        execFileSync("tar", ["-xzf", tarball, "-C", path.join(ws.dir, "consumer")]);
        packageDir = path.join(ws.dir, "consumer", "package");
        (ws.env as Record<string, string>).npm_config_prefer_offline = "true";
        install = await ws.run(["install"], packageDir);
        checkout = await realPreview(EXAMPLE);
    }, 900_000);
    afterAll(() => ws?.dispose());

    it("pulumi install succeeds on the extracted folder (no sources, prepare a no-op)", () => {
        expect(fs.existsSync(path.join(packageDir, "tsconfig.build.json"))).toBe(false);
        expect(install.exitCode, install.stdout + install.stderr).toBe(0);
        expect(install.stdout + install.stderr).toMatch(/Finished installing dependencies/);
        expect(install.stdout + install.stderr).not.toMatch(/TS\d{4}/);
    });

    it("previews the example with the same verdicts and exit code as the checkout", async () => {
        const run = await realPreview(EXAMPLE, { packDir: packageDir });
        expect(checkout.exitCode).toBe(1);
        expect(verdicts(checkout).some((v) => v.startsWith("mandatory citrix-zone-rtt-limit"))).toBe(true);
        expect(run.exitCode, run.stdout + run.stderr).toBe(checkout.exitCode);
        expect(verdicts(run)).toEqual(verdicts(checkout));
        expect(packHeadings(run)).toEqual([`❌ perfguard@v0.1.0 (local: ${packageDir})`]);
        // The rest of the section is byte-equal once the pack's folder is named the same.
        expect(policiesSection(run.stdout).split(packageDir).join("<pack>")).toBe(policiesSection(checkout.stdout).split(REPO_ROOT).join("<pack>"));
    });

    it.each([
        ["checkout first", () => [REPO_ROOT, packageDir]],
        ["tarball first", () => [packageDir, REPO_ROOT]],
    ])("beside the checkout (%s): both packs run, each with the checkout's verdicts, exit 1", async (_order, packs) => {
        const dirs = packs();
        const run = await realPreview(EXAMPLE, { packDirs: dirs });
        expect(run.exitCode, run.stdout + run.stderr).toBe(1);
        // The CLI lists two packs of one name and version under one heading, their folders joined by "; ".
        const headings = packHeadings(run);
        expect(headings).toHaveLength(1);
        const m = /^❌ perfguard@v0\.1\.0 \(local: (.+)\)$/.exec(headings[0]);
        expect(m?.[1].split("; ").sort()).toEqual([...dirs].sort());
        // Each verdict of the checkout, once per pack.
        const doubled = verdicts(checkout)
            .flatMap((v) => [v, v])
            .sort();
        expect(verdicts(run)).toEqual(doubled);
    });
});
