/**
 * `node dist/scripts/bench/profileMain.js [--size 10000] [--analyze] [--heap] [--keep file.cpuprofile] [--pack perfguard|noop|empty]`:
 * one profiled AnalyzeStack (with --analyze: one Analyze per resource) on a fresh pack process (the bench's stack and config), printed as
 * JSON: self time by owner and function, perfguard's functions by inclusive time and, with
 * --heap, sampled allocations by owner and function. For finding where a change went; the bench
 * itself profiles after its timed runs.
 */
import * as path from "path";
import { prepareAnalyze, prepareAnalyzeStack } from "../../preview/packClient";
import { startEngineService } from "../../preview/engineService";
import { NOOP_RESOURCE_ENV, NOOP_STACK_ENV, packSpecs, perfguardPolicyCounts } from "./packs";
import { profileAnalyzeStack, profileCalls } from "./profile";
import { analyzeInputs, benchStack } from "./stack";

const ROOT = path.resolve(__dirname, "..", "..", "..");

function option(argv: readonly string[], name: string): string | undefined {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
}

async function main(): Promise<void> {
    const argv = process.argv.slice(2);
    const size = Number(option(argv, "--size") ?? "10000");
    const packId = option(argv, "--pack") ?? "perfguard";
    const counts = perfguardPolicyCounts(ROOT);
    process.env[NOOP_RESOURCE_ENV] = String(counts.resource);
    process.env[NOOP_STACK_ENV] = String(counts.stack);
    const spec = packSpecs(ROOT).find((s) => s.id === packId);
    if (!spec) {
        throw new Error(`no pack ${packId}`);
    }
    const engine = await startEngineService(() => undefined);
    try {
        const keep = option(argv, "--keep");
        const options = { heap: argv.includes("--heap"), keep: keep ? path.resolve(keep) : undefined };
        // --analyze: one Analyze per resource of the stack (the resource policies), instead of one AnalyzeStack.
        const summary = argv.includes("--analyze")
            ? await profileCalls(
                  spec,
                  engine.address,
                  async (pack) => {
                      for (const request of analyzeInputs(benchStack(size)).map(prepareAnalyze)) {
                          await pack.analyzePrepared(request);
                      }
                  },
                  ROOT,
                  options,
              )
            : await profileAnalyzeStack(spec, engine.address, prepareAnalyzeStack(benchStack(size)), ROOT, options);
        process.stdout.write(`${JSON.stringify(summary, null, 1)}\n`);
    } finally {
        engine.close();
    }
}

main().catch((err: unknown) => {
    process.stderr.write(`profile failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
});
