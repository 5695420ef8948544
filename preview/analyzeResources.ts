/**
 * The part of a preview that follows the program run, shared by `npm run preview` and
 * `perfguard check`: start the pack and reconcile its config as the CLI does, then send
 * Remediate/Analyze per resource (inputs) and AnalyzeStack once (outputs, parent, dependencies,
 * property dependencies), and turn the diagnostics into violations as the engine does.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { EXPLAIN_ENV } from "../policies/pack/decisionLog";
import { PreviewError } from "./errors";
import { AnalyzerInfo, PackClient, PolicyConfigEntry, prepareAnalyzeStackShared, startPack } from "./packClient";
import { parsePolicyConfig, PolicyConfigInput, reconcilePolicyConfig } from "./policyConfig";
import { urnName, urnType } from "./printViolations";
import { AppliedRemediation, Diagnostic, ProviderResource, RecordedResource, ROOT_STACK_TYPE, Violation } from "./types";

export interface OpenPackOptions {
    /** Policy pack folder (absolute or relative to the cwd). */
    packDir: string;
    /** The --policy-pack path as given, which `pulumi preview` names in a Configure error; omit for `policy analyze`'s wording. */
    packPath?: string;
    project: string;
    stack: string;
    /** Stack config for PULUMI_CONFIG and ConfigureStack; default {}. */
    stackConfig?: Record<string, string>;
    /** --policy-pack-config: an object in the file's shape, or a path to the JSON file. */
    policyPackConfig?: PolicyConfigInput | string;
    /** Receives pack logs and config warnings. */
    log: (chunk: string) => void;
    /** File the pack appends explanations to (PERFGUARD_EXPLAIN); omit to keep them off. */
    explainFile?: string;
    /** Extra environment for the pack process, over this process's (e.g. NODE_OPTIONS for `perfguard diff`). */
    env?: Record<string, string>;
}

/** A started, configured pack. */
export interface OpenedPack {
    pack: PackClient;
    info: AnalyzerInfo;
    /** What Configure sent: every policy with its level and properties (schema defaults applied). */
    config: Record<string, PolicyConfigEntry>;
    /** True when any policy ends at "remediate". */
    remediating: boolean;
}

/**
 * Starts the pack and sends, in the CLI's order, Handshake, ConfigureStack, GetAnalyzerInfo and
 * Configure (the reconciled config).
 * Output: OpenedPack; the caller must `pack.close()` it. Throws PreviewError: exit 2 on config
 * problems (unreadable or invalid file, schema violations), exit 1 when the pack does not start.
 * The pack is closed on every failure.
 */
export async function openPack(opts: OpenPackOptions): Promise<OpenedPack> {
    const stackConfig = opts.stackConfig ?? {};
    const pack = await startPack(opts.packDir, {
        project: opts.project,
        stack: opts.stack,
        dryRun: true,
        config: stackConfig,
        onOutput: opts.log,
        env: opts.explainFile || opts.env ? { ...opts.env, ...(opts.explainFile ? { [EXPLAIN_ENV]: opts.explainFile } : {}) } : undefined,
    });
    try {
        await pack.handshake();
        await pack.configureStack({ project: opts.project, stack: opts.stack, dryRun: true, config: stackConfig, tags: {} });
        const info = await pack.getAnalyzerInfo();
        if (!info.supportsConfig) {
            if (opts.policyPackConfig !== undefined) {
                throw new PreviewError(`policy pack "${info.name}" does not support config`, 2);
            }
            return { pack, info, config: {}, remediating: false };
        }
        const parsed = opts.policyPackConfig === undefined ? {} : parsePolicyConfig(opts.policyPackConfig);
        // Keys that name no policy go to the pack, as the CLI sends them; the pack reports them
        // (policies/pack/configuredNames.ts), so the emulation prints nothing the CLI does not.
        const { config } = reconcilePolicyConfig(info, parsed, opts.packPath);
        await pack.configure(config);
        return { pack, info, config, remediating: Object.values(config).some((c) => c.enforcementLevel === "remediate") };
    } catch (err) {
        await pack.close();
        throw err;
    }
}

