/**
 * The emulated preview's result options, kept apart from its argument parser so they merge as
 * one block: --format, --output <format>=<file> (repeatable), --program-root, --docs-url; as
 * `perfguard check` has them (cli/results/options.ts).
 */
import * as path from "path";
import { isResultFormat, parseOutput, RESULT_FORMATS } from "../cli/results/emit";
import { buildResults, levelsOf, Results } from "../cli/results/model";
import type { ResultOptions } from "../cli/results/options";
import type { PreviewResult } from "./runPreview";

/** parseArgs option specs, spread into the preview's. */
export const RESULT_ARGS = {
    format: { type: "string" },
    output: { type: "string", multiple: true },
    "program-root": { type: "string" },
    "docs-url": { type: "string" },
} as const;

export const RESULT_USAGE = "[--format <text|json|sarif|junit|github|markdown>] [--output <format>=<file>]... [--program-root <dir>] [--docs-url <url>]";

/** The --help paragraph of the result options. */
export const RESULT_HELP = `
Result formats (as perfguard check's, docs/cli.md): --format text|json|sarif|junit|github|markdown puts
that document alone on stdout (the text goes to stderr); --output <format>=<file> also writes one to a
file (repeatable). Paths in sarif, junit, github and markdown are relative to the folder this command
runs in, or --program-root <dir> names the program's folder in the repository. --docs-url <url> (or
PERFGUARD_DOCS_URL) is the base of SARIF's help links for a fork. The exit code is the same in every format.
`;

/** ResultOptions from parsed values, or the error line for a bad value. */
export function resultArgs(values: { format?: string; output?: string[]; "program-root"?: string; "docs-url"?: string }): ResultOptions | string {
    const format = values.format ?? "text";
    if (!isResultFormat(format)) {
        return `error: --format ${format}: expected one of ${RESULT_FORMATS.join(", ")}`;
    }
    try {
        return { format, outputs: (values.output ?? []).map(parseOutput), programRoot: values["program-root"], docsUrl: values["docs-url"] };
    } catch (err) {
        return `error: ${(err as Error).message}`;
    }
}

/**
 * The preview's Results: the first pack's rules (perfguard's, when it is the pack), every pack's
 * violations; file paths relative to --program-root, else to the folder the command runs in.
 */
export function previewResults(result: PreviewResult, programRoot: string | undefined): Results {
    const first = result.packs[0];
    return buildResults({
        pack: first.info,
        levels: levelsOf(first.config),
        violations: result.violations,
        resources: result.resources,
        explanation: result.explanation,
        programRoot: programRoot ?? path.relative(process.cwd(), result.programDir),
    });
}
