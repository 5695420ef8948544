/**
 * The policy names the CLI's Configure carried that name no policy of this pack.
 *
 * The Pulumi CLI reconciles `--policy-pack-config` and sends Configure with every key of the
 * reconciled map: each policy, "all", and any key that names no policy (pkg/resource/analyzer
 * config.go applyConfig; pkg/resource/plugin analyzer_plugin.go Configure). It validates only the
 * keys that name a policy, so `"xen-dom0-workoad": "mandatory"` passes with exit 0 and the policy
 * meant stays at its default level. @pulumi/policy 1.21 keeps that map private to its server
 * (policies read only their own entry), so the pack's entry point taps the Configure call
 * (`tapConfigure`) and perfguard-facts reports these names on the root stack.
 */
import { didYouMean } from "./config";
import { resetReportedOnce } from "./definePolicy";
import { recordConfiguredProperties } from "./policyConfigs";

/** One config key that names no policy, with the closest policy name when one is close. */
export interface UnknownPolicyName {
    readonly name: string;
    readonly suggestion?: string;
}

let unknown: readonly UnknownPolicyName[] = [];

/**
 * Records what Configure carried. Input: the keys of its policy config map and the pack's policy
 * names. "all" is the CLI's key for every policy, never a typo. Names are kept sorted.
 */
export function recordConfiguredNames(keys: readonly string[], policyNames: readonly string[]): void {
    const known = new Set(policyNames);
    unknown = [...new Set(keys)]
        .filter((k) => k !== "all" && !known.has(k))
        .sort()
        .map((name) => {
            const suggestion = didYouMean(name, policyNames);
            return suggestion ? { name, suggestion } : { name };
        });
}

/** The config keys of the last Configure that name no policy of the pack (sorted). */
export function unknownPolicyNames(): readonly UnknownPolicyName[] {
    return unknown;
}

/** One policy's entry in Configure's map (jspb): its properties as a protobuf Struct. */
interface PolicyConfigEntry {
    getProperties?(): { toJavaScript?(): unknown } | undefined;
}

interface ConfigureCall {
    request: { getPolicyconfigMap(): { keys(): Iterator<string>; get(key: string): PolicyConfigEntry | undefined } };
}

interface AnalyzerImplementation {
    configure?: (call: ConfigureCall, callback: unknown) => unknown;
    configureStack?: (call: unknown, callback: unknown) => unknown;
}

interface GrpcServerClass {
    prototype: { addService(service: unknown, implementation: AnalyzerImplementation): void };
}

function keysOf(map: { keys(): Iterator<string> }): string[] {
    const it = map.keys();
    const out: string[] = [];
    // jspb.Map's keys() is an iterator object (not always iterable itself): walk it by next().
    for (let step = it.next(); !step.done; step = it.next()) {
        out.push(step.value);
    }
    return out;
}

/** Each policy's properties in Configure's map (a room setting's home is read by the room's other policies). */
function propertiesOf(map: ReturnType<ConfigureCall["request"]["getPolicyconfigMap"]>): Map<string, Readonly<Record<string, unknown>>> {
    const out = new Map<string, Readonly<Record<string, unknown>>>();
    for (const key of keysOf(map)) {
        const props = map.get(key)?.getProperties?.()?.toJavaScript?.();
        if (props !== null && typeof props === "object" && !Array.isArray(props)) {
            out.set(key, props as Readonly<Record<string, unknown>>);
        }
    }
    return out;
}

/**
 * Runs `serve` (the `new PolicyPack(...)` call) with the gRPC server's addService wrapped so that
 * the Analyzer service's `configure` handler records the names it receives before the SDK's own
 * handler runs; restores addService afterwards. Never changes what the SDK does with the request,
 * and never throws on a request shape it does not know (it then records nothing).
 */
export function tapConfigure(grpcServer: GrpcServerClass, policyNames: readonly string[], serve: () => void): void {
    const original = grpcServer.prototype.addService;
    grpcServer.prototype.addService = function (this: unknown, service: unknown, implementation: AnalyzerImplementation): void {
        const configure = implementation?.configure;
        const configureStack = implementation?.configureStack;
        if (typeof configureStack === "function") {
            let configured = 0;
            implementation = {
                ...implementation,
                // The engine configures a pack's stack once per preview; `perfguard check` of a
                // fleet configures each stack in turn in one process (cli/fleet.ts): each later
                // call starts a new stack's preview, so what is reported once per preview is again.
                configureStack(call, callback) {
                    if (configured++ > 0) {
                        resetReportedOnce();
                    }
                    return configureStack.call(this, call, callback);
                },
            };
        }
        if (typeof configure === "function") {
            implementation = {
                ...implementation,
                configure(call, callback) {
                    try {
                        recordConfiguredNames(keysOf(call.request.getPolicyconfigMap()), policyNames);
                    } catch {
                        recordConfiguredNames([], policyNames);
                    }
                    try {
                        recordConfiguredProperties(propertiesOf(call.request.getPolicyconfigMap()));
                    } catch {
                        recordConfiguredProperties(new Map());
                    }
                    return configure.call(this, call, callback);
                },
            };
        }
        original.call(this, service, implementation);
    };
    try {
        serve();
    } finally {
        grpcServer.prototype.addService = original;
    }
}
