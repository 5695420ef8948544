/**
 * A Pulumi YAML program under the REAL Pulumi CLI: examples/citrix-yaml (the Site of
 * examples/citrix-satellite-zones written in Pulumi.yaml) runs on the YAML language host that
 * `npm run real-cli:setup` builds (pulumi-language-yaml from github.com/pulumi/pulumi-yaml), which
 * types its resources from the stand-in providers' GetSchema (preview/providers/plugin.ts). The CLI
 * gives it the verdicts of its TypeScript twin: the twin's expected-violations.json, the same
 * `Policies:` section byte for byte, exit 1 on the mandatory ones.
 *
 * The emulation (`npm run preview`) runs Node.js programs only: on the YAML program it names the
 * runtime and exits non-zero, never 0.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { CliRun, listedViolations, policiesSection, realCliAvailable, realCliBinDir, realPreview, REPO_ROOT } from "../../scripts/realCli/run";

const yamlHost = path.join(realCliBinDir(), "pulumi-language-yaml");
const present = realCliAvailable() && fs.existsSync(yamlHost);
if (!present) {
    console.warn(`test/real/yaml.test.ts skipped: no Pulumi CLI or ${yamlHost} (npm run real-cli:setup)`);
}

const YAML = path.join(REPO_ROOT, "examples", "citrix-yaml");
const TWIN = path.join(REPO_ROOT, "examples", "citrix-satellite-zones");

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

describe.skipIf(!present)("examples/citrix-yaml under the real CLI", () => {
    let yaml: CliRun;
    let twin: CliRun;
    beforeAll(async () => {
        yaml = await realPreview(YAML);
        twin = await realPreview(TWIN);
    }, 600_000);

    it("is a YAML program", () => {
        expect(fs.readFileSync(path.join(YAML, "Pulumi.yaml"), "utf8")).toMatch(/^runtime: yaml$/m);
        expect(fs.readdirSync(YAML).filter((f) => /\.(ts|js)$/.test(f))).toEqual([]);
    });

    it("exits 1 with its TypeScript twin's expected verdicts", () => {
        const expected = (JSON.parse(fs.readFileSync(path.join(TWIN, "expected-violations.json"), "utf8")) as Expected[])
            .map((e) => `${e.policy} ${e.resource ?? "(stack)"} ${e.level}`)
            .sort();
        expect(yaml.exitCode, yaml.stdout + yaml.stderr).toBe(1);
        expect(verdicts(yaml)).toEqual(expected);
        expect(verdicts(yaml).filter((v) => v.endsWith(" mandatory"))).toEqual([
            "citrix-broker-throttle ddc-emea-east-02 mandatory",
            "citrix-zone-rtt-limit latam-zone mandatory",
        ]);
    });

    it("prints the twin's Policies: section byte for byte", () => {
        expect(twin.exitCode).toBe(1);
        expect(stackNeutral(policiesSection(yaml.stdout))).toBe(stackNeutral(policiesSection(twin.stdout)));
    });

    it("registers every resource of the twin (same types and names)", () => {
        const created = (run: CliRun) =>
            run.stdout
                .split("\n")
                .map((l) => /^ \+ {2}(\S+) (\S+) create/.exec(l))
                .filter((m) => m && m[1] !== "pulumi:pulumi:Stack")
                .map((m) => `${m![1]} ${m![2]}`)
                .sort();
        expect(created(yaml).length).toBeGreaterThan(20);
        expect(created(yaml)).toEqual(created(twin));
    });
});

describe("the emulation on a YAML program", () => {
    it("names the runtime and does not pass (non-zero exit)", () => {
        const run = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist", "preview", "main.js"), YAML], {
            cwd: REPO_ROOT,
            encoding: "utf8",
            timeout: 120_000,
        });
        expect(run.status).not.toBe(0);
        expect(run.stdout).not.toContain("Policies:");
        expect(run.stderr).toMatch(/runtime: yaml/);
    });
});
