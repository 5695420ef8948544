/**
 * Runs a GitHub Actions job of docs/ci/*.yml here, step by step, as a runner would: each `run:`
 * step in `bash --noprofile --norc -eo pipefail` (the runner's `shell: bash`), in its
 * working-directory, with the env the workflow, the job and the step declare (after GitHub's
 * `${{ }}` substitution) over the runner's default variables, the steps after a failure skipped
 * unless their `if:` says otherwise. What needs GitHub or the network is not run and is said so:
 * `uses:` actions (checkout, setup-node, the Pulumi action), and the `run:` steps a test names with
 * its reason (npm ci, gh). Every step runs as a tracked command (test/support/processes.ts).
 */
import * as fs from "fs";
import * as path from "path";
import * as yaml from "js-yaml";
import { startTracked } from "./processes";

export interface Step {
    readonly name?: string;
    readonly id?: string;
    readonly uses?: string;
    readonly run?: string;
    readonly with?: Record<string, unknown>;
    readonly env?: Record<string, string>;
    readonly if?: string;
    readonly "working-directory"?: string;
    readonly shell?: string;
}

export interface Job {
    readonly "runs-on": string | string[];
    readonly env?: Record<string, string>;
    readonly permissions?: Record<string, string>;
    readonly "timeout-minutes"?: number;
    readonly steps: Step[];
}

export interface Workflow {
    readonly name: string;
    readonly on: Record<string, unknown>;
    readonly permissions?: Record<string, string>;
    readonly defaults?: { run?: { shell?: string } };
    readonly env?: Record<string, string>;
    readonly jobs: Record<string, Job>;
}

export const CI_DIR = path.resolve(__dirname, "..", "..", "docs", "ci");

/** Parses docs/ci/<file> with js-yaml. */
export function loadWorkflow(file: string): Workflow {
    return yaml.load(fs.readFileSync(path.join(CI_DIR, file), "utf8")) as Workflow;
}

/** Why each `uses:` action is not run here (all need GitHub). */
const ACTIONS: Record<string, string> = {
    "actions/checkout":
        "GitHub: checks out a repository; the test stages the workspace (the program, perfguard-config.json, perfguard/ linked to this checkout)",
    "actions/setup-node": "GitHub: installs Node.js; the steps run on this machine's Node",
    "pulumi/actions": "GitHub: installs the Pulumi CLI; the test puts the CLI built by npm run real-cli:setup on PATH",
    "marocchino/sticky-pull-request-comment":
        "GitHub: posts or updates the pull request's comment (needs the GitHub API); the test checks the file it would post",
    "github/codeql-action/upload-sarif": "GitHub: uploads the SARIF file to code scanning (needs the GitHub API); the test validates the file it would upload",
};

export interface JobRunOptions {
    /** GITHUB_WORKSPACE: the checkout of the team's repository. */
    readonly workspace: string;
    /** RUNNER_TEMP. */
    readonly runnerTemp: string;
    /** github.event_name. */
    readonly event: string;
    /** The runner's environment (PATH, HOME, ...); the job's env is laid over it. */
    readonly baseEnv: NodeJS.ProcessEnv;
    /** Values of the workflow's and job's env keys the docs say to replace (PROGRAM_DIR, STACK). */
    readonly replace?: Record<string, string>;
    /** Values of `${{ }}` expressions other than `env.*`: secrets.*, vars.*, github.*. */
    readonly expressions?: Record<string, string>;
    /** `run:` steps (by name) not run here, with why (they need the network or GitHub). */
    readonly skip?: Record<string, string>;
    /** Run only these steps (by name); the others are reported "not selected". */
    readonly only?: readonly string[];
    /**
     * Composite actions run here, by the `uses:` name without its ref (e.g. `<org>/perfguard`): the
     * action.yml and its checkout. Their steps run as runAction does, named `<step> / <action step>`.
     */
    readonly actions?: Record<string, { readonly action: CompositeAction; readonly path: string }>;
}

export interface StepResult {
    readonly name: string;
    readonly ran: boolean;
    /** Why it did not run. */
    readonly reason?: string;
    readonly code?: number | null;
    readonly output?: string;
    /** A `uses:` step's `with:`, after `${{ }}` substitution: what the action would have been given. */
    readonly with?: Record<string, string>;
}

export interface JobResult {
    readonly steps: StepResult[];
    /** Every step that ran exited 0. */
    readonly success: boolean;
    /** The named step's result (throws when there is none). */
    step(name: string): StepResult;
}

function substitute(text: string, lookup: (expr: string) => string): string {
    return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_m, expr: string) => lookup(expr));
}

/**
 * A step's `if:` as the runner reads it: always(), success(), failure(), and `<context.name> == '...'`
 * or `!= '...'` (github.event_name, a composite action's inputs.*), joined by &&.
 */
