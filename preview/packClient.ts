/**
 * Starts a Node.js policy pack the way the Pulumi CLI does and talks pulumirpc.Analyzer to it
 * through the SDK's generated stubs. Properties go in and come out as plain JS objects
 * (packWire.ts encodes and decodes them).
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import * as analyzerrpc from "@pulumi/pulumi/proto/analyzer_grpc_pb";
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { startEngineService, EngineService } from "./engineService";
import { PreviewError, SETUP_ERROR_EXIT } from "./errors";
import {
    AnalyzeResourceInput,
    AnalyzeResult,
    AnalyzerInfo,
    AnalyzeStackResourceInput,
    convertAnalyzerInfo,
    convertDiagnostics,
    convertRemediations,
    makeAnalyzeRequest,
    makeAnalyzeStackRequest,
    makeConfigureRequest,
    makeStackConfigureRequest,
    NotApplicable,
    PolicyConfigEntry,
    PreparedRequest,
    RemediationResult,
    StackSettings,
} from "./packWire";

// The wire types and encoders, for the callers of startPack.
export { prepareAnalyze, prepareAnalyzeStack, prepareAnalyzeStackShared } from "./packWire";
export type {
    AnalyzeResourceInput,
    AnalyzeResult,
    AnalyzerInfo,
    AnalyzeStackResourceInput,
    NotApplicable,
    PolicyConfigEntry,
    PolicyConfigSchema,
    PolicyInfo,
    PreparedRequest,
    RemediationResult,
    StackSettings,
} from "./packWire";

export interface PackClient {
    /** The port the pack printed. */
    readonly port: number;
    /** The pack process's id (e.g. to read its peak RSS from /proc/<pid>/status). */
    readonly pid: number;
    /** Address of the engine service the pack was given. */
    readonly engineAddress: string;
    /** Sends Handshake; resolves false when the pack answers UNIMPLEMENTED (SDK 1.21 does). */
    handshake(): Promise<boolean>;
    /** Sends ConfigureStack; resolves false when UNIMPLEMENTED. */
    configureStack(settings: StackSettings): Promise<boolean>;
    getAnalyzerInfo(): Promise<AnalyzerInfo>;
    /** Sends Configure; every entry must carry an enforcement level (the proto default is ADVISORY). */
    configure(config: Record<string, PolicyConfigEntry>): Promise<void>;
    analyze(resource: AnalyzeResourceInput): Promise<AnalyzeResult>;
    analyzeStack(resources: AnalyzeStackResourceInput[]): Promise<AnalyzeResult>;
    /** Analyze with a request from prepareAnalyze. */
    analyzePrepared(request: PreparedRequest): Promise<AnalyzeResult>;
    /** AnalyzeStack with a request from prepareAnalyzeStack. */
    analyzeStackPrepared(request: PreparedRequest): Promise<AnalyzeResult>;
    remediate(resource: AnalyzeResourceInput): Promise<{ remediations: RemediationResult[]; notApplicable: NotApplicable[] }>;
    /** What the pack wrote to stderr (and to stdout after the port line), last 8000 chars. */
    output(): string;
    /** Closes the channel, kills the pack, stops an engine service startPack started. Idempotent. */
    close(): Promise<void>;
}

export interface StartPackOptions {
    project?: string;
    stack?: string;
    dryRun?: boolean;
    /** Stack config for PULUMI_CONFIG; default {}. */
    config?: Record<string, string>;
    /** Engine address to give the pack; default: an engine service startPack runs itself. */
    engineAddress?: string;
    /** Bound on the wait for the port line, in ms; default 60000. */
    startTimeoutMs?: number;
    /** Receives the pack's stderr (and stdout after the port), e.g. to echo it. */
    onOutput?: (chunk: string) => void;
    /** Extra environment for the pack process (e.g. PERFGUARD_EXPLAIN), over this process's. */
    env?: Record<string, string>;
}

const OUTPUT_TAIL_CHARS = 8000;
// As the CLI: raise gRPC's 4 MB default so large stacks fit in one AnalyzeStack.
const MAX_MESSAGE_BYTES = 1024 * 1024 * 400;

