/**
 * Starts a Node.js policy pack the way the Pulumi CLI does and talks pulumirpc.Analyzer to it
 * through the SDK's generated stubs. Properties go in and come out as plain JS objects.
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import * as analyzerrpc from "@pulumi/pulumi/proto/analyzer_grpc_pb";
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { startEngineService, EngineService } from "./engineService";
import { PreviewError, SETUP_ERROR_EXIT } from "./errors";
import { Diagnostic, EnforcementLevel, JsonValue, PropertyBag, ProviderResource, RecordedOptions } from "./types";

/** A policy's config schema as GetAnalyzerInfo reports it. */
export interface PolicyConfigSchema {
    properties: Record<string, JsonValue>;
    required: string[];
}

export interface PolicyInfo {
    name: string;
    displayName: string;
    description: string;
    /** The policy's default level (its own, else the pack's). */
    enforcementLevel: EnforcementLevel;
    policyType: "resource" | "stack" | "unspecified";
    configSchema?: PolicyConfigSchema;
}

/** One policy's config: level plus properties, as Configure carries it. */
export interface PolicyConfigEntry {
    enforcementLevel?: EnforcementLevel;
    properties?: PropertyBag;
}

export interface AnalyzerInfo {
    name: string;
    displayName: string;
    version: string;
    supportsConfig: boolean;
    policies: PolicyInfo[];
    initialConfig: Record<string, PolicyConfigEntry>;
}

/** A resource for Analyze/Remediate. `options` defaults to empty options (never left unset). */
export interface AnalyzeResourceInput {
    urn: string;
    type: string;
    name: string;
    properties: PropertyBag;
    options?: Partial<RecordedOptions> & { parent?: string };
    provider?: ProviderResource;
}

/** A resource for AnalyzeStack. */
export interface AnalyzeStackResourceInput extends AnalyzeResourceInput {
    parent?: string;
    dependencies?: string[];
    propertyDependencies?: Record<string, string[]>;
}

export interface NotApplicable {
    policyName: string;
    reason: string;
}

export interface AnalyzeResult {
    diagnostics: Diagnostic[];
    notApplicable: NotApplicable[];
}

export interface RemediationResult {
    policyName: string;
    policyPackName: string;
    policyPackVersion: string;
    description: string;
    /** The resource's new inputs, when the remediation changed them. */
    properties?: PropertyBag;
    /** Why the remediation could not run (e.g. an unknown value in a preview). */
    diagnostic?: string;
}

export interface StackSettings {
    project: string;
    stack: string;
    organization?: string;
    dryRun: boolean;
    tags?: Record<string, string>;
    config?: Record<string, string>;
}

/**
 * A request encoded once to protobuf bytes, to send many times: benchmarks time the pack, not
 * this client's encoding (JS encodes a 50,000-resource stack in seconds; the CLI, in Go, does not).
 */
export interface PreparedRequest {
    readonly bytes: Buffer;
}

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

const LEVEL_TO_PROTO: Record<EnforcementLevel, analyzerproto.EnforcementLevel> = {
    advisory: analyzerproto.EnforcementLevel.ADVISORY,
    mandatory: analyzerproto.EnforcementLevel.MANDATORY,
    remediate: analyzerproto.EnforcementLevel.REMEDIATE,
    disabled: analyzerproto.EnforcementLevel.DISABLED,
};

function levelFromProto(level: analyzerproto.EnforcementLevel): EnforcementLevel {
    const found = (Object.keys(LEVEL_TO_PROTO) as EnforcementLevel[]).find((k) => LEVEL_TO_PROTO[k] === level);
    if (!found) {
        throw new Error(`unknown enforcement level ${level}`);
    }
    return found;
}

