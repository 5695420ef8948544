/**
 * Where the real Pulumi CLI is (built by `npm run real-cli:setup`) and where this repository is,
 * for the scripts and tests that run it.
 */
import * as fs from "fs";
import * as path from "path";

/** The CLI version scripts/real-cli/setup.sh builds. */
export const REAL_CLI_VERSION = "3.274.1";

/** This repository (dist/scripts/realCli/paths.js or scripts/realCli/paths.ts -> the root). */
export const REPO_ROOT = ((): string => {
    let dir = __dirname;
    while (!fs.existsSync(path.join(dir, "PulumiPolicy.yaml")) && path.dirname(dir) !== dir) {
        dir = path.dirname(dir);
    }
    return dir;
})();

/** Where the CLI and the language host are (PERFGUARD_REAL_CLI_BIN overrides). */
export function realCliBinDir(): string {
    return process.env.PERFGUARD_REAL_CLI_BIN || path.join(REPO_ROOT, ".cache", "real-cli", `v${REAL_CLI_VERSION}`, "bin");
}

/** True when `npm run real-cli:setup` has built the CLI. */
export function realCliAvailable(): boolean {
    return fs.existsSync(path.join(realCliBinDir(), "pulumi")) && fs.existsSync(path.join(realCliBinDir(), "pulumi-language-nodejs"));
}
