/**
 * `npm run bench`: perfguard's cost at any stack size, side by side with two floors on the same
 * SDK (an empty pack, and a pack with perfguard's numbers of no-op resource and stack policies),
 * all three started and driven as the CLI does (preview/packClient.ts). Measures start-up (spawn
 * to port line), Analyze latency per resource, AnalyzeStack at 1,000 / 10,000 / 50,000 resources
 * and the pack processes' peak RSS; runs are interleaved (perfguard, no-op, empty, perfguard, ...)
 * so machine noise falls on all three alike. Prints the figures and writes BENCHMARKS.md.
 *
 * Options: --quick (a short smoke run: fewer repeats, no 50,000 stack, no profile; writes
 * nothing), --no-profile (skip the CPU profile), --out <file> (default BENCHMARKS.md),
 * --no-synthetic / --no-real (skip a part and keep its last saved results), --real-sizes
 * 1000,10000 and --real-rounds 5,1 (the real previews' program sizes and interleaved rounds),
 * --real-parallel (the configurations of a round side by side instead of one after another),
 * --real-checkpoints (keep the CLI's per-step snapshot serialisation: realPreview.ts SKIP_CHECKPOINTS),
 * --no-diff (skip the perfguard diff row and keep its last saved result), --no-inventory (the same
 * for the shared-capacity rows: scripts/bench/inventory.ts).
 * Each part's results are saved under bench/results/ (JSON, with the date and load), and
 * BENCHMARKS.md is rendered from the saved parts, so a slow part can be re-run on its own.
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import type { AnalyzeResult, PackClient, PreparedRequest } from "../preview/packClient";
import { prepareAnalyze, prepareAnalyzeStack } from "../preview/packClient";
import { startEngineService } from "../preview/engineService";
import { loadNow, machineInfo } from "./bench/machine";
import { NOOP_RESOURCE_ENV, NOOP_STACK_ENV, PackId, packSpecs, peakRssMb, perfguardPolicyCounts, startConfigured, startWithEnv } from "./bench/packs";
import { profileAnalyzeStack } from "./bench/profile";
import { benchDiff, DiffBench, renderDiffBench } from "./bench/diff";
import { benchInventory, InventoryBench, renderInventoryBench } from "./bench/inventory";
import { benchRealPreview, RealPreviewResults, renderRealPreview } from "./bench/realPreview";
import { BenchResults, renderConsole, renderMarkdown, renderPending, StackRun } from "./bench/report";
import type { ProfileSummary } from "./bench/profile";
import { analyzeInputs, benchStack, stackComposition } from "./bench/stack";
import { msSince } from "./bench/stats";

interface Plan {
    /** Start-ups per pack. */
    starts: number;
    /** Analyze calls per pack (one per resource of a stack of this size). */
    analyzeCalls: number;
    /** Stack sizes and the repeats of each. */
    stacks: Array<{ size: number; repeats: number }>;
    profileSize: number | undefined;
    out: string | undefined;
    synthetic: boolean;
    /** Real previews: program size and interleaved rounds. */
    real: Array<{ size: number; rounds: number }>;
}

const ROOT = path.resolve(__dirname, "..", "..");

const RESULTS = path.join(ROOT, "bench", "results");
const SYNTHETIC_FILE = path.join(RESULTS, "synthetic.json");
const DIFF_FILE = path.join(RESULTS, "diff.json");
const INVENTORY_FILE = path.join(RESULTS, "inventory.json");
/** One file per program size, so that sizes can be measured by separate runs. */
const realFile = (size: number): string => path.join(RESULTS, `real-preview-${size}.json`);
/** The profile of the code before issue 23's fixes (scripts/bench/profileMain.ts on that build), for the before/after table. */
const PROFILE_BEFORE_FILE = path.join(RESULTS, "profile-before.json");
/** The same profile of this branch's code (profileMain, same size and method), for the same table. */
const PROFILE_AFTER_FILE = path.join(RESULTS, "profile-after.json");

function option(argv: readonly string[], name: string): string | undefined {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
}

