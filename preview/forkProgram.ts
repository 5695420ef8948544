/**
 * Parent side of the program runner: forks mockedProgram in a process of its own and collects
 * the resources the program registered.
 */
import { fork } from "child_process";
import * as path from "path";
import type { RunnerMessage } from "./mockedProgram";
import { PreviewError, ProgramFailure } from "./errors";
import { ProgramProject, readProject } from "./projectFiles";
import { RecordedResource, STACK_REFERENCES_ENV } from "./types";

export interface RunProgramOptions {
    project: string;
    stack: string;
    /** Stack config as PULUMI_CONFIG carries it. */
    config: Record<string, string>;
    /** Where the program's stdout/stderr go; default: this process's stderr. */
    onOutput?: (chunk: string) => void;
    /** Upper bound for the whole run, in ms; default 120000. */
    timeoutMs?: number;
    /** The program to load and its cwd, as readProject resolved them; default: readProject(programDir). */
    program?: Pick<ProgramProject, "entry" | "cwd">;
    /** `--stack-reference` exports: stack name -> `pulumi stack export` file. */
    stackReferences?: Record<string, string>;
    /** Receives, once the run is over, each program feature the emulation did not reproduce. */
    onNotReproduced?: (features: string[]) => void;
}

const OUTPUT_TAIL_CHARS = 4000;

/** Returns how to start mockedProgram: the compiled .js, or the .ts source through ts-node. */
function runnerEntry(): { file: string; execArgv: string[]; env: Record<string, string> } {
    if (__filename.endsWith(".ts")) {
        return {
            file: path.join(__dirname, "mockedProgram.ts"),
            execArgv: ["-r", "ts-node/register/transpile-only"],
            env: {
                TS_NODE_SKIP_PROJECT: "true",
                TS_NODE_COMPILER_OPTIONS: JSON.stringify({
                    target: "ES2020",
                    module: "commonjs",
                    moduleResolution: "node",
                    esModuleInterop: true,
                }),
            },
        };
    }
    return { file: path.join(__dirname, "mockedProgram.js"), execArgv: [], env: {} };
}

/**
 * Runs the program in `programDir` under mocks in preview mode, loading the file Pulumi would
 * (see readProject: Pulumi.yaml `main`, package.json, index.js/index.ts) until the event loop
 * empties, as the Pulumi nodejs runtime does.
 * Output: every registered resource in registration order, the root stack first.
 * Throws PreviewError (exit 1) `program <dir> failed:\n<messages>` when the program throws, a
 * registration or output rejects, a promise rejection goes unhandled, or the SDK logs an error;
 * also when the runner exits without a result or the run exceeds the timeout. Throws
 * PreviewError (exit 2) from readProject when `program` is not given and the project does not resolve.
 */
export function runProgram(programDir: string, opts: RunProgramOptions): Promise<RecordedResource[]> {
    let program: Pick<ProgramProject, "entry" | "cwd">;
    try {
        program = opts.program ?? readProject(programDir);
    } catch (err) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what readProject threw, unchanged
        return Promise.reject(err);
    }
    const entry = runnerEntry();
    const timeoutMs = opts.timeoutMs ?? 120_000;
    const onOutput = opts.onOutput ?? ((chunk: string) => process.stderr.write(chunk));
    return new Promise((resolve, reject) => {
        const child = fork(entry.file, [program.entry, program.cwd, opts.project, opts.stack], {
            cwd: program.cwd,
            execArgv: entry.execArgv,
            env: {
                ...process.env,
                ...entry.env,
                PULUMI_CONFIG: JSON.stringify(opts.config),
                PULUMI_NODEJS_PROJECT: opts.project,
                PULUMI_NODEJS_STACK: opts.stack,
                PULUMI_NODEJS_DRY_RUN: "true",
                [STACK_REFERENCES_ENV]: JSON.stringify(opts.stackReferences ?? {}),
            },
            stdio: ["ignore", "pipe", "pipe", "ipc"],
        });
        let tail = "";
        const collect = (data: Buffer) => {
            const text = data.toString();
            tail = (tail + text).slice(-OUTPUT_TAIL_CHARS);
            onOutput(text);
        };
        child.stdout?.on("data", collect);
        child.stderr?.on("data", collect);

        let message: RunnerMessage | undefined;
        child.on("message", (m) => {
            message = m as RunnerMessage;
        });
        const timer = setTimeout(() => {
            child.kill("SIGKILL");
            // The runner, like Pulumi's nodejs runtime, ends when the program's event loop is empty.
            reject(
                new PreviewError(
                    `program ${programDir} did not finish within ${timeoutMs / 1000} s ` +
                        "(the program runs until nothing is pending: an open timer, server or socket keeps it running)",
                ),
            );
        }, timeoutMs);
        child.on("error", (err) => {
            clearTimeout(timer);
            reject(new PreviewError(`cannot start the program runner for ${programDir}: ${err.message}`));
        });
        child.on("exit", (code, signal) => {
            clearTimeout(timer);
            if (message && message.notReproduced.length > 0) {
                opts.onNotReproduced?.(message.notReproduced);
            }
            if (message?.kind === "result") {
                resolve(message.resources);
            } else if (message?.kind === "error") {
                reject(new ProgramFailure(`program ${programDir} failed:\n${message.message}`, message.resources));
            } else {
                const why = signal ? `signal ${signal}` : `exit code ${code}`;
                reject(new PreviewError(`program ${programDir} ended (${why}) without a result:\n${tail}`));
            }
        });
    });
}
