/**
 * --stack takes the stack's own name or the fully qualified form the CI recipes use on a file
 * backend (organization/<project>/<stack>); both read the same Pulumi.<stack>.yaml. A qualified
 * name for another project, or a malformed one, is a set-up error, never silently another stack.
 */
import { describe, expect, it } from "vitest";
import { PreviewError } from "../../preview/errors";
import { stackNameOf } from "../../preview/runPreview";

describe("--stack names", () => {
    it.each([
        ["the stack's own name (baseline)", "prod", "prod"],
        ["fully qualified, this project", "organization/citrix-satellite-zones/prod", "prod"],
        ["fully qualified, another organization", "acme/citrix-satellite-zones/dev", "dev"],
    ])("%s", (_label, given, expected) => {
        expect(stackNameOf(given, "citrix-satellite-zones")).toBe(expected);
    });

    it.each([
        ["another project", "organization/other-project/prod", "names project \"other-project\", but this program's project is \"citrix-satellite-zones\""],
        ["two parts", "organization/prod", "expected <stack> or <organization>/<project>/<stack>"],
        ["an empty part", "organization//prod", "expected <stack> or <organization>/<project>/<stack>"],
    ])("%s is refused", (_label, given, message) => {
        let error: unknown;
        try {
            stackNameOf(given, "citrix-satellite-zones");
        } catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(PreviewError);
        expect((error as Error).message).toContain(message);
    });
});
