/**
 * Shared capacity's cost (issue 32, docs/shared-capacity.md): a fleet of `stacks` exports of
 * about 100 resources each (10 network stacks of 10 SE groups, the rest application stacks of 98
 * virtual services on one of those groups), then
 * - the digest build: `perfguard inventory <folder> -o digest.json`, spawn to exit;
 * - a preview's AnalyzeStack (team B's one VS on shared-web) in a fresh pack process, with
 *   PERFGUARD_INVENTORY naming the digest and without: the pack's added time and peak RSS
 *   (target: at most 200 ms and 100 MB added);
 * - `perfguard check <folder>` of the whole fleet, spawn to exit (each stack judged with the others).
 * Measured, never asserted.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { AnalyzeStackResourceInput } from "../../preview/packClient";
import { startEngineService } from "../../preview/engineService";
import { loadNow } from "./machine";
import { cpuOf } from "./packCpu";
import { packSpecs, peakRssMb, startConfigured } from "./packs";
import { median } from "./stats";

export interface InventoryBench {
    readonly date: string;
    readonly stacks: number;
    readonly resources: number;
    readonly digestSeconds: number;
    readonly digestMb: number;
    /** AnalyzeStack of the preview, first call of a fresh pack (ms), per round. */
    readonly withoutMs: number[];
    readonly withMs: number[];
    /** The pack's CPU in that AnalyzeStack (ms), per round. */
    readonly withoutCpuMs: number[];
    readonly withCpuMs: number[];
    /** The pack's CPU in the Analyze calls and the program's run before it (ms): the read-ahead. */
    readonly withoutAheadCpuMs: number[];
    readonly withAheadCpuMs: number[];
    /** Peak RSS of those pack processes (MB), per round. */
    readonly withoutRssMb: number[];
    readonly withRssMb: number[];
    /** The verdicts' first problem lines with the digest (what the preview was told). */
    readonly verdict: string;
    /** `perfguard check` of the fleet: seconds, or undefined when it did not finish within the limit. */
    readonly checkSeconds: number | undefined;
    readonly checkLimitSeconds: number;
    readonly checkExports: number;
    readonly load: string;
}

const UUID = "serviceenginegroup-3f1c2a9e-7b41-4d2e-9a55-0c8e6b7d1f20";
const HOST = "https://ctl.example.com";

function groupUuid(net: number, k: number): string {
    return net === 0 && k === 0 ? UUID : `serviceenginegroup-${String(net).padStart(4, "0")}${String(k).padStart(4, "0")}-0000-4000-8000-000000000000`;
}

/**
 * One state resource. Its id is unique in the fleet, as a deployed object's is (an Avi object's
 * uuid): an id shared by every application stack (`vs-0-id` in each) would join every stack to
 * every other one (touched.ts joins on a VS's id, for SNI parents), which no real fleet does.
 */
function stateResource(project: string, type: string, name: string, outputs: Record<string, unknown>): Record<string, unknown> {
    return { urn: `urn:pulumi:prod::${project}::${type}::${name}`, custom: true, type, id: `${project}-${name}-id`, inputs: outputs, outputs };
}

function exportOf(project: string, resources: Array<Record<string, unknown>>): string {
    const stack = { urn: `urn:pulumi:prod::${project}::pulumi:pulumi:Stack::${project}-prod`, custom: false, type: "pulumi:pulumi:Stack" };
    return JSON.stringify({ version: 3, deployment: { manifest: { time: new Date().toISOString() }, resources: [stack, ...resources] } });
}

const VS_TYPE = "avi:index/virtualservice:Virtualservice";
const GROUP_TYPE = "avi:index/serviceenginegroup:Serviceenginegroup";

