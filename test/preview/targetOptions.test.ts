// --target, --target-dependents, --exclude, --exclude-dependents and --replace (issue 33): the CLI
// accepts them, so the emulation never refuses them (exit 2); it does not reproduce them either
// (what the engine sends then depends on the stack's state): each is named in a "not reproduced"
// line, the whole program is previewed, and a preview that would pass exits 1.
import { spawnSync } from "child_process";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { targetOptionsNotReproduced } from "../../preview/targetOptions";
import { program } from "./fixtures";

const ROOT = path.resolve(__dirname, "..", "..");
const ZONE = "urn:pulumi:dev::stack-config::citrix:index/zone:Zone::latam-zone";

function cli(args: string[]) {
    return spawnSync(
        process.execPath,
        ["-r", "ts-node/register/transpile-only", path.join(ROOT, "preview", "main.ts"), program("stack-config"), "--policy-pack", ROOT, ...args],
        {
            cwd: ROOT,
            encoding: "utf8",
            env: { ...process.env, PULUMI_BACKEND_URL: "" },
        },
    );
}

describe("targetOptionsNotReproduced", () => {
    it("names nothing when none is given", () => {
        expect(targetOptionsNotReproduced({})).toEqual([]);
        expect(targetOptionsNotReproduced({ target: [], exclude: [], replace: [] })).toEqual([]);
    });

    it.each([
        [{ target: ["urn:b", "urn:a", "urn:b"] }, /^--target urn:a, urn:b \(/],
        [{ "target-dependents": true }, /^--target-dependents \(/],
        [{ exclude: ["urn:x"] }, /^--exclude urn:x \(/],
        [{ "exclude-dependents": true }, /^--exclude-dependents \(/],
        [{ replace: ["urn:z", "urn:y"] }, /^--replace urn:y, urn:z \(/],
    ])("names %j once, its URNs sorted", (values, line) => {
        const features = targetOptionsNotReproduced(values);
        expect(features).toHaveLength(1);
        expect(features[0]).toMatch(line);
    });
});

describe("the emulated preview with a targeting option", () => {
    const baseline = cli([]);

    it("passes without one (the baseline, exit 0)", () => {
        expect(baseline.status, baseline.stderr).toBe(0);
        expect(baseline.stderr).not.toContain("not reproduced");
    });

    // Two previews cover the five options (each preview runs the program and the pack: slow here).
    it.each([
        [
            ["--target", ZONE, "-t", ZONE, "--target-dependents"],
            ["--target", "--target-dependents"],
        ],
        [
            ["--exclude", ZONE, "--exclude-dependents", "--replace", ZONE],
            ["--exclude", "--exclude-dependents", "--replace"],
        ],
    ])("%j: accepted, each named not reproduced, the same Policies: section, exit 1 (never 2)", (args, options) => {
        const run = cli(args);
        expect(run.status, run.stderr).toBe(1);
        for (const option of options) {
            expect(run.stderr).toContain(`warning: not reproduced by the emulation: ${option} `);
        }
        expect(run.stderr).not.toContain("Unknown option");
        expect(run.stdout.split("\nResources:")[0]).toBe(baseline.stdout.split("\nResources:")[0]);
    });
});
