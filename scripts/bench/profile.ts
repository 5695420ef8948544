/**
 * Where a pack's AnalyzeStack time goes: one call on a pack process started as the CLI does,
 * sampled by the inspector's CPU profiler (cpuProfilePreload.ts), summarised by self time per
 * function and per owner (the SDK, protobuf, gRPC, garbage collection, perfguard's own code).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { PreparedRequest } from "../../preview/packClient";
import { PackSpec, startConfigured } from "./packs";
import { msSince } from "./stats";

interface CallFrame {
    functionName: string;
    url: string;
    lineNumber: number;
}

interface CpuProfile {
    nodes: Array<{ id: number; callFrame: CallFrame }>;
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
    const short = url.includes("/node_modules/") ? url.slice(url.lastIndexOf("/node_modules/") + "/node_modules/".length)
        : url.startsWith(root + "/") ? url.slice(root.length + 1) : url;
    return `${frame.functionName || "(anonymous)"}${short ? ` ${short}:${frame.lineNumber + 1}` : ""}`;
}

/**
 * Summarises the samples taken in [fromUs, toUs] (monotonic µs).
 * @param callMs - the call's wall time in ms, to turn shares into ms.
 */
export function summariseProfile(profile: CpuProfile, fromUs: number, toUs: number, callMs: number, root: string): ProfileSummary {
    const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
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
    }
    const toEntry = (name: string, owner: string, count: number): ProfileEntry =>
        ({ name, owner, share: total > 0 ? count / total : 0, ms: total > 0 ? (count / total) * callMs : 0 });
    return {
        callMs,
        samples: total,
        byOwner: [...perOwner].sort((a, b) => b[1] - a[1]).map(([owner, count]) => toEntry(owner, owner, count)),
        topFunctions: [...perFunction].sort((a, b) => b[1].count - a[1].count).slice(0, 15).map(([name, e]) => toEntry(name, e.owner, e.count)),
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

/**
 * Profiles one AnalyzeStack call of `request` on a fresh, configured pack process.
 * @returns the summary of the samples taken during the call.
 */
export async function profileAnalyzeStack(spec: PackSpec, engineAddress: string, request: PreparedRequest, root: string): Promise<ProfileSummary> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-bench-prof-"));
    const file = path.join(dir, "pack.cpuprofile");
    const preload = path.join(__dirname, "cpuProfilePreload.js");
    const nodeOptions = `${process.env.NODE_OPTIONS ?? ""} --require ${JSON.stringify(preload)}`.trim();
    const pack = await startConfigured(spec, engineAddress, { NODE_OPTIONS: nodeOptions, PERFGUARD_BENCH_CPU_PROFILE: file });
    try {
        const fromUs = Number(process.hrtime.bigint() / 1000n);
        const start = process.hrtime.bigint();
        await pack.analyzeStackPrepared(request);
        const callMs = msSince(start);
        const toUs = Number(process.hrtime.bigint() / 1000n);
        process.kill(pack.pid, "SIGTERM");
        const profile = await waitForFile(file, 60_000);
        return summariseProfile(profile, fromUs, toUs, callMs, root);
    } finally {
        await pack.close();
        fs.rmSync(dir, { recursive: true, force: true });
    }
}
