/**
 * What `--stack` selects, checked as the Pulumi CLI checks it before a preview, and where the
 * emulation cannot tell, failed closed: a misspelt stack on a CI gate must never be judged with
 * an empty config.
 */
import * as fs from "fs";
import * as path from "path";
import { didYouMean } from "../policies/pack/config";
import { escapeControl } from "../policies/pack/message";
import { fileBackendDir, readBackendStack } from "./backendState";
import { PreviewError, SETUP_ERROR_EXIT, STACK_NOT_FOUND_EXIT } from "./errors";

/** The characters a stack or project name may hold (sdk/go/common/tokens NameRegexpPattern). */
const NAME_CHAR = /[A-Za-z0-9_.-]/;

/**
 * A byte as Go's %q prints it (a single-quoted character literal: ' ', '\'', '\t', '\x01'); the
 * CLI quotes the first bad byte of the name, so a non-ASCII character shows as its first byte.
 */
function goQuotedByte(byte: number): string {
    const named: Record<number, string> = { 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 39: "\\'", 92: "\\\\" };
    if (named[byte] !== undefined) {
        return `'${named[byte]}'`;
    }
    if (byte < 0x20 || (byte >= 0x7f && byte < 0xa0) || byte === 0xad) {
        return `'\\x${byte.toString(16).padStart(2, "0")}'`;
    }
    return `'${String.fromCharCode(byte)}'`;
}

/** The file backend's stack name check (tokens.ParseStackName), with the CLI's messages (lengths and positions in bytes). */
function checkStackToken(name: string): void {
    const bytes = Buffer.from(name, "utf8");
    if (bytes.length === 0) {
        throw new PreviewError("a stack name may not be empty", SETUP_ERROR_EXIT);
    }
    if (bytes.length > 100) {
        throw new PreviewError("a stack name cannot exceed 100 characters", SETUP_ERROR_EXIT);
    }
    const bad = bytes.findIndex((b) => !NAME_CHAR.test(String.fromCharCode(b)));
    if (bad >= 0) {
        throw new PreviewError(
            "a stack name may only contain alphanumeric, hyphens, underscores, or periods: " +
                `invalid character ${goQuotedByte(bytes[bad])} at position ${bad}`,
            SETUP_ERROR_EXIT,
        );
    }
}

/**
 * Parses --stack as a file backend does (pkg/backend/diy ParseReference): `stack`,
 * `organization/stack` or `organization/project/stack`; more parts leave the name empty; an empty
 * organization or project takes the default. Output: { project, stack }. Throws PreviewError
 * (exit 1) with the CLI's message, read off the built CLI (v3.274.1): "organization name must be
 * 'organization'" for any other organization, and the name checks of tokens.ParseStackName.
 */
export function parseFileBackendStack(given: string, currentProject: string): { project: string; stack: string } {
    const parts = given.split("/");
    const [org, project, name] =
        parts.length === 1
            ? ["", "", parts[0]]
            : parts.length === 2
              ? [parts[0], "", parts[1]]
              : parts.length === 3
                ? [parts[0], parts[1], parts[2]]
                : ["", "", ""];
    if (org !== "" && org !== "organization") {
        throw new PreviewError("organization name must be 'organization'", SETUP_ERROR_EXIT);
    }
    if (project !== "" && (project.length > 100 || !Array.from(project).every((c) => NAME_CHAR.test(c)))) {
        throw new PreviewError("project names may only contain alphanumerics, hyphens, underscores, and periods", SETUP_ERROR_EXIT);
    }
    checkStackToken(name);
    return { project: project || currentProject, stack: name };
}

/**
 * The stack's own name where no file backend is set (Pulumi Cloud names organizations freely):
 * `prod`, `<org>/prod` or `<org>/<project>/prod`. A qualified name for another project is refused
 * (exit 1): its Pulumi.<stack>.yaml is not this program's.
 */
