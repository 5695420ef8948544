/**
 * Child-process entry that runs one Pulumi TypeScript program under the SDK's mocks in preview
 * mode and sends what it registered to the parent over IPC.
 *
 * argv: <programDir> <project> <stack>. Messages sent: RunnerMessage (below), then the process exits.
 * Each program gets a process of its own because the SDK's runtime state is process-global.
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";
import { toAnalyzerProperties } from "./wireValues";
import { PropertyBag, RecordedOptions, RecordedResource, ROOT_STACK_TYPE } from "./types";

/** What the runner sends to its parent. */
export type RunnerMessage =
    | { kind: "result"; resources: RecordedResource[] }
    | { kind: "error"; message: string };

type Callback<T> = (err: Error | null, resp?: T) => void;

/** The parts of the SDK's MockMonitor this runner wraps. */
interface MonitorLike {
    registerResource(req: resproto.RegisterResourceRequest, cb: Callback<resproto.RegisterResourceResponse>): void;
    registerResourceOutputs(req: resproto.RegisterResourceOutputsRequest, cb: Callback<unknown>): void;
}

/** Internal SDK functions reached through their modules (not in the published typings). */
interface SettingsModule {
    getMonitor(): unknown;
    waitForRPCs(): Promise<void>;
}
interface StackModule {
    runInPulumiStack(init: () => Promise<unknown>): Promise<unknown>;
}

