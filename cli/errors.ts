/**
 * The errors the CLI turns into an exit code and one message on stderr: a usage problem (bad
 * argument, missing or malformed file) exits 2; anything else the command reports itself.
 */

/** Exit code for bad arguments and missing or malformed files. */
export const USAGE_EXIT = 2;

/** A problem the user must fix in the command line or an input file; exits 2. */
export class UsageError extends Error {
    readonly exitCode = USAGE_EXIT;

    constructor(message: string) {
        super(message);
        this.name = "UsageError";
    }
}
