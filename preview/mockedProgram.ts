/**
 * Child-process entry that runs one Pulumi TypeScript program under the SDK's mocks in preview
 * mode and sends what it registered to the parent over IPC.
 *
 * argv: <entry file> <cwd> <project> <stack>. Messages sent: RunnerMessage (below), then the process exits.
 * Each program gets a process of its own because the SDK's runtime state is process-global.
 *
 * Failure handling mirrors @pulumi/pulumi/cmd/run (index.js, run.js): uncaught exceptions and
 * unhandled rejections are fatal but do not stop the process; each distinct error is reported
 * once; the run is over when the event loop is empty (`beforeExit`), and any error seen by then
 * fails it. An error the SDK logged (`log.error`) is printed but does not fail the preview: the
 * real CLI (v3.274.1) exits 0 on such a program (test/real).
 *
 * As the engine, it runs transforms before recording a registration, answers stack references
 * from the other stack's state, and sends only the alias that matched this stack's state; what it
 * cannot answer as the engine would (an unreadable stack reference, invokes, reads, multi-language
 * components) is listed in the message's `notReproduced`, one line per feature.
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { debugEnabled } from "./errors";
import * as aliasproto from "@pulumi/pulumi/proto/alias_pb";
import * as callbackproto from "@pulumi/pulumi/proto/callback_pb";
import { readBackendStack } from "./backendState";
import { checkInputs, previewOutputs } from "./providers/schema";
import { aliasesOf, engineUrn, optionsOf, sourcePositionOf } from "./registration";
import { AliasResolver } from "./resolveAliases";
import { runTransforms, TransformRegistry } from "./runTransforms";
import { installSdkResolution, standInTypeHint } from "./sdkResolution";
import { NotReproduced, STACK_REFERENCE_TYPE, stackReferenceState } from "./stackReferences";
import { registerTypeScript, typeDiagnostics } from "./typeScriptHost";
import { toAnalyzerProperties } from "./wireValues";
import { PropertyBag, RecordedResource } from "./types";

/**
 * What the runner sends to its parent. `message` of an error: one line per distinct problem,
 * the program's own error messages without stack traces (with them under PERFGUARD_DEBUG=1).
 */
export type RunnerMessage =
    | { kind: "result"; resources: RecordedResource[]; notReproduced: string[] }
    | { kind: "error"; message: string; resources: RecordedResource[]; notReproduced: string[] };

type Callback<T> = (err: Error | null, resp?: T) => void;

/** The parts of the SDK's MockMonitor this runner wraps. */
interface MonitorLike {
    registerResource(req: resproto.RegisterResourceRequest, cb: Callback<resproto.RegisterResourceResponse>): void;
    registerResourceOutputs(req: resproto.RegisterResourceOutputsRequest, cb: Callback<unknown>): void;
    registerStackTransform(req: callbackproto.Callback, cb: Callback<unknown>): void;
}

/** Internal SDK functions reached through their modules (not in the published typings). */
interface SettingsModule {
    getMonitor(): unknown;
    waitForRPCs(): Promise<void>;
}
interface StackModule {
    runInPulumiStack(init: () => Promise<unknown>): Promise<unknown>;
}
/** The SDK's log module (the same object as `pulumi.log`): `error` is replaced to see what is logged. */
interface LogModule {
    error(msg: string, ...rest: unknown[]): Promise<void>;
    hasErrors(): boolean;
}

/**
 * Loads `entry` (with `cwd` as working directory) under preview mocks and records what it
 * registers. `onLoggedError` receives each message the SDK's `log.error` is given (the program's
 * `pulumi.log.error` included); `notReproduced` each program feature the emulation cannot give the
 * CLI's answer for. Transforms run as the engine runs them (runTransforms.ts), stack references
 * read the other stack's state (stackReferences.ts), aliases are matched against this stack's
 * previous state (resolveAliases.ts). Output: the recorded resources once the program's exported
 * value (or function result) has settled and every registration RPC has finished. Rejects with
 * what the program threw or rejected with.
 */
