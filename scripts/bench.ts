/**
 * `npm run bench`: perfguard's cost at any stack size, side by side with two floors on the same
 * SDK (an empty pack, and a pack with perfguard's numbers of no-op resource and stack policies),
 * all three started and driven as the CLI does (preview/packClient.ts). Measures start-up (spawn
 * to port line), Analyze latency per resource, AnalyzeStack at 1,000 / 10,000 / 50,000 resources
 * and the pack processes' peak RSS; runs are interleaved (perfguard, no-op, empty, perfguard, ...)
 * so machine noise falls on all three alike. Prints the figures and writes BENCHMARKS.md.
 *
 * Options: --quick (a short smoke run: fewer repeats, no 50,000 stack, no profile; writes
 * nothing), --no-profile (skip the CPU profile), --out <file> (default BENCHMARKS.md).
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
import { benchDiff, renderDiffBench } from "./bench/diff";
import { benchRealPreview, renderRealPreview } from "./bench/realPreview";
import { BenchResults, renderConsole, renderMarkdown, StackRun } from "./bench/report";
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
}

const ROOT = path.resolve(__dirname, "..", "..");

function planFrom(argv: readonly string[]): Plan {
    const quick = argv.includes("--quick");
    const outIndex = argv.indexOf("--out");
    const out = outIndex >= 0 ? path.resolve(argv[outIndex + 1] ?? "") : path.join(ROOT, "BENCHMARKS.md");
    if (quick) {
        return { starts: 3, analyzeCalls: 1000, stacks: [{ size: 1000, repeats: 3 }, { size: 10000, repeats: 2 }], profileSize: undefined, out: undefined };
    }
    return {
        starts: 15,
        analyzeCalls: 10000,
        // Fewer repeats where one call takes seconds: the whole run stays under ~10 minutes on 2 cores.
        stacks: [{ size: 1000, repeats: 15 }, { size: 10000, repeats: 11 }, { size: 50000, repeats: 3 }],
        profileSize: argv.includes("--no-profile") ? undefined : 50000,
        out,
    };
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
    const specs = packSpecs(ROOT);
    const engine = await startEngineService(() => undefined);
    log(`perfguard bench: ${counts.resource} resource + ${counts.stack} stack policies; ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}`);
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
                    for (const spec of specs) {
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

            const results: BenchResults = {
                machine, loadAtEnd: loadNow(), counts, startup, analyze, analyzeViolations, stacks, rss, profile,
                composition: stackComposition(benchStack(1000)), durationS: msSince(started) / 1000,
                quick: plan.out === undefined,
            };
            process.stdout.write(renderConsole(results));
            if (distFingerprint() !== fingerprint) {
                throw new Error("dist/ (the compiled pack) changed during the run (a build in this working tree?): the figures mix two versions; nothing written, re-run");
            }
            // What users feel: a real `pulumi preview` with perfguard, the empty pack and no pack.
            const real = await benchRealPreview(ROOT, 1000, plan.out === undefined ? 1 : 5, log);
            if (real) {
                process.stdout.write(`\n${renderRealPreview(real)}`);
            }
            // perfguard diff of two 10,000-resource exports (issue 20: under 10 s).
            const diff = benchDiff(ROOT, 10000, plan.out === undefined ? 1 : 3, log);
            process.stdout.write(`\n${renderDiffBench(diff)}`);
            if (plan.out) {
                fs.writeFileSync(plan.out, renderMarkdown(results) + (real ? `\n${renderRealPreview(real)}` : "") + `\n${renderDiffBench(diff)}`);
                log(`wrote ${path.relative(process.cwd(), plan.out) || plan.out}`);
            }
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
    parts.push(`index:${createHash("sha1").update(fs.readFileSync(path.join(ROOT, "dist", "index.js"))).digest("hex")}`);
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
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
});
