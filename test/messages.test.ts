/**
 * Every message the bundled examples print, as a user sees it in the "Policies:" summary (`node dist/preview/main.js
 * examples/<name>` [--policy-pack-config examples/<name>/policy-config.json]; the shared preview of
 * test/support/examplePreviews.ts): a problem line of at most 160 characters and a Fix: line, and no two violations with the
 * same text apart from the resource name. Policies still being converted are skip-listed in
 * test/support/messageShape.ts (SHAPE_PENDING), by id with their owner.
 */
import * as fs from "fs";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { formatExplanation } from "../preview/explainReport";
import { examplePreview } from "./support/examplePreviews";
import { SHAPE_PENDING, shapeProblems } from "./support/messageShape";

const ROOT = path.resolve(__dirname, "..");
const EXAMPLES = path.join(ROOT, "examples");
// Node.js examples only: the emulated preview does not run a YAML or Go program (examples/citrix-yaml, examples/citrix-delivery-groups-go).
const examples = fs
    .readdirSync(EXAMPLES)
    .filter(
        (d) =>
            fs.existsSync(path.join(EXAMPLES, d, "Pulumi.yaml")) && /^runtime: nodejs$/m.test(fs.readFileSync(path.join(EXAMPLES, d, "Pulumi.yaml"), "utf8")),
    );

/** One violation as the preview prints it in its "Policies:" summary. */
export interface PrintedViolation {
    policyName: string;
    level: string;
    /** The resource name ("(stack)" when none). */
    resource: string;
    /** The message, indentation removed (description first). */
    message: string;
}

const HEAD = /^ {8}- \[(\w+)\] {2}(\S+)(?: {2}\((.+?): (.*)\))?$/;

/**
 * The violations of a preview's stdout as its "Policies:" summary prints them (the CLI's default
 * progress view; the diff view prints it too): `- [level]  policy  (type: name)` indented by 8
 * spaces, then the message indented by 10.
 */
export function printedViolations(stdout: string): PrintedViolation[] {
    const at = stdout.indexOf("\nPolicies:\n");
    const summary = at >= 0 ? stdout.slice(at) : stdout.startsWith("Policies:\n") ? stdout : "";
    const out: PrintedViolation[] = [];
    let current: PrintedViolation | undefined;
    for (const line of summary.split("\n")) {
        const head = HEAD.exec(line);
        if (head) {
            current = { level: head[1], policyName: head[2], resource: head[4] ?? "(stack)", message: "" };
            out.push(current);
        } else if (current && line.startsWith("          ")) {
            current.message += (current.message ? "\n" : "") + line.slice(10);
        } else {
            current = undefined;
        }
    }
    return out;
}

/**
 * What `node dist/preview/main.js examples/<name> [--policy-pack-config ...] --explain` prints on
 * stdout: the preview's output, then a blank line and the explanation (preview/main.ts writes
 * exactly these), from the preview every file shares (test/support/examplePreviews.ts).
 */
async function preview(name: string): Promise<string> {
    const { result } = await examplePreview(name);
    return result.output + (result.explanation ? "\n" + formatExplanation(result.explanation) : "");
}

describe("messages of the bundled examples, as printed", () => {
    const outputs = new Map<string, string>();
    const printed = new Map<string, PrintedViolation[]>();
    beforeAll(async () => {
        for (const name of examples) {
            const out = await preview(name);
            outputs.set(name, out);
            printed.set(name, printedViolations(out));
        }
    });
    const printedOf = (name: string) => printed.get(name) ?? [];

    it("has examples, and each prints violations", () => {
        expect(examples.length).toBeGreaterThanOrEqual(3);
        for (const [name, violations] of printed) {
            expect(violations.length, name).toBeGreaterThan(0);
        }
    });

    it.each(examples)("%s: every problem line is at most 160 characters, followed by a Fix: line", (name) => {
        expect(shapeProblems(printed.get(name)!)).toEqual([]);
    });

    it.each(examples)("%s: no two violations carry the same text apart from the resource name", (name) => {
        const seen = new Map<string, string>();
        for (const v of printed.get(name)!) {
            if (v.policyName in SHAPE_PENDING) {
                continue;
            }
            const text = v.message.split(v.resource).join("<resource>");
            const key = `${v.policyName}\u0000${text}`;
            expect(seen.get(key), `${v.policyName} on ${v.resource} repeats the message on ${seen.get(key)}`).toBeUndefined();
            seen.set(key, v.resource);
        }
    });

    it("the README's violation (What a violation looks like) is what the nsx-alb-se-groups example prints", () => {
        const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
        const start = readme.indexOf("## What a violation looks like");
        const block = /```\n([\s\S]*?)```/.exec(readme.slice(start))?.[1] ?? "";
        const [head, ...lines] = block.trimEnd().split("\n");
        const m = /^- \[(\w+)\] {2}(\S+) {2}\((.+?): (.+)\)$/.exec(head);
        expect(m, head).not.toBeNull();
        const printed = printedOf("nsx-alb-se-groups").find((v) => v.policyName === m![2] && v.resource === m![4]);
        expect(printed, head).toBeDefined();
        expect(printed!.level).toBe(m![1]);
        expect(lines.map((l) => l.replace(/^ {2}/, "")).join("\n")).toBe(printed!.message);
    });

    it.each(examples)("%s: --explain shows a recorded decision for every resource a policy judged", (name) => {
        const explained = outputs.get(name)!.slice(outputs.get(name)!.indexOf("\nExplain:"));
        expect(explained.length).toBeGreaterThan(20);
        const gaps = explained.split("\n").filter((l) => l.includes("no decision recorded"));
        expect(gaps).toEqual([]);
    });

    it("skip-lists only registered policies, each with its owner", async () => {
        const { policies } = await import("../policies");
        const names = new Set(policies.map((p) => p.name));
        for (const [id, owner] of Object.entries(SHAPE_PENDING)) {
            expect(names.has(id), id).toBe(true);
            expect(owner.length, id).toBeGreaterThan(0);
        }
    });
});
