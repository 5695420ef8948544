// The CLI entry: argv parsing and exit codes (run through ts-node, no build needed).
import { spawnSync } from "child_process";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { SAMPLE_PACK, SAMPLE_PROGRAM, THROWING_PROGRAM } from "./fixtures";

const ROOT = path.resolve(__dirname, "..", "..");

function cli(args: string[]) {
    return spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(ROOT, "preview", "main.ts"), ...args], {
        cwd: ROOT, encoding: "utf8",
    });
}

describe("preview/main", () => {
    it("prints violations and exits 1 on a mandatory one", () => {
        const run = cli([SAMPLE_PROGRAM, "--policy-pack", SAMPLE_PACK]);
        expect(run.status).toBe(1);
        expect(run.stdout).toContain("[mandatory]  catalog-zone-rtt  (citrix:index:MachineCatalog: catalog-east)");
    });

    it("exits non-zero with the program dir named when the program throws", () => {
        const run = cli([THROWING_PROGRAM, "--policy-pack", SAMPLE_PACK]);
        expect(run.status).toBe(1);
        expect(run.stderr).toContain(`error: program ${THROWING_PROGRAM} failed`);
    });

    it("rejects unknown flags with usage and exit 2", () => {
        const run = cli([SAMPLE_PROGRAM, "--bogus"]);
        expect(run.status).toBe(2);
        expect(run.stderr).toContain("usage: npm run preview");
    });
});
