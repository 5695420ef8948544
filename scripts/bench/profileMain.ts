/**
 * `node dist/scripts/bench/profileMain.js [--size 10000] [--heap] [--keep file.cpuprofile] [--pack perfguard|noop|empty]`:
 * one profiled AnalyzeStack on a fresh pack process (the bench's stack and config), printed as
 * JSON: self time by owner and function, perfguard's functions by inclusive time and, with
 * --heap, sampled allocations by owner and function. For finding where a change went; the bench
 * itself profiles after its timed runs.
 */
import * as path from "path";
import { prepareAnalyzeStack } from "../../preview/packClient";
import { startEngineService } from "../../preview/engineService";
import { NOOP_RESOURCE_ENV, NOOP_STACK_ENV, packSpecs, perfguardPolicyCounts } from "./packs";
import { profileAnalyzeStack } from "./profile";
import { benchStack } from "./stack";

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
        const request = prepareAnalyzeStack(benchStack(size));
        const keep = option(argv, "--keep");
        const summary = await profileAnalyzeStack(spec, engine.address, request, ROOT, { heap: argv.includes("--heap"), keep: keep ? path.resolve(keep) : undefined });
        process.stdout.write(`${JSON.stringify(summary, null, 1)}\n`);
    } finally {
        engine.close();
    }
}

main().catch((err: unknown) => {
    process.stderr.write(`profile failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
});
