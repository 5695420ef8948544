/**
 * PERFGUARD_RESULTS=<file>[,json|sarif]: the pack process writes the verdicts it reported to the
 * engine, so that a real `pulumi preview` (whose --json output carries no policy results,
 * pulumi#18851) leaves a machine-readable result. The pack's entry point requires this module only
 * when the variable is set, and taps the gRPC Analyzer service the SDK registers: after every
 * Analyze and AnalyzeStack response (an error included) the file is rewritten with every verdict so
 * far, so a preview that fails half way still leaves the verdicts it saw. The file holds only what
 * the reported diagnostics hold (policy, level, URN, message): the messages are already redacted.
 */
import * as fs from "fs";
import * as path from "path";
import { docsBase } from "./docsUrl";
import { writeJson } from "./json";
import { writeSarif } from "./sarif";
import { compareVerdicts, Location, ReportedLevel, ReportedViolation, repoPath, Results, RuleInfo, verdictOf } from "./verdict";

export const RESULTS_ENV = "PERFGUARD_RESULTS";
/** The program's folder relative to the repository root, for the file paths (as --program-root). */
export const PROGRAM_ROOT_ENV = "PERFGUARD_PROGRAM_ROOT";

export type PackResultFormat = "json" | "sarif";

export interface ResultsTarget {
    /** Absolute. */
    readonly file: string;
    readonly format: PackResultFormat;
    /** Set when the value named a format perfguard does not write (then JSON is written). */
    readonly warning?: string;
}

/**
 * Parses the variable's value. A relative file resolves against `startDir`: the folder the CLI was
 * started in (its PWD), since the pack runs in its own folder. Without a format: sarif for a
 * `.sarif` file, else json.
 */
export function parseResultsTarget(value: string, startDir: string): ResultsTarget {
    const comma = value.lastIndexOf(",");
    const named =
        comma >= 0
            ? value
                  .slice(comma + 1)
                  .trim()
                  .toLowerCase()
            : "";
    const file = path.resolve(startDir, (comma >= 0 ? value.slice(0, comma) : value).trim());
    if (named === "json" || named === "sarif") {
        return { file, format: named };
    }
    const byExtension: PackResultFormat = /\.sarif(\.json)?$/i.test(file) ? "sarif" : "json";
    return named === ""
        ? { file, format: byExtension }
        : { file, format: "json", warning: `${RESULTS_ENV}: format "${named}" is not json or sarif; writing JSON to ${file}` };
}

const LEVELS: readonly ReportedLevel[] = ["advisory", "mandatory", "disabled", "remediate"];

/** The proto enum (analyzer.proto: ADVISORY 0, MANDATORY 1, DISABLED 2, REMEDIATE 3) as the CLI shows it. */
export function levelOfProto(value: number): ReportedLevel {
    const level = LEVELS[value] ?? "advisory";
    // As the engine: a remediate-level violation means remediation did not fix it.
    return level === "remediate" ? "mandatory" : level;
}

/** The AnalyzeDiagnostic getters this module reads (google-protobuf message). */
export interface DiagnosticMessage {
    getPolicyname(): string;
    getPolicypackname(): string;
    getPolicypackversion(): string;
    getMessage(): string;
    getUrn(): string;
    getEnforcementlevel(): number;
}

interface AnalyzeResponseMessage {
    getDiagnosticsList(): DiagnosticMessage[];
}

type Callback = (err: unknown, response?: AnalyzeResponseMessage) => void;
type Handler = (call: { request?: { getUrn?(): string } }, callback: Callback) => unknown;

interface AnalyzerImplementation {
    analyze?: Handler;
    analyzeStack?: Handler;
}

interface GrpcServerClass {
    prototype: { addService(service: unknown, implementation: AnalyzerImplementation): void };
}

/** The verdicts reported so far, and the file they are written to. */
export class ResultsRecorder {
    private readonly reported = new Map<string, ReportedViolation>();

    constructor(
        private readonly target: ResultsTarget,
        private readonly tool: { readonly name: string; readonly version: string },
        private readonly rules: readonly RuleInfo[],
        private readonly programRoot: string,
    ) {}

