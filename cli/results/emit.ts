/**
 * `--format <f>` and `--output <f>=<file>`: which document goes to stdout and which to files.
 * Every format but text is written from one Results; text is the command's own output.
 */
import * as fs from "fs";
import * as path from "path";
import { writeGithub } from "./github";
import { writeJson } from "../../policies/pack/results/json";
import { writeJunit } from "./junit";
import { writeMarkdown } from "./markdown";
import type { Results } from "./model";
import { UsageError } from "../errors";
import { makeFolder } from "../outputFolder";
import { writeSarif } from "../../policies/pack/results/sarif";

export const RESULT_FORMATS = ["text", "json", "sarif", "junit", "github", "markdown"] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

export function isResultFormat(text: string): text is ResultFormat {
    return (RESULT_FORMATS as readonly string[]).includes(text);
}

export interface OutputTarget {
    readonly format: ResultFormat;
    readonly file: string;
}

/** Parses one `--output <format>=<file>`; throws Error with the usage on a bad value. */
export function parseOutput(value: string): OutputTarget {
    const eq = value.indexOf("=");
    const format = eq > 0 ? value.slice(0, eq) : "";
    const file = eq > 0 ? value.slice(eq + 1) : "";
    if (!isResultFormat(format) || file === "") {
        throw new Error(`--output ${value}: expected <format>=<file>, format one of ${RESULT_FORMATS.join(", ")}`);
    }
    return { format, file };
}

export interface RenderInput {
    readonly results: Results;
    /** The command's text output (today's). */
    readonly text: string;
    readonly docsBase?: string;
}

/** The document of one format. */
export function render(format: ResultFormat, input: RenderInput): string {
    switch (format) {
        case "text":
            return input.text;
        case "json":
            return writeJson(input.results);
        case "sarif":
            return writeSarif(input.results, { docsBase: input.docsBase });
        case "junit":
            return writeJunit(input.results);
        case "github":
            return writeGithub(input.results);
        case "markdown":
            return writeMarkdown(input.results);
    }
}

/**
 * Writes each --output file (its folder created); returns the notes for stderr. A file that cannot
 * be written is the user's path to fix: a UsageError (exit 2) naming it, never an internal error.
 * The folder is made by makeFolder, not fs.mkdirSync's `recursive`, which never returns under /proc.
 * `renderOne` writes a format (default: from the results; `perfguard diff` has its own text, markdown, json).
 */
export function writeOutputs(
    targets: readonly OutputTarget[],
    input: RenderInput,
    renderOne: (format: ResultFormat) => string = (format) => render(format, input),
): string[] {
    return targets.map((t) => {
        const why = makeFolder(path.dirname(path.resolve(t.file)));
        if (why !== undefined) {
            throw new UsageError(`--output ${t.format}=${t.file}: cannot make its folder: ${why}`);
        }
        try {
            fs.writeFileSync(t.file, renderOne(t.format));
        } catch (err) {
            const e = err as NodeJS.ErrnoException;
            throw new UsageError(`--output ${t.format}=${t.file}: cannot write it: ${e.code ?? e.message}`);
        }
        return `${t.format} written to ${t.file}`;
    });
}
