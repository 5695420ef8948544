/**
 * Runs a registration's transforms as the engine does (pkg/resource/deploy/source_eval.go,
 * RegisterResource): the resource's own `transforms` option first, then those of each parent up
 * to the root, then the stack transforms (`pulumi.runtime.registerResourceTransform`) in the order
 * they were registered. Each transform is called through the SDK's callback server, as the engine
 * calls it, and its result (properties and options) replaces the request's before the resource is
 * recorded, so the pack judges the transformed inputs.
 */
import * as grpc from "@grpc/grpc-js";
import * as aliasproto from "@pulumi/pulumi/proto/alias_pb";
import * as callbackrpc from "@pulumi/pulumi/proto/callback_grpc_pb";
import * as callbackproto from "@pulumi/pulumi/proto/callback_pb";
import * as resproto from "@pulumi/pulumi/proto/resource_pb";

/** The transforms of a program run: stack-wide ones and each registered resource's own. */
export class TransformRegistry {
    private readonly stack: callbackproto.Callback[] = [];
    private readonly byUrn = new Map<string, { parent: string; transforms: callbackproto.Callback[] }>();

    /** A stack transform, from RegisterStackTransform. */
    addStackTransform(callback: callbackproto.Callback): void {
        this.stack.push(callback);
    }

    /** Records a registered resource's own transforms (they also apply to its children). */
    recordResource(urn: string, parent: string, transforms: callbackproto.Callback[]): void {
        this.byUrn.set(urn, { parent, transforms });
    }

    /** The engine's order for a resource: its own, its parents' (nearest first), then the stack's. */
    transformsFor(own: callbackproto.Callback[], parent: string): callbackproto.Callback[] {
        const all = [...own];
        const seen = new Set<string>();
        let current = parent;
        while (current && !seen.has(current)) {
            seen.add(current);
            const entry = this.byUrn.get(current);
            if (!entry) {
                break;
            }
            all.push(...entry.transforms);
            current = entry.parent;
        }
        return [...all, ...this.stack];
    }
}

/** The options a transform is given, from the registration as the engine builds them. */
function optionsOf(req: resproto.RegisterResourceRequest): resproto.TransformResourceOptions {
    const opts = new resproto.TransformResourceOptions();
    opts.setDependsOnList(req.getDependenciesList());
    opts.setProtect(req.getProtect() ?? false);
    opts.setIgnoreChangesList(req.getIgnorechangesList());
    opts.setReplaceOnChangesList(req.getReplaceonchangesList());
    opts.setVersion(req.getVersion());
    const aliases = req.getAliasurnsList().map((urn) => new aliasproto.Alias().setUrn(urn));
    opts.setAliasesList([...aliases, ...req.getAliasesList()]);
    opts.setProvider(req.getProvider());
    req.getProvidersMap().forEach((value, key) => opts.getProvidersMap().set(key, value));
    const timeouts = req.getCustomtimeouts();
    if (timeouts) {
        opts.setCustomTimeouts(timeouts);
    }
    opts.setPluginDownloadUrl(req.getPlugindownloadurl());
    opts.setRetainOnDelete(req.getRetainondelete() ?? false);
    opts.setDeletedWith(req.getDeletedwith());
    if (req.getDeletebeforereplacedefined() || req.getDeletebeforereplace()) {
        opts.setDeleteBeforeReplace(req.getDeletebeforereplace());
    }
    opts.setAdditionalSecretOutputsList(req.getAdditionalsecretoutputsList());
    opts.setImport(req.getImportid());
    return opts;
}

/** Copies a transform's result back onto the registration (what the engine goes on with). */
function applyResult(req: resproto.RegisterResourceRequest, resp: resproto.TransformResponse): void {
    const props = resp.getProperties();
    if (props) {
        req.setObject(props);
    }
    const opts = resp.getOptions();
    if (!opts) {
        return;
    }
    req.setDependenciesList(opts.getDependsOnList());
    req.setProtect(opts.getProtect() ?? false);
    req.setIgnorechangesList(opts.getIgnoreChangesList());
    req.setReplaceonchangesList(opts.getReplaceOnChangesList());
    req.setVersion(opts.getVersion());
    // Aliases come back as specs or URNs: keep the URNs in aliasURNs, the specs in aliases.
    const aliases = opts.getAliasesList();
    req.setAliasurnsList(aliases.filter((a) => a.getAliasCase() === aliasproto.Alias.AliasCase.URN).map((a) => a.getUrn()));
    req.setAliasesList(aliases.filter((a) => a.getAliasCase() !== aliasproto.Alias.AliasCase.URN));
    req.setProvider(opts.getProvider());
    req.getProvidersMap().clear();
    opts.getProvidersMap().forEach((value, key) => req.getProvidersMap().set(key, value));
    if (opts.hasCustomTimeouts()) {
        req.setCustomtimeouts(opts.getCustomTimeouts());
    } else {
        req.clearCustomtimeouts();
    }
    req.setRetainondelete(opts.getRetainOnDelete() ?? false);
    req.setDeletedwith(opts.getDeletedWith());
    if (opts.hasDeleteBeforeReplace()) {
        req.setDeletebeforereplace(opts.getDeleteBeforeReplace() ?? false);
        req.setDeletebeforereplacedefined(true);
    }
    req.setAdditionalsecretoutputsList(opts.getAdditionalSecretOutputsList());
    req.setImportid(opts.getImport());
}

/** Calls one transform through the program's callback server. Rejects with the callback's error. */
function invoke(callback: callbackproto.Callback, request: resproto.TransformRequest): Promise<resproto.TransformResponse> {
    // One client per call, closed at once: an open channel would keep the program's event loop alive.
    const client = new callbackrpc.CallbacksClient(callback.getTarget(), grpc.credentials.createInsecure());
    const req = new callbackproto.CallbackInvokeRequest();
    req.setToken(callback.getToken());
    req.setRequest(request.serializeBinary());
    return new Promise((resolve, reject) => {
        client.invoke(req, (err, resp) => {
            client.close();
            if (err || !resp) {
                reject(new Error(`transform of ${request.getType()} "${request.getName()}" failed: ${err?.details || err?.message || "no response"}`));
                return;
            }
            resolve(resproto.TransformResponse.deserializeBinary(resp.getResponse_asU8()));
        });
    });
}

/**
 * Runs `transforms` in order on `req`, each on the previous one's result, and writes the final
 * properties and options into `req`. The transforms list of `req` is left as it is (the engine
 * keeps it to apply to the resource's children).
 */
export async function runTransforms(req: resproto.RegisterResourceRequest, transforms: callbackproto.Callback[]): Promise<void> {
    for (const callback of transforms) {
        const request = new resproto.TransformRequest();
        request.setType(req.getType());
        request.setName(req.getName());
        request.setCustom(req.getCustom());
        request.setParent(req.getParent());
        const props = req.getObject();
        if (props) {
            request.setProperties(props);
        }
        request.setOptions(optionsOf(req));
        applyResult(req, await invoke(callback, request));
    }
}