export function stackNameOf(given: string, project: string): string {
    const parts = given.split("/");
    const shown = escapeControl(given);
    if (parts.length > 3 || (parts.length > 1 && parts.some((p) => p.length === 0))) {
        throw new PreviewError(`--stack ${shown}: expected <stack>, <organization>/<stack> or <organization>/<project>/<stack>`, SETUP_ERROR_EXIT);
    }
    if (parts.length === 3 && parts[1] !== project) {
        throw new PreviewError(`--stack ${shown} names project "${escapeControl(parts[1])}", but this program's project is "${project}"`, SETUP_ERROR_EXIT);
    }
    // Pulumi Cloud's stack names follow the same rules (ValidateStackName): the CLI's message.
    const stack = parts[parts.length - 1];
    checkStackToken(stack);
    return stack;
}

/** The stacks whose Pulumi.<stack>.yaml is in `programDir`, sorted. */
export function stacksWithConfig(programDir: string): string[] {
    try {
        return fs
            .readdirSync(programDir)
            .map((f) => /^Pulumi\.(.+)\.yaml$/.exec(f)?.[1])
            .filter((s): s is string => s !== undefined)
            .sort();
    } catch {
        return [];
    }
}

/**
 * Checks --stack as the CLI does and returns the stack's own name (its Pulumi.<stack>.yaml).
 * - A file backend: the CLI's name rules (parseFileBackendStack, exit 1); a stack it does not hold
 *   fails with "no stack named 'x' found" (exit 6), whatever Pulumi.x.yaml holds; a stack of
 *   another project that it holds fails with the CLI's "provided project name ... doesn't match
 *   Pulumi.yaml" (exit 1). A stack it holds without Pulumi.<stack>.yaml runs with no config, as the
 *   CLI runs it: one perfguard line says so.
 * - No backend, or one the emulation cannot read (not file://): a stack with its Pulumi.<stack>.yaml
 *   runs; one without fails closed with the CLI's line for a missing stack (exit 6) and a perfguard
 *   line naming the stacks whose config is there ("did you mean") and how to judge a stack that has
 *   no config.
 * @param given - --stack as given (the CLI's messages echo it).
 */
export function checkStack(programDir: string, project: string, given: string, log: (chunk: string) => void, env: NodeJS.ProcessEnv = process.env): string {
    const backend = fileBackendDir(env);
    const ref = "dir" in backend ? parseFileBackendStack(given, project) : { project, stack: stackNameOf(given, project) };
    const state = readBackendStack(ref.project, ref.stack, env);
    if (state.kind === "absent") {
        throw new PreviewError(`no stack named '${escapeControl(given)}' found`, STACK_NOT_FOUND_EXIT);
    }
    if (state.kind === "found" && ref.project !== project) {
        throw new PreviewError(`provided project name "${ref.project}" doesn't match Pulumi.yaml`, SETUP_ERROR_EXIT);
    }
    const stack = ref.stack;
    const configFile = `Pulumi.${stack}.yaml`;
    if (fs.existsSync(path.join(programDir, configFile))) {
        return stack;
    }
    const others = stacksWithConfig(programDir);
    const near = didYouMean(stack, others);
    const hint = near ? `; did you mean ${near}?` : "";
    if (state.kind === "found") {
        log(`perfguard: no ${configFile}: the stack's config is empty${hint}\n`);
        return stack;
    }
    const why = "why" in backend ? backend.why : state.why;
    throw new PreviewError(
        `no stack named '${escapeControl(given)}' found\n` +
            `perfguard: no ${configFile} in ${programDir} and the stack cannot be looked up (${why}); ` +
            `stacks with a Pulumi.<stack>.yaml there: ${others.length > 0 ? others.join(", ") : "none"}${hint}; ` +
            `to judge a stack that has no config, create an empty ${configFile}`,
        STACK_NOT_FOUND_EXIT,
    );
}