function rpcError(method: string, err: grpc.ServiceError, output: string): Error {
    const tail = output.trim() ? `\npack output:\n${output.trim()}` : "";
    return new Error(`policy pack ${method} failed: ${err.details || err.message}${tail}`);
}

/**
 * Waits for the pack's first stdout line and returns the port in it.
 * Throws PreviewError when the line is not a port, the pack exits first, or time runs out.
 */
function readPort(child: ChildProcess, packDir: string, timeoutMs: number, tail: () => string): Promise<number> {
    return new Promise((resolve, reject) => {
        let buffer = "";
        let settled = false;
        const finish = (err: Error | undefined, port?: number) => {
            if (settled) {
                return;
            }
            settled = true;
            clearTimeout(timer);
            child.stdout?.off("data", onData);
            child.off("exit", onExit);
            if (err) {
                reject(err);
            } else {
                resolve(port as number);
            }
        };
        const onData = (data: Buffer) => {
            buffer += data.toString();
            const newline = buffer.indexOf("\n");
            if (newline < 0) {
                return;
            }
            const line = buffer.slice(0, newline).replace(/\r$/, "");
            if (/^\d+$/.test(line.trim()) && Number(line.trim()) > 0 && Number(line.trim()) < 65536) {
                finish(undefined, Number(line.trim()));
            } else {
                finish(
                    new PreviewError(
                        `policy pack ${packDir} printed ${JSON.stringify(line)} before its port; ` +
                            "the first line a pack writes to stdout must be its gRPC port (remove console.log calls at load time)",
                    ),
                );
            }
        };
        const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
            const why = signal ? `signal ${signal}` : `exit code ${code}`;
            finish(new PreviewError(`policy pack ${packDir} exited (${why}) before printing its port; ` + `stderr tail:\n${tail().trim()}`));
        };
        const timer = setTimeout(() => {
            finish(new PreviewError(`policy pack ${packDir} printed no port within ${timeoutMs / 1000} s; ` + `stderr tail:\n${tail().trim()}`));
        }, timeoutMs);
        child.stdout?.on("data", onData);
        child.on("exit", onExit);
    });
}

/**
 * Starts the pack in `packDir` as the CLI does:
 * `node <@pulumi/pulumi/cmd/run-policy-pack> <engine-address> <packDir>`, cwd = packDir, with
 * PULUMI_NODEJS_STACK/PROJECT/DRY_RUN and PULUMI_CONFIG (plus the PULUMI_* twins) set.
 * Output: a connected PackClient. Throws PreviewError when the pack does not come up
 * (bad first line, early exit, timeout); the process is killed in every failure case; exit 2
 * when `packDir` is not a directory (checked synchronously: the spawn still happens before
 * the first await when `engineAddress` is given).
 */
