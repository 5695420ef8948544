/**
 * docs/cli.md's console samples are the commands' output. Each ```console block whose commands are
 * all `npx perfguard ...` (no pipe) and `echo $?` is run through the built binary, in a folder
 * holding the files the samples name (stack.json: the citrix-satellite-zones example's --record;
 * the config files below), and compared: exactly, or, where the sample elides with a `...` line,
 * each shown run of lines (parted by `...` and blank lines) in order. A block may start with the `npm run preview ... --record
 * stack.json` line that makes stack.json. Other blocks (with `| jq`, `| tail`) are checked
 * elsewhere (sizeCitrix.test.ts) or are commands for the reader, not output.
 * PERFGUARD_WRITE_DOCS=1 rewrites the samples that are not elided instead of comparing.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { beforeAll, describe, expect, it } from "vitest";
import { examplePreview } from "../support/examplePreviews";
import { BIN, ROOT, tempDir } from "./cliHarness";

const DOC = path.join(ROOT, "docs", "cli.md");
const WRITE = process.env.PERFGUARD_WRITE_DOCS === "1";
/** Where the samples say perfguard lives (a reader's checkout). */
const SHOWN_ROOT = "/home/me/perfguard";
/** The line that makes stack.json, allowed as a block's first command. */
const RECORD_LINE = /^\$ npm run preview -- examples\/citrix-satellite-zones --record stack\.json\b/;

/** The files the samples' commands name, besides stack.json. */
const FILES: Record<string, string> = {
    "perfguard-config.json": JSON.stringify({ "citrix-zone-rtt-limit": { maxRttMs: "250" }, "xen-dom0-workoad": "mandatory" }),
    "all-off.json": JSON.stringify({ all: "disabled" }),
};

interface Step {
    /** The command's arguments after `npx perfguard`, or "status" for `echo $?`. */
    readonly args: readonly string[] | "status";
    /** 0-based index in the doc's lines of the first output line, and how many lines the sample shows. */
    readonly from: number;
    readonly count: number;
}

interface Sample {
    /** 1-based line of the block's first command, for the test's name. */
    readonly line: number;
    readonly steps: readonly Step[];
}