function severityName(severity: analyzerproto.PolicySeverity): string | undefined {
    switch (severity) {
        case analyzerproto.PolicySeverity.POLICY_SEVERITY_LOW: return "low";
        case analyzerproto.PolicySeverity.POLICY_SEVERITY_MEDIUM: return "medium";
        case analyzerproto.PolicySeverity.POLICY_SEVERITY_HIGH: return "high";
        case analyzerproto.PolicySeverity.POLICY_SEVERITY_CRITICAL: return "critical";
        default: return undefined;
    }
}

function toStruct(props: PropertyBag): Struct {
    return Struct.fromJavaScript(props);
}

function fromStruct(struct: Struct | undefined): PropertyBag {
    return (struct?.toJavaScript() ?? {});
}

function makeOptions(opts: AnalyzeResourceInput["options"]): analyzerproto.AnalyzerResourceOptions {
    const o = new analyzerproto.AnalyzerResourceOptions();
    o.setProtect(opts?.protect ?? false);
    o.setIgnorechangesList(opts?.ignoreChanges ?? []);
    o.setAdditionalsecretoutputsList(opts?.additionalSecretOutputs ?? []);
    o.setAliasesList(opts?.aliases ?? []);
    if (opts?.deleteBeforeReplace !== undefined) {
        o.setDeletebeforereplace(opts.deleteBeforeReplace);
        o.setDeletebeforereplacedefined(true);
    }
    const timeouts = new analyzerproto.AnalyzerResourceOptions.CustomTimeouts();
    timeouts.setCreate(opts?.customTimeouts?.create ?? 0);
    timeouts.setUpdate(opts?.customTimeouts?.update ?? 0);
    timeouts.setDelete(opts?.customTimeouts?.delete ?? 0);
    timeouts.setRead(opts?.customTimeouts?.read ?? 0);
    o.setCustomtimeouts(timeouts);
    o.setParent(opts?.parent ?? "");
    return o;
}

function makeProvider(provider: ProviderResource | undefined): analyzerproto.AnalyzerProviderResource | undefined {
    if (!provider) {
        return undefined;
    }
    const p = new analyzerproto.AnalyzerProviderResource();
    p.setUrn(provider.urn);
    p.setType(provider.type);
    p.setName(provider.name);
    p.setProperties(toStruct(provider.properties));
    return p;
}

function makeAnalyzeRequest(r: AnalyzeResourceInput): analyzerproto.AnalyzeRequest {
    const req = new analyzerproto.AnalyzeRequest();
    req.setUrn(r.urn);
    req.setType(r.type);
    req.setName(r.name);
    req.setProperties(toStruct(r.properties));
    req.setOptions(makeOptions(r.options));
    const provider = makeProvider(r.provider);
    if (provider) {
        req.setProvider(provider);
    }
    return req;
}

function makeStackResource(r: AnalyzeStackResourceInput): analyzerproto.AnalyzerResource {
    const res = new analyzerproto.AnalyzerResource();
    res.setUrn(r.urn);
    res.setType(r.type);
    res.setName(r.name);
    res.setProperties(toStruct(r.properties));
    res.setOptions(makeOptions({ ...r.options, parent: r.options?.parent ?? r.parent }));
    const provider = makeProvider(r.provider);
    if (provider) {
        res.setProvider(provider);
    }
    res.setParent(r.parent ?? "");
    res.setDependenciesList(r.dependencies ?? []);
    const deps = res.getPropertydependenciesMap();
    for (const [key, urns] of Object.entries(r.propertyDependencies ?? {})) {
        // As the engine: properties without dependencies are left out.
        if (urns.length > 0) {
            const pd = new analyzerproto.AnalyzerPropertyDependencies();
            pd.setUrnsList(urns);
            deps.set(key, pd);
        }
    }
    return res;
}

function makeAnalyzeStackRequest(resources: AnalyzeStackResourceInput[]): analyzerproto.AnalyzeStackRequest {
    const req = new analyzerproto.AnalyzeStackRequest();
    req.setResourcesList(resources.map(makeStackResource));
    return req;
}

/** Encodes an Analyze request once, for PackClient.analyzePrepared. */
export function prepareAnalyze(resource: AnalyzeResourceInput): PreparedRequest {
    return { bytes: Buffer.from(makeAnalyzeRequest(resource).serializeBinary()) };
}

