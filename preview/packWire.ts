/**
 * The wire format of pulumirpc.Analyzer as the preview speaks it: the requests and results as
 * plain JS objects, and their conversion to and from the SDK's generated protobuf classes
 * (Analyze, AnalyzeStack, Remediate, GetAnalyzerInfo), including requests encoded once to be sent
 * many times. No process, no channel: packClient.ts starts the pack and sends these.
 */
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { PreviewError } from "./errors";
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
        case analyzerproto.PolicySeverity.POLICY_SEVERITY_LOW:
            return "low";
        case analyzerproto.PolicySeverity.POLICY_SEVERITY_MEDIUM:
            return "medium";
        case analyzerproto.PolicySeverity.POLICY_SEVERITY_HIGH:
            return "high";
        case analyzerproto.PolicySeverity.POLICY_SEVERITY_CRITICAL:
            return "critical";
        default:
            return undefined;
    }
}

function toStruct(props: PropertyBag): Struct {
    return Struct.fromJavaScript(props);
}

export function fromStruct(struct: Struct | undefined): PropertyBag {
    return struct?.toJavaScript() ?? {};
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

export function makeAnalyzeRequest(r: AnalyzeResourceInput): analyzerproto.AnalyzeRequest {
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

export function makeAnalyzeStackRequest(resources: AnalyzeStackResourceInput[]): analyzerproto.AnalyzeStackRequest {
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
        const key = JSON.stringify([
            r.urn,
            r.type,
            r.name,
            r.properties,
            r.options ?? null,
            r.provider ?? null,
            r.parent ?? null,
            r.dependencies ?? null,
            r.propertyDependencies ?? null,
        ]);
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

export function convertDiagnostics(resp: analyzerproto.AnalyzeResponse): AnalyzeResult {
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

export function convertAnalyzerInfo(info: analyzerproto.AnalyzerInfo): AnalyzerInfo {
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
            const policyType =
                p.getPolicyType() === analyzerproto.PolicyType.POLICY_TYPE_RESOURCE
                    ? "resource"
                    : p.getPolicyType() === analyzerproto.PolicyType.POLICY_TYPE_STACK
                      ? "stack"
                      : "unspecified";
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

/** A Remediate response as plain objects. */
export function convertRemediations(resp: analyzerproto.RemediateResponse): { remediations: RemediationResult[]; notApplicable: NotApplicable[] } {
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
}

/** A ConfigureStack request: the stack the pack is told it runs for. */
export function makeStackConfigureRequest(settings: StackSettings): analyzerproto.AnalyzerStackConfigureRequest {
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
    return req;
}

/** A Configure request; throws PreviewError (exit 2) for an entry without a level (the proto default would be ADVISORY). */
export function makeConfigureRequest(config: Record<string, PolicyConfigEntry>): analyzerproto.ConfigureAnalyzerRequest {
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
    return req;
}