/** The console blocks the test runs, each as its steps. */
function samples(lines: readonly string[]): Sample[] {
    const found: Sample[] = [];
    for (let i = 0; i < lines.length; i++) {
        if (lines[i] !== "```console") {
            continue;
        }
        let end = i + 1;
        while (end < lines.length && lines[end] !== "```") {
            end++;
        }
        const steps: Step[] = [];
        let runnable = true;
        for (let k = i + 1; k < end; k++) {
            const line = lines[k];
            if (!line.startsWith("$ ")) {
                continue;
            }
            let next = k + 1;
            while (next < end && !lines[next].startsWith("$ ")) {
                next++;
            }
            if (k === i + 1 && RECORD_LINE.test(line)) {
                continue;
            }
            const command = line.slice(2).replace(/\s+#.*$/, "");
            if (command === "echo $?") {
                steps.push({ args: "status", from: k + 1, count: next - k - 1 });
            } else if (command.startsWith("npx perfguard ") && !/[|<>]/.test(command)) {
                steps.push({ args: command.slice("npx perfguard ".length).split(/\s+/), from: k + 1, count: next - k - 1 });
            } else {
                runnable = false;
            }
        }
        if (runnable && steps.some((s) => s.args !== "status")) {
            found.push({ line: i + 2, steps });
        }
        i = end;
    }
    return found;
}

/** True when `shown` (with `...` lines for what the sample leaves out) is `actual`, in order. */
function matchesElided(shown: readonly string[], actual: readonly string[]): boolean {
    let at = 0;
    const runs: string[][] = [[]];
    // A blank line parts runs too: an excerpt (--explain's) shows some blocks of many.
    for (const line of shown) {
        if (line === "..." || line === "") {
            runs.push([]);
        } else {
            runs[runs.length - 1].push(line);
        }
    }
    for (const run of runs.filter((r) => r.length > 0)) {
        let found = -1;
        for (let k = at; k + run.length <= actual.length && found < 0; k++) {
            if (run.every((l, j) => actual[k + j] === l)) {
                found = k;
            }
        }
        if (found < 0) {
            return false;
        }
        at = found + run.length;
    }
    return true;
}

const lines = fs.readFileSync(DOC, "utf8").split("\n");
const work = tempDir();

beforeAll(async () => {
    const { record } = await examplePreview("citrix-satellite-zones");
    fs.copyFileSync(record, path.join(work, "stack.json"));
    for (const [name, text] of Object.entries(FILES)) {
        fs.writeFileSync(path.join(work, name), text);
    }
}, 600_000);

describe("docs/cli.md console samples are the commands' output", () => {
    const all = samples(lines);
    /** With PERFGUARD_WRITE_DOCS=1: each sample's first line, its line count and the output to put there. */
    const rewrites = new Map<number, { count: number; actual: string[] }>();
    let pending = all.length;

    it("finds the samples (the check, --explain, size, config check and error ones)", () => {
        expect(all.length).toBeGreaterThanOrEqual(6);
    });

    it.each(all.map((s) => [s.line, s] as const))(
        "the block at line %i",
        (_line, sample) => {
            let status: number | null = null;
            for (const step of sample.steps) {
                const shown = lines.slice(step.from, step.from + step.count);
                let actual: string[];
                if (step.args === "status") {
                    actual = [String(status)];
                } else {
                    const run = spawnSync(process.execPath, [BIN, ...step.args], { cwd: work, encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL" });
                    status = run.status;
                    actual = (run.stdout + run.stderr).split(ROOT).join(SHOWN_ROOT).replace(/\n$/, "").split("\n");
                }
                if (shown.includes("...")) {
                    expect(matchesElided(shown, actual), `docs/cli.md line ${step.from}: the elided sample is not in the output:\n${actual.join("\n")}`).toBe(
                        true,
                    );
                } else if (WRITE) {
                    rewrites.set(step.from, { count: step.count, actual });
                } else {
                    expect(
                        shown.join("\n"),
                        `docs/cli.md line ${step.from} is stale: run PERFGUARD_WRITE_DOCS=1 npx vitest run test/cli/docSamples.test.ts`,
                    ).toBe(actual.join("\n"));
                }
            }
            pending--;
            if (WRITE && pending === 0) {
                const out: string[] = [];
                for (let k = 0; k < lines.length; k++) {
                    const r = rewrites.get(k);
                    if (r) {
                        out.push(...r.actual);
                        k += r.count - 1;
                    } else {
                        out.push(lines[k]);
                    }
                }
                fs.writeFileSync(DOC, out.join("\n"));
            }
        },
        600_000,
    );
});

describe("docs/cli.md's --report excerpt is the report's", () => {
    it("each line of the zone and Delivery Group tables is in check --report's file for the example", () => {
        const at = lines.indexOf("of the example above:");
        expect(at, "docs/cli.md has the --report excerpt").toBeGreaterThan(0);
        const start = lines.indexOf("```markdown", at);
        const end = lines.indexOf("```", start + 1);
        const shown = lines.slice(start + 1, end).filter((l) => l !== "");
        expect(shown.length).toBeGreaterThan(10);
        const report = path.join(work, "report.md");
        const run = spawnSync(process.execPath, [BIN, "check", "stack.json", "--report", report], {
            cwd: work,
            encoding: "utf8",
            timeout: 300_000,
            killSignal: "SIGKILL",
        });
        expect(run.status, run.stderr).toBe(1);
        const written = fs.readFileSync(report, "utf8").split("\n");
        expect(
            shown.filter((l) => !written.includes(l)),
            "docs/cli.md's --report excerpt is stale",
        ).toEqual([]);
    }, 600_000);
});