function condition(text: string | undefined, failed: boolean, event: string, expressions: Readonly<Record<string, string>> = {}): boolean {
    if (text === undefined) {
        return !failed;
    }
    const expr = text.replace(/^\$\{\{\s*|\s*\}\}$/g, "");
    let statusChecked = false;
    const value = expr
        .split("&&")
        .map((t) => t.trim())
        .every((term) => {
            if (term === "always()") {
                statusChecked = true;
                return true;
            }
            if (term === "success()") {
                statusChecked = true;
                return !failed;
            }
            if (term === "failure()") {
                statusChecked = true;
                return failed;
            }
            const m = /^([a-z_]+\.[a-z0-9_-]+)\s*(==|!=)\s*'([^']*)'$/i.exec(term);
            const value = m ? (m[1] === "github.event_name" ? event : expressions[m[1]]) : undefined;
            if (m && value !== undefined) {
                return (value === m[3]) === (m[2] === "==");
            }
            throw new Error(`if: ${JSON.stringify(text)}: the test runner does not evaluate ${JSON.stringify(term)}`);
        });
    // Without a status function GitHub adds success().
    return value && (statusChecked || !failed);
}

/**
 * Runs job `jobName` of `workflow` step by step. Output: JobResult. Throws on what it cannot run
 * faithfully (an unknown action or expression, a step without a name).
 */
export async function runJob(workflow: Workflow, jobName: string, opts: JobRunOptions): Promise<JobResult> {
    const job = workflow.jobs[jobName];
    if (!job) {
        throw new Error(`no job ${jobName} in ${workflow.name}`);
    }
    const layer = (declared: Record<string, string> | undefined, replace: boolean): Record<string, string> => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(declared ?? {})) {
            out[k] = replace && opts.replace?.[k] !== undefined ? opts.replace[k] : String(v);
        }
        return out;
    };
    const summary = path.join(opts.runnerTemp, "step-summary.md");
    fs.mkdirSync(opts.runnerTemp, { recursive: true });
    const runnerEnv: Record<string, string> = {
        CI: "true",
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: opts.workspace,
        RUNNER_TEMP: opts.runnerTemp,
        GITHUB_EVENT_NAME: opts.event,
        GITHUB_STEP_SUMMARY: summary,
    };
    const lookupIn =
        (env: Record<string, string>) =>
        (expr: string): string => {
            if (expr.startsWith("env.")) {
                const v = env[expr.slice(4)];
                if (v === undefined) {
                    throw new Error(`\${{ ${expr} }}: not in the env`);
                }
                return v;
            }
            const v = opts.expressions?.[expr];
            if (v === undefined) {
                throw new Error(`\${{ ${expr} }}: the test gives no value for it`);
            }
            return v;
        };
    // GitHub evaluates the workflow's env first, then the job's (which may read the workflow's).
    const workflowEnv = layer(workflow.env, true);
    const jobEnv: Record<string, string> = { ...workflowEnv };
    for (const [k, v] of Object.entries(layer(job.env, true))) {
        jobEnv[k] = substitute(v, lookupIn(jobEnv));
    }
    const shell = workflow.defaults?.run?.shell;
    const results: StepResult[] = [];
    let failed = false;
    for (const [index, step] of job.steps.entries()) {
        const name = step.name ?? (step.uses ? `uses ${step.uses}` : undefined);
        if (name === undefined) {
            throw new Error(`step ${index} of ${jobName} has no name`);
        }
        // A composite action of the repository (`uses: ./perfguard`) is a step like a `run:` one: a
        // test may leave it out (only) or skip it with its reason (it needs the real CLI).
        if (step.uses?.startsWith("./") && opts.only && !opts.only.includes(name)) {
            results.push({ name, ran: false, reason: "not selected by this test" });
            continue;
        }
        if (step.uses?.startsWith("./") && opts.skip?.[name] !== undefined) {
            results.push({ name, ran: false, reason: opts.skip[name] });
            continue;
        }
        const local = step.uses ? opts.actions?.[step.uses.replace(/@.*$/, "")] : undefined;
        if (local && !condition(step.if, failed, opts.event, opts.expressions)) {
            results.push({ name, ran: false, reason: failed ? "an earlier step failed" : `if: ${step.if}` });
            continue;
        }
        if (local) {
            const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), lookupIn(jobEnv))]));
            // The test skips an action's step as `<step> / <action step>`.
            const skip = Object.fromEntries(
                Object.entries(opts.skip ?? {})
                    .filter(([k]) => k.startsWith(`${name} / `))
                    .map(([k, v]) => [k.slice(name.length + 3), v]),
            );
            // A composite action's steps run in the calling job's environment (its env and the step's).
            const callerEnv = { ...jobEnv };
            for (const [k, v] of Object.entries(step.env ?? {})) {
                callerEnv[k] = substitute(String(v), lookupIn(callerEnv));
            }
            const inner = await runAction(local.action, local.path, inputs, {
                ...opts,
                baseEnv: { ...opts.baseEnv, ...callerEnv },
                actions: undefined,
                only: undefined,
                skip,
            });
            results.push(...inner.steps.map((r) => ({ ...r, name: `${name} / ${r.name}` })));
            failed = failed || !inner.success;
            continue;
        }
        if (step.uses) {
            const action = step.uses.replace(/@.*$/, "");
            const reason = ACTIONS[action];
            if (!reason) {
                throw new Error(`${name}: the test runner knows no reason to skip ${step.uses}`);
            }
            // Recorded, not run: an expression the test gives no value for stays as written.
            const lenient = (expr: string): string => {
                try {
                    return lookupIn(jobEnv)(expr);
                } catch {
                    return `\${{ ${expr} }}`;
                }
            };
            const given = step.with ? { with: Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, substitute(String(v), lenient)])) } : {};
            results.push({ name, ran: false, reason, ...given });
            continue;
        }
        if (opts.only && !opts.only.includes(name)) {
            results.push({ name, ran: false, reason: "not selected by this test" });
            continue;
        }
        if (!condition(step.if, failed, opts.event, opts.expressions)) {
            results.push({ name, ran: false, reason: failed ? "an earlier step failed" : `if: ${step.if}` });
            continue;
        }
        if (opts.skip?.[name] !== undefined) {
            results.push({ name, ran: false, reason: opts.skip[name] });
            continue;
        }
        if (step.run === undefined) {
            throw new Error(`${name}: neither uses nor run`);
        }
        if ((step.shell ?? shell) !== "bash") {
            throw new Error(`${name}: the recipe's steps run in bash (defaults.run.shell)`);
        }
        const stepEnv = { ...jobEnv };
        for (const [k, v] of Object.entries(step.env ?? {})) {
            stepEnv[k] = substitute(String(v), lookupIn(stepEnv));
        }
        const lookup = lookupIn(stepEnv);
        const script = path.join(opts.runnerTemp, `step-${index}.sh`);
        fs.writeFileSync(script, substitute(step.run, lookup));
        const cwd = path.resolve(opts.workspace, substitute(step["working-directory"] ?? ".", lookup));
        const run = await startTracked("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
            cwd,
            env: { ...opts.baseEnv, ...runnerEnv, ...stepEnv },
        }).done;
        results.push({ name, ran: true, code: run.code, output: run.stdout + run.stderr });
        if (run.code !== 0) {
            failed = true;
        }
    }
    return {
        steps: results,
        success: results.every((r) => !r.ran || r.code === 0),
        step(stepName: string): StepResult {
            const found = results.find((r) => r.name === stepName);
            if (!found) {
                throw new Error(`no step ${stepName}: ${results.map((r) => r.name).join(", ")}`);
            }
            return found;
        },
    };
}