    /**
     * Records one response's diagnostics. An Analyze diagnostic without a URN is about the resource
     * analyzed (the engine attaches it so); an AnalyzeStack one without a URN is stack-wide.
     */
    record(diagnostics: readonly DiagnosticMessage[], requestUrn: string | undefined): void {
        for (const d of diagnostics) {
            const urn = d.getUrn() || requestUrn || undefined;
            const v: ReportedViolation = {
                policyName: d.getPolicyname(),
                policyPackName: d.getPolicypackname(),
                policyPackVersion: d.getPolicypackversion(),
                enforcementLevel: levelOfProto(d.getEnforcementlevel()),
                message: d.getMessage(),
                ...(urn ? { urn } : {}),
            };
            // One verdict once: the engine may analyze a resource again (after a remediation).
            this.reported.set(JSON.stringify([v.policyName, v.urn ?? "", v.enforcementLevel, v.message]), v);
        }
    }

    results(): Results {
        const location: Location = { file: repoPath(this.programRoot, "Pulumi.yaml"), line: 1, declared: false };
        const verdicts = [...this.reported.values()].map((v) => verdictOf(v, location)).sort(compareVerdicts);
        return { tool: this.tool, rules: this.rules, verdicts };
    }

    /** Rewrites the file (through a temporary file and a rename, so no reader sees half of it). */
    write(): void {
        const results = this.results();
        const text = this.target.format === "sarif" ? writeSarif(results, { docsBase: docsBase() }) : writeJson(results);
        fs.mkdirSync(path.dirname(this.target.file), { recursive: true });
        const temp = `${this.target.file}.${process.pid}.tmp`;
        fs.writeFileSync(temp, text);
        fs.renameSync(temp, this.target.file);
    }
}

/** Wraps an Analyze or AnalyzeStack handler: records the response (or nothing, on an error) and writes the file. */
function wrap(handler: Handler, recorder: ResultsRecorder, stack: boolean): Handler {
    return function (this: unknown, call, callback) {
        return handler.call(this, call, (err, response) => {
            try {
                if (!err && response) {
                    recorder.record(response.getDiagnosticsList(), stack ? undefined : call.request?.getUrn?.());
                }
                recorder.write();
            } catch (e) {
                // The verdicts go to the engine whatever happens to the file.
                process.stderr.write(`${RESULTS_ENV}: could not write ${(e as Error).message}\n`);
            }
            callback(err, response);
        });
    };
}

/**
 * Runs `serve` (the `new PolicyPack(...)` call) with the gRPC server's addService wrapped so that
 * the Analyzer service's analyze and analyzeStack handlers record their responses; writes the
 * (empty) file at once, so that a preview that fails before any Analyze still leaves it.
 */
export function tapResults(
    grpcServer: GrpcServerClass,
    value: string,
    rules: readonly RuleInfo[],
    serve: () => void,
    env: NodeJS.ProcessEnv = process.env,
): void {
    const target = parseResultsTarget(value, env.PWD || process.cwd());
    if (target.warning) {
        process.stderr.write(target.warning + "\n");
    }
    let version = "0.0.0";
    try {
        version = String((JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as { version?: unknown }).version ?? version);
    } catch {
        // PolicyPack reads the same file; without it the SDK fails first.
    }
    const sorted = [...rules].map((r) => ({ id: r.id, description: r.description })).sort((a, b) => a.id.localeCompare(b.id));
    const recorder = new ResultsRecorder(target, { name: "perfguard", version }, sorted, env[PROGRAM_ROOT_ENV] ?? "");
    try {
        recorder.write();
    } catch (e) {
        process.stderr.write(`${RESULTS_ENV}: could not write ${(e as Error).message}\n`);
    }
    const original = grpcServer.prototype.addService;
    grpcServer.prototype.addService = function (this: unknown, service: unknown, implementation: AnalyzerImplementation): void {
        if (typeof implementation?.analyze === "function" && typeof implementation.analyzeStack === "function") {
            implementation = {
                ...implementation,
                analyze: wrap(implementation.analyze, recorder, false),
                analyzeStack: wrap(implementation.analyzeStack, recorder, true),
            };
        }
        original.call(this, service, implementation);
    };
    try {
        serve();
    } finally {
        grpcServer.prototype.addService = original;
    }
}