function numbers(argv: readonly string[], name: string, fallback: number[]): number[] {
    const i = argv.indexOf(name);
    return i >= 0
        ? (argv[i + 1] ?? "")
              .split(",")
              .map(Number)
              .filter((n) => Number.isFinite(n) && n > 0)
        : fallback;
}

function planFrom(argv: readonly string[]): Plan {
    const quick = argv.includes("--quick");
    const outIndex = argv.indexOf("--out");
    const out = outIndex >= 0 ? path.resolve(argv[outIndex + 1] ?? "") : path.join(ROOT, "BENCHMARKS.md");
    const sizes = numbers(argv, "--real-sizes", quick ? [1000] : [1000, 10000]);
    // The 10,000-resource preview takes minutes per run: few rounds there.
    const rounds = numbers(argv, "--real-rounds", quick ? [1] : [5, 1]);
    const real = argv.includes("--no-real") ? [] : sizes.map((size, i) => ({ size, rounds: rounds[i] ?? rounds[rounds.length - 1] ?? 1 }));
    const synthetic = !argv.includes("--no-synthetic");
    if (quick) {
        return {
            starts: 3,
            analyzeCalls: 1000,
            stacks: [
                { size: 1000, repeats: 3 },
                { size: 10000, repeats: 2 },
            ],
            profileSize: undefined,
            out: undefined,
            synthetic,
            real,
        };
    }
    return {
        starts: 15,
        analyzeCalls: 10000,
        // Fewer repeats where one call takes seconds (9 stack policies each decode the stack in the SDK).
        stacks: [
            { size: 1000, repeats: 15 },
            { size: 10000, repeats: 7 },
            { size: 50000, repeats: 3 },
        ],
        profileSize: argv.includes("--no-profile") ? undefined : 50000,
        out,
        synthetic,
        real,
    };
}

function readJson<T>(file: string): T | undefined {
    try {
        return JSON.parse(fs.readFileSync(file, "utf8")) as T;
    } catch {
        return undefined;
    }
}

/** The saved real previews, one per size (the newest where an older single file also has one). */
function savedRealPreviews(): RealPreviewResults[] {
    const bySize = new Map<number, RealPreviewResults>();
    const consider = (r: RealPreviewResults): void => {
        const known = bySize.get(r.resources);
        if (!known || known.date < r.date) {
            bySize.set(r.resources, r);
        }
    };
    (readJson<RealPreviewResults[]>(path.join(RESULTS, "real-preview.json")) ?? []).forEach(consider);
    for (const name of fs.existsSync(RESULTS) ? fs.readdirSync(RESULTS) : []) {
        const match = /^real-preview-(\d+)\.json$/.exec(name);
        const r = match ? readJson<RealPreviewResults>(path.join(RESULTS, name)) : undefined;
        if (r) {
            consider(r);
        }
    }
    return [...bySize.values()].sort((a, b) => a.resources - b.resources);
}