/** Encodes an AnalyzeStack request once, for PackClient.analyzeStackPrepared. */
export function prepareAnalyzeStack(resources: AnalyzeStackResourceInput[]): PreparedRequest {
    return { bytes: Buffer.from(makeAnalyzeStackRequest(resources).serializeBinary()) };
}

function varint(n: number): number[] {
    const out: number[] = [];
    while (n > 0x7f) {
        out.push((n & 0x7f) | 0x80);
        n = Math.floor(n / 128);
    }
    out.push(n);
    return out;
}

// AnalyzeStackRequest field 1 (resources), wire type 2 (length-delimited).
const RESOURCES_TAG = (1 << 3) | 2;

/**
 * Encodes an AnalyzeStack request like prepareAnalyzeStack, byte for byte, from each resource's
 * own encoding: the request's only field is the repeated resources message, so its bytes are each
 * AnalyzerResource's serialized bytes behind a tag and a length, which is what serializeBinary
 * writes. `cache` (the resource as JSON -> its bytes) lets two requests share the encoding of
 * the resources they have in common (the two sides of `perfguard diff`: most of a stack).
 */
export function prepareAnalyzeStackShared(resources: readonly AnalyzeStackResourceInput[], cache: Map<string, Uint8Array>): PreparedRequest {
    const parts: Uint8Array[] = [];
    let length = 0;
    for (const r of resources) {
        const key = JSON.stringify([r.urn, r.type, r.name, r.properties, r.options ?? null, r.provider ?? null, r.parent ?? null, r.dependencies ?? null, r.propertyDependencies ?? null]);
        let bytes = cache.get(key);
        if (!bytes) {
            bytes = makeStackResource(r).serializeBinary();
            cache.set(key, bytes);
        }
        const head = Uint8Array.from([RESOURCES_TAG, ...varint(bytes.length)]);
        parts.push(head, bytes);
        length += head.length + bytes.length;
    }
    return { bytes: Buffer.concat(parts, length) };
}

function convertDiagnostics(resp: analyzerproto.AnalyzeResponse): AnalyzeResult {
    return {
        diagnostics: resp.getDiagnosticsList().map((d) => {
            const diag: Diagnostic = {
                policyName: d.getPolicyname(),
                policyPackName: d.getPolicypackname(),
                policyPackVersion: d.getPolicypackversion(),
                description: d.getDescription(),
                message: d.getMessage(),
                enforcementLevel: levelFromProto(d.getEnforcementlevel()),
            };
            if (d.getUrn()) {
                diag.urn = d.getUrn();
            }
            const severity = severityName(d.getSeverity());
            if (severity) {
                diag.severity = severity;
            }
            return diag;
        }),
        notApplicable: resp.getNotApplicableList().map((n) => ({ policyName: n.getPolicyName(), reason: n.getReason() })),
    };
}

