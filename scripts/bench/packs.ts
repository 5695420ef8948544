/**
 * The three packs the benchmark drives identically (preview/packClient.ts, which starts a pack as
 * the CLI does): perfguard and its two floors on the same SDK. Peak RSS comes from Linux's
 * /proc/<pid>/status (VmHWM: the process's resident-set high-water mark).
 */
import * as fs from "fs";
import * as path from "path";
import { PackClient, startPack } from "../../preview/packClient";
import { parsePolicyConfig, reconcilePolicyConfig, PolicyConfigInput } from "../../preview/policyConfig";

export type PackId = "perfguard" | "noop" | "empty";

export interface PackSpec {
    readonly id: PackId;
    /** How the report names the pack. */
    readonly label: string;
    readonly dir: string;
    /** The --policy-pack-config the CLI would get ({} = none). */
    readonly config: PolicyConfigInput;
}

/** Env vars that give the no-op floor perfguard's policy counts (bench/floors/noop-pack/index.js). */
export const NOOP_RESOURCE_ENV = "PERFGUARD_BENCH_RESOURCE_POLICIES";
export const NOOP_STACK_ENV = "PERFGUARD_BENCH_STACK_POLICIES";

/** perfguard's policy counts, read from the compiled registry so the no-op floor always matches. */
export interface PolicyCounts {
    readonly resource: number;
    readonly stack: number;
}

/** Counts the resource policies (validateResource) and stack policies (validateStack) in dist/policies. */
export function perfguardPolicyCounts(root: string): PolicyCounts {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled registry, as the pack loads it
    const { policies } = require(path.join(root, "dist", "policies")) as { policies: Array<Record<string, unknown>> };
    return {
        resource: policies.filter((p) => typeof p.validateResource === "function" || Array.isArray(p.validateResource)).length,
        stack: policies.filter((p) => typeof p.validateStack === "function").length,
    };
}

/** The packs in run order: perfguard first, then the floors (runs are interleaved in this order). */
export function packSpecs(root: string): PackSpec[] {
    return [
        // A realistic config: Xen hosts get a link figure, so the share model runs on every host.
        { id: "perfguard", label: "perfguard", dir: root, config: { "xen-guest-network-share": { defaultLinkMBps: 111 } } },
        { id: "noop", label: "no-op pack", dir: path.join(root, "bench", "floors", "noop-pack"), config: {} },
        { id: "empty", label: "empty pack", dir: path.join(root, "bench", "floors", "empty-pack"), config: {} },
    ];
}

/**
 * Starts a pack and configures it in the CLI's order (Handshake, ConfigureStack,
 * GetAnalyzerInfo, Configure with a level for every policy and the config file's settings).
 * @param engineAddress - a shared engine service, so that only the pack's own start-up is timed.
 * @param env - extra env for the pack process only (e.g. NODE_OPTIONS for a CPU profile).
 */
export async function startConfigured(spec: PackSpec, engineAddress: string, env: Record<string, string> = {}): Promise<PackClient> {
    const pack = await startWithEnv(spec.dir, engineAddress, env);
    try {
        await pack.handshake();
        await pack.configureStack({ project: "perfguard-bench", stack: "bench", dryRun: true, config: {}, tags: {} });
        const info = await pack.getAnalyzerInfo();
        await pack.configure(reconcilePolicyConfig(info, parsePolicyConfig(spec.config)).config);
        return pack;
    } catch (err) {
        await pack.close();
        throw err;
    }
}

/**
 * startPack with extra env for this one child. startPack copies process.env when it spawns, which
 * it does before its first await when given an engine address; so the env is set just for that.
 */
export function startWithEnv(dir: string, engineAddress: string, env: Record<string, string>): Promise<PackClient> {
    const saved: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(env)) {
        saved[key] = process.env[key];
        process.env[key] = value;
    }
    try {
        return startPack(dir, { engineAddress, project: "perfguard-bench", stack: "bench", dryRun: true });
    } finally {
        for (const [key, value] of Object.entries(saved)) {
            if (value === undefined) {
                delete process.env[key];
            } else {
                process.env[key] = value;
            }
        }
    }
}

/**
 * The peak resident set of a live process, in MB (VmHWM of /proc/<pid>/status).
 * @returns NaN where /proc is not available (not Linux).
 */
export function peakRssMb(pid: number): number {
    try {
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
        return match ? Number(match[1]) / 1024 : NaN;
    } catch {
        return NaN;
    }
}
