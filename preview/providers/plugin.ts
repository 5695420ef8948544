/**
 * A stand-in resource provider plugin for one package (citrix, avi, xenorchestra, vsphere), so
 * the real Pulumi CLI can preview perfguard's example programs without the real providers (which
 * all dial their server in Configure). It does what the Terraform bridge does, from the facts in
 * schema/<package>.json (see schema.ts): Check applies schema defaults, Create in a preview
 * returns the inputs plus computed-and-unset attributes as unknown and no id.
 *
 * argv: <package> [engine address]. Started by bin/pulumi-resource-<package>.
 *
 * Built on the SDK's provider server (`@pulumi/pulumi/provider` main). That server answers
 * Configure without `supportsPreview` and calls Create without the request's `preview` flag; the
 * engine then skips Create in a preview and uses the inputs as outputs, which is exactly what a
 * bridged provider does not do. So the server object handed to gRPC is adjusted (addService
 * below): Configure reports supportsPreview, and Create passes `preview` on and leaves the id
 * empty in a preview.
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import * as grpc from "@grpc/grpc-js";
import * as provider from "@pulumi/pulumi/provider";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { pluginVersion, repoRoot } from "./install";
import { checkInputs, createdOutputs, previewOutputs, Props } from "./schema";

/** The resource type of a URN (`urn:pulumi:s::p::parent$type::name` -> `type`). */
export function typeOfUrn(urn: string): string {
    const qualified = urn.split("::")[2] ?? "";
    return qualified.split("$").pop() ?? "";
}

/** The resource name of a URN (its last `::` part). */
export function nameOfUrn(urn: string): string {
    return urn.split("::").slice(3).join("::");
}

/** A stable fake id for a created resource: the package name and a hash of the URN. */
export function fakeId(pkg: string, urn: string): string {
    return `${pkg}-${createHash("sha256").update(urn).digest("hex").slice(0, 12)}`;
}

function changed(olds: Props, news: Props): boolean {
    const keys = new Set([...Object.keys(news)].filter((k) => !k.startsWith("__")));
    for (const k of keys) {
        if (JSON.stringify(olds[k]) !== JSON.stringify(news[k])) {
            return true;
        }
    }
    return false;
}

/**
 * The Pulumi package schema a stand-in answers GetSchema with: what the YAML language host (and
 * any other schema reader) needs to type a program's resources. It is the committed subset of the
 * real package's schema (scripts/real-sdk/schemas/<pkg>.json: the resources perfguard reads, names,
 * types and defaults as published), as this plugin: its own version, and without the dynamic
 * bridge's `parameterization` (the stand-in is the `<pkg>` plugin itself, not a parameterized
 * terraform-provider). Throws, naming the package, when there is no schema for it.
 */
export function packageSchema(pkg: string, root = repoRoot()): string {
    const file = path.join(root, "scripts", "real-sdk", "schemas", `${pkg}.json`);
    if (!fs.existsSync(file)) {
        throw new Error(
            `the ${pkg} stand-in has no package schema (${path.relative(root, file)} is missing): ` +
                "its resources cannot be used from a program that reads schemas (Pulumi YAML)",
        );
    }
    const schema = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    delete schema.parameterization;
    delete schema["x-perfguard-source"];
    return JSON.stringify({ ...schema, name: pkg, version: pluginVersion(pkg) });
}

/** The Provider for `pkg`. `preview` tells create whether the engine asked for a preview. */
export function standInProvider(pkg: string): provider.Provider & { createInPreview(urn: string, inputs: Props): Props } {
    const version = pluginVersion(pkg);
    return {
        version,
        getSchema: async () => packageSchema(pkg),
        check: async (urn, olds, news) => {
            // As the bridge does, an auto-name given before is kept.
            const name = (olds as Props | undefined)?.name;
            const seeded = news.name === undefined && typeof name === "string" ? { ...news, name } : news;
            return { inputs: checkInputs(typeOfUrn(urn), seeded as Props, nameOfUrn(urn)) };
        },
        diff: async (_id, _urn, olds, news) => ({ changes: changed(olds as Props, news as Props) }),
        create: async (urn, inputs) => {
            const id = fakeId(pkg, urn);
            return { id, outs: createdOutputs(typeOfUrn(urn), inputs as Props, id) };
        },
        createInPreview: (urn, inputs) => previewOutputs(typeOfUrn(urn), inputs),
        read: async (id, _urn, props) => ({ id, props }),
        update: async (id, urn, _olds, news) => ({ outs: createdOutputs(typeOfUrn(urn), news as Props, id) }),
        delete: async () => undefined,
    };
}

type Callback = (err: unknown, resp?: unknown) => void;
interface Call {
    request: { getPreview(): boolean; getUrn(): string; getProperties(): structproto.Struct | undefined };
}
interface ServerImpl {
    configure(call: unknown, cb: Callback): void;
    create(call: Call, cb: Callback): void;
}

/** Adjusts the SDK's server object (see the file comment) when it is registered with gRPC. */
function patchServer(impl: ServerImpl, standIn: ReturnType<typeof standInProvider>): void {
    const configure = impl.configure.bind(impl);
    impl.configure = (call, cb) =>
        configure(call, (err, resp) => {
            (resp as { setSupportspreview?(v: boolean): void } | undefined)?.setSupportspreview?.(true);
            cb(err, resp);
        });
    const create = impl.create.bind(impl);
    impl.create = (call, cb) => {
        if (!call.request.getPreview()) {
            create(call, cb);
            return;
        }
        try {
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            const provproto = require("@pulumi/pulumi/proto/provider_pb");
            const inputs = (call.request.getProperties()?.toJavaScript() ?? {}) as Props;
            const resp = new provproto.CreateResponse();
            resp.setId("");
            resp.setProperties(
                structproto.Struct.fromJavaScript(standIn.createInPreview(call.request.getUrn(), inputs) as Record<string, structproto.JavaScriptValue>),
            );
            cb(null, resp);
        } catch (e) {
            cb(e);
        }
    };
}

function main(): void {
    const [pkg, ...rest] = process.argv.slice(2);
    if (!pkg) {
        process.stderr.write("usage: plugin <package> [engine address]\n");
        process.exit(2);
    }
    const standIn = standInProvider(pkg);
    const addService = grpc.Server.prototype.addService;
    grpc.Server.prototype.addService = function (this: grpc.Server, service, implementation) {
        if ("create" in (implementation as object) && "configure" in (implementation as object)) {
            patchServer(implementation as unknown as ServerImpl, standIn);
        }
        addService.call(this, service, implementation);
    };
    void provider.main(standIn, rest);
}

if (require.main === module) {
    main();
}