/** The runner's environment for a test: this process's, without anything the job must declare itself. */
export function runnerBaseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
    for (const key of ["PULUMI_BACKEND_URL", "PULUMI_CONFIG_PASSPHRASE", "PULUMI_CONFIG_PASSPHRASE_FILE", "PULUMI_ACCESS_TOKEN", "GITHUB_TOKEN", "GH_TOKEN"]) {
        delete env[key];
    }
    return env;
}

/** A composite action's action.yml (the repository root's), as far as the runner reads it here. */
export interface CompositeAction {
    readonly name: string;
    readonly inputs?: Record<string, { description?: string; default?: string; required?: boolean }>;
    readonly runs: { readonly using: string; readonly steps: Step[] };
}

export function loadAction(file: string): CompositeAction {
    return yaml.load(fs.readFileSync(file, "utf8")) as CompositeAction;
}

/**
 * Runs a composite action's steps as a job of one workflow step `uses: <the action>` would: its
 * inputs (the defaults under those given, as `inputs.*`), `github.action_path` (the action's
 * checkout) and `runner.temp` as expressions; the rest as runJob.
 */
export async function runAction(action: CompositeAction, actionPath: string, inputs: Record<string, string>, opts: JobRunOptions): Promise<JobResult> {
    if (action.runs.using !== "composite") {
        throw new Error(`${action.name}: runs.using is ${action.runs.using}, not composite`);
    }
    const unknown = Object.keys(inputs).filter((k) => !(k in (action.inputs ?? {})));
    if (unknown.length > 0) {
        throw new Error(`${action.name} has no input ${unknown.join(", ")}`);
    }
    const expressions: Record<string, string> = {
        ...opts.expressions,
        "github.action_path": actionPath,
        "runner.temp": opts.runnerTemp,
        "github.event_name": opts.event,
    };
    for (const [name, spec] of Object.entries(action.inputs ?? {})) {
        expressions[`inputs.${name}`] = inputs[name] ?? spec.default ?? "";
    }
    const workflow: Workflow = { name: action.name, on: {}, jobs: { action: { "runs-on": "ubuntu-latest", steps: action.runs.steps } } };
    return runJob(workflow, "action", { ...opts, expressions });
}