async function run(
    entry: string,
    cwd: string,
    project: string,
    stack: string,
    onLoggedError: (message: string) => void,
    resources: RecordedResource[],
    notReproduced: NotReproduced,
): Promise<RecordedResource[]> {
    process.chdir(cwd);
    registerTypeScript(cwd);
    installSdkResolution(); // @pulumi/citrix etc. without an install: perfguard's stand-ins (sdkResolution.ts)

    /* eslint-disable @typescript-eslint/no-require-imports -- the SDK the program resolves, loaded after installSdkResolution */
    const settings = require("@pulumi/pulumi/runtime/settings") as SettingsModule;
    const stackModule = require("@pulumi/pulumi/runtime/stack") as StackModule;
    const sdkLog = require("@pulumi/pulumi/log") as LogModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    const logError = sdkLog.error.bind(sdkLog);
    sdkLog.error = (msg: string, ...rest: unknown[]) => {
        onLoggedError(String(msg));
        return logError(msg, ...rest);
    };

    // A preview: resources not yet created have no id, and their outputs are what the stand-in
    // providers' preview Create returns (providers/schema.ts): the checked inputs (schema defaults
    // applied) plus each computed attribute the program left unset as the engine's unknown
    // sentinel, which the SDK turns into an unknown output. A stack reference reads the other
    // stack; other resources read by id keep their inputs (a provider's Read is not reproduced).
    void pulumi.runtime.setMocks(
        {
            newResource: (args) => {
                if (args.type === STACK_REFERENCE_TYPE && args.id) {
                    return { id: args.id, state: stackReferenceState(args.id, project, notReproduced) };
                }
                if (args.id) {
                    notReproduced(
                        `reading an existing ${args.type} ("${args.name}", id ${JSON.stringify(args.id)}): its state is taken from the program's inputs`,
                    );
                    return { id: args.id, state: args.inputs };
                }
                return { id: undefined, state: previewOutputs(args.type, checkInputs(args.type, args.inputs, args.name)) };
            },
            call: (args) => {
                notReproduced(`the invoke ${args.token} (a provider function): its result is taken from its arguments`);
                return args.inputs;
            },
        },
        project,
        stack,
        true,
    );

    const monitor = settings.getMonitor() as MonitorLike;
    const byUrn = new Map<string, RecordedResource>();
    const transforms = new TransformRegistry();
    const registerStackTransform = monitor.registerStackTransform.bind(monitor);
    monitor.registerStackTransform = (req, cb) => {
        transforms.addStackTransform(req);
        registerStackTransform(req, cb);
    };
    // This stack's previous state, read on the first registration with aliases: the engine sends
    // an alias only when it matched a resource of that state.
    let aliasResolver: AliasResolver | undefined;
    let stateUnreadable: string | undefined;
    const resolverFor = (): AliasResolver => {
        if (!aliasResolver) {
            const state = readBackendStack(project, stack);
            stateUnreadable = state.kind === "unreadable" ? state.why : undefined;
            aliasResolver = new AliasResolver(new Set(state.kind === "found" ? state.resources.map((r) => r.urn) : []), project, stack);
        }
        return aliasResolver;
    };
    // Only an alias that renames matters to perfguard's joins by name: the type aliases provider
    // SDKs declare for their renamed types change no name, and need no state to be judged alike.
    const aliasesFor = (req: resproto.RegisterResourceRequest, urn: string, aliases: aliasproto.Alias[]): string[] => {
        const parent = req.getParent();
        if (aliases.length === 0 && !aliasResolver?.isAliased(parent)) {
            return [];
        }
        const found = resolverFor().resolve(urn, req.getName(), req.getType(), parent, aliases);
        const renames = aliases.some(
            (a) =>
                (a.getAliasCase() === aliasproto.Alias.AliasCase.URN ? a.getUrn().split("::").slice(3).join("::") : a.getSpec()?.getName() || req.getName()) !==
                req.getName(),
        );
        if (stateUnreadable !== undefined && renames) {
            notReproduced(
                `aliases that rename (this stack's previous state cannot be read: ${stateUnreadable}): ` +
                    "renamed resources are judged without their old names",
            );
        }
        return found;
    };

    // The mock monitor drops dependencies and property dependencies; capture the request first.
    // It also names children of the root stack `Stack$<type>`, which the engine does not: the
    // response carries the engine's URN, and requests naming it are mapped back for the mock.
    const mockUrnOf = new Map<string, string>();
    const registerResource = monitor.registerResource.bind(monitor);
    const record = (req: resproto.RegisterResourceRequest, cb: Callback<resproto.RegisterResourceResponse>) => {
        if (req.getRemote()) {
            notReproduced(`the multi-language component ${req.getType()} ("${req.getName()}"): its children are not registered here`);
        }
        // As the engine does: the provider's Check result is what analyzers see as inputs, and
        // a custom resource's preview Create result is what AnalyzeStack sees as its outputs.
        const custom = req.getCustom();
        const registered = toAnalyzerProperties(req.getObject()?.toJavaScript() ?? {});
        const inputs = custom ? (checkInputs(req.getType(), registered, req.getName()) as PropertyBag) : registered;
        const propertyDependencies: Record<string, string[]> = {};
        req.getPropertydependenciesMap().forEach((deps, key) => {
            propertyDependencies[key] = deps.getUrnsList();
        });
        const provider = req.getProvider();
        const parent = req.getParent();
        const urn = engineUrn(stack, project, parent, req.getType(), req.getName());
        const aliases = aliasesOf(req);
        transforms.recordResource(urn, parent, req.getTransformsList());
        const partial = {
            type: req.getType(),
            name: req.getName(),
            custom,
            parent,
            inputs,
            // Components: their registered outputs replace these (registerResourceOutputs below).
            outputs: custom ? (previewOutputs(req.getType(), inputs) as PropertyBag) : inputs,
            dependencies: req.getDependenciesList(),
            propertyDependencies,
            ...(provider ? { provider } : {}),
            // A child of an aliased parent inherits an alias even without aliases of its own.
            options: optionsOf(req, aliasesFor(req, urn, aliases)),
            ...sourcePositionOf(req, cwd),
        };
        if (parent && mockUrnOf.has(parent)) {
            req.setParent(mockUrnOf.get(parent) as string);
        }
        registerResource(req, (err, resp) => {
            if (!err && resp) {
                mockUrnOf.set(urn, resp.getUrn());
                resp.setUrn(urn);
                const recorded: RecordedResource = { urn, ...partial };
                resources.push(recorded);
                byUrn.set(urn, recorded);
            }
            cb(err, resp);
        });
    };
    monitor.registerResource = (req, cb) => {
        // The engine runs the transforms before it looks at anything else of the registration.
        const list = transforms.transformsFor(req.getTransformsList(), req.getParent());
        if (list.length === 0) {
            record(req, cb);
            return;
        }
        runTransforms(req, list).then(
            () => record(req, cb),
            (err: unknown) => cb(err as Error),
        );
    };
    const registerOutputs = monitor.registerResourceOutputs.bind(monitor);
    monitor.registerResourceOutputs = (req, cb) => {
        const urn = req.getUrn();
        const recorded = byUrn.get(urn);
        if (recorded) {
            recorded.outputs = toAnalyzerProperties(req.getOutputs()?.toJavaScript() ?? {});
        }
        req.setUrn(mockUrnOf.get(urn) ?? urn);
        registerOutputs(req, cb);
    };

    try {
        await stackModule.runInPulumiStack(async () => {
            // As Pulumi's host does: load the program file; an exported function is called and awaited.
            // eslint-disable-next-line @typescript-eslint/no-require-imports -- the program's entry, as Pulumi's host loads it
            const exported = require(entry) as unknown;
            return exported instanceof Function ? await exported() : exported;
        });
    } finally {
        // Every resource registration holds an rpcKeepAlive until its response is processed
        // (a failed one releases it too), so this also lets failing registrations report.
        await settings.waitForRPCs();
    }
    return resources;
}

