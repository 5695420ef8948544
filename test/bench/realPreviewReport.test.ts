import { describe, expect, it } from "vitest";
import { renderRealPreview, RealPreviewResults } from "../../scripts/bench/realPreview";

/** A 1,000-resource result: perfguard 2% over the empty pack by wall time, 1% by CPU, in each round. */
function results(change: Partial<Record<"perfguard" | "empty pack" | "no pack", Partial<{ seconds: number[]; cpuSeconds: number[] | undefined }>>> = {}): RealPreviewResults {
    const base = {
        perfguard: { seconds: [51, 102, 61.2], cpuSeconds: [40.4, 40.4, 40.4] as number[] | undefined },
        "empty pack": { seconds: [50, 100, 60], cpuSeconds: [40, 40, 40] as number[] | undefined },
        "no pack": { seconds: [45, 90, 54], cpuSeconds: [36, 36, 36] as number[] | undefined },
    };
    const runs = (Object.keys(base) as Array<keyof typeof base>).map((label) => {
        const x = { ...base[label], ...change[label] };
        const sorted = [...x.seconds].sort((a, b) => a - b);
        return { label, seconds: x.seconds, median: sorted[Math.floor(sorted.length / 2)], ...(x.cpuSeconds ? { cpuSeconds: x.cpuSeconds } : {}) };
    });
    return { resources: 1000, repeats: 3, runs, date: "2026-12-02T00:00:00.000Z", loadStart: 1, loadEnd: 2 };
}

describe("the real-preview section of BENCHMARKS.md", () => {
    it.each([
        // [case, change, lines expected in the section]
        ["baseline: wall and CPU, round by round", {}, [
            "perfguard / empty pack: **1.020x**, target <= 1.02x: met (perfguard's share 1.2 s of 61.2 s); the median of the rounds' ratios: 1.020x, met; by CPU time: 1.010x, met.",
            "| perfguard | 61.20 | 51.0, 102.0, 61.2 | 1.133x | 1.020x | 40.4 | 40.4, 40.4, 40.4 |",
            "Round by round (perfguard / empty pack in the same round): wall 1.020x, 1.020x, 1.020x; CPU 1.010x, 1.010x, 1.010x (median 1.010x).",
        ]],
        ["a slower perfguard misses the target", { perfguard: { seconds: [60, 120, 72] } }, [
            "perfguard / empty pack: **1.200x**, target <= 1.02x: MISSED (perfguard's share 12.0 s of 72.0 s); the median of the rounds' ratios: 1.200x, MISSED; by CPU time: 1.010x, met.",
        ]],
        ["no CPU figures (side-by-side runs): no CPU columns", { perfguard: { cpuSeconds: undefined } }, [
            "| pack | median s | each round, s | vs no pack | vs empty pack |",
            "Round by round (perfguard / empty pack in the same round): wall 1.020x, 1.020x, 1.020x. ",
        ]],
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
