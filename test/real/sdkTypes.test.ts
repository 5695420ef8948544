/**
 * Examples written against the real SDKs: every bundled example imports the providers' package
 * names (`@pulumi/citrix`, ...), which resolve to local stand-in modules where no real SDK is
 * installed (examples/sdk: fast, no Go), and here compiles with each of those imports mapped to the
 * package's real SDK (scripts/realSdk/typeCheck.ts; SDKs from `npm run real-cli:setup`). A property
 * name or type that the real SDK lacks fails. The fixture under test/fixtures/sdk-types proves that
 * a wrong name is caught.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/realCli/run";
import { NO_REAL_SDK, standInPackages, typeCheckAgainstRealSdks } from "../../scripts/realSdk/typeCheck";

const EXAMPLES = path.join(REPO_ROOT, "examples");
const examples = fs
    .readdirSync(EXAMPLES)
    .filter((d) => fs.existsSync(path.join(EXAMPLES, d, "index.ts")))
    .sort();

/** Local modules of an example that declare provider resources outside `sdk/` (there must be none). */
function resourceModulesOutsideSdk(dir: string): string[] {
    return fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".ts") && f !== "index.ts")
        .filter(
            (f) =>
                /super\(\s*"[a-z0-9]+:index\//.test(fs.readFileSync(path.join(dir, f), "utf8")) ||
                /__pulumiType = "[a-z0-9]+:index\//.test(fs.readFileSync(path.join(dir, f), "utf8")),
        );
}

describe.each(examples)("examples/%s against the real SDKs", (name) => {
    const dir = path.join(EXAMPLES, name);

    it("declares provider resources only through the examples/sdk stand-ins", () => {
        expect(resourceModulesOutsideSdk(dir)).toEqual([]);
    });

    it("imports the providers' package names, not a relative path to the stand-ins", () => {
        const relative = fs
            .readdirSync(dir)
            .filter((f) => f.endsWith(".ts"))
            .filter((f) => /from\s+"(?:\.\.?\/)+(?:.*\/)?sdk\//.test(fs.readFileSync(path.join(dir, f), "utf8")));
        expect(relative).toEqual([]);
    });

    it("compiles with every @pulumi/<package> import mapped to the real SDK", () => {
        const result = typeCheckAgainstRealSdks(dir);
        const missing = result.unmapped.filter((pkg) => !(pkg in NO_REAL_SDK));
        expect(missing, `no real SDK for ${missing.join(", ")}: run npm run real-cli:setup`).toEqual([]);
        expect(Object.keys(result.mapped).length + result.unmapped.length).toBe(standInPackages(dir).length);
        expect(result.errors, result.errors.join("\n")).toEqual([]);
    });
});

describe("the type check can fail", () => {
    it("rejects a property the real vSphere SDK lacks (extraConfigs)", () => {
        const result = typeCheckAgainstRealSdks(path.join(REPO_ROOT, "test", "fixtures", "sdk-types", "misspelt"));
        expect(Object.keys(result.mapped)).toEqual(["vsphere"]);
        expect(result.errors).toHaveLength(1);
        expect(result.errors[0]).toMatch(/index\.ts:7: .*'extraConfigs' does not exist in type 'VirtualMachineArgs'/);
    });
});
