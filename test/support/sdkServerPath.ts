/**
 * Runs policies through the very functions the SDK's gRPC server registers for Analyze and
 * AnalyzeStack (@pulumi/policy 1.21 server.js makeAnalyzeRpcFun / makeAnalyzeStackRpcFun), with
 * real request protos that went through a binary round trip, as on the wire. No process and no
 * socket, so property tests can run thousands of previews in seconds.
 *
 * The server's config is only set by its (non-exported) Configure handler, so `getConfig()`
 * returns {} here and every policy runs with its schema defaults. Config-carrying tests use the
 * real pack (preview/packClient.ts).
 */
import * as path from "path";
import type { EnforcementLevel, Policies } from "@pulumi/policy";
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import type { Struct as StructType } from "google-protobuf/google/protobuf/struct_pb";
import { resetReportedOnce } from "../../policies/pack/definePolicy";
import { TestResource, urnOf } from "./policyHarness";

type RpcCallback = (err: unknown, response?: analyzerproto.AnalyzeResponse) => void;
type RpcFun = (call: { request: unknown }, callback: RpcCallback) => Promise<void>;

interface ServerModule {
    makeAnalyzeRpcFun(packName: string, version: string, level: EnforcementLevel, policies: Policies): RpcFun;
    makeAnalyzeStackRpcFun(packName: string, version: string, level: EnforcementLevel, policies: Policies): RpcFun;
}

// server.d.ts declares nothing (the makers are @internal), but server.js exports them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const server = require("@pulumi/policy/server") as ServerModule;

// The Struct of the google-protobuf copy @pulumi/pulumi's generated protos use (a Struct from
// another copy would fail their instanceof checks).
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] })) as { Struct: typeof StructType };

export const PACK_NAME = "perfguard";
export const PACK_VERSION = "0.0.0-test";

/** A diagnostic as the engine receives it, with the call that produced it. */
export interface SdkDiagnostic {
    policyName: string;
    message: string;
    description: string;
    enforcementLevel: EnforcementLevel;
    urn?: string;
    phase: "analyze" | "analyzeStack";
}

/** The outcome of one preview through the server functions. */
export interface SdkPreview {
    diagnostics: SdkDiagnostic[];
    /** URN -> Pulumi resource name, for "names its resource" checks. */
    names: Map<string, string>;
}

const LEVELS: Record<number, EnforcementLevel> = {
    [analyzerproto.EnforcementLevel.ADVISORY]: "advisory",
    [analyzerproto.EnforcementLevel.MANDATORY]: "mandatory",
    [analyzerproto.EnforcementLevel.REMEDIATE]: "remediate",
    [analyzerproto.EnforcementLevel.DISABLED]: "disabled",
};

function toStruct(props: Record<string, unknown>): StructType {
    return Struct.fromJavaScript(props as Parameters<typeof Struct.fromJavaScript>[0]);
}

function options(): analyzerproto.AnalyzerResourceOptions {
    // The server throws "A more recent version of the Pulumi CLI is required" without options.
    const o = new analyzerproto.AnalyzerResourceOptions();
    o.setProtect(false);
    o.setCustomtimeouts(new analyzerproto.AnalyzerResourceOptions.CustomTimeouts());
    return o;
}

/** Calls one server function and resolves its response; rejects with what reached the callback as an error. */
function invoke(fn: RpcFun, request: unknown): Promise<analyzerproto.AnalyzeResponse> {
    return new Promise((resolve, reject) => {
        fn({ request }, (err, response) => {
            if (err) {
                reject(err instanceof Error ? err : new Error(String((err as { details?: string }).details ?? err)));
            } else if (!response) {
                reject(new Error("the server answered with neither an error nor a response"));
            } else {
                // As the engine receives it: through the wire encoding.
                resolve(analyzerproto.AnalyzeResponse.deserializeBinary(response.serializeBinary()));
            }
        }).catch(reject);
    });
}

