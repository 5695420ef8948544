/**
 * A Go program under the REAL Pulumi CLI: examples/citrix-delivery-groups-go (the Site of
 * examples/citrix-delivery-groups written in Go, every resource registered by its type token with
 * ctx.RegisterResource) runs on the Go language host that `npm run real-cli:setup` builds
 * (pulumi-language-go from sdk/go/pulumi-language-go/v3, the Node.js host's monorepo commit), which
 * compiles it with the machine's go command. The CLI gives it the verdicts of its TypeScript twin:
 * the twin's expected-violations.json, the same `Policies:` section byte for byte (the root stack
 * resource's name, which is the project's, made the same), exit 1 on the mandatory one.
 *
 * The emulation (`npm run preview`) runs Node.js programs only: on the Go program it names the
 * runtime and exits 2 (a refusal, never a pass).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { CliRun, listedViolations, policiesSection, realCliAvailable, realCliBinDir, realPreview, REPO_ROOT } from "../../scripts/realCli/run";

const goHost = path.join(realCliBinDir(), "pulumi-language-go");
const goCommand = spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;
const present = realCliAvailable() && fs.existsSync(goHost) && goCommand;
if (!present) {
    const missing = !realCliAvailable() ? "no Pulumi CLI" : !fs.existsSync(goHost) ? `no Go language host ${goHost}` : "no go command on PATH";
    console.warn(`test/real/goTwin.test.ts skipped: ${missing} (npm run real-cli:setup builds the CLI and the Go language host)`);
}

const GO = path.join(REPO_ROOT, "examples", "citrix-delivery-groups-go");
const TWIN = path.join(REPO_ROOT, "examples", "citrix-delivery-groups");

interface Expected {
    policy: string;
    resource: string | null;
    level: string;
}

/** A verdict on the stack itself names the root stack resource, whose name is the project's: "(stack)" for both twins. */
function verdicts(run: CliRun): string[] {
    return listedViolations(policiesSection(run.stdout))
        .map((v) => `${v.policy} ${v.type === "pulumi:pulumi:Stack" ? "(stack)" : (v.name ?? "(stack)")} ${v.level}`)
        .sort();
}

/** The Policies: section with the root stack resource's name (project-stack) made the same for both twins. */
function stackNeutral(section: string): string {
    return section.replace(/\(pulumi:pulumi:Stack: [^)]+\)/g, "(pulumi:pulumi:Stack: <project>-<stack>)");
}

/**
 * Resources the preview creates, as "type name", the root stack left out; each once (the progress
 * view prints a resource's line again with its policy violations).
 */
function created(run: CliRun): string[] {
    return [
        ...new Set(
            run.stdout
                .split("\n")
                .map((l) => /^ \+ {2}(\S+) (\S+) create/.exec(l))
                .filter((m) => m && m[1] !== "pulumi:pulumi:Stack")
                .map((m) => `${m![1]} ${m![2]}`),
        ),
    ].sort();
}

describe.skipIf(!present)("examples/citrix-delivery-groups-go under the real CLI", () => {
    let go: CliRun;
    let twin: CliRun;
    beforeAll(async () => {
        go = await realPreview(GO);
        twin = await realPreview(TWIN);
    }, 900_000);

    it("is a Go program", () => {
        expect(fs.readFileSync(path.join(GO, "Pulumi.yaml"), "utf8")).toMatch(/^runtime: go$/m);
        expect(fs.readdirSync(GO).filter((f) => /\.(ts|js)$/.test(f))).toEqual([]);
        expect(fs.readFileSync(path.join(GO, "go.mod"), "utf8")).toMatch(/^require github\.com\/pulumi\/pulumi\/sdk\/v3 v3\.274\.1$/m);
    });

    it("exits 1 with its TypeScript twin's expected verdicts, one mandatory and two advisory", () => {
        const expected = (JSON.parse(fs.readFileSync(path.join(TWIN, "expected-violations.json"), "utf8")) as Expected[])
            .map((e) => `${e.policy} ${e.resource ?? "(stack)"} ${e.level}`)
            .sort();
        expect(go.exitCode, go.stdout + go.stderr).toBe(1);
        expect(verdicts(go)).toEqual(expected);
        expect(verdicts(go)).toEqual([
            "citrix-broker-throttle shared-apps-group mandatory",
            "citrix-brokering-capacity shared-apps-group advisory",
            "citrix-site-database-load (stack) advisory",
        ]);
    });

    it("prints the twin's Policies: section byte for byte", () => {
        expect(twin.exitCode, twin.stdout + twin.stderr).toBe(1);
        expect(policiesSection(go.stdout)).not.toBe("");
        expect(stackNeutral(policiesSection(go.stdout))).toBe(stackNeutral(policiesSection(twin.stdout)));
    });

    it("registers every resource of the twin (same types and names)", () => {
        expect(created(go).length).toBe(37);
        expect(created(go).filter((r) => r.startsWith("vsphere:index:VirtualMachine ")).length).toBe(8);
        expect(created(go)).toEqual(created(twin));
    });
});

describe("the emulation on a Go program", () => {
    it("names the runtime and refuses it with exit 2", () => {
        const run = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist", "preview", "main.js"), GO], {
            cwd: REPO_ROOT,
            encoding: "utf8",
            timeout: 120_000,
        });
        expect(run.status).toBe(2);
        expect(run.stdout).not.toContain("Policies:");
        expect(run.stderr).toMatch(/says runtime: go: run npm run preview:real/);
    });
});