export async function startPack(packDir: string, opts: StartPackOptions = {}): Promise<PackClient> {
    const absDir = path.resolve(packDir);
    if (!fs.existsSync(absDir) || !fs.statSync(absDir).isDirectory()) {
        throw new PreviewError(`policy pack directory ${absDir} does not exist`, SETUP_ERROR_EXIT);
    }
    const project = opts.project ?? "project";
    const stack = opts.stack ?? "stack";
    const dryRun = opts.dryRun ?? true;
    let tail = "";
    const record = (chunk: string) => {
        tail = (tail + chunk).slice(-OUTPUT_TAIL_CHARS);
        opts.onOutput?.(chunk);
    };
    let engine: EngineService | undefined;
    let engineAddress = opts.engineAddress;
    if (!engineAddress) {
        engine = await startEngineService((line) => record(line + "\n"));
        engineAddress = engine.address;
    }
    const runPolicyPack = require.resolve("@pulumi/pulumi/cmd/run-policy-pack");
    const child = spawn(process.execPath, [runPolicyPack, engineAddress, absDir], {
        cwd: absDir,
        env: {
            ...process.env,
            PULUMI_CONFIG: JSON.stringify(opts.config ?? {}),
            PULUMI_NODEJS_PROJECT: project,
            PULUMI_NODEJS_STACK: stack,
            PULUMI_NODEJS_DRY_RUN: String(dryRun),
            PULUMI_PROJECT: project,
            PULUMI_STACK: stack,
            PULUMI_DRY_RUN: String(dryRun),
            ...opts.env,
        },
        stdio: ["ignore", "pipe", "pipe"],
    });
    child.stderr?.on("data", (d: Buffer) => record(d.toString()));
    const killAll = () => {
        if (child.exitCode === null && child.signalCode === null) {
            child.kill("SIGKILL");
        }
        engine?.close();
    };
    let port: number;
    try {
        port = await readPort(child, absDir, opts.startTimeoutMs ?? 60_000, () => tail);
    } catch (err) {
        killAll();
        throw err;
    }
    // After the port line, the pack's stdout is just more output.
    child.stdout?.on("data", (d: Buffer) => record(d.toString()));

    const client = new analyzerrpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
        "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
        "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
    });
    const unary = <Req, Res>(method: string, fn: (req: Req, cb: (err: grpc.ServiceError | null, res: Res) => void) => unknown, req: Req): Promise<Res> =>
        new Promise((resolve, reject) => {
            fn.call(client, req, (err, res) => (err ? reject(Object.assign(rpcError(method, err, tail), { code: err.code })) : resolve(res)));
        });
    const tolerateUnimplemented = (err: unknown): boolean => {
        if ((err as { code?: number }).code === grpc.status.UNIMPLEMENTED) {
            return false;
        }
        throw err;
    };
    // Sends bytes a prepare* function encoded: the same RPC, without encoding the request again.
    const unaryPrepared = (method: "Analyze" | "AnalyzeStack", request: PreparedRequest): Promise<analyzerproto.AnalyzeResponse> =>
        new Promise((resolve, reject) => {
            const def = method === "Analyze" ? analyzerrpc.AnalyzerService.analyze : analyzerrpc.AnalyzerService.analyzeStack;
            client.makeUnaryRequest(
                def.path,
                (bytes: Buffer) => bytes,
                def.responseDeserialize,
                request.bytes,
                (err, res) => (err || !res ? reject(Object.assign(rpcError(method, err as grpc.ServiceError, tail), { code: err?.code })) : resolve(res)),
            );
        });
    let closed = false;

    return {
        port,
        pid: child.pid as number,
        engineAddress,
        async handshake() {
            const req = new analyzerproto.AnalyzerHandshakeRequest();
            req.setEngineAddress(engineAddress);
            req.setRootDirectory(absDir);
            req.setProgramDirectory(absDir);
            return unary("Handshake", client.handshake, req).then(() => true, tolerateUnimplemented);
        },
        async configureStack(settings) {
            const req = makeStackConfigureRequest(settings);
            return unary("ConfigureStack", client.configureStack, req).then(() => true, tolerateUnimplemented);
        },
        async getAnalyzerInfo() {
            return convertAnalyzerInfo(await unary("GetAnalyzerInfo", client.getAnalyzerInfo, new Empty()));
        },
        async configure(config) {
            const req = makeConfigureRequest(config);
            await unary("Configure", client.configure, req);
        },
        async analyze(resource) {
            return convertDiagnostics(await unary("Analyze", client.analyze, makeAnalyzeRequest(resource)));
        },
        async analyzeStack(resources) {
            return convertDiagnostics(await unary("AnalyzeStack", client.analyzeStack, makeAnalyzeStackRequest(resources)));
        },
        async analyzePrepared(request) {
            return convertDiagnostics(await unaryPrepared("Analyze", request));
        },
        async analyzeStackPrepared(request) {
            return convertDiagnostics(await unaryPrepared("AnalyzeStack", request));
        },
        async remediate(resource) {
            return convertRemediations(
                await unary<analyzerproto.AnalyzeRequest, analyzerproto.RemediateResponse>("Remediate", client.remediate, makeAnalyzeRequest(resource)),
            );
        },
        output: () => tail,
        async close() {
            if (closed) {
                return;
            }
            closed = true;
            client.close();
            const exited =
                child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once("exit", () => resolve()));
            killAll();
            await exited;
        },
    };
}