function convertAnalyzerInfo(info: analyzerproto.AnalyzerInfo): AnalyzerInfo {
    const initialConfig: Record<string, PolicyConfigEntry> = {};
    info.getInitialconfigMap().forEach((c, key) => {
        const entry: PolicyConfigEntry = { enforcementLevel: levelFromProto(c.getEnforcementlevel()) };
        if (c.hasProperties()) {
            entry.properties = fromStruct(c.getProperties());
        }
        initialConfig[key] = entry;
    });
    return {
        name: info.getName(),
        displayName: info.getDisplayname(),
        version: info.getVersion(),
        supportsConfig: info.getSupportsconfig(),
        initialConfig,
        policies: info.getPoliciesList().map((p) => {
            const schema = p.getConfigschema();
            const policyType = p.getPolicyType() === analyzerproto.PolicyType.POLICY_TYPE_RESOURCE ? "resource"
                : p.getPolicyType() === analyzerproto.PolicyType.POLICY_TYPE_STACK ? "stack" : "unspecified";
            const policy: PolicyInfo = {
                name: p.getName(),
                displayName: p.getDisplayname(),
                description: p.getDescription(),
                enforcementLevel: levelFromProto(p.getEnforcementlevel()),
                policyType,
            };
            if (schema) {
                policy.configSchema = {
                    properties: fromStruct(schema.getProperties()),
                    required: schema.getRequiredList(),
                };
            }
            return policy;
        }),
    };
}

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
                finish(new PreviewError(`policy pack ${packDir} printed ${JSON.stringify(line)} before its port; ` +
                    "the first line a pack writes to stdout must be its gRPC port (remove console.log calls at load time)"));
            }
        };
        const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
            const why = signal ? `signal ${signal}` : `exit code ${code}`;
            finish(new PreviewError(`policy pack ${packDir} exited (${why}) before printing its port; ` +
                `stderr tail:\n${tail().trim()}`));
        };
        const timer = setTimeout(() => {
            finish(new PreviewError(`policy pack ${packDir} printed no port within ${timeoutMs / 1000} s; ` +
                `stderr tail:\n${tail().trim()}`));
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
            client.makeUnaryRequest(def.path, (bytes: Buffer) => bytes, def.responseDeserialize, request.bytes,
                (err, res) => (err || !res ? reject(Object.assign(rpcError(method, err as grpc.ServiceError, tail), { code: err?.code })) : resolve(res)));
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
            const req = new analyzerproto.AnalyzerStackConfigureRequest();
            req.setStack(settings.stack);
            req.setProject(settings.project);
            req.setOrganization(settings.organization ?? "");
            req.setDryRun(settings.dryRun);
            for (const [k, v] of Object.entries(settings.tags ?? {})) {
                req.getTagsMap().set(k, v);
            }
            for (const [k, v] of Object.entries(settings.config ?? {})) {
                req.getConfigMap().set(k, v);
            }
            return unary("ConfigureStack", client.configureStack, req).then(() => true, tolerateUnimplemented);
        },
        async getAnalyzerInfo() {
            return convertAnalyzerInfo(await unary("GetAnalyzerInfo", client.getAnalyzerInfo, new Empty()));
        },
        async configure(config) {
            const req = new analyzerproto.ConfigureAnalyzerRequest();
            for (const [name, entry] of Object.entries(config)) {
                if (!entry.enforcementLevel) {
                    throw new PreviewError(`invalid enforcement level "" for ${name}`, 2);
                }
                const pc = new analyzerproto.PolicyConfig();
                pc.setEnforcementlevel(LEVEL_TO_PROTO[entry.enforcementLevel]);
                pc.setProperties(toStruct(entry.properties ?? {}));
                req.getPolicyconfigMap().set(name, pc);
            }
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
            const resp = await unary<analyzerproto.AnalyzeRequest, analyzerproto.RemediateResponse>(
                "Remediate", client.remediate, makeAnalyzeRequest(resource));
            return {
                remediations: resp.getRemediationsList().map((r) => {
                    const result: RemediationResult = {
                        policyName: r.getPolicyname(),
                        policyPackName: r.getPolicypackname(),
                        policyPackVersion: r.getPolicypackversion(),
                        description: r.getDescription(),
                    };
                    if (r.hasProperties()) {
                        result.properties = fromStruct(r.getProperties());
                    }
                    if (r.getDiagnostic()) {
                        result.diagnostic = r.getDiagnostic();
                    }
                    return result;
                }),
                notApplicable: resp.getNotApplicableList().map((n) => ({ policyName: n.getPolicyName(), reason: n.getReason() })),
            };
        },
        output: () => tail,
        async close() {
            if (closed) {
                return;
            }
            closed = true;
            client.close();
            const exited = child.exitCode !== null || child.signalCode !== null
                ? Promise.resolve()
                : new Promise<void>((resolve) => child.once("exit", () => resolve()));
            killAll();
            await exited;
        },
    };
}
