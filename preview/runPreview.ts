/**
 * The CLI-faithful preview: starts the pack and reconciles its config (before the program runs,
 * as the CLI loads policy packs first), runs the program under preview mocks, then drives
 * Remediate/Analyze per resource and AnalyzeStack once, and renders the results.
 */
import * as fs from "fs";
import * as path from "path";
import { analyzeWithPacks, explainTempFile, OpenedPack, openPack } from "./analyzeResources";
import { PreviewError, ProgramFailure, SETUP_ERROR_EXIT } from "./errors";
import { Explanation, readExplanation } from "./explainReport";
import { PolicyConfigInput } from "./policyConfig";
import { formatPoliciesSection, formatPreviewOutput, PreviewView } from "./printViolations";
import { readProject, readStackConfig, stackConfigNotReproduced } from "./projectFiles";
import { writeStackExport } from "./recordExport";
import { runProgram } from "./forkProgram";
import { checkStack } from "./stackSelection";
import { AppliedRemediation, RecordedResource, ROOT_STACK_TYPE, Violation } from "./types";

export interface RunPreviewOptions {
    /** Folder with Pulumi.yaml; the program is its `main`, package.json entry, or index.js/index.ts. */
    programDir: string;
    /** Policy pack folder; default: the repository root (the folder holding package.json). */
    packDir?: string;
    /** --policy-pack-config: an object in the file's shape, or a path to the JSON file. */
    policyPackConfig?: PolicyConfigInput | string;
    /**
     * Every `--policy-pack` with its `--policy-pack-config`, in the order given (the CLI runs each);
     * when set, packDir and policyPackConfig are ignored.
     */
    packs?: Array<{ dir: string; config?: PolicyConfigInput | string }>;
    /** `--stack-reference <name>=<export file>`: what a StackReference to `name` reads. */
    stackReferences?: Record<string, string>;
    /** Path to write the sent resources to, in `pulumi stack export` shape (secrets redacted). */
    record?: string;
    /** `--show-secrets`: the --record file holds secrets' plaintext, as `stack export --show-secrets`. */
    showSecrets?: boolean;
    /** Stack name; default "dev". Pulumi.<stack>.yaml supplies config when present. */
    stack?: string;
    /** Receives program and pack logs; default: this process's stderr. */
    onLog?: (chunk: string) => void;
    /** Ask the pack to explain, per resource, the facts it read and why each policy applied or not. */
    explain?: boolean;
    /** The CLI's view: progress (default) or diff (`--diff`). */
    view?: PreviewView;
    /** CLI options given that the emulation does not reproduce (targetOptions.ts): each named, exit 1. */
    optionsNotReproduced?: string[];
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
    /** Program features the emulation did not reproduce (each one also printed, and exit 1). */
    notReproduced: string[];
    /** Each pack run, in the order given: what GetAnalyzerInfo said and what Configure sent. */
    packs: Array<Pick<OpenedPack, "info" | "config">>;
    /** The program's folder (absolute). */
    programDir: string;
}

