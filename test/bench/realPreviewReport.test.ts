import { describe, expect, it } from "vitest";
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { isPackProcess, startPackCpuSampler } from "../../scripts/bench/packCpu";
import { NOOP_LABEL, packShare, renderRealPreview, RealPreviewResults } from "../../scripts/bench/realPreview";

/** A 1,000-resource result: perfguard 2% over the empty pack by wall time, 1% by CPU, in each round. */
type Change = Partial<{ seconds: number[]; cpuSeconds: number[] | undefined; packCpuSeconds: number[] | undefined }>;
function results(change: Partial<Record<"perfguard" | "empty pack" | "no pack", Change>> = {}): RealPreviewResults {
    const base: Record<"perfguard" | "empty pack" | "no pack", Change & { seconds: number[] }> = {
        perfguard: { seconds: [51, 102, 61.2], cpuSeconds: [40.4, 40.4, 40.4] },
        "empty pack": { seconds: [50, 100, 60], cpuSeconds: [40, 40, 40] },
        "no pack": { seconds: [45, 90, 54], cpuSeconds: [36, 36, 36] },
    };
    const runs = (Object.keys(base) as Array<keyof typeof base>).map((label) => {
        const x = { ...base[label], ...change[label] };
        const sorted = [...x.seconds].sort((a, b) => a - b);
        return {
            label,
            seconds: x.seconds,
            median: sorted[Math.floor(sorted.length / 2)],
            ...(x.cpuSeconds ? { cpuSeconds: x.cpuSeconds } : {}),
            ...(x.packCpuSeconds ? { packCpuSeconds: x.packCpuSeconds } : {}),
        };
    });
    return { resources: 1000, repeats: 3, runs, date: "2026-12-02T00:00:00.000Z", loadStart: 1, loadEnd: 2 };
}

describe("the real-preview section of BENCHMARKS.md", () => {
    it.each([
        // [case, change, lines expected in the section]
        [
            "baseline: wall and CPU, round by round",
            {},
            [
                "perfguard / empty pack: **1.020x**, target <= 1.02x: met (perfguard's share 1.2 s of 61.2 s); the median of the rounds' ratios: 1.020x, met; by CPU time (the median of the rounds' ratios): 1.010x, met.",
                "| perfguard | 61.20 | 51.0, 102.0, 61.2 | 1.133x | 1.020x | 40.4 | 40.4, 40.4, 40.4 |",
                "Round by round (perfguard / empty pack in the same round): wall 1.020x, 1.020x, 1.020x; CPU 1.010x, 1.010x, 1.010x (median 1.010x).",
            ],
        ],
        [
            "a slower perfguard misses the target",
            { perfguard: { seconds: [60, 120, 72] } },
            [
                "perfguard / empty pack: **1.200x**, target <= 1.02x: MISSED (perfguard's share 12.0 s of 72.0 s); the median of the rounds' ratios: 1.200x, MISSED; by CPU time (the median of the rounds' ratios): 1.010x, met.",
            ],
        ],
        [
            "no CPU figures (side-by-side runs): no CPU columns",
            { perfguard: { cpuSeconds: undefined } },
            [
                "| pack | median s | each round, s | vs no pack | vs empty pack |",
                "Round by round (perfguard / empty pack in the same round): wall 1.020x, 1.020x, 1.020x. ",
            ],
        ],
    ] as const)("%s", (_name, change, expected) => {
        const text = renderRealPreview([results(change as never)]);
        for (const line of expected) {
            expect(text).toContain(line);
        }
        if (!("perfguard" in change && "cpuSeconds" in (change as { perfguard: object }).perfguard)) {
            expect(text).toContain("| pack | median s | each round, s | vs no pack | vs empty pack | CPU, median s | CPU, each round, s |");
        } else {
            expect(text).not.toContain("CPU, median s");
        }
    });
});

