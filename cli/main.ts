#!/usr/bin/env node
/**
 * `perfguard`: the models and the policies outside a preview.
 *
 *   perfguard size citrix  --rtt-ms 160 [...]          brokering at each concurrency, safe throttle
 *   perfguard size nsx-alb --ssl-tps 5000 [...]        smallest SE size for one virtual service
 *   perfguard size xen     --link-mb-per-s 117 [...]   each guest's share of a host's link
 *   perfguard check <file> [...]                       every policy on a stack export (several: one fleet)
 *   perfguard inventory <sources...> -o digest.json    the digest PERFGUARD_INVENTORY reads
 *   perfguard config check <file>                      a --policy-pack-config file against the pack
 *   perfguard diff <base> <head> [...]                 what a change does to figures and verdicts
 *
 * Every command takes --help and --json (one JSON document on stdout, nothing else). Errors go
 * to stderr. Exit codes: 0 ok, 1 mandatory violations (check) or a failure, 2 bad arguments or a
 * missing or malformed file.
 */
import * as fs from "fs";
import * as path from "path";
import { Command, CommanderError, Option } from "commander";
import { Io, JSON_HELP, printJson } from "./commandIo";
import { USAGE_EXIT } from "./errors";
import { INVENTORY_ENV } from "../policies/pack/inventory/types";
import { addSizeCommands } from "./sizeCommands";
import { addResultOptions, deliver, needsResults, ParsedResultOptions, resultOptions } from "./results/options";

/** The repository root: one level up from cli/*.ts, two from dist/cli/*.js. */
function repoRoot(): string {
    const up = path.resolve(__dirname, "..");
    return path.basename(up) === "dist" ? path.dirname(up) : up;
}

