/**
 * `npm run preview:real -- <program dir> [--policy-pack-config <file>] [--diff] [--stack <name>]`
 * and `npm run analyze:real -- <stack export> [--policy-pack-config <file>]`: the real Pulumi CLI
 * (built by `npm run real-cli:setup`) on a program or a stack export with this pack, offline.
 * Prints the CLI's own stdout and stderr and exits with its exit code.
 */
import { parseArgs } from "util";
import { realAnalyze, realCliAvailable, realCliBinDir, realPreview } from "./run";

const USAGE =
    "usage: npm run preview:real -- <program dir> [--policy-pack-config <file>] [--diff] [--stack <name>] " +
    "[--target <urn>]... [--target-dependents] [--exclude <urn>]... [--exclude-dependents] [--replace <urn>]...\n" +
    "       npm run analyze:real -- <stack export> [--policy-pack-config <file>]";

/** The targeting options as `pulumi preview` arguments, in a fixed order. */
function targetArgs(v: { target?: string[]; "target-dependents"?: boolean; exclude?: string[]; "exclude-dependents"?: boolean; replace?: string[] }): string[] {
    return [
        ...(v.target ?? []).flatMap((u) => ["--target", u]),
        ...(v["target-dependents"] ? ["--target-dependents"] : []),
        ...(v.exclude ?? []).flatMap((u) => ["--exclude", u]),
        ...(v["exclude-dependents"] ? ["--exclude-dependents"] : []),
        ...(v.replace ?? []).flatMap((u) => ["--replace", u]),
    ];
}

async function main(argv: string[]): Promise<number> {
    const [command, ...rest] = argv;
    let parsed;
    try {
        parsed = parseArgs({
            args: rest,
            allowPositionals: true,
            options: {
                "policy-pack-config": { type: "string" },
                diff: { type: "boolean" },
                stack: { type: "string" },
                // Passed to `pulumi preview` as given (the emulation names them "not reproduced").
                target: { type: "string", multiple: true, short: "t" },
                "target-dependents": { type: "boolean" },
                exclude: { type: "string", multiple: true },
                "exclude-dependents": { type: "boolean" },
                replace: { type: "string", multiple: true },
            },
        });
    } catch (err) {
        process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
        return 2;
    }
    if ((command !== "preview" && command !== "analyze") || parsed.positionals.length !== 1) {
        process.stderr.write(USAGE + "\n");
        return 2;
    }
    if (!realCliAvailable()) {
        process.stderr.write(`error: the real Pulumi CLI is not built in ${realCliBinDir()}: run npm run real-cli:setup (needs Go)\n`);
        return 2;
    }
    const config = parsed.values["policy-pack-config"];
    const run =
        command === "preview"
            ? await realPreview(parsed.positionals[0], {
                  policyPackConfig: config,
                  diff: parsed.values.diff,
                  stack: parsed.values.stack,
                  cliArgs: targetArgs(parsed.values),
              })
            : await realAnalyze(parsed.positionals[0], { policyPackConfig: config });
    process.stdout.write(run.stdout);
    process.stderr.write(run.stderr);
    return run.exitCode;
}

main(process.argv.slice(2)).then(
    (code) => {
        process.exitCode = code;
    },
    (err: unknown) => {
        process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 2;
    },
);