function send(message: RunnerMessage): void {
    if (process.send) {
        process.send(message, () => process.exit(message.kind === "result" ? 0 : 1));
    } else {
        process.stdout.write(JSON.stringify(message) + "\n");
        process.exit(message.kind === "result" ? 0 : 1);
    }
}

/**
 * One error as the user should see it, as Pulumi's run.js words it but without the stack
 * (kept under PERFGUARD_DEBUG=1): the message; for a SyntaxError/TSError also the location the
 * stack starts with; for a module that cannot be found its first line and a hint.
 */
export function describeError(err: unknown, debug = debugEnabled()): string {
    if (!(err instanceof Error)) {
        return `a non-Error value was thrown: ${typeof err === "string" ? err : safeJson(err)}`;
    }
    if (debug && err.stack) {
        return err.stack;
    }
    const message = err.message || err.name || String(err);
    if (err.name === "TSError" || err.name === SyntaxError.name) {
        const parts = (err.stack ?? "").split(err.message);
        return parts.length === 2 && parts[0].trim() !== `${err.name}:` ? (parts[0] + err.message).trim() : message;
    }
    if ((err as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND") {
        return `${message.split("\n")[0]} (have you run npm install in the program's directory?)`;
    }
    return message;
}

function safeJson(value: unknown): string {
    try {
        return JSON.stringify(value) ?? String(value);
    } catch {
        return String(value);
    }
}

/**
 * The problems of one run, each distinct error object once (Node reports one unhandled rejection
 * per promise a failed registration passes through) and each distinct text once.
 */
class Problems {
    private readonly seen = new Set<unknown>();
    private readonly texts: string[] = [];

    /** `programDir`: where the program is, for the stand-in SDK hint of a type error. */
    constructor(private readonly programDir: string) {}

    /** Records a thrown/rejected value; a type error that involves a stand-in SDK gets perfguard's hint line. */
    add(err: unknown): void {
        if (err !== null && (typeof err === "object" || typeof err === "function")) {
            if (this.seen.has(err)) {
                return;
            }
            this.seen.add(err);
        }
        const hint = err instanceof Error && err.name === "TSError" ? standInTypeHint(typeDiagnostics(err), this.programDir) : undefined;
        this.addText(describeError(err).trim() + (hint ? `\n${hint}` : ""));
    }

    /** Records a message text (an SDK-logged error). */
    addText(text: string): void {
        if (!this.texts.includes(text)) {
            this.texts.push(text);
        }
    }

    get messages(): readonly string[] {
        return this.texts;
    }
}

function main(): void {
    const [entry, cwd, project, stack] = process.argv.slice(2);
    if (!entry || !cwd || !project || !stack) {
        send({ kind: "error", message: "usage: mockedProgram <entry file> <cwd> <project> <stack>", resources: [], notReproduced: [] });
        return;
    }
    const problems = new Problems(cwd);
    // What the program registered so far: on a failure the engine still analyzes these.
    const registered: RecordedResource[] = [];
    let sent = false;
    let resources: RecordedResource[] | undefined;
    const finish = () => {
        if (sent) {
            return;
        }
        sent = true;
        if (problems.messages.length > 0) {
            send({ kind: "error", message: problems.messages.join("\n"), resources: registered, notReproduced: [...notReproduced] });
        } else if (resources) {
            send({ kind: "result", resources, notReproduced: [...notReproduced] });
        } else {
            send({
                kind: "error",
                message: "the program ended while what it returned (or a resource registration) " + "was still pending: a promise that never settles?",
                resources: registered,
                notReproduced: [...notReproduced],
            });
        }
    };
    // As @pulumi/pulumi/cmd/run does: uncaught exceptions and unhandled rejections are fatal, but
    // the program keeps running until its event loop is empty.
    process.on("uncaughtException", (err) => problems.add(err));
    process.on("unhandledRejection", (err) => problems.add(err));
    process.on("beforeExit", finish);
    const onLoggedError = (message: string) => {
        process.stderr.write(`error: ${message}\n`);
    };
    const notReproduced = new Set<string>();
    run(path.resolve(entry), path.resolve(cwd), project, stack, onLoggedError, registered, (feature) => notReproduced.add(feature)).then(
        (recorded) => {
            resources = recorded;
        },
        (err: unknown) => {
            problems.add(err);
            // The program failed: report once what is already pending has surfaced, without waiting
            // for handles (timers, sockets) the failed program may leave open.
            setImmediate(() => setImmediate(finish));
        },
    );
}

// Only when started as the child process; importing the module for its types runs nothing.
if (require.main === module) {
    main();
}
