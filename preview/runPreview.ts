/**
 * The CLI-faithful preview: starts the pack and reconciles its config (before the program runs,
 * as the CLI loads policy packs first), runs the program under preview mocks, then drives
 * Remediate/Analyze per resource and AnalyzeStack once, and renders the results.
 */
import * as path from "path";
import { PreviewError } from "./errors";
import { AnalyzerInfo, PackClient, startPack } from "./packClient";
import { parsePolicyConfig, PolicyConfigInput, reconcilePolicyConfig } from "./policyConfig";
import { formatPreviewOutput, urnName, urnType } from "./printViolations";
import { readProjectName, readStackConfig } from "./projectFiles";
import { writeStackExport } from "./recordExport";
import { runProgram } from "./runProgram";
import {
    AppliedRemediation, Diagnostic, ProviderResource, RecordedResource, ROOT_STACK_TYPE, Violation,
} from "./types";

export interface RunPreviewOptions {
    /** Folder with Pulumi.yaml and index.ts. */
    programDir: string;
    /** Policy pack folder; default: the repository root (the folder holding package.json). */
    packDir?: string;
    /** --policy-pack-config: an object in the file's shape, or a path to the JSON file. */
    policyPackConfig?: PolicyConfigInput | string;
    /** Path to write the sent resources to, in `pulumi stack export` shape. */
    record?: string;
    /** Stack name; default "dev". Pulumi.<stack>.yaml supplies config when present. */
    stack?: string;
    /** Receives program and pack logs; default: this process's stderr. */
    onLog?: (chunk: string) => void;
}

export interface PreviewResult {
    /** 1 when any mandatory violation was reported, else 0. */
    exitCode: number;
    violations: Violation[];
    remediations: AppliedRemediation[];
    /** What the CLI-format printer produced. */
    output: string;
    /** The resources as sent (after remediation), root stack first. */
    resources: RecordedResource[];
}

/** The repository root: two levels up from preview/*.ts or dist/preview/*.js, wherever package.json is. */
export function defaultPackDir(): string {
    const up = path.resolve(__dirname, "..");
    return path.basename(up) === "dist" ? path.dirname(up) : up;
}

function sdkVersion(): string {
    return `v${(require("@pulumi/pulumi/package.json") as { version: string }).version}`;
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
 * Reconciles and sends the pack's config; resolves true when any policy ends at "remediate".
 * Throws PreviewError (exit 2) on config problems.
 */
async function configurePack(
    pack: PackClient, info: AnalyzerInfo, given: RunPreviewOptions["policyPackConfig"], log: (chunk: string) => void,
): Promise<boolean> {
    if (!info.supportsConfig) {
        if (given !== undefined) {
            throw new PreviewError(`policy pack "${info.name}" does not support config`, 2);
        }
        return false;
    }
    const parsed = given === undefined ? {} : parsePolicyConfig(given);
    const { config: reconciled, unknownPolicies } = reconcilePolicyConfig(info, parsed);
    for (const name of unknownPolicies) {
        log(`warning: policy pack config names "${name}", which is not a policy of ${info.name}@v${info.version}\n`);
    }
    await pack.configure(reconciled);
    return Object.values(reconciled).some((c) => c.enforcementLevel === "remediate");
}

/**
 * Runs one preview. Output: PreviewResult (exitCode 1 on any mandatory violation).
 * Throws PreviewError: exit 2 for policy config problems (the program is not run), exit 1 when
 * the program fails, the pack does not start, or a policy throws. The pack is always stopped.
 */
export async function runPreview(opts: RunPreviewOptions): Promise<PreviewResult> {
    const programDir = path.resolve(opts.programDir);
    const packDirGiven = opts.packDir ?? defaultPackDir();
    const packDir = path.resolve(packDirGiven);
    const stack = opts.stack ?? "dev";
    const log = opts.onLog ?? ((chunk: string) => process.stderr.write(chunk));
    const project = readProjectName(programDir);
    const stackConfig = readStackConfig(programDir, project, stack);

    const pack = await startPack(packDir, { project, stack, dryRun: true, config: stackConfig, onOutput: log });
    try {
        // The CLI's order: Handshake, ConfigureStack, GetAnalyzerInfo, Configure.
        await pack.handshake();
        await pack.configureStack({ project, stack, dryRun: true, config: stackConfig, tags: {} });
        const info = await pack.getAnalyzerInfo();
        const remediating = await configurePack(pack, info, opts.policyPackConfig, log);

        const resources = await runProgram(programDir, { project, stack, config: stackConfig, onOutput: log });
        const byUrn = new Map(resources.map((r) => [r.urn, r]));
        const violations: Violation[] = [];
        const remediations: AppliedRemediation[] = [];

        for (const r of resources) {
            const base = {
                urn: r.urn, type: r.type, name: r.name,
                options: { ...r.options, parent: r.parent }, provider: providerOf(r, byUrn),
            };
            if (remediating) {
                const { remediations: results } = await pack.remediate({ ...base, properties: r.inputs });
                for (const result of results) {
                    if (result.diagnostic) {
                        // As the engine: a remediation that could not run is an advisory violation.
                        violations.push(toViolation(
                            { ...result, message: result.diagnostic, enforcementLevel: "advisory" }, r.urn, "analyze"));
                    } else if (result.properties) {
                        remediations.push({
                            policyName: result.policyName, policyPackName: result.policyPackName,
                            policyPackVersion: result.policyPackVersion, urn: r.urn, before: r.inputs, after: result.properties,
                        });
                        // A preview's outputs follow the (remediated) inputs; the stack's are its exports.
                        if (r.type !== ROOT_STACK_TYPE) {
                            r.outputs = result.properties;
                        }
                        r.inputs = result.properties;
                    }
                }
            }
            const { diagnostics } = await pack.analyze({ ...base, properties: r.inputs });
            violations.push(...diagnostics.map((d) => toViolation(d, r.urn, "analyze")));
        }

        const stackUrn = resources.find((r) => r.type === ROOT_STACK_TYPE && r.parent === "")?.urn
            ?? `urn:pulumi:${stack}::${project}::${ROOT_STACK_TYPE}::${project}-${stack}`;
        const { diagnostics } = await pack.analyzeStack(resources.map((r) => ({
            urn: r.urn, type: r.type, name: r.name, properties: r.outputs,
            options: { ...r.options, parent: r.parent }, provider: providerOf(r, byUrn),
            parent: r.parent, dependencies: r.dependencies, propertyDependencies: r.propertyDependencies,
        })));
        // Stack violations name their own resource when it is in the stack, else the root stack.
        violations.push(...diagnostics.map((d) => toViolation(d, d.urn && byUrn.has(d.urn) ? d.urn : stackUrn, "analyzeStack")));

        const output = formatPreviewOutput(
            [{ name: info.name, version: info.version, localPath: packDirGiven }], violations, remediations, resources.length);
        if (opts.record) {
            writeStackExport(opts.record, resources, sdkVersion());
        }
        return {
            exitCode: violations.some((v) => v.enforcementLevel === "mandatory") ? 1 : 0,
            violations, remediations, output, resources,
        };
    } finally {
        await pack.close();
    }
}