function decode(response: analyzerproto.AnalyzeResponse, phase: SdkDiagnostic["phase"]): SdkDiagnostic[] {
    return response.getDiagnosticsList().map((d) => {
        const out: SdkDiagnostic = {
            policyName: d.getPolicyname(),
            message: d.getMessage(),
            description: d.getDescription(),
            enforcementLevel: LEVELS[d.getEnforcementlevel()] ?? "advisory",
            phase,
        };
        if (d.getUrn()) {
            out.urn = d.getUrn();
        }
        return out;
    });
}

/** The server functions for one set of policies (build once, call many times). */
export interface SdkServer {
    /**
     * Analyze once per resource (inputs), then AnalyzeStack once (outputs = inputs, as in a preview,
     * unless `outputs` gives them: a component that publishes facts only in its outputs).
     */
    preview(resources: readonly TestResource[], outputs?: readonly TestResource[]): Promise<SdkPreview>;
}

/**
 * Builds the server functions for `policies` (e.g. the registry, or one policy of it).
 * @returns an SdkServer; its preview rejects when any call reaches the callback with an error
 *   (an exception escaped a policy) and resolves the decoded diagnostics otherwise.
 */
export function sdkServer(policies: Policies): SdkServer {
    const analyze = server.makeAnalyzeRpcFun(PACK_NAME, PACK_VERSION, "advisory", policies);
    const analyzeStack = server.makeAnalyzeStackRpcFun(PACK_NAME, PACK_VERSION, "advisory", policies);
    return {
        async preview(resources, outputs = resources) {
            // Config problems are reported once per pack process; each preview is a new process.
            resetReportedOnce();
            const names = new Map<string, string>();
            const urnByName = new Map<string, string>();
            for (const r of resources) {
                const urn = r.urn ?? urnOf(r.type, r.name);
                names.set(urn, r.name);
                urnByName.set(r.name, urn);
            }
            const diagnostics: SdkDiagnostic[] = [];
            for (const r of resources) {
                const req = new analyzerproto.AnalyzeRequest();
                req.setUrn(r.urn ?? urnOf(r.type, r.name));
                req.setType(r.type);
                req.setName(r.name);
                req.setProperties(toStruct(r.props));
                req.setOptions(options());
                const wire = analyzerproto.AnalyzeRequest.deserializeBinary(req.serializeBinary());
                diagnostics.push(...decode(await invoke(analyze, wire), "analyze"));
            }
            const stackReq = new analyzerproto.AnalyzeStackRequest();
            stackReq.setResourcesList(
                outputs.map((r) => {
                    const res = new analyzerproto.AnalyzerResource();
                    res.setUrn(r.urn ?? urnOf(r.type, r.name));
                    res.setType(r.type);
                    res.setName(r.name);
                    res.setProperties(toStruct(r.props));
                    res.setOptions(options());
                    const deps = res.getPropertydependenciesMap();
                    for (const [prop, depNames] of Object.entries(r.propertyDependencies ?? {})) {
                        const urns = depNames.map((n) => urnByName.get(n)).filter((u): u is string => u !== undefined);
                        if (urns.length > 0) {
                            const pd = new analyzerproto.AnalyzerPropertyDependencies();
                            pd.setUrnsList(urns);
                            deps.set(prop, pd);
                        }
                    }
                    res.setDependenciesList([
                        ...new Set(
                            Object.values(r.propertyDependencies ?? {})
                                .flat()
                                .map((n) => urnByName.get(n))
                                .filter((u): u is string => u !== undefined),
                        ),
                    ]);
                    return res;
                }),
            );
            const wire = analyzerproto.AnalyzeStackRequest.deserializeBinary(stackReq.serializeBinary());
            diagnostics.push(...decode(await invoke(analyzeStack, wire), "analyzeStack"));
            return { diagnostics, names };
        },
    };
}
