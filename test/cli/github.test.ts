/**
 * GitHub workflow annotations: one `::error|warning|notice file=…,line=…,title=…::` line per
 * verdict that is not a pass, with file and line, escaped as the Actions toolkit escapes
 * (@actions/core command.ts): data % CR LF; properties also : and ,. Decoded back, the
 * message is the verdict's text.
 */
import { describe, expect, it } from "vitest";
import { escapeData, escapeProperty, writeGithub } from "../../cli/results/github";
import { buildResults } from "../../cli/results/model";
import type { Violation } from "../../preview/types";
import { examplePreview } from "../support/examplePreviews";
import { previewResults } from "../../preview/resultArgs";

function unescape(text: string): string {
    return text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%25/g, "%");
}

const COMMAND = /^::(error|warning|notice) file=([^,]*),line=(\d+),title=([^,:]*)::(.*)$/;

describe("escaping", () => {
    const cases: Array<[string, string, string]> = [
        ["plain", "abc", "abc"],
        ["percent first", "90% of 100%", "90%25 of 100%25"],
        ["newlines", "a\r\nb\nc", "a%0D%0Ab%0Ac"],
        ["percent-encoded text stays literal", "%0A", "%250A"],
    ];
    for (const [name, input, data] of cases) {
        it(`data: ${name}`, () => {
            expect(escapeData(input)).toBe(data);
            expect(unescape(escapeData(input))).toBe(input);
        });
    }
    it("properties also escape : and ,", () => {
        expect(escapeProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
    });
});

function v(level: "mandatory" | "advisory", message: string, name = "web:1,2"): Violation {
    return {
        policyName: "p-one",
        policyPackName: "perfguard",
        policyPackVersion: "0.1.0",
        enforcementLevel: level,
        message,
        urn: `urn:pulumi:s::p::avi:index/pool:Pool::${name}`,
        phase: "analyze",
    };
}

describe("annotations", () => {
    const cases: Array<{ name: string; violation: Violation; command: string }> = [
        { name: "mandatory violation is an error", violation: v("mandatory", 'D.\nPool "x" at 90% (limit 80%).\nFix: add'), command: "error" },
        { name: "advisory violation is a warning", violation: v("advisory", 'D.\nPool "x" at 90% (limit 80%).\nFix: add'), command: "warning" },
        { name: "not checked is a notice", violation: v("mandatory", 'D.\nPool "x" not checked: unknown.\nFix: deploy'), command: "notice" },
        { name: "waived is a warning", violation: v("advisory", 'D.\nwaived (tags: "t")\nPool "x" at 90%.\nFix: add'), command: "warning" },
    ];
    for (const c of cases) {
        it(c.name, () => {
            const results = buildResults({
                pack: { name: "perfguard", version: "0.1.0", policies: [] },
                levels: {},
                violations: [c.violation],
                resources: [],
                programRoot: "infra",
            });
            const lines = writeGithub(results)
                .split("\n")
                .filter((l) => l !== "");
            expect(lines.length).toBe(1);
            const m = COMMAND.exec(lines[0]);
            expect(m?.[1]).toBe(c.command);
            expect(m?.[2]).toBe("infra/Pulumi.yaml");
            expect(m?.[3]).toBe("1");
            expect(unescape(m?.[4] ?? "")).toBe("p-one (web:1,2)" + (c.command === "warning" && c.violation.message.includes("waived") ? " [waived]" : ""));
            const text = unescape(m?.[5] ?? "");
            expect(text).toContain('Pool "x"');
            expect(text.split("\n")).toContain(c.violation.message.split("\n").find((l) => l.startsWith("Fix: ")));
        });
    }

    it("an example's annotations carry the file and line declaring each resource", async () => {
        const { result } = await examplePreview("nsx-alb-se-groups");
        const lines = writeGithub(previewResults(result, "examples/nsx-alb-se-groups"))
            .split("\n")
            .filter((l) => l !== "");
        expect(lines.length).toBe(result.violations.length);
        for (const line of lines) {
            const m = COMMAND.exec(line);
            expect(m?.[2]).toBe("examples/nsx-alb-se-groups/index.ts");
            expect(Number(m?.[3])).toBeGreaterThan(1);
        }
        expect(lines.filter((l) => l.startsWith("::error ")).length).toBe(result.violations.filter((x) => x.enforcementLevel === "mandatory").length);
    });
});
