/**
 * What users feel: the wall time of a real `pulumi preview` (the CLI built by
 * `npm run real-cli:setup`, stand-in providers) of a 1,000-resource program with perfguard, with
 * the no-op pack of perfguard's shape, with the empty pack and with no pack, interleaved (round i
 * starts with configuration i mod n) so that machine noise falls on all of them alike; with each run's CPU seconds, steadier than wall time,
 * and the pack process's own CPU seconds (packCpu.ts): perfguard's own share measured directly.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { realCliAvailable, realPreview } from "../realCli/run";
import { childCpuSeconds } from "./machine";
import { startPackCpuSampler } from "./packCpu";
import { NOOP_RESOURCE_ENV, NOOP_STACK_ENV, perfguardPolicyCounts } from "./packs";
import { median } from "./stats";

/** One configuration of the real preview and its wall times. */
export interface RealPreviewRun {
    readonly label: string;
    readonly seconds: number[];
    readonly median: number;
    /**
     * CPU seconds of each run: the preview's process tree as it is reaped (the CLI, its language
     * host, the program, the providers and the pack). Other work on the machine stretches wall
     * time but hardly CPU time, so on a shared machine this is the steadier measure of a pack's share.
     */
    readonly cpuSeconds?: number[];
    /**
     * CPU seconds of the pack process alone in each run (scripts/bench/packCpu.ts, sampled from
     * /proc): perfguard's against the empty pack's is perfguard's own work in the preview.
     */
    readonly packCpuSeconds?: number[];
}

export interface RealPreviewResults {
    readonly resources: number;
    readonly repeats: number;
    readonly runs: RealPreviewRun[];
    /** ISO time the rounds started, and the 1-minute load average at start and end. */
    readonly date: string;
    readonly loadStart: number;
    readonly loadEnd: number;
    /** The configurations ran side by side in each round (--real-parallel), not one after the other. */
    readonly parallel?: boolean;
    /**
     * The CLI ran with PULUMI_SKIP_CHECKPOINTS=true (the bench's default; absent in runs before
     * 2026-12-02, which kept the CLI's per-step snapshot serialisation: see SKIP_CHECKPOINTS).
     */
    readonly skipCheckpoints?: boolean;
}

/**
 * Why the bench sets PULUMI_SKIP_CHECKPOINTS=true. The CLI v3.274.1's file backend installs a
 * snapshot manager for a preview too, with a persister that discards what it is given
 * (pkg/backend/diy/backend.go: "We always install one (even for preview and dry-run)"), and its
 * default service loop serialises the whole in-memory snapshot after every step
 * (backend/snapshot.go saveSnapshot → SerializeDeploymentWithMetadata): O(n) per step, O(n²) per
 * preview. A CPU profile of a 1,000-resource preview with no pack (`pulumi preview --profiling`)
 * puts 58% of the CLI's CPU in stack.SerializeResource under SnapshotManager.saveSnapshot; the
 * variable switches to the loop that serialises once at the end (the same verdicts, output and exit
 * code: nothing is persisted in a preview). Left on, that cost grows with the square of the stack
 * and hides any pack's share in the denominator; off, the floor is the CLI's linear work.
 */
export const SKIP_CHECKPOINTS: NodeJS.ProcessEnv = { PULUMI_SKIP_CHECKPOINTS: "true" };

/**
 * A program of `count` resources shaped like a platform stack: Citrix zones with controllers
 * and catalogs, Avi SE groups with virtual services, Xen guests; facts on each as the examples
 * declare them. Written to a fresh folder; returns it.
 */