export interface AnalyzeOptions {
    /** Call Remediate before Analyze (some policy is at "remediate"). */
    remediating: boolean;
    /**
     * Apply remediations to the resources' inputs before Analyze, as a deployment does (the
     * preview); false reports them without applying, as the engine does for existing state.
     */
    applyRemediations: boolean;
    /** URN for stack-wide violations when the resources hold no root stack. */
    fallbackStackUrn: string;
    /** Analyze only: the program failed, and the engine runs no AnalyzeStack then. */
    skipStack?: boolean;
    /**
     * Remediate and Analyze only the resources this accepts (all when absent); AnalyzeStack still
     * gets every resource. `perfguard diff` skips resources identical on both sides.
     */
    analyzeOnly?: (resource: RecordedResource) => boolean;
    /**
     * Encoded AnalyzeStack resources to share with another call (prepareAnalyzeStackShared): the
     * request's bytes are the same; `perfguard diff` encodes a resource both sides hold once.
     */
    stackEncodingCache?: Map<string, Uint8Array>;
}

export interface AnalyzeOutcome {
    violations: Violation[];
    remediations: AppliedRemediation[];
}

function providerOf(r: RecordedResource, byUrn: Map<string, RecordedResource>): ProviderResource | undefined {
    if (!r.provider) {
        return undefined;
    }
    // A provider reference is `<urn>::<id>`.
    const urn = r.provider.slice(0, r.provider.lastIndexOf("::"));
    const p = byUrn.get(urn);
    return p ? { urn: p.urn, type: p.type, name: p.name, properties: p.inputs } : undefined;
}

function toViolation(d: Diagnostic, urn: string, phase: Violation["phase"]): Violation {
    return {
        policyName: d.policyName,
        policyPackName: d.policyPackName,
        policyPackVersion: d.policyPackVersion,
        // As the engine: a remediate-level violation means remediation did not fix it.
        enforcementLevel: d.enforcementLevel === "remediate" ? "mandatory" : d.enforcementLevel,
        message: d.message,
        urn,
        resourceType: urnType(urn),
        resourceName: urnName(urn),
        phase,
    };
}

/**
 * Sends every resource to the pack: Remediate (when remediating) and Analyze with its inputs,
 * in order, then one AnalyzeStack with every resource's outputs and dependencies.
 * Input: resources in engine order (root stack first); with applyRemediations, a remediated
 * resource's inputs (and, but for the root stack, outputs) are replaced in place.
 * Output: violations (Analyze ones first, then AnalyzeStack's, attributed to their own URN when
 * it is in `resources`, else to the root stack) and remediations.
 * Throws when an RPC fails (a policy that throws, a pack that died).
 */
export async function analyzeResources(pack: PackClient, resources: RecordedResource[], opts: AnalyzeOptions): Promise<AnalyzeOutcome> {
    return analyzeWithPacks([{ pack, remediating: opts.remediating }], resources, opts);
}

/** One pack of several, with whether any of its policies remediates. */
export interface PackRun {
    pack: PackClient;
    remediating: boolean;
}

/**
 * analyzeResources for every `--policy-pack` the CLI was given, as the step generator runs its
 * analyzers: per resource, first each pack's Remediate in the order given (each sees the inputs
 * the previous one left), then each pack's Analyze on the final inputs; after the program, each
 * pack's AnalyzeStack. `opts.remediating` is ignored: each PackRun says its own.
 */