describe("perfguard's own share from the pack processes' CPU", () => {
    const withPacks = (ours: number[], empty: number[]): RealPreviewResults =>
        results({ perfguard: { packCpuSeconds: ours }, "empty pack": { packCpuSeconds: empty } });
    it.each([
        // [case, perfguard's pack CPU per round, the empty pack's, extra s (median of the rounds' differences), share, line]
        [
            "baseline: 0.6 s more each round, 1% of the 60 s median",
            [2.6, 2.6, 2.6],
            [2, 2, 2],
            0.6,
            0.01,
            "**1.00%** of the empty-pack preview's 60.0 s, target <= 2%: met",
        ],
        ["the median of the rounds' differences, not of each side", [2.5, 4.4, 2.7], [2, 2.1, 2.0], 0.7, 0.7 / 60, "perfguard adds 0.70 s"],
        ["3 s more: 5%, missed", [5, 5, 5], [2, 2, 2], 3, 0.05, "**5.00%** of the empty-pack preview's 60.0 s, target <= 2%: MISSED"],
    ] as const)("%s", (_name, ours, empty, extra, share, line) => {
        const r = withPacks([...ours], [...empty]);
        const got = packShare(r);
        expect(got?.extra).toBeCloseTo(extra, 6);
        expect(got?.share).toBeCloseTo(share, 6);
        expect(renderRealPreview([r])).toContain(line);
    });
    it.each([
        // [case, the no-op pack's CPU per round, noop extra s, line]
        [
            "baseline: the no-op pack of perfguard's shape costs more than perfguard",
            [2.9, 2.9, 2.9],
            0.9,
            "perfguard, checks included, adds 0.30 s less than it.",
        ],
        ["perfguard costs more than its shape's floor", [2.4, 2.4, 2.4], 0.4, "perfguard, checks included, adds 0.20 s more than it."],
    ] as const)("the no-op floor: %s", (_name, noop, noopExtra, line) => {
        const r = results({ perfguard: { packCpuSeconds: [2.6, 2.6, 2.6] }, "empty pack": { packCpuSeconds: [2, 2, 2] } });
        const withNoop: RealPreviewResults = { ...r, runs: [...r.runs, { label: NOOP_LABEL, seconds: [60, 60, 60], median: 60, packCpuSeconds: [...noop] }] };
        const got = packShare(withNoop);
        expect(got?.noop?.extra).toBeCloseTo(noopExtra, 6);
        expect(got?.noop?.share).toBeCloseTo(noopExtra / 60, 6);
        const text = renderRealPreview([withNoop]);
        expect(text).toContain(
            `The no-op pack of perfguard's shape adds ${noopExtra.toFixed(2)} s over the empty pack, **${((100 * noopExtra) / 60).toFixed(2)}%**`,
        );
        expect(text).toContain(line);
        // Without its runs, no sentence about it.
        expect(packShare(r)?.noop).toBeUndefined();
        expect(renderRealPreview([r])).not.toContain("The no-op pack of perfguard's shape adds");
    });
    it("says nothing without both packs' CPU", () => {
        const r = results({ perfguard: { packCpuSeconds: [2, 2, 2] } });
        expect(packShare(r)).toBeUndefined();
        expect(renderRealPreview([r])).not.toContain("perfguard's own work");
    });
    it.each([
        // [case, command line (NUL-separated), pack dir, is the pack's process]
        [
            "the Node.js host's run-plugin for the pack",
            ["node", "/x/node_modules/@pulumi/pulumi/cmd/run-plugin/index.js", "/work/main", "127.0.0.1:1"],
            "/work/main",
            true,
        ],
        ["run-policy-pack for the pack", ["node", "/x/cmd/run-policy-pack/index.js", "127.0.0.1:1", "/work/main"], "/work/main", true],
        ["another pack whose path starts with this one's", ["node", "/x/cmd/run-plugin/index.js", "/work/main/bench/floors/empty-pack"], "/work/main", false],
        ["the program, not a pack", ["node", "/x/cmd/run/index.js", "/work/main"], "/work/main", false],
    ] as const)("isPackProcess: %s", (_name, args, dir, expected) => {
        expect(isPackProcess(args.join("\0"), dir)).toBe(expected);
    });
});

describe.runIf(process.platform === "linux")("startPackCpuSampler on a live process", () => {
    it("reads the CPU a process serving the pack dir used, and nothing of other processes", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-packcpu-"));
        // Burns 0.3 s of its own CPU (however long that takes on a loaded machine), says so, then idles.
        const burn =
            "const t=process.cpuUsage();while((process.cpuUsage(t).user+process.cpuUsage(t).system)<3e5){}" +
            "process.stdout.write('done');setInterval(()=>{},1000);";
        const sampler = startPackCpuSampler(dir);
        const other = startPackCpuSampler(path.join(dir, "other"));
        const child = spawn(process.execPath, ["-e", burn, path.join(dir, "cmd", "run-plugin", "index.js"), dir], { stdio: ["ignore", "pipe", "ignore"] });
        try {
            await new Promise<void>((resolve, reject) => {
                child.stdout.on("data", () => resolve());
                child.on("exit", () => reject(new Error("the burner exited early")));
            });
            await new Promise((r) => setTimeout(r, 600)); // a few sampling intervals
            const seconds = sampler.stop();
            expect(seconds).toBeGreaterThanOrEqual(0.29);
            expect(other.stop()).toBeUndefined();
        } finally {
            sampler.stop();
            other.stop();
            child.kill("SIGKILL");
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }, 120_000);

    it("does not count a pack process that was alive before it started (an interrupted run's orphan)", async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-packcpu-"));
        const burn =
            "const t=process.cpuUsage();while((process.cpuUsage(t).user+process.cpuUsage(t).system)<2e5){}" +
            "process.stdout.write('done');setInterval(()=>{},1000);";
        const orphan = spawn(process.execPath, ["-e", burn, path.join(dir, "cmd", "run-plugin", "index.js"), dir], { stdio: ["ignore", "pipe", "ignore"] });
        try {
            await new Promise<void>((resolve, reject) => {
                orphan.stdout.on("data", () => resolve());
                orphan.on("exit", () => reject(new Error("the burner exited early")));
            });
            const sampler = startPackCpuSampler(dir);
            await new Promise((r) => setTimeout(r, 600));
            expect(sampler.stop()).toBeUndefined();
        } finally {
            orphan.kill("SIGKILL");
            fs.rmSync(dir, { recursive: true, force: true });
        }
    }, 120_000);
});
