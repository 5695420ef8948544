/**
 * Where a pack's AnalyzeStack time goes: one call on a pack process started as the CLI does,
 * sampled by the inspector's CPU profiler (cpuProfilePreload.ts), summarised by self time per
 * function and per owner (the SDK, protobuf, gRPC, garbage collection, perfguard's own code).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { PackClient, PreparedRequest } from "../../preview/packClient";
import { PackSpec, startConfigured } from "./packs";
import { msSince } from "./stats";

interface CallFrame {
    functionName: string;
    url: string;
    lineNumber: number;
}

interface CpuProfile {
    nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
    /** Start of sampling, in µs of the monotonic clock process.hrtime uses. */
    startTime: number;
    samples: number[];
    /** µs between consecutive samples (the first is from startTime). */
    timeDeltas: number[];
}

/** One line of the summary: a function or an owner, with its share of the call's samples. */
export interface ProfileEntry {
    readonly name: string;
    readonly owner: string;
    /** Share of the samples taken during the call, 0..1. */
    readonly share: number;
    /** Self time in ms (share x the call's duration). */
    readonly ms: number;
}

export interface ProfileSummary {
    /** The call's wall time in ms. */
    readonly callMs: number;
    /** Samples inside the call's window. */
    readonly samples: number;
    readonly byOwner: readonly ProfileEntry[];
    readonly topFunctions: readonly ProfileEntry[];
    /**
     * perfguard's functions by inclusive time (the samples with the function anywhere on the
     * stack): where a policy's own work goes, callees (SDK, GC excluded: GC has no stack) included.
     */
    readonly perfguardInclusive: readonly ProfileEntry[];
}

/** Where a pack's allocations go: the sampling heap profiler's bytes by function (self). */
export interface HeapSummary {
    /** Bytes sampled in the whole process lifetime (start-up, configure, the call). */
    readonly totalMb: number;
    readonly byOwner: ReadonlyArray<{ readonly name: string; readonly mb: number; readonly share: number }>;
    readonly topFunctions: ReadonlyArray<{ readonly name: string; readonly owner: string; readonly mb: number; readonly share: number }>;
}

interface HeapNode {
    callFrame: CallFrame;
    selfSize: number;
    children: HeapNode[];
}

/** Sums the sampled allocations per function and owner. */
export function summariseHeap(profile: { head: HeapNode }, root: string): HeapSummary {
    const perFunction = new Map<string, { owner: string; bytes: number }>();
    const perOwner = new Map<string, number>();
    let total = 0;
    const walk = (node: HeapNode): void => {
        if (node.selfSize > 0) {
            const owner = ownerOf(node.callFrame, root);
            const key = label(node.callFrame, root);
            const entry = perFunction.get(key) ?? { owner, bytes: 0 };
            entry.bytes += node.selfSize;
            perFunction.set(key, entry);
            perOwner.set(owner, (perOwner.get(owner) ?? 0) + node.selfSize);
            total += node.selfSize;
        }
        for (const child of node.children) {
            walk(child);
        }
    };
    walk(profile.head);
    const mb = (bytes: number): number => bytes / 1024 ** 2;
    return {
        totalMb: mb(total),
        byOwner: [...perOwner].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => ({ name, mb: mb(bytes), share: bytes / total })),
        topFunctions: [...perFunction]
            .sort((a, b) => b[1].bytes - a[1].bytes)
            .slice(0, 15)
            .map(([name, e]) => ({ name, owner: e.owner, mb: mb(e.bytes), share: e.bytes / total })),
    };
}

