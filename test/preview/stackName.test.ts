/**
 * --stack names. On a file backend the CLI's rules (pkg/backend/diy ParseReference; each message
 * and exit code read off the built CLI v3.274.1 with `pulumi preview --stack <name>` on a file
 * backend): `stack`, `organization/stack`, `organization/<project>/stack`; any other organization
 * is refused. Without a file backend (Pulumi Cloud names organizations freely) the organization is
 * taken as given; a qualified name for another project, or a malformed one, is a set-up error,
 * never silently another stack.
 */
import { describe, expect, it } from "vitest";
import { PreviewError } from "../../preview/errors";
import { parseFileBackendStack, stackNameOf } from "../../preview/stackSelection";

function thrown(f: () => unknown): PreviewError {
    try {
        f();
    } catch (e) {
        expect(e).toBeInstanceOf(PreviewError);
        return e as PreviewError;
    }
    throw new Error("nothing thrown");
}

const BAD_CHAR = "a stack name may only contain alphanumeric, hyphens, underscores, or periods: invalid character";

describe("--stack on a file backend, as the CLI parses it", () => {
    it.each([
        ["the stack's own name (baseline)", "prod", { project: "site", stack: "prod" }],
        ["organization/<stack>", "organization/prod", { project: "site", stack: "prod" }],
        ["organization/<project>/<stack>", "organization/site/prod", { project: "site", stack: "prod" }],
        ["another project (looked up, then refused or not found)", "organization/net/prod", { project: "net", stack: "prod" }],
        ["an empty project takes the program's", "organization//prod", { project: "site", stack: "prod" }],
        ["an empty organization takes organization", "/prod", { project: "site", stack: "prod" }],
    ])("%s", (_label, given, expected) => {
        expect(parseFileBackendStack(given, "site")).toEqual(expected);
    });

    it.each([
        ["another organization, qualified", "acme/site/prod", "organization name must be 'organization'"],
        ["another organization, two parts", "acme/prod", "organization name must be 'organization'"],
        ["the organization in another case", "Organization/site/prod", "organization name must be 'organization'"],
        ["four parts", "a/b/c/d", "a stack name may not be empty"],
        // The first bad byte as Go's %q quotes it, at its byte position.
        ["a space in the stack name", "organization/site/pr od", `${BAD_CHAR} ' ' at position 2`],
        ["a colon in the stack name", "org:x", `${BAD_CHAR} ':' at position 3`],
        ["a tab", "pr\tod", `${BAD_CHAR} '\\t' at position 2`],
        ["a quote", "pr'od", `${BAD_CHAR} '\\'' at position 2`],
        ["a backslash", "a\\b", `${BAD_CHAR} '\\\\' at position 1`],
        ["a non-ASCII letter: its first byte", "prodé", `${BAD_CHAR} 'Ã' at position 4`],
        ["a space in the project", "organization/bad proj/prod", "project names may only contain alphanumerics, hyphens, underscores, and periods"],
        ["101 characters", "s".repeat(101), "a stack name cannot exceed 100 characters"],
    ])("%s: the CLI's message, exit 1", (_label, given, message) => {
        const error = thrown(() => parseFileBackendStack(given, "site"));
        expect(error.message).toBe(message);
        expect(error.exitCode).toBe(1);
    });
});

describe("--stack without a file backend", () => {
    it.each([
        ["the stack's own name (baseline)", "prod", "prod"],
        ["fully qualified, this project", "organization/citrix-satellite-zones/prod", "prod"],
        ["fully qualified, another organization", "acme/citrix-satellite-zones/dev", "dev"],
        ["<organization>/<stack>", "acme/dev", "dev"],
    ])("%s", (_label, given, expected) => {
        expect(stackNameOf(given, "citrix-satellite-zones")).toBe(expected);
    });

    it.each([
        ["another project", "organization/other-project/prod", 'names project "other-project", but this program\'s project is "citrix-satellite-zones"'],
        ["an empty part", "organization//prod", "expected <stack>, <organization>/<stack> or <organization>/<project>/<stack>"],
        ["four parts", "a/b/c/d", "expected <stack>, <organization>/<stack> or <organization>/<project>/<stack>"],
        ["a space in the stack name (Pulumi Cloud's rules too)", "pr od", `${BAD_CHAR} ' ' at position 2`],
        ["a control character, escaped where it is echoed", "organization/x\u001b/prod", "--stack organization/x\\u001b/prod names project"],
    ])("%s is refused", (_label, given, message) => {
        const error = thrown(() => stackNameOf(given, "citrix-satellite-zones"));
        expect(error.message).toContain(message);
        expect(error.exitCode).toBe(1);
    });
});
