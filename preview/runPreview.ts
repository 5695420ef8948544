/**
 * The CLI-faithful preview: starts the pack and reconciles its config (before the program runs,
 * as the CLI loads policy packs first), runs the program under preview mocks, then drives
 * Remediate/Analyze per resource and AnalyzeStack once, and renders the results.
 */
import * as fs from "fs";
import * as path from "path";
import { analyzeResources, explainTempFile, openPack } from "./analyzeResources";
import { PreviewError, ProgramFailure, SETUP_ERROR_EXIT } from "./errors";
import { Explanation, readExplanation } from "./explainReport";
import { PolicyConfigInput } from "./policyConfig";
import { formatPoliciesSection, formatPreviewOutput, PreviewView } from "./printViolations";
import { readProject, readStackConfig } from "./projectFiles";
import { writeStackExport } from "./recordExport";
import { runProgram } from "./forkProgram";
import { AppliedRemediation, RecordedResource, ROOT_STACK_TYPE, Violation } from "./types";

export interface RunPreviewOptions {
    /** Folder with Pulumi.yaml; the program is its `main`, package.json entry, or index.js/index.ts. */
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
    /** Ask the pack to explain, per resource, the facts it read and why each policy applied or not. */
    explain?: boolean;
    /** The CLI's view: progress (default) or diff (`--diff`). */
    view?: PreviewView;
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
    /** With `explain`: what the pack explained. */
    explanation?: Explanation;
}

/** The repository root: two levels up from preview/*.ts or dist/preview/*.js, wherever package.json is. */
export function defaultPackDir(): string {
    const up = path.resolve(__dirname, "..");
    return path.basename(up) === "dist" ? path.dirname(up) : up;
}

/**
 * Checks `packDir` as the CLI does before it starts a local pack: a directory holding
 * PulumiPolicy.yaml. Throws PreviewError (exit 2) otherwise.
 */
function checkPackDir(packDir: string): void {
    if (!fs.existsSync(packDir) || !fs.statSync(packDir).isDirectory()) {
        throw new PreviewError(`policy pack directory ${packDir} does not exist`, SETUP_ERROR_EXIT);
    }
    if (!fs.existsSync(path.join(packDir, "PulumiPolicy.yaml"))) {
        throw new PreviewError(`no PulumiPolicy.yaml in policy pack directory ${packDir}`, SETUP_ERROR_EXIT);
    }
}

/** Writes the --record file; an I/O failure is the user's (a missing folder, no permission). */
function writeRecord(file: string, resources: RecordedResource[]): void {
    try {
        writeStackExport(file, resources, sdkVersion());
    } catch (err) {
        throw new PreviewError(`cannot write --record file ${file}: ${(err as Error).message}`);
    }
}

function sdkVersion(): string {
    return `v${(require("@pulumi/pulumi/package.json") as { version: string }).version}`;
}

/**
 * Runs one preview. Output: PreviewResult (exitCode 1 on any mandatory violation).
 * Throws PreviewError: exit 2 for project problems (missing directory or Pulumi.yaml, a runtime
 * other than nodejs, a `main` that does not resolve) and policy config problems (the program is
 * not run), exit 1 when the program fails (throws, rejects, logs an error), the pack does not
 * start, or a policy throws. The pack is always stopped.
 */
export async function runPreview(opts: RunPreviewOptions): Promise<PreviewResult> {
    const programDir = path.resolve(opts.programDir);
    const packDirGiven = opts.packDir ?? defaultPackDir();
    const packDir = path.resolve(packDirGiven);
    const stack = opts.stack ?? "dev";
    const log = opts.onLog ?? ((chunk: string) => process.stderr.write(chunk));
    // Project problems (no directory, no Pulumi.yaml, not nodejs, bad main) stop before the pack starts.
    const program = readProject(programDir);
    checkPackDir(packDir);
    const project = program.name;
    const stackConfig = readStackConfig(programDir, project, stack);
    for (const warning of program.warnings) {
        log(`warning: ${warning}\n`);
    }

    const explain = opts.explain ? explainTempFile() : undefined;
    // The CLI's order: the pack is started and configured before the program runs.
    const { pack, info, remediating } = await openPack({
        packDir, packPath: packDirGiven, project, stack, stackConfig, policyPackConfig: opts.policyPackConfig, log, explainFile: explain?.file,
    }).catch((err) => {
        explain?.cleanup();
        throw err;
    });
    try {
        const resources = await runProgram(programDir, { project, stack, config: stackConfig, onOutput: log, program })
            .catch(async (err: unknown) => {
                // As the engine: the resources registered before the failure are still analyzed
                // (Analyze only) and their verdicts printed; the preview fails.
                if (err instanceof ProgramFailure) {
                    const { violations, remediations } = await analyzeResources(pack, err.registered, {
                        remediating, applyRemediations: true, skipStack: true, fallbackStackUrn: "",
                    });
                    err.output = formatPoliciesSection([{ name: info.name, version: info.version, localPath: packDirGiven }], violations, remediations);
                }
                throw err;
            });
        const { violations, remediations } = await analyzeResources(pack, resources, {
            remediating,
            applyRemediations: true,
            fallbackStackUrn: `urn:pulumi:${stack}::${project}::${ROOT_STACK_TYPE}::${project}-${stack}`,
        });
        const output = formatPreviewOutput(
            [{ name: info.name, version: info.version, localPath: packDirGiven }], violations, remediations, resources.length, opts.view);
        if (opts.record) {
            writeRecord(opts.record, resources);
        }
        return {
            exitCode: violations.some((v) => v.enforcementLevel === "mandatory") ? 1 : 0,
            violations, remediations, output, resources,
            ...(explain ? { explanation: readExplanation(explain.file, resources.map((r) => r.urn)) } : {}),
        };
    } finally {
        await pack.close();
        explain?.cleanup();
    }
}