/** Who a function belongs to, from its script URL. */
function ownerOf(frame: CallFrame, root: string): string {
    const url = frame.url.replace(/^file:\/\//, "");
    if (frame.functionName === "(garbage collector)") {
        return "garbage collection";
    }
    if (frame.functionName === "(idle)" || frame.functionName === "(program)" || frame.functionName === "(root)") {
        return "idle / VM (waiting for the request bytes, compiling)";
    }
    if (url.includes("/node_modules/@pulumi/policy/")) {
        return "SDK @pulumi/policy (per-policy deserialize, proxies, resource objects)";
    }
    if (url.includes("/node_modules/google-protobuf/") || url.includes("/node_modules/@pulumi/pulumi/proto/")) {
        return "protobuf decode/encode (google-protobuf, generated stubs)";
    }
    if (url.includes("/node_modules/@grpc/")) {
        return "gRPC transport (@grpc/grpc-js)";
    }
    if (url.startsWith(path.join(root, "dist") + "/")) {
        return "perfguard (dist/policies, dist/model)";
    }
    if (url.startsWith("node:") || url === "") {
        return "Node.js internals and natives";
    }
    return "other";
}

function label(frame: CallFrame, root: string): string {
    const url = frame.url.replace(/^file:\/\//, "");
    const short = url.includes("/node_modules/")
        ? url.slice(url.lastIndexOf("/node_modules/") + "/node_modules/".length)
        : url.startsWith(root + "/")
          ? url.slice(root.length + 1)
          : url;
    return `${frame.functionName || "(anonymous)"}${short ? ` ${short}:${frame.lineNumber + 1}` : ""}`;
}

/**
 * Summarises the samples taken in [fromUs, toUs] (monotonic µs).
 * @param callMs - the call's wall time in ms, to turn shares into ms.
 */
export function summariseProfile(profile: CpuProfile, fromUs: number, toUs: number, callMs: number, root: string): ProfileSummary {
    const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    const parents = new Map<number, number>();
    for (const n of profile.nodes) {
        for (const child of n.children ?? []) {
            parents.set(child, n.id);
        }
    }
    const ownCode = "perfguard (dist/policies, dist/model)";
    const inclusive = new Map<string, number>();
    const perFunction = new Map<string, { owner: string; count: number }>();
    const perOwner = new Map<string, number>();
    let t = profile.startTime;
    let total = 0;
    for (let i = 0; i < profile.samples.length; i++) {
        t += profile.timeDeltas[i] ?? 0;
        if (t < fromUs || t > toUs) {
            continue;
        }
        const frame = frames.get(profile.samples[i]);
        if (!frame) {
            continue;
        }
        total += 1;
        const owner = ownerOf(frame, root);
        const key = label(frame, root);
        const entry = perFunction.get(key) ?? { owner, count: 0 };
        entry.count += 1;
        perFunction.set(key, entry);
        perOwner.set(owner, (perOwner.get(owner) ?? 0) + 1);
        const seen = new Set<string>();
        for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parents.get(id)) {
            const f = frames.get(id);
            if (f && ownerOf(f, root) === ownCode) {
                seen.add(label(f, root));
            }
        }
        for (const name of seen) {
            inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
        }
    }
    const toEntry = (name: string, owner: string, count: number): ProfileEntry => ({
        name,
        owner,
        share: total > 0 ? count / total : 0,
        ms: total > 0 ? (count / total) * callMs : 0,
    });
    return {
        callMs,
        samples: total,
        byOwner: [...perOwner].sort((a, b) => b[1] - a[1]).map(([owner, count]) => toEntry(owner, owner, count)),
        topFunctions: [...perFunction]
            .sort((a, b) => b[1].count - a[1].count)
            .slice(0, 15)
            .map(([name, e]) => toEntry(name, e.owner, e.count)),
        perfguardInclusive: [...inclusive]
            .sort((a, b) => b[1] - a[1])
            .slice(0, 25)
            .map(([name, count]) => toEntry(name, ownCode, count)),
    };
}

async function waitForFile(file: string, timeoutMs: number): Promise<CpuProfile> {
    const start = process.hrtime.bigint();
    for (;;) {
        try {
            return JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
        } catch {
            if (msSince(start) > timeoutMs) {
                throw new Error(`no CPU profile at ${file} after ${timeoutMs / 1000} s`);
            }
            await new Promise((resolve) => setTimeout(resolve, 200));
        }
    }
}

export interface ProfileOptions {
    /** Also sample allocations (the heap profiler). */
    readonly heap?: boolean;
    /** Copy the raw .cpuprofile here (for DevTools). */
    readonly keep?: string;
}

/**
 * Profiles one AnalyzeStack call of `request` on a fresh, configured pack process.
 * @returns the summary of the samples taken during the call.
 */
export async function profileAnalyzeStack(spec: PackSpec, engineAddress: string, request: PreparedRequest, root: string): Promise<ProfileSummary>;
export async function profileAnalyzeStack(
    spec: PackSpec,
    engineAddress: string,
    request: PreparedRequest,
    root: string,
    options: ProfileOptions,
): Promise<ProfileSummary & { heap?: HeapSummary }>;
export async function profileAnalyzeStack(
    spec: PackSpec,
    engineAddress: string,
    request: PreparedRequest,
    root: string,
    options: ProfileOptions = {},
): Promise<ProfileSummary & { heap?: HeapSummary }> {
    return profileCalls(
        spec,
        engineAddress,
        async (pack) => {
            await pack.analyzeStackPrepared(request);
        },
        root,
        options,
    );
}

/**
 * Profiles what `calls` sends to a fresh, configured pack process (e.g. one Analyze per resource).
 * @returns the summary of the samples taken while `calls` ran.
 */
export async function profileCalls(
    spec: PackSpec,
    engineAddress: string,
    calls: (pack: PackClient) => Promise<void>,
    root: string,
    options: ProfileOptions = {},
): Promise<ProfileSummary & { heap?: HeapSummary }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-bench-prof-"));
    const file = path.join(dir, "pack.cpuprofile");
    const heapFile = path.join(dir, "pack.heapprofile");
    const preload = path.join(__dirname, "cpuProfilePreload.js");
    const nodeOptions = `${process.env.NODE_OPTIONS ?? ""} --require ${JSON.stringify(preload)}`.trim();
    const env: Record<string, string> = { NODE_OPTIONS: nodeOptions, PERFGUARD_BENCH_CPU_PROFILE: file };
    if (options.heap) {
        env.PERFGUARD_BENCH_HEAP_PROFILE = heapFile;
    }
    const pack = await startConfigured(spec, engineAddress, env);
    try {
        const fromUs = Number(process.hrtime.bigint() / 1000n);
        const start = process.hrtime.bigint();
        await calls(pack);
        const callMs = msSince(start);
        const toUs = Number(process.hrtime.bigint() / 1000n);
        process.kill(pack.pid, "SIGTERM");
        const profile = await waitForFile(file, 60_000);
        if (options.keep) {
            fs.copyFileSync(file, options.keep);
        }
        const summary = summariseProfile(profile, fromUs, toUs, callMs, root);
        if (!options.heap) {
            return summary;
        }
        const heap = (await waitForFile(heapFile, 60_000)) as unknown as { head: HeapNode };
        if (options.keep) {
            fs.copyFileSync(heapFile, options.keep.replace(/\.cpuprofile$/, "") + ".heapprofile");
        }
        return { ...summary, heap: summariseHeap(heap, root) };
    } finally {
        await pack.close();
        fs.rmSync(dir, { recursive: true, force: true });
    }
}
