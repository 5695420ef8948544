import type { RecordedResource } from "./types";

/**
 * The one error type the preview path throws for problems a user must fix (bad config,
 * failing program, pack that does not start); `exitCode` is what the CLI exits with.
 */
export class PreviewError extends Error {
    readonly exitCode: number;

    constructor(message: string, exitCode = 1) {
        super(message);
        this.name = "PreviewError";
        this.exitCode = exitCode;
    }
}

/**
 * A program that failed part-way: the resources it registered before the failure, which the
 * engine still analyzes (Analyze only, no AnalyzeStack), and, once analyzed, the output to print.
 */
export class ProgramFailure extends PreviewError {
    output = "";

    constructor(
        message: string,
        readonly registered: RecordedResource[],
    ) {
        super(message, 1);
        this.name = "ProgramFailure";
    }
}

/**
 * Exit code for invalid policy config (the program is not run): 1, as the Pulumi CLI (v3.274.1)
 * exits for an unreadable or invalid --policy-pack-config and a config that fails its schema
 * (read off the built CLI by test/real).
 */
export const CONFIG_ERROR_EXIT = 1;

/**
 * Exit code for inputs the preview path cannot use at all: a program directory that is missing
 * or has no Pulumi.yaml, a runtime other than nodejs, a `main:` that does not resolve, no entry
 * file; a policy pack directory that is missing or has no PulumiPolicy.yaml. 1, as the Pulumi CLI
 * exits for each of these (read off the built CLI by test/real).
 */
export const SETUP_ERROR_EXIT = 1;

/**
 * Exit code for a --stack the backend does not hold ("no stack named 'x' found"): 6, as the Pulumi
 * CLI (v3.274.1) exits for `pulumi preview --stack x` on a file backend without stack x.
 */
export const STACK_NOT_FOUND_EXIT = 6;

/**
 * Exit code for a program in a language the emulation does not run (Pulumi.yaml runtime yaml,
 * python, ...): 2, a refusal that no gate can read as a pass; `npm run preview:real` judges it.
 */
export const UNSUPPORTED_RUNTIME_EXIT = 2;

/** Env var that turns on stack traces for internal errors in the preview CLI (PERFGUARD_DEBUG=1). */
export const DEBUG_ENV = "PERFGUARD_DEBUG";

/** True when PERFGUARD_DEBUG is set to something other than "", "0" or "false". */
export function debugEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
    const value = (env[DEBUG_ENV] ?? "").trim().toLowerCase();
    return value !== "" && value !== "0" && value !== "false";
}

/**
 * What the preview CLI prints for an error and exits with. Input: what was thrown, and whether
 * PERFGUARD_DEBUG is on. Output: { text, exitCode }: for a PreviewError (a user error) the line
 * `error: <message>` and its exit code, never a stack; for anything else (an internal error)
 * `error: <message>` plus a hint to set PERFGUARD_DEBUG=1, or with it set the stack trace; exit 1.
 */
export function formatCliError(err: unknown, debug: boolean): { text: string; exitCode: number } {
    if (err instanceof PreviewError) {
        return { text: `error: ${err.message}\n`, exitCode: err.exitCode };
    }
    // A user error of a shared module (cli/results' UsageError for an --output path) carries its
    // exit code; preview/ may not import cli/, so it is recognised by that field.
    if (err instanceof Error && err.name === "UsageError" && typeof (err as { exitCode?: unknown }).exitCode === "number") {
        return { text: `error: ${err.message}\n`, exitCode: (err as unknown as { exitCode: number }).exitCode };
    }
    const message = err instanceof Error ? err.message || err.name : String(err);
    if (debug) {
        return { text: `error: ${err instanceof Error ? (err.stack ?? message) : message}\n`, exitCode: 1 };
    }
    return { text: `error: ${message}\n(internal error; set ${DEBUG_ENV}=1 for a stack trace)\n`, exitCode: 1 };
}