export function writeBenchProgram(count: number): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-bench-program-"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: perfguard-bench\nruntime: nodejs\n");
    fs.writeFileSync(
        path.join(dir, "index.ts"),
        `import * as pulumi from "@pulumi/pulumi";
class R extends pulumi.CustomResource {
    constructor(type: string, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
        super(type, name, props, opts);
    }
}
const per = 10;
for (let i = 0; i < ${Math.ceil(count / 10)}; i++) {
    const zone = new R("citrix:index/zone:Zone", \`zone-\${i}\`, { name: \`zone-\${i}\`, metadatas: [{ name: "perfguard:rttMs", value: String(10 + (i % 20) * 10) }, { name: "perfguard:peakConcurrentLaunches", value: "12" }] });
    new R("citrix:index/machineCatalog:MachineCatalog", \`catalog-\${i}\`, { name: \`catalog-\${i}\`, zone: zone.id, provisioningScheme: { numberOfTotalMachines: 50 } });
    new R("xenorchestra:index/vm:Vm", \`ddc-\${i}\`, { nameLabel: \`ddc-\${i}\`, tags: ["perfguard:citrixRole=deliveryController", \`perfguard:citrixZone=zone-\${i}\`, "perfguard:throttleMaxConcurrentTransactions=6"] });
    const group = new R("avi:index/serviceenginegroup:Serviceenginegroup", \`se-\${i}\`, { name: \`se-\${i}\`, vcpusPerSe: "2", memoryPerSe: "4096", maxSe: "4" });
    for (let v = 0; v < per - 6; v++) {
        new R("avi:index/virtualservice:Virtualservice", \`vs-\${i}-\${v}\`, { name: \`vs-\${i}-\${v}\`, seGroupRef: group.id, markers: [{ key: "perfguard:l7Rps", values: ["2000"] }] });
    }
    new R("xenorchestra:index/vm:Vm", \`guest-\${i}\`, { nameLabel: \`guest-\${i}\`, affinityHost: \`host-\${i % 7}\`, tags: ["perfguard:networkMBps=5"] });
}
`,
    );
    return dir;
}

/** Runs the comparison; undefined (with a note on stderr) when the real CLI is not built. */
export async function benchRealPreview(
    root: string,
    count: number,
    repeats: number,
    log: (line: string) => void,
    parallel = false,
    checkpoints = false,
): Promise<RealPreviewResults | undefined> {
    if (!realCliAvailable()) {
        log("real preview: skipped (run npm run real-cli:setup to build the Pulumi CLI)");
        return undefined;
    }
    const program = writeBenchProgram(count);
    const counts = perfguardPolicyCounts(root);
    const configs: Array<{ label: string; packDir?: string; env?: NodeJS.ProcessEnv }> = [
        { label: "perfguard", packDir: root },
        // perfguard's policy counts doing nothing: what the SDK charges for that many policies.
        {
            label: NOOP_LABEL,
            packDir: path.join(root, "bench", "floors", "noop-pack"),
            env: { [NOOP_RESOURCE_ENV]: String(counts.resource), [NOOP_STACK_ENV]: String(counts.stack) },
        },
        { label: "empty pack", packDir: path.join(root, "bench", "floors", "empty-pack") },
        { label: "no pack" },
    ];
    const times = configs.map(() => [] as number[]);
    const cpu = configs.map(() => [] as number[]);
    const packCpu = configs.map(() => [] as number[]);
    const date = new Date().toISOString();
    const loadStart = os.loadavg()[0];
    try {
        const once = async (i: number, k: number): Promise<void> => {
            const config = configs[k];
            const t = process.hrtime.bigint();
            const cpuBefore = parallel ? undefined : childCpuSeconds();
            const sampler = config.packDir === undefined ? undefined : startPackCpuSampler(config.packDir);
            const run = await realPreview(program, {
                packDir: config.packDir,
                noPack: config.packDir === undefined,
                env: { ...(checkpoints ? {} : SKIP_CHECKPOINTS), ...config.env },
            }).finally(() => {
                const packSeconds = sampler?.stop();
                if (packSeconds !== undefined) {
                    packCpu[k].push(packSeconds);
                }
            });
            const seconds = Number(process.hrtime.bigint() - t) / 1e9;
            const cpuAfter = cpuBefore === undefined ? undefined : childCpuSeconds();
            if (cpuBefore !== undefined && cpuAfter !== undefined) {
                cpu[k].push(cpuAfter - cpuBefore);
            }
            if (run.exitCode !== 0 && run.exitCode !== 1) {
                throw new Error(`real preview (${config.label}) exited ${run.exitCode}:\n${run.stdout}${run.stderr}`);
            }
            times[k].push(seconds);
            log(
                `real preview ${count}: ${i + 1}/${repeats} ${config.label}: ${seconds.toFixed(1)} s${cpu[k].length === times[k].length ? `, CPU ${cpu[k][cpu[k].length - 1].toFixed(1)} s` : ""}` +
                    (packCpu[k].length === times[k].length ? `, the pack's CPU ${packCpu[k][packCpu[k].length - 1].toFixed(2)} s` : ""),
            );
        };
        for (let i = 0; i < repeats; i++) {
            if (parallel) {
                // All at once: on a machine whose load changes by the minute, runs side by side
                // see the same load, where runs one after the other (minutes each) would not.
                await Promise.all(configs.map((_, k) => once(i, k)));
                continue;
            }
            // Round i starts with configuration i mod n, so that none always runs first (or after the same one).
            for (let j = 0; j < configs.length; j++) {
                await once(i, (i + j) % configs.length);
            }
        }
    } finally {
        fs.rmSync(program, { recursive: true, force: true });
    }
    return {
        resources: count,
        repeats,
        date,
        loadStart,
        loadEnd: os.loadavg()[0],
        parallel,
        skipCheckpoints: !checkpoints,
        runs: configs.map((c, k) => ({
            label: c.label,
            seconds: times[k],
            median: median(times[k]),
            ...(cpu[k].length === times[k].length && cpu[k].length > 0 ? { cpuSeconds: cpu[k] } : {}),
            ...(packCpu[k].length === times[k].length && packCpu[k].length > 0 ? { packCpuSeconds: packCpu[k] } : {}),
        })),
    };
}

