import * as fs from "fs";
import * as path from "path";

/**
 * A team's own program outside the repository: the example's index.ts and Pulumi.yaml copied
 * into `<work>/teams/<name>` (no node_modules, no sibling sdk/), as a user lays out their own.
 * Used by the emulation's and the real CLI's own-program tests, so both stage the same files.
 */
export function copyTeamProgram(example: string, work: string, name: string): string {
    const dir = path.join(work, "teams", name);
    fs.mkdirSync(dir, { recursive: true });
    for (const f of ["index.ts", "Pulumi.yaml"]) {
        fs.copyFileSync(path.join(example, f), path.join(dir, f));
    }
    return dir;
}
