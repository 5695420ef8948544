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

/** Exit code for invalid policy config (the program is not run). */
export const CONFIG_ERROR_EXIT = 2;