function writeJson(file: string, value: unknown): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(value, null, 1)}\n`);
}

function log(line: string): void {
    process.stderr.write(`${line}\n`);
}

function byPack<T>(make: () => T): Record<PackId, T> {
    return { perfguard: make(), noop: make(), empty: make() };
}

async function main(): Promise<void> {
    const plan = planFrom(process.argv.slice(2));
    const started = process.hrtime.bigint();
    const machine = machineInfo();
    const fingerprint = distFingerprint();
    const counts = perfguardPolicyCounts(ROOT);
    // The no-op floor reads its policy counts from these (inherited by every pack; only it reads them).
    process.env[NOOP_RESOURCE_ENV] = String(counts.resource);
    process.env[NOOP_STACK_ENV] = String(counts.stack);
    log(`perfguard bench: ${counts.resource} resource + ${counts.stack} stack policies; ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}`);
    let synthetic: BenchResults | undefined;
    if (plan.synthetic) {
        synthetic = await runSynthetic(plan, machine, counts, started);
        process.stdout.write(renderConsole(synthetic));
        if (distFingerprint() !== fingerprint) {
            throw new Error(
                "dist/ (the compiled pack) changed during the run (a build in this working tree?): the figures mix two versions; nothing written, re-run",
            );
        }
        if (plan.out) {
            writeJson(SYNTHETIC_FILE, synthetic);
        }
    }
    // What users feel: a real `pulumi preview` with perfguard, the empty pack and no pack.
    for (const { size, rounds } of plan.real) {
        const real = await benchRealPreview(ROOT, size, rounds, log, process.argv.includes("--real-parallel"), process.argv.includes("--real-checkpoints"));
        if (!real) {
            break;
        }
        process.stdout.write(`\n${renderRealPreview([real])}`);
        if (distFingerprint() !== fingerprint) {
            throw new Error("dist/ changed during the real preview: not saved, re-run");
        }
        if (plan.out) {
            writeJson(realFile(size), real);
        }
    }
    // perfguard diff of two 10,000-resource exports (issue 20: under 10 s); --no-diff keeps the saved figure.
    if (!process.argv.includes("--no-diff")) {
        const diff = benchDiff(ROOT, 10000, plan.out === undefined ? 1 : 3, log);
        process.stdout.write(`\n${renderDiffBench(diff)}`);
        if (plan.out) {
            writeJson(DIFF_FILE, diff);
        }
    }
    // Shared capacity (issue 32): a 1,000-stack digest; --no-inventory keeps the saved figures.
    if (!process.argv.includes("--no-inventory")) {
        const inventory = await benchInventory(ROOT, 1000, plan.out === undefined ? 1 : 3, 1200, log);
        process.stdout.write(`\n${renderInventoryBench(inventory)}`);
        if (plan.out) {
            writeJson(INVENTORY_FILE, inventory);
        }
    }
    const savedDiff = readJson<DiffBench>(DIFF_FILE);
    const savedInventory = readJson<InventoryBench>(INVENTORY_FILE);
    const diffText = (savedDiff ? `\n${renderDiffBench(savedDiff)}` : "") + (savedInventory ? `\n${renderInventoryBench(savedInventory)}` : "");
    const saved = savedRealPreviews();
    if (plan.out) {
        const results = synthetic ?? readJson<BenchResults>(SYNTHETIC_FILE);
        const before = readJson<{ size: number; summary: ProfileSummary }>(PROFILE_BEFORE_FILE);
        const after = readJson<{ size: number; summary: ProfileSummary }>(PROFILE_AFTER_FILE);
        const real = saved.length > 0 ? `\n${renderRealPreview(saved)}` : "";
        if (!results) {
            // --pending-note "<why>": the synthetic run did not finish; render what was measured.
            const note = option(process.argv, "--pending-note");
            if (!note) {
                throw new Error(`no synthetic results (${path.relative(ROOT, SYNTHETIC_FILE)}): run without --no-synthetic first`);
            }
            const profiles = [
                ...(before ? [{ title: "before (main before issue 23's changes, scripts/bench/profileMain.ts)", profile: before }] : []),
                ...(after ? [{ title: "after (this branch, scripts/bench/profileMain.ts)", profile: after }] : []),
            ];
            fs.writeFileSync(plan.out, renderPending(note, profiles) + real + diffText);
            log(`wrote ${path.relative(process.cwd(), plan.out) || plan.out} (pending synthetic rows)`);
            return;
        }
        fs.writeFileSync(plan.out, renderMarkdown(results, before, after) + real + diffText);
        log(`wrote ${path.relative(process.cwd(), plan.out) || plan.out}`);
    }
}

async function runSynthetic(
    plan: Plan,
    machine: ReturnType<typeof machineInfo>,
    counts: ReturnType<typeof perfguardPolicyCounts>,
    started: bigint,
): Promise<BenchResults> {
    const specs = packSpecs(ROOT);
    const engine = await startEngineService(() => undefined);
    try {
        // Start-up: spawn to port line, fresh process each time, interleaved.
        const startup = byPack<number[]>(() => []);
        for (let i = 0; i < plan.starts; i++) {
            for (const spec of specs) {
                const t = process.hrtime.bigint();
                const pack = await startWithEnv(spec.dir, engine.address, {});
                startup[spec.id].push(msSince(t));
                await pack.close();
            }
        }
        log(`start-up: ${plan.starts} starts per pack done`);

        // One long-lived, configured process per pack for Analyze and AnalyzeStack (its peak RSS is reported).
        const packs = new Map<PackId, PackClient>();
        try {
            for (const spec of specs) {
                packs.set(spec.id, await startConfigured(spec, engine.address));
            }
            const analyzeStackOf = benchStack(plan.analyzeCalls);
            const requests = analyzeInputs(analyzeStackOf).map(prepareAnalyze);
            const analyze = byPack<number[]>(() => []);
            let analyzeViolations = 0;
            for (const request of requests) {
                for (const spec of specs) {
                    const t = process.hrtime.bigint();
                    const result = await (packs.get(spec.id) as PackClient).analyzePrepared(request);
                    analyze[spec.id].push(msSince(t));
                    if (spec.id === "perfguard") {
                        analyzeViolations += result.diagnostics.length;
                    }
                }
            }
            log(`Analyze: ${requests.length} calls per pack done`);

            const stacks: StackRun[] = [];
            for (const { size, repeats } of plan.stacks) {
                const request = prepareAnalyzeStack(benchStack(size));
                const times = byPack<number[]>(() => []);
                let result: AnalyzeResult | undefined;
                for (let rep = 0; rep < repeats; rep++) {
                    // Rotate who goes first, so no pack always follows the same one (GC, caches, other work).
                    for (let k = 0; k < specs.length; k++) {
                        const spec = specs[(k + rep) % specs.length];
                        const t = process.hrtime.bigint();
                        const r = await (packs.get(spec.id) as PackClient).analyzeStackPrepared(request);
                        times[spec.id].push(msSince(t));
                        if (spec.id === "perfguard") {
                            result = r;
                        }
                    }
                }
                stacks.push({ size, repeats, requestMb: request.bytes.length / 1024 ** 2, times, violations: violationsByPolicy(result) });
                log(`AnalyzeStack: ${size} resources x ${repeats} done`);
            }
            const rss = byPack<number>(() => NaN);
            for (const spec of specs) {
                rss[spec.id] = peakRssMb((packs.get(spec.id) as PackClient).pid);
            }
            await closeAll(packs);

            let profile: BenchResults["profile"];
            if (plan.profileSize !== undefined) {
                const request: PreparedRequest = prepareAnalyzeStack(benchStack(plan.profileSize));
                profile = { size: plan.profileSize, summary: await profileAnalyzeStack(specs[0], engine.address, request, ROOT) };
                log(`profile: AnalyzeStack of ${plan.profileSize} on perfguard done`);
            }

            return {
                machine,
                loadAtEnd: loadNow(),
                counts,
                startup,
                analyze,
                analyzeViolations,
                stacks,
                rss,
                profile,
                composition: stackComposition(benchStack(1000)),
                durationS: msSince(started) / 1000,
                quick: plan.out === undefined,
            };
        } finally {
            await closeAll(packs);
        }
    } finally {
        engine.close();
    }
}

/**
 * Fingerprint of the compiled pack (file contents under dist/policies, dist/model): the working tree is shared,
 * and a rebuild during the run would make perfguard and the no-op floor's counts disagree.
 */
function distFingerprint(): string {
    const parts: string[] = [];
    const walk = (dir: string): void => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) {
                walk(full);
            } else if (entry.name.endsWith(".js") || entry.name.endsWith(".json")) {
                // Content, not mtime: `npm test` rebuilds dist/ with the same output, which is harmless.
                parts.push(`${full}:${createHash("sha1").update(fs.readFileSync(full)).digest("hex")}`);
            }
        }
    };
    walk(path.join(ROOT, "dist", "policies"));
    walk(path.join(ROOT, "dist", "model"));
    parts.push(
        `index:${createHash("sha1")
            .update(fs.readFileSync(path.join(ROOT, "dist", "index.js")))
            .digest("hex")}`,
    );
    return parts.join("\n");
}

function violationsByPolicy(result: AnalyzeResult | undefined): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const d of result?.diagnostics ?? []) {
        counts[d.policyName] = (counts[d.policyName] ?? 0) + 1;
    }
    return counts;
}

async function closeAll(packs: Map<PackId, PackClient>): Promise<void> {
    for (const pack of packs.values()) {
        await pack.close();
    }
    packs.clear();
}

main().catch((err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
});