/** perfguard / empty pack per round, from the runs' wall or CPU seconds (rounds where both ran). */
function pairedRatios(r: RealPreviewResults, key: "seconds" | "cpuSeconds"): number[] {
    const ours = r.runs.find((x) => x.label === "perfguard")?.[key] ?? [];
    const empty = r.runs.find((x) => x.label === "empty pack")?.[key] ?? [];
    return ours
        .slice(0, empty.length)
        .map((t, i) => t / empty[i])
        .filter((x) => Number.isFinite(x));
}

/** The target: perfguard's wall time at most this many times the empty pack's. */
export const REAL_PREVIEW_TARGET = 1.02;

/** How the runs name the no-op pack of perfguard's shape (bench/floors/noop-pack). */
export const NOOP_LABEL = "no-op pack";

/** Per round, `label`'s pack CPU minus the empty pack's; their median. Undefined without both. */
function extraOverEmpty(r: RealPreviewResults, label: string): { mine: number; empty: number; extra: number } | undefined {
    const a = r.runs.find((x) => x.label === label)?.packCpuSeconds ?? [];
    const b = r.runs.find((x) => x.label === "empty pack")?.packCpuSeconds ?? [];
    const n = Math.min(a.length, b.length);
    return n === 0 ? undefined : { mine: median(a.slice(0, n)), empty: median(b.slice(0, n)), extra: median(a.slice(0, n).map((t, i) => t - b[i])) };
}

/**
 * perfguard's own work in the preview from the pack processes' CPU: the median over rounds of
 * (perfguard's pack CPU − the empty pack's in the same round), and that as a share of the empty-pack
 * preview's median wall time; the same for the no-op pack of perfguard's shape when it ran (the
 * SDK's price for perfguard's policy count). The CLI's own handling of perfguard's verdicts is not
 * in it (the whole preview's CPU is). Undefined without pack CPU figures for perfguard and the empty pack.
 */
export function packShare(
    r: RealPreviewResults,
): { perfguard: number; empty: number; extra: number; share: number; noop?: { extra: number; share: number } } | undefined {
    const empty = r.runs.find((x) => x.label === "empty pack");
    const ours = extraOverEmpty(r, "perfguard");
    if (!ours || !empty || !(empty.median > 0)) {
        return undefined;
    }
    const noop = extraOverEmpty(r, NOOP_LABEL);
    return {
        perfguard: ours.mine,
        empty: ours.empty,
        extra: ours.extra,
        share: ours.extra / empty.median,
        ...(noop ? { noop: { extra: noop.extra, share: noop.extra / empty.median } } : {}),
    };
}

