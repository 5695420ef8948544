/**
 * A minimal pulumirpc.Engine service, so the pack gets a real engine address as the CLI gives
 * it (argv and Handshake). It accepts Log calls and writes them to a sink; root resource calls
 * answer as an engine without a stack would.
 */
import * as grpc from "@grpc/grpc-js";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";

const SEVERITY_NAMES: Record<number, string> = {
    [engineproto.LogSeverity.DEBUG]: "debug",
    [engineproto.LogSeverity.INFO]: "info",
    [engineproto.LogSeverity.WARNING]: "warning",
    [engineproto.LogSeverity.ERROR]: "error",
};

export interface EngineService {
    /** "127.0.0.1:<port>" */
    address: string;
    /** Stops the server at once. */
    close(): void;
}

/**
 * Starts the service on an ephemeral localhost port. `log` receives each logged line as
 * "<severity>: <message>" (debug messages are dropped, as the CLI hides them by default).
 * Throws when the port cannot be bound.
 */
export function startEngineService(log: (line: string) => void): Promise<EngineService> {
    const server = new grpc.Server();
    const impl: enginerpc.IEngineServer = {
        log: (call, callback) => {
            const req = call.request;
            if (req.getSeverity() !== engineproto.LogSeverity.DEBUG) {
                const where = req.getUrn() ? ` (${req.getUrn()})` : "";
                log(`${SEVERITY_NAMES[req.getSeverity()] ?? "info"}${where}: ${req.getMessage()}`);
            }
            callback(null, new Empty());
        },
        getRootResource: (_call, callback) => callback(null, new engineproto.GetRootResourceResponse()),
        setRootResource: (_call, callback) => callback(null, new engineproto.SetRootResourceResponse()),
        startDebugging: (_call, callback) => callback(null, new Empty()),
        requirePulumiVersion: (_call, callback) => callback(null, new engineproto.RequirePulumiVersionResponse()),
    };
    server.addService(enginerpc.EngineService, impl);
    return new Promise((resolve, reject) => {
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
            if (err) {
                reject(err);
                return;
            }
            resolve({ address: `127.0.0.1:${port}`, close: () => server.forceShutdown() });
        });
    });
}