/** Writes the fleet's exports into `dir`; returns the number of resources written. */
export function writeFleet(dir: string, stacks: number): number {
    let resources = 0;
    const networks = Math.min(10, stacks);
    for (let n = 0; n < networks; n++) {
        const project = `net-${String(n).padStart(2, "0")}`;
        const groups = Array.from({ length: 10 }, (_, k) =>
            stateResource(project, GROUP_TYPE, n === 0 && k === 0 ? "shared-web" : `grp-${n}-${k}`, {
                name: n === 0 && k === 0 ? "shared-web" : `grp-${n}-${k}`,
                uuid: groupUuid(n, k),
                url: `${HOST}/api/serviceenginegroup/${groupUuid(n, k)}`,
                // shared-web as the network team's (docs/shared-capacity.md): 4 vCPUs, packed placement.
                vcpusPerSe: "4",
                memoryPerSe: "8192",
                diskPerSe: "30",
                maxSe: "4",
                minScaleoutPerVs: "1",
                maxScaleoutPerVs: "2",
                bufferSe: "1",
                haMode: "HA_MODE_SHARED",
                algo: "PLACEMENT_ALGO_PACKED",
                dedicatedDispatcherCore: "true",
            }),
        );
        fs.writeFileSync(path.join(dir, `${project}.json`), exportOf(project, groups));
        resources += groups.length + 1;
    }
    for (let i = networks; i < stacks; i++) {
        const project = `app-${String(i).padStart(4, "0")}`;
        const g = i % (networks * 10);
        const ref = `${HOST}/api/serviceenginegroup/${groupUuid(Math.floor(g / 10), g % 10)}`;
        const vss = Array.from({ length: 98 }, (_, k) =>
            stateResource(project, VS_TYPE, `vs-${k}`, {
                name: `${project}-vs-${k}`,
                seGroupRef: ref,
                services: [{ port: "443", enableSsl: "true" }],
                markers: [
                    { key: "perfguard:sslTps", values: ["1"] },
                    { key: "perfguard:l7Rps", values: ["10"] },
                    { key: "perfguard:sslKeyType", values: ["ecc"] },
                ],
            }),
        );
        fs.writeFileSync(path.join(dir, `${project}.json`), exportOf(project, vss));
        resources += vss.length + 1;
    }
    return resources;
}

/** Team B's preview: one VS on shared-web (900 RSA TPS, 20,000 RPS). */
function teamB(): AnalyzeStackResourceInput[] {
    return [
        {
            urn: `urn:pulumi:prod::team-b::${VS_TYPE}::catalog-web`,
            type: VS_TYPE,
            name: "catalog-web",
            properties: {
                name: "catalog-web",
                seGroupRef: `${HOST}/api/serviceenginegroup/${UUID}`,
                services: [{ port: "443", enableSsl: "true" }],
                markers: [
                    { key: "perfguard:sslTps", values: ["900"] },
                    { key: "perfguard:l7Rps", values: ["20000"] },
                    { key: "perfguard:sslKeyType", values: ["rsa"] },
                ],
            },
        },
    ];
}

/**
 * The program's run between its resources' Analyze calls and AnalyzeStack, as a preview has it
 * (the rest of the program, the providers' Check and Diff): the pack's read-ahead runs in it.
 */
const PROGRAM_MS = 500;

interface OnePreview {
    /** AnalyzeStack's wall time and the pack's CPU in it (ms). */
    readonly ms: number;
    readonly cpuMs: number;
    /** The pack's CPU from the first Analyze call to AnalyzeStack (ms): the Analyze calls and the read-ahead. */
    readonly aheadCpuMs: number;
    readonly rss: number;
    readonly verdict: string;
}

/**
 * One fresh perfguard pack as a preview drives it: each resource's Analyze call (as the program
 * registers it), the program's run (PROGRAM_MS), then AnalyzeStack: its time, the pack's CPU,
 * peak RSS (MB) and first verdict line.
 */
async function onePreview(root: string, engine: string, env: Record<string, string>): Promise<OnePreview> {
    const pack = await startConfigured(packSpecs(root)[0], engine, env);
    const cpuMs = () => (cpuOf(String(pack.pid)) ?? Number.NaN) * 1000;
    try {
        const resources = teamB();
        const analyzeStarted = cpuMs();
        for (const r of resources) {
            await pack.analyze({ urn: r.urn, type: r.type, name: r.name, properties: r.properties });
        }
        await new Promise((resolve) => setTimeout(resolve, PROGRAM_MS));
        const aheadCpuMs = cpuMs() - analyzeStarted;
        const cpuStarted = cpuMs();
        const started = process.hrtime.bigint();
        const result = await pack.analyzeStack(resources);
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const cpu = cpuMs() - cpuStarted;
        const verdict = result.diagnostics
            .map((d) => `${d.policyName}: ${d.message.split("\n").find((l) => l.includes("%")) ?? d.message.split("\n")[0]}`)
            .sort()
            .join(" | ");
        return { ms, cpuMs: cpu, aheadCpuMs, rss: peakRssMb(pack.pid), verdict };
    } finally {
        await pack.close();
    }
}