/** The BENCHMARKS.md section: one table per program size, with each round's times (the spread). */
export function renderRealPreview(results: readonly RealPreviewResults[]): string {
    const out: string[] = [
        "## A real `pulumi preview`",
        "",
        "Wall time of `pulumi preview` (the real CLI v3.274.1 built by `npm run real-cli:setup`, stand-in providers, local file " +
            "backend) of a program of Citrix zones, catalogs and controllers, Avi SE groups and virtual services and Xen guests, " +
            "with facts (scripts/bench/realPreview.ts), with perfguard, the no-op pack of perfguard's shape (bench/floors/noop-pack: " +
            "perfguard's numbers of resource and stack policies, each doing nothing; runs since 2026-12-02 evening), the empty pack and no pack, rounds interleaved " +
            "(round i starts with configuration i mod n). Each time includes `pulumi stack init` in a fresh backend (the same for all " +
            `of them). Target: perfguard at most ${REAL_PREVIEW_TARGET.toFixed(2)}x the empty pack (the price any pack pays for being ` +
            "started and called); perfguard's own share is what it adds on top. The CLI runs with PULUMI_SKIP_CHECKPOINTS=true unless " +
            "`--real-checkpoints`: v3.274.1's file backend otherwise serialises the whole snapshot after every step of a preview too, " +
            "a cost that grows with the square of the stack (58% of the CLI's CPU at 1,000 resources, by its own `--profiling`) and " +
            "would hide a pack's share; nothing is persisted in a preview, so verdicts, output and exit code are the same.",
        "",
    ];
    for (const r of results) {
        const none = r.runs.find((x) => x.label === "no pack")?.median ?? NaN;
        const empty = r.runs.find((x) => x.label === "empty pack")?.median ?? NaN;
        const ours = r.runs.find((x) => x.label === "perfguard")?.median ?? NaN;
        const ratio = ours / empty;
        out.push(`### ${r.resources.toLocaleString("en-US")} resources: ${r.repeats === 1 ? "one round" : `median of ${r.repeats} rounds`}`, "");
        const checkpointsNote = r.skipCheckpoints
            ? "; PULUMI_SKIP_CHECKPOINTS=true"
            : "; the CLI's per-step snapshot serialisation on (run before the bench set PULUMI_SKIP_CHECKPOINTS, or with --real-checkpoints)";
        out.push(
            `Run ${r.date}${checkpointsNote}${r.parallel ? ", the configurations side by side in each round (`--real-parallel`: on a machine whose load changes by the minute they then see the same load; they also compete for its 2 cores)" : ", interleaved"}; 1-minute load average ${r.loadStart.toFixed(2)} at the start, ${r.loadEnd.toFixed(2)} at the end ` +
                "(the machine is shared with other developers' builds).",
            "",
        );
        const cpuKnown = r.runs.every((x) => x.cpuSeconds !== undefined && x.cpuSeconds.length === x.seconds.length);
        out.push(
            `| pack | median s | each round, s | vs no pack | vs empty pack |${cpuKnown ? " CPU, median s | CPU, each round, s |" : ""}`,
            `| --- | ---: | ---: | ---: | ---: |${cpuKnown ? " ---: | ---: |" : ""}`,
        );
        for (const x of r.runs) {
            const cpuCells = cpuKnown ? ` ${median(x.cpuSeconds ?? []).toFixed(1)} | ${(x.cpuSeconds ?? []).map((t) => t.toFixed(1)).join(", ")} |` : "";
            out.push(
                `| ${x.label} | ${x.median.toFixed(2)} | ${x.seconds.map((t) => t.toFixed(1)).join(", ")} | ${(x.median / none).toFixed(3)}x | ${(x.median / empty).toFixed(3)}x |${cpuCells}`,
            );
        }
        const paired = pairedRatios(r, "seconds");
        const pairedCpu = cpuKnown ? pairedRatios(r, "cpuSeconds") : [];
        const verdict = (x: number) => (x <= REAL_PREVIEW_TARGET ? "met" : "MISSED");
        // With the machine's load moving between runs, the ratio of the medians and the median of
        // each round's ratio can disagree; both are printed, each with its verdict.
        const byRound = paired.length > 1 ? median(paired) : undefined;
        out.push(
            "",
            `perfguard / empty pack: **${ratio.toFixed(3)}x**, target <= ${REAL_PREVIEW_TARGET.toFixed(2)}x: ${verdict(ratio)}` +
                ` (perfguard's share ${(ours - empty).toFixed(1)} s of ${ours.toFixed(1)} s)` +
                (byRound !== undefined ? `; the median of the rounds' ratios: ${byRound.toFixed(3)}x, ${verdict(byRound)}` : "") +
                `${pairedCpu.length > 0 ? `; by CPU time (the median of the rounds' ratios): ${median(pairedCpu).toFixed(3)}x, ${verdict(median(pairedCpu))}` : ""}.`,
            "",
        );
        const pack = packShare(r);
        if (pack) {
            const limit = REAL_PREVIEW_TARGET - 1;
            out.push(
                `perfguard's own work, from the pack processes' CPU (scripts/bench/packCpu.ts): perfguard's pack ${pack.perfguard.toFixed(2)} s, ` +
                    `the empty pack's ${pack.empty.toFixed(2)} s (medians); perfguard adds ${pack.extra.toFixed(2)} s, **${(100 * pack.share).toFixed(2)}%** of the ` +
                    `empty-pack preview's ${(r.runs.find((x) => x.label === "empty pack")?.median ?? NaN).toFixed(1)} s, target <= ${(100 * limit).toFixed(0)}%: ` +
                    `${pack.share <= limit ? "met" : "MISSED"} (pack CPU seconds against the preview's wall time, the measure the target was set in). This is the pack process's own work and hardly moves with the machine's load; ` +
                    "the CPU columns are the whole preview's (the CLI, its language host, the program, the providers and the pack).",
                "",
            );
            if (pack.noop) {
                out.push(
                    `The no-op pack of perfguard's shape adds ${pack.noop.extra.toFixed(2)} s over the empty pack, **${(100 * pack.noop.share).toFixed(2)}%**: ` +
                        "what @pulumi/policy 1.21 charges for that many policies before any of them does anything (its Analyze loop decodes a " +
                        "resource and builds its arguments for each resource policy, its AnalyzeStack decodes the stack and rebuilds every " +
                        "resource's arguments for each stack policy). Its resource policies apply to every type, where four of perfguard's " +
                        "apply to one and the SDK skips them for the others, and it decodes a resource once per policy, where perfguard decodes it once " +
                        "per call (policies/pack/decodeOnce.ts): it bounds the SDK's price for perfguard's policies from above, it is not that price. perfguard, checks " +
                        `included, adds ${pack.extra <= pack.noop.extra ? `${(pack.noop.extra - pack.extra).toFixed(2)} s less than it` : `${(pack.extra - pack.noop.extra).toFixed(2)} s more than it`}.`,
                    "",
                );
            }
        }
        if (paired.length > 1 || pairedCpu.length > 0) {
            out.push(
                `Round by round (perfguard / empty pack in the same round): wall ${paired.map((x) => `${x.toFixed(3)}x`).join(", ")}` +
                    `${pairedCpu.length > 0 ? `; CPU ${pairedCpu.map((x) => `${x.toFixed(3)}x`).join(", ")} (median ${median(pairedCpu).toFixed(3)}x)` : ""}. ` +
                    "Wall times on this shared machine move by tens of percent from one run to the next with the other developers' builds; " +
                    "CPU time moves less (it still shares caches and memory bandwidth), so where the two disagree the CPU ratio is nearer the pack's own share.",
                "",
            );
        }
    }
    return out.join("\n");
}
