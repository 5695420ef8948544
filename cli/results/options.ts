/**
 * The result options `check`, `diff` (and the emulated preview through its own parser) share:
 * --format, --output (repeatable), --program-root, --docs-url; and how a command's output is
 * delivered under them (the document alone on stdout, the text and notes on stderr).
 */
import { Command, Option } from "commander";
import { docsBase } from "../../policies/pack/results/docsUrl";
import { OutputTarget, parseOutput, render, RESULT_FORMATS, ResultFormat, writeOutputs } from "./emit";
import type { Results } from "./model";

export const FORMAT_HELP = "the document on stdout: text (default), json (the verdict list), sarif, junit, github (workflow annotations) or markdown";
export const OUTPUT_HELP = "also write <format> to <file> (repeatable)";
export const PROGRAM_ROOT_HELP = "the program's folder relative to the repository root, for the file paths in sarif, junit, github and markdown";
export const DOCS_URL_HELP = "base URL of the repository's files for SARIF help links (default: package.json's repository; env PERFGUARD_DOCS_URL)";

export interface ResultOptions {
    format: ResultFormat;
    outputs: OutputTarget[];
    programRoot?: string;
    docsUrl?: string;
}

/** What commander parses from them (the repeatable --output arrives as `output`). */
export interface ParsedResultOptions {
    format?: ResultFormat;
    output?: OutputTarget[];
    programRoot?: string;
    docsUrl?: string;
}

/** ResultOptions from commander's parse. */
export function resultOptions(o: ParsedResultOptions): ResultOptions {
    return { format: o.format ?? "text", outputs: o.output ?? [], programRoot: o.programRoot, docsUrl: o.docsUrl };
}

/** Adds the four options to a commander command (`perfguard diff` words --format its own way). */
export function addResultOptions(command: Command, formatHelp = FORMAT_HELP): Command {
    return command
        .addOption(new Option("--format <format>", formatHelp).choices([...RESULT_FORMATS]).default("text"))
        .option("--output <format=file>", OUTPUT_HELP, (value: string, list?: OutputTarget[]) => [...(list ?? []), parseOutput(value)])
        .option("--program-root <dir>", PROGRAM_ROOT_HELP)
        .option("--docs-url <url>", DOCS_URL_HELP);
}

/** True when the run must build Results (a format or output other than text). */
export function needsResults(o: ResultOptions): boolean {
    return o.format !== "text" || o.outputs.some((t) => t.format !== "text");
}

/**
 * Delivers a run's output: with --format text the text on stdout as today; else the document on
 * stdout and the text on stderr. Each --output file is written, and named on stderr.
 */
export function deliver(
    o: ResultOptions,
    text: string,
    results: Results | undefined,
    io: { out(t: string): void; err(t: string): void },
    stdout?: string,
): void {
    const input = { results: results as Results, text, docsBase: docsBase(o.docsUrl) };
    if (stdout !== undefined) {
        io.out(stdout); // a command's own document (check --json)
    } else if (o.format === "text") {
        io.out(text);
    } else {
        io.err(text);
        io.out(render(o.format, input));
    }
    for (const note of writeOutputs(o.outputs, input)) {
        io.err(`${note}\n`);
    }
}
