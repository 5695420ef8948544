// What the preview CLI prints for errors: user errors one line, internal ones a stack only with PERFGUARD_DEBUG=1.
import { describe, expect, it } from "vitest";
import { debugEnabled, formatCliError, PreviewError } from "../../preview/errors";

describe("formatCliError", () => {
    it("prints a user error as one line with its exit code, also when debugging", () => {
        const err = new PreviewError("program directory /x does not exist", 2);
        expect(formatCliError(err, false)).toEqual({ text: "error: program directory /x does not exist\n", exitCode: 2 });
        expect(formatCliError(err, true)).toEqual({ text: "error: program directory /x does not exist\n", exitCode: 2 });
    });

    it("prints an internal error without its stack unless PERFGUARD_DEBUG is set", () => {
        const err = new TypeError("cannot read properties of undefined");
        const quiet = formatCliError(err, false);
        expect(quiet.exitCode).toBe(1);
        expect(quiet.text).toBe("error: cannot read properties of undefined\n(internal error; set PERFGUARD_DEBUG=1 for a stack trace)\n");
        const debug = formatCliError(err, true);
        expect(debug.text).toMatch(/^error: TypeError: cannot read properties of undefined\n\s+at /);
    });
});

describe("debugEnabled", () => {
    it("is on for PERFGUARD_DEBUG=1 or any non-false value, off when unset, empty, 0 or false", () => {
        expect(debugEnabled({ PERFGUARD_DEBUG: "1" })).toBe(true);
        expect(debugEnabled({ PERFGUARD_DEBUG: "yes" })).toBe(true);
        for (const off of [undefined, "", "0", "false", "FALSE"]) {
            expect(debugEnabled({ PERFGUARD_DEBUG: off })).toBe(false);
        }
    });
});