export async function analyzeWithPacks(packs: readonly PackRun[], resources: RecordedResource[], opts: AnalyzeOptions): Promise<AnalyzeOutcome> {
    const byUrn = new Map(resources.map((r) => [r.urn, r]));
    const violations: Violation[] = [];
    const remediations: AppliedRemediation[] = [];

    const analyzed = resources.filter((r) => !opts.analyzeOnly || opts.analyzeOnly(r));
    const baseOf = (r: RecordedResource) => ({
        urn: r.urn,
        type: r.type,
        name: r.name,
        options: { ...r.options, parent: r.parent },
        provider: providerOf(r, byUrn),
    });
    const analyzeOne = async (r: RecordedResource): Promise<Violation[]> => {
        const found: Violation[] = [];
        for (const { pack } of packs) {
            const { diagnostics } = await pack.analyze({ ...baseOf(r), properties: r.inputs });
            found.push(...diagnostics.map((d) => toViolation(d, r.urn, "analyze")));
        }
        return found;
    };
    if (packs.some((p) => p.remediating)) {
        // A remediation changes the inputs the next pack and Analyze see: strictly one resource at a time.
        for (const r of analyzed) {
            await remediateOne(packs, r, baseOf(r), opts, violations, remediations);
            violations.push(...(await analyzeOne(r)));
        }
    } else {
        // Analyze calls are independent (a resource policy sees one resource): keep a window of them
        // in flight so neither side waits on the other's round trip; the violations keep resource order.
        for (const found of await inOrderWindowed(analyzed, ANALYZE_WINDOW, analyzeOne)) {
            violations.push(...found);
        }
    }

    if (opts.skipStack) {
        return { violations, remediations };
    }
    const stackUrn = resources.find((r) => r.type === ROOT_STACK_TYPE && r.parent === "")?.urn ?? opts.fallbackStackUrn;
    const stackResources = resources.map((r) => ({
        urn: r.urn,
        type: r.type,
        name: r.name,
        properties: r.outputs,
        options: { ...r.options, parent: r.parent },
        provider: providerOf(r, byUrn),
        parent: r.parent,
        dependencies: r.dependencies,
        propertyDependencies: r.propertyDependencies,
    }));
    for (const { pack } of packs) {
        const { diagnostics } = opts.stackEncodingCache
            ? await pack.analyzeStackPrepared(prepareAnalyzeStackShared(stackResources, opts.stackEncodingCache))
            : await pack.analyzeStack(stackResources);
        // Stack violations name their own resource when it is in the stack, else the root stack.
        violations.push(...diagnostics.map((d) => toViolation(d, d.urn && byUrn.has(d.urn) ? d.urn : stackUrn, "analyzeStack")));
    }
    return { violations, remediations };
}

/** Analyze calls in flight at once when no pack remediates (a bound, so a fleet's 100,000 resources do not all queue at once). */
const ANALYZE_WINDOW = 16;

/** f over items with at most `window` calls pending; the results in the items' order. */
async function inOrderWindowed<T, R>(items: readonly T[], window: number, f: (item: T) => Promise<R>): Promise<R[]> {
    const out = new Array<R>(items.length);
    let next = 0;
    const worker = async (): Promise<void> => {
        while (next < items.length) {
            const i = next++;
            out[i] = await f(items[i]);
        }
    };
    await Promise.all(Array.from({ length: Math.min(window, items.length) }, worker));
    return out;
}

/** Each remediating pack's Remediate on one resource, in the order given (each sees the inputs the previous one left). */
async function remediateOne(
    packs: readonly PackRun[],
    r: RecordedResource,
    base: { urn: string; type: string; name: string; options: RecordedResource["options"] & { parent: string }; provider: ProviderResource | undefined },
    opts: AnalyzeOptions,
    violations: Violation[],
    remediations: AppliedRemediation[],
): Promise<void> {
    for (const { pack, remediating } of packs) {
        if (!remediating) {
            continue;
        }
        const { remediations: results } = await pack.remediate({ ...base, properties: r.inputs });
        for (const result of results) {
            if (result.diagnostic) {
                // As the engine: a remediation that could not run is an advisory violation.
                violations.push(toViolation({ ...result, message: result.diagnostic, enforcementLevel: "advisory" }, r.urn, "analyze"));
            } else if (result.properties) {
                remediations.push({
                    policyName: result.policyName,
                    policyPackName: result.policyPackName,
                    policyPackVersion: result.policyPackVersion,
                    urn: r.urn,
                    before: r.inputs,
                    after: result.properties,
                });
                if (opts.applyRemediations) {
                    // A preview's outputs follow the (remediated) inputs; the stack's are its exports.
                    if (r.type !== ROOT_STACK_TYPE) {
                        r.outputs = result.properties;
                    }
                    r.inputs = result.properties;
                }
            }
        }
    }
}

/**
 * A fresh, private file for the pack's explanations (in a new temp folder).
 * Output: { file, cleanup } — cleanup removes the folder and never throws.
 */
export function explainTempFile(): { file: string; cleanup: () => void } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-explain-"));
    return {
        file: path.join(dir, "explain.jsonl"),
        cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
    };
}