/** Parses a Go duration string ("5m", "1h30m", "90s") into seconds; "" or garbage -> 0. */
function durationSeconds(text: string): number {
    const units: Record<string, number> = { ns: 1e-9, us: 1e-6, "µs": 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
    let total = 0;
    const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
    let match: RegExpExecArray | null;
    while ((match = re.exec(text)) !== null) {
        total += Number(match[1]) * units[match[2]];
    }
    return total;
}

function optionsOf(req: resproto.RegisterResourceRequest): RecordedOptions {
    const timeouts = req.getCustomtimeouts();
    const aliases = req.getAliasesList()
        .map((a) => a.getUrn())
        .filter((u): u is string => typeof u === "string" && u !== "");
    const options: RecordedOptions = {
        protect: req.getProtect() ?? false,
        ignoreChanges: req.getIgnorechangesList(),
        additionalSecretOutputs: req.getAdditionalsecretoutputsList(),
        aliases: [...aliases, ...req.getAliasurnsList()],
        customTimeouts: {
            create: durationSeconds(timeouts?.getCreate() ?? ""),
            update: durationSeconds(timeouts?.getUpdate() ?? ""),
            delete: durationSeconds(timeouts?.getDelete() ?? ""),
            read: durationSeconds(timeouts?.getRead() ?? ""),
        },
    };
    if (req.getDeletebeforereplacedefined()) {
        options.deleteBeforeReplace = req.getDeletebeforereplace();
    }
    return options;
}

/** Registers ts-node (transpile only) the way Pulumi's nodejs host does, unless already registered. */
function registerTypeScript(): void {
    const marker = Symbol.for("ts-node.register.instance");
    if ((process as unknown as Record<symbol, unknown>)[marker]) {
        return;
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const tsnode = require("ts-node") as typeof import("ts-node");
    tsnode.register({
        transpileOnly: true,
        skipProject: !require("fs").existsSync("tsconfig.json"),
        compilerOptions: { target: "ES2020", module: "commonjs", moduleResolution: "node", esModuleInterop: true },
    });
}

/**
 * Builds a URN as the engine does: the parent's qualified type prefixes the child's type,
 * except under the root stack, whose children are named as top-level resources.
 */
function engineUrn(stack: string, project: string, parent: string, type: string, name: string): string {
    let qualifiedType = type;
    if (parent) {
        const parentType = parent.split("::")[2] ?? "";
        if (parentType !== ROOT_STACK_TYPE) {
            qualifiedType = `${parentType}$${type}`;
        }
    }
    return `urn:pulumi:${stack}::${project}::${qualifiedType}::${name}`;
}

async function run(programDir: string, project: string, stack: string): Promise<RecordedResource[]> {
    process.chdir(programDir);
    registerTypeScript();

    const settings = require("@pulumi/pulumi/runtime/settings") as SettingsModule;
    const stackModule = require("@pulumi/pulumi/runtime/stack") as StackModule;

    // A preview: resources not yet created have no id, so their ids and computed outputs stay unknown.
    void pulumi.runtime.setMocks({
        newResource: (args) => ({ id: args.id || undefined, state: args.inputs }),
        call: (args) => args.inputs,
    }, project, stack, true);

    const monitor = settings.getMonitor() as MonitorLike;
    const resources: RecordedResource[] = [];
    const byUrn = new Map<string, RecordedResource>();

    // The mock monitor drops dependencies and property dependencies; capture the request first.
    // It also names children of the root stack `Stack$<type>`, which the engine does not: the
    // response carries the engine's URN, and requests naming it are mapped back for the mock.
    const mockUrnOf = new Map<string, string>();
    const registerResource = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req, cb) => {
        const inputs = toAnalyzerProperties((req.getObject()?.toJavaScript() ?? {}) as PropertyBag);
        const propertyDependencies: Record<string, string[]> = {};
        req.getPropertydependenciesMap().forEach((deps, key) => {
            propertyDependencies[key] = deps.getUrnsList();
        });
        const provider = req.getProvider();
        const parent = req.getParent();
        const partial = {
            type: req.getType(),
            name: req.getName(),
            custom: req.getCustom(),
            parent,
            inputs,
            // A preview's outputs: the inputs; what a provider would compute stays absent/unknown.
            outputs: inputs,
            dependencies: req.getDependenciesList(),
            propertyDependencies,
            ...(provider ? { provider } : {}),
            options: optionsOf(req),
        };
        if (parent && mockUrnOf.has(parent)) {
            req.setParent(mockUrnOf.get(parent) as string);
        }
        registerResource(req, (err, resp) => {
            if (!err && resp) {
                const urn = engineUrn(stack, project, parent, partial.type, partial.name);
                mockUrnOf.set(urn, resp.getUrn());
                resp.setUrn(urn);
                const recorded: RecordedResource = { urn, ...partial };
                resources.push(recorded);
                byUrn.set(urn, recorded);
            }
            cb(err, resp);
        });
    };
    const registerOutputs = monitor.registerResourceOutputs.bind(monitor);
    monitor.registerResourceOutputs = (req, cb) => {
        const urn = req.getUrn();
        const recorded = byUrn.get(urn);
        if (recorded) {
            recorded.outputs = toAnalyzerProperties((req.getOutputs()?.toJavaScript() ?? {}) as PropertyBag);
        }
        req.setUrn(mockUrnOf.get(urn) ?? urn);
        registerOutputs(req, cb);
    };

    await stackModule.runInPulumiStack(async () => {
        // As Pulumi's host does: load the program; an exported function is called and awaited.
        const exported = require(programDir) as unknown;
        return exported instanceof Function ? await exported() : exported;
    });
    // Every resource registration holds an rpcKeepAlive until its response is processed.
    await settings.waitForRPCs();
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

function describe(err: unknown): string {
    return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

function main(): void {
    const [programDir, project, stack] = process.argv.slice(2);
    if (!programDir || !project || !stack) {
        send({ kind: "error", message: "usage: programRunner <programDir> <project> <stack>" });
        return;
    }
    let finished = false;
    const fail = (err: unknown) => {
        if (!finished) {
            finished = true;
            send({ kind: "error", message: describe(err) });
        }
    };
    process.on("uncaughtException", fail);
    process.on("unhandledRejection", fail);
    run(path.resolve(programDir), project, stack).then((resources) => {
        if (!finished) {
            finished = true;
            send({ kind: "result", resources });
        }
    }, fail);
}

// Only when started as the child process; importing the module for its types runs nothing.
if (require.main === module) {
    main();
}