function version(): string {
    try {
        return (JSON.parse(fs.readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as { version: string }).version;
    } catch {
        return "unknown";
    }
}

const DIFF_FORMAT_HELP =
    "the document on stdout: the comparison as text (default), markdown (a PR comment) or json; or head's verdicts (each new or unchanged) as sarif, junit or github";

/**
 * Builds the command tree. Actions store their exit code in `result.code`.
 * Input: io (where output goes). Output: the commander program (exitOverride: never exits).
 */
export function buildProgram(io: Io, result: { code: number }): Command {
    const program = new Command("perfguard")
        .description("Size Citrix zones, NSX ALB SE groups and Xen hosts with perfguard's models, and run its policies on a stack export.")
        .version(version(), "-V, --version")
        .exitOverride()
        .configureOutput({ writeOut: io.out, writeErr: io.err })
        .showHelpAfterError("(add --help for usage)")
        .showSuggestionAfterError(true)
        .allowExcessArguments(false);

    addSizeCommands(program, io);

    addResultOptions(
        program
            .command("check")
            .description(
                "run every policy, through the same pack process as a preview, on a `pulumi stack export` file or a preview's --record file; several exports, a folder of them or a file:// backend are checked as one fleet (each stack with the others' load; a digest among them adds its stacks' load: docs/shared-capacity.md); exits 1 on a mandatory violation",
            )
            .argument("<file...>", "stack export (pulumi stack export > stack.json) or --record output; or several, a folder of exports, a file:// backend URL")
            .option("--policy-pack-config <file.json>", "policy config, as for pulumi preview --policy-pack-config")
            .option("--policy-pack <dir>", "policy pack folder (default: this perfguard)")
            .option("--explain", "per resource, the facts read and why each policy applied or not")
            .option("--report <file.md>", "also write a Markdown report (violations, per zone and SE group figures) for a PR comment")
            .option("--json", JSON_HELP),
    ).action(
        async (
            files: string[],
            o: { policyPackConfig?: string; policyPack?: string; explain?: boolean; report?: string; json?: boolean } & ParsedResultOptions,
        ) => {
            const { runCheck } = await import("./check");
            const ro = resultOptions(o);
            const common = { policyPackConfig: o.policyPackConfig, packDir: o.policyPack, explain: o.explain === true, report: o.report, log: io.err };
            const single = files.length === 1 && !files[0].startsWith("file://") && !(fs.existsSync(files[0]) && fs.statSync(files[0]).isDirectory());
            const checked = single
                ? await runCheck({ ...common, file: files[0], results: needsResults(ro), programRoot: ro.programRoot })
                : await (await import("./fleet")).runFleetCheck(files, { ...common, results: needsResults(ro), programRoot: ro.programRoot });
            deliver(
                ro,
                checked.text,
                "results" in checked ? checked.results : undefined,
                io,
                o.json ? JSON.stringify(checked.json, null, 2) + "\n" : undefined,
            );
            result.code = checked.exitCode;
        },
    );

    const config = program.command("config").description("check a --policy-pack-config file before a preview");

    config
        .command("check")
        .description(
            'check a --policy-pack-config file against the pack: every key names a policy ("did you mean"), every level is valid, every setting is one the policy accepts and its schema allows, no key is given twice, some policy stays mandatory; exits 1 on any problem',
        )
        .argument("<file>", "the --policy-pack-config JSON file")
        .option("--policy-pack <dir>", "policy pack folder (default: this perfguard)")
        .option("--allow-gates-off", 'accept a file after which no policy is mandatory (e.g. {"all": "disabled"}): a note instead of an error')
        .option("--json", JSON_HELP)
        .action(async (file: string, o: { policyPack?: string; allowGatesOff?: boolean; json?: boolean }) => {
            const { runConfigCheck } = await import("./configCheckRun");
            const checked = await runConfigCheck({ file, packDir: o.policyPack, log: io.err, allowGatesOff: o.allowGatesOff === true });
            if (o.json) {
                printJson(io, checked.json);
            } else {
                io.out(checked.text);
            }
            result.code = checked.exitCode;
        });

    program
        .command("inventory")
        .description(
            "build the digest PERFGUARD_INVENTORY reads from stack exports, folders of them and file:// backends: only what the policies read (docs/shared-capacity.md); exits 2 when a source cannot be read",
        )
        .argument("<sources...>", "stack exports (pulumi stack export), folders of them, file:// backend URLs, or digests")
        .requiredOption("-o, --out <digest.json>", "the digest file to write")
        .option("--json", JSON_HELP)
        .action(async (sources: string[], o: { out: string; json?: boolean }) => {
            const { runInventory } = await import("./inventory");
            const built = runInventory(sources, o.out);
            if (o.json) {
                printJson(io, built.json);
            } else {
                io.out(built.text);
            }
        });

    addResultOptions(
        program
            .command("diff")
            .description(
                "compare two states of a stack (stack export, --record file or pulumi preview --json output): changed figures per Citrix zone and Delivery Group, SE group and Xen host, and the verdicts that appear or disappear; with PERFGUARD_INVENTORY set, both sides count the same other stacks' load (docs/shared-capacity.md); exits 1 on a new mandatory verdict",
            )
            .argument("<base>", "the state before, normally the deployed stack (pulumi stack export > base.json)")
            .argument("<head>", "the state after, normally the pull request's preview (pulumi preview --json > head.json)"),
        DIFF_FORMAT_HELP,
    )
        .addOption(
            new Option("--fail-on <when>", "exit 1 when head has a new mandatory verdict, any mandatory verdict, or never")
                .choices(["none", "new-mandatory", "any-mandatory"])
                .default("new-mandatory"),
        )
        .option("--policy-pack-config <file.json>", "policy config for both sides, as for pulumi preview --policy-pack-config")
        .option("--policy-pack <dir>", "policy pack folder (default: this perfguard)")
        .option("--plot <dir>", "also write an SVG chart with both states of each changed Citrix zone, SE group and Xen host into this folder")
        .option("--json", "the same as --format json")
        .action(
            async (
                base: string,
                head: string,
                o: {
                    failOn: "none" | "new-mandatory" | "any-mandatory";
                    policyPackConfig?: string;
                    policyPack?: string;
                    plot?: string;
                    json?: boolean;
                } & ParsedResultOptions,
            ) => {
                const { runDiff } = await import("./diff/run");
                const { deliverDiff, needsHeadResults } = await import("./diff/results");
                const { renderJson, renderMarkdown, renderText } = await import("./diff/render");
                const ro = resultOptions({ ...o, ...(o.json ? { format: "json" as const } : {}) });
                const diffed = await runDiff({
                    base,
                    head,
                    format: "text",
                    failOn: o.failOn,
                    policyPackConfig: o.policyPackConfig,
                    packDir: o.policyPack,
                    plot: o.plot,
                    log: io.err,
                    ...(needsHeadResults(ro) ? { results: { programRoot: ro.programRoot } } : {}),
                });
                deliverDiff(
                    ro,
                    {
                        text: renderText(diffed.report),
                        markdown: renderMarkdown(diffed.report),
                        json: JSON.stringify(renderJson(diffed.report), null, 2) + "\n",
                        ...(diffed.results ? { results: diffed.results } : {}),
                    },
                    io,
                );
                result.code = diffed.exitCode;
            },
        );

    return program;
}

/**
 * Runs the CLI on `argv` (without node and script).
 * Output: the exit code; output goes to io. Never throws.
 */
export async function main(argv: string[], io: Io): Promise<number> {
    const result = { code: 0 };
    const program = buildProgram(io, result);
    try {
        // The pack process runs in the pack's folder: a relative PERFGUARD_INVENTORY source would be
        // read from there, not from where the user gave it; the packs `check` and `diff` start inherit this.
        const inventory = process.env[INVENTORY_ENV];
        if (inventory !== undefined && inventory.trim() !== "") {
            process.env[INVENTORY_ENV] = (await import("../policies/pack/inventory/read")).absoluteSources(inventory, process.cwd());
        }
        await program.parseAsync(argv, { from: "user" });
        return result.code;
    } catch (err) {
        if (err instanceof CommanderError) {
            // commander has printed the message (or the help) already.
            return err.code === "commander.helpDisplayed" || err.code === "commander.version" ? 0 : USAGE_EXIT;
        }
        const exitCode = (err as { exitCode?: unknown }).exitCode;
        io.err(`error: ${(err as Error).message ?? String(err)}\n`);
        return typeof exitCode === "number" ? exitCode : 1;
    }
}

if (require.main === module) {
    void main(process.argv.slice(2), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }).then((code) => {
        process.exitCode = code;
    });
}