export async function benchInventory(
    root: string,
    stacks: number,
    rounds: number,
    checkLimitSeconds: number,
    log: (line: string) => void,
): Promise<InventoryBench> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-bench-inventory-"));
    const exports = path.join(dir, "exports");
    fs.mkdirSync(exports);
    const cli = path.join(root, "dist", "cli", "main.js");
    try {
        const resources = writeFleet(exports, stacks);
        log(`inventory bench: ${stacks} exports, ${resources} resources written`);
        const digest = path.join(dir, "digest.json");
        let started = process.hrtime.bigint();
        const built = spawnSync(process.execPath, [cli, "inventory", exports, "-o", digest], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
        const digestSeconds = Number(process.hrtime.bigint() - started) / 1e9;
        if (built.status !== 0) {
            throw new Error(`perfguard inventory failed (exit ${built.status}): ${built.stderr.slice(-2000)}`);
        }
        log(`digest: ${digestSeconds.toFixed(2)} s, ${(fs.statSync(digest).size / 1e6).toFixed(1)} MB`);
        const engine = await startEngineService(() => undefined);
        const out = {
            withoutMs: [] as number[],
            withMs: [] as number[],
            withoutCpuMs: [] as number[],
            withCpuMs: [] as number[],
            withoutAheadCpuMs: [] as number[],
            withAheadCpuMs: [] as number[],
            withoutRssMb: [] as number[],
            withRssMb: [] as number[],
            verdict: "",
        };
        try {
            for (let i = 0; i < rounds; i++) {
                const without = await onePreview(root, engine.address, {});
                const withDigest = await onePreview(root, engine.address, { PERFGUARD_INVENTORY: digest, PERFGUARD_INVENTORY_MAX_AGE_HOURS: "100000" });
                out.withoutMs.push(without.ms);
                out.withoutRssMb.push(without.rss);
                out.withMs.push(withDigest.ms);
                out.withoutCpuMs.push(without.cpuMs);
                out.withCpuMs.push(withDigest.cpuMs);
                out.withoutAheadCpuMs.push(without.aheadCpuMs);
                out.withAheadCpuMs.push(withDigest.aheadCpuMs);
                out.withRssMb.push(withDigest.rss);
                out.verdict = withDigest.verdict;
                log(
                    `round ${i + 1}: AnalyzeStack ${without.ms.toFixed(0)} ms (CPU ${without.cpuMs.toFixed(0)}) without, ${withDigest.ms.toFixed(0)} ms (CPU ${withDigest.cpuMs.toFixed(0)}) with the digest; read-ahead CPU ${without.aheadCpuMs.toFixed(0)} / ${withDigest.aheadCpuMs.toFixed(0)} ms; peak RSS ${without.rss.toFixed(0)} / ${withDigest.rss.toFixed(0)} MB`,
                );
            }
        } finally {
            engine.close();
        }
        started = process.hrtime.bigint();
        const check = spawnSync(process.execPath, [cli, "check", exports], {
            encoding: "utf8",
            maxBuffer: 512 * 1024 * 1024,
            timeout: checkLimitSeconds * 1000,
            killSignal: "SIGKILL",
        });
        const checkSeconds = check.status === null ? undefined : Number(process.hrtime.bigint() - started) / 1e9;
        log(
            `check of ${stacks} exports: ${checkSeconds === undefined ? `not finished in ${checkLimitSeconds} s` : `${checkSeconds.toFixed(1)} s (exit ${check.status})`}`,
        );
        return {
            date: new Date().toISOString(),
            stacks,
            resources,
            digestSeconds,
            digestMb: fs.statSync(digest).size / 1e6,
            ...out,
            checkSeconds,
            checkLimitSeconds,
            checkExports: stacks,
            load: loadNow().toFixed(1),
        };
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

/** The BENCHMARKS.md section. */
export function renderInventoryBench(b: InventoryBench): string {
    const ms = (list: number[]) => `${median(list).toFixed(0)} (${Math.min(...list).toFixed(0)} to ${Math.max(...list).toFixed(0)})`;
    const added = median(b.withMs) - median(b.withoutMs);
    const addedRss = median(b.withRssMb) - median(b.withoutRssMb);
    return (
        "## Shared capacity: the inventory\n\n" +
        `A fleet of ${b.stacks.toLocaleString("en-US")} \`pulumi stack export\` files, ${b.resources.toLocaleString("en-US")} resources (10 network stacks of 10 SE groups; ` +
        "application stacks of 98 virtual services each, on one of those groups). Team B's preview (one VS on shared-web) in a fresh perfguard pack process: " +
        `its Analyze call, the program's run (${PROGRAM_MS} ms, in which the pack reads ahead the stacks the VS's join keys reach), then its first AnalyzeStack, ` +
        "with `PERFGUARD_INVENTORY` naming the digest and without (scripts/bench/inventory.ts). The pack's CPU is read from /proc, which other work on the machine hardly moves.\n\n" +
        "| measure | value | target |\n| --- | --- | --- |\n" +
        `| \`perfguard inventory\` of the fleet (spawn to exit) | ${b.digestSeconds.toFixed(2)} s, digest ${b.digestMb.toFixed(1)} MB | - |\n` +
        `| AnalyzeStack without an inventory, ms (median, min to max of ${b.withoutMs.length}) | ${ms(b.withoutMs)} | - |\n` +
        `| AnalyzeStack with the digest, ms | ${ms(b.withMs)} | - |\n` +
        `| the pack's added time at AnalyzeStack (difference of the medians) | ${added.toFixed(0)} ms | <= 200 ms: ${added <= 200 ? "met" : "not met"} |\n` +
        `| the pack's CPU in AnalyzeStack without / with, ms (medians) | ${median(b.withoutCpuMs).toFixed(0)} / ${median(b.withCpuMs).toFixed(0)} (+${(median(b.withCpuMs) - median(b.withoutCpuMs)).toFixed(0)}) | - |\n` +
        `| the pack's CPU in the Analyze call and the program's run without / with (the read-ahead), ms | ${median(b.withoutAheadCpuMs).toFixed(0)} / ${median(b.withAheadCpuMs).toFixed(0)} (+${(median(b.withAheadCpuMs) - median(b.withoutAheadCpuMs)).toFixed(0)}) | - |\n` +
        `| peak RSS of the pack without / with (MB, medians) | ${median(b.withoutRssMb).toFixed(0)} / ${median(b.withRssMb).toFixed(0)} (+${addedRss.toFixed(0)}) | <= 100 MB added: ${addedRss <= 100 ? "met" : "not met"} |\n` +
        `| \`perfguard check\` of the ${b.checkExports.toLocaleString("en-US")} exports (spawn to exit) | ${b.checkSeconds === undefined ? `not finished in ${b.checkLimitSeconds} s` : `${b.checkSeconds.toFixed(1)} s (${(b.checkSeconds / b.checkExports).toFixed(2)} s a stack)`} | - (measured) |\n\n` +
        `Verdict with the digest: ${b.verdict || "(none)"}.\n\nMeasured ${b.date}; load average at the end: ${b.load} (2 cores, shared).\n`
    );
}

// By hand: `node dist/scripts/bench/inventory.js [--stacks N] [--rounds N] [--check-limit S]` prints the section.
if (require.main === module) {
    const at = (flag: string) => process.argv.indexOf(flag);
    const value = (flag: string, fallback: number) => (at(flag) >= 0 ? Number(process.argv[at(flag) + 1]) : fallback);
    const root = path.resolve(__dirname, "..", "..", "..");
    benchInventory(root, value("--stacks", 1000), value("--rounds", 3), value("--check-limit", 1200), (line) => process.stderr.write(`${line}\n`))
        .then((b) => process.stdout.write(renderInventoryBench(b)))
        .catch((e: unknown) => {
            process.stderr.write(`${String(e)}\n`);
            process.exit(1);
        });
}