/** The line printed for a program feature the emulation does not reproduce. */
export function notReproducedLine(feature: string): string {
    return `warning: not reproduced by the emulation: ${feature}; the CLI might block: run npm run preview:real for its verdicts\n`;
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
function writeRecord(file: string, resources: RecordedResource[], showSecrets: boolean): void {
    try {
        writeStackExport(file, resources, sdkVersion(), showSecrets);
    } catch (err) {
        throw new PreviewError(`cannot write --record file ${file}: ${(err as Error).message}`);
    }
}

function sdkVersion(): string {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDK's package.json, read where it is installed
    return `v${(require("@pulumi/pulumi/package.json") as { version: string }).version}`;
}

/**
 * Runs one preview with every pack given (opts.packs, else packDir), each started and configured
 * before the program runs. Output: PreviewResult (exitCode 1 on any mandatory violation, and on
 * any program feature the emulation did not reproduce, each logged as notReproducedLine).
 * Throws PreviewError: exit 2 for a program in another language (runtime yaml, python, ...);
 * exit 1 for project problems (missing directory or Pulumi.yaml, a `main` that does not resolve),
 * policy config problems (the program is not run), a program that fails (throws, rejects), a pack
 * that does not start, or a policy that throws. Every pack is always stopped.
 */
export async function runPreview(opts: RunPreviewOptions): Promise<PreviewResult> {
    const programDir = path.resolve(opts.programDir);
    const given = opts.packs ?? [{ dir: opts.packDir ?? defaultPackDir(), config: opts.policyPackConfig }];
    const log = opts.onLog ?? ((chunk: string) => process.stderr.write(chunk));
    // Project problems (no directory, no Pulumi.yaml, not nodejs, bad main) stop before the pack starts.
    const program = readProject(programDir);
    for (const pack of given) {
        checkPackDir(path.resolve(pack.dir));
    }
    const project = program.name;
    // Without --stack the stack is "dev" (the emulation has no selected stack); a --stack given is
    // checked as the CLI checks it, and failed closed where the emulation cannot look it up.
    const stack = opts.stack === undefined ? "dev" : checkStack(programDir, project, opts.stack, log);
    const stackConfig = readStackConfig(programDir, project, stack);
    for (const warning of program.warnings) {
        log(`warning: ${warning}\n`);
    }

    const explain = opts.explain ? explainTempFile() : undefined;
    // The CLI loads every pack (each configured) before the program runs. A folder given twice is
    // one plugin to it (plugins are named by absolute path): one process, analyzing twice, with
    // one of the configs (the loads race: v3.274.1 has kept the first in some runs, the second in others).
    const folders = [...new Set(given.map((p) => path.resolve(p.dir)))];
    const notReproduced: string[] = [];
    for (const feature of [...(opts.optionsNotReproduced ?? []), ...stackConfigNotReproduced(programDir, stack)]) {
        notReproduced.push(feature);
        log(notReproducedLine(feature));
    }
    for (const folder of folders) {
        const configs = given.filter((p) => path.resolve(p.dir) === folder).map((p) => JSON.stringify(p.config ?? null));
        if (new Set(configs).size > 1) {
            const feature =
                `the policy pack ${folder} given ${configs.length} times with different configs ` +
                "(the CLI loads it once and keeps one config, whichever load finishes last: a race; this preview uses the first)";
            notReproduced.push(feature);
            log(notReproducedLine(feature));
        }
    }
    const opened = new Map<string, OpenedPack>();
    const closeAll = async () => {
        for (const o of opened.values()) {
            await o.pack.close();
        }
    };
    try {
        for (const pack of given) {
            const folder = path.resolve(pack.dir);
            if (!opened.has(folder)) {
                opened.set(
                    folder,
                    await openPack({
                        packDir: folder,
                        packPath: pack.dir,
                        project,
                        stack,
                        stackConfig,
                        policyPackConfig: pack.config,
                        log,
                        explainFile: explain?.file,
                    }),
                );
            }
        }
    } catch (err) {
        await closeAll();
        explain?.cleanup();
        throw err;
    }
    const each = given.map((p) => opened.get(path.resolve(p.dir)) as OpenedPack);
    const runs = each.map((o) => ({ pack: o.pack, remediating: o.remediating }));
    // The Policies section has one entry per pack name and version, as the CLI's has.
    const summaries = each
        .map((o, i) => ({ name: o.info.name, version: o.info.version, localPath: given[i].dir }))
        .filter((p, i, all) => all.findIndex((q) => q.name === p.name && q.version === p.version) === i);
    try {
        const resources = await runProgram(programDir, {
            project,
            stack,
            config: stackConfig,
            onOutput: log,
            program,
            // The runner works in the program's folder: export files are named from here.
            stackReferences: Object.fromEntries(Object.entries(opts.stackReferences ?? {}).map(([k, v]) => [k, path.resolve(v)])),
            onNotReproduced: (features) => {
                notReproduced.push(...features);
                for (const feature of features) {
                    log(notReproducedLine(feature));
                }
            },
        }).catch(async (err: unknown) => {
            // As the engine: the resources registered before the failure are still analyzed
            // (Analyze only) and their verdicts printed; the preview fails.
            if (err instanceof ProgramFailure) {
                const { violations, remediations } = await analyzeWithPacks(runs, err.registered, {
                    remediating: false,
                    applyRemediations: true,
                    skipStack: true,
                    fallbackStackUrn: "",
                });
                err.output = formatPoliciesSection(summaries, violations, remediations);
            }
            throw err;
        });
        const { violations, remediations } = await analyzeWithPacks(runs, resources, {
            remediating: false,
            applyRemediations: true,
            fallbackStackUrn: `urn:pulumi:${stack}::${project}::${ROOT_STACK_TYPE}::${project}-${stack}`,
        });
        const output = formatPreviewOutput(summaries, violations, remediations, resources.length, opts.view);
        if (opts.record) {
            writeRecord(opts.record, resources, opts.showSecrets === true);
        }
        const mandatory = violations.some((v) => v.enforcementLevel === "mandatory");
        return {
            // A feature the emulation did not reproduce may hide a block: never exit 0 then.
            exitCode: mandatory || notReproduced.length > 0 ? 1 : 0,
            violations,
            remediations,
            output,
            resources,
            notReproduced,
            programDir,
            packs: each.map((o) => ({ info: o.info, config: o.config })),
            ...(explain
                ? {
                      explanation: readExplanation(
                          explain.file,
                          resources.map((r) => r.urn),
                      ),
                  }
                : {}),
        };
    } finally {
        await closeAll();
        explain?.cleanup();
    }
}
