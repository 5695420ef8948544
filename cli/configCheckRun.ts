/**
 * `perfguard config check <file>` as a command: reads the file (a missing or malformed one is a
 * usage error, exit 2), asks the pack for its policies and schemas as the CLI does, and prints
 * what cli/configCheck.ts finds (exit 1 on any problem).
 */

import * as fs from "fs";

import { AnalyzerInfo, PolicyConfigEntry, startPack } from "../preview/packClient";
import { reconcilePolicyConfig } from "../preview/policyConfig";
import { defaultPackDir } from "../preview/runPreview";
import { EnforcementLevel, JsonValue } from "../preview/types";
import { UsageError } from "./errors";

import { jsonErrorWhere } from "./stackExport";
import { checkPolicyConfig, ConfigFindings, ConfigProblem } from "./configCheck";

export interface ConfigCheckOptions {
    file: string;
    /** Policy pack folder; default: this repository (the perfguard pack). */
    packDir?: string;
    /** Receives the pack's own log output. */
    log: (chunk: string) => void;
    /** --allow-gates-off: a file that leaves no policy mandatory is meant. */
    allowGatesOff?: boolean;
}

export interface ConfigCheckResult {
    /** 1 on any problem, else 0. */
    exitCode: number;
    text: string;
    json: Record<string, unknown>;
}

/** Reads the file: a missing, unreadable or malformed file is a usage error (exit 2); its content is checked. */
function readConfigFile(file: string): { raw: unknown; text: string } {
    let text: string;
    try {
        text = fs.readFileSync(file, "utf8");
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new UsageError(
            `cannot read policy pack config ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (err as Error).message}`,
        );
    }
    if (text.trim() === "") {
        return { raw: {}, text }; // the CLI accepts an empty file: no config
    }
    try {
        return { raw: JSON.parse(text) as unknown, text };
    } catch (err) {
        // A malformed input file is a usage error (exit 2), as for every command (cli/errors.ts).
        throw new UsageError(`policy pack config ${file} is not valid JSON (${jsonErrorWhere(err)}); the Pulumi CLI fails the preview on it too`);
    }
}

/**
 * Runs the check: starts the pack (GetAnalyzerInfo), checks the file, and renders the result.
 * Throws UsageError for a file that cannot be read, an error when the pack does not start.
 */
export async function runConfigCheck(opts: ConfigCheckOptions): Promise<ConfigCheckResult> {
    const read = readConfigFile(opts.file);
    const pack = await startPack(opts.packDir ?? defaultPackDir(), { onOutput: opts.log });
    let info: AnalyzerInfo;
    try {
        info = await pack.getAnalyzerInfo();
    } finally {
        await pack.close();
    }
    const findings: ConfigFindings = checkPolicyConfig(read.raw, info, { text: read.text, allowGatesOff: opts.allowGatesOff });
    const isObject = read.raw !== null && typeof read.raw === "object" && !Array.isArray(read.raw);
    if (!info.supportsConfig && isObject && Object.keys(read.raw as object).length > 0) {
        (findings.problems as ConfigProblem[]).unshift({ policy: "", message: `policy pack ${JSON.stringify(info.name)} does not support config` });
    }
    // The reconciliation the preview runs must agree: a file with no problem here reconciles there.
    if (findings.problems.length === 0 && isObject && info.supportsConfig) {
        reconcilePolicyConfig(info, toEntries(read.raw as Record<string, unknown>));
    }
    const lines: string[] = [`perfguard config check ${opts.file}: ${info.name} ${info.version}, ${info.policies.length} policies`];
    for (const p of findings.problems) {
        lines.push(`error: ${p.policy === "" ? "" : `${p.policy}: `}${p.message}`);
    }
    for (const n of findings.notes) {
        lines.push(`note: ${n.policy === "" ? "" : `${n.policy}: `}${n.message}`);
    }
    if (findings.levels.length > 0) {
        lines.push("Levels this file changes:");
        for (const l of findings.levels) {
            lines.push(`    ${l.policy}: ${l.level} (default ${l.defaultLevel})`);
        }
    }
    const count = findings.problems.length;
    lines.push(
        count === 0
            ? "ok: every key names a policy, every level and setting is valid."
            : `${count} problem${count === 1 ? "" : "s"}: this config would not do what it says; fix ${count === 1 ? "it" : "them"} before a preview.`,
    );
    return {
        exitCode: count === 0 ? 0 : 1,
        text: lines.join("\n") + "\n",
        json: {
            file: opts.file,
            pack: info.name,
            version: info.version,
            valid: count === 0,
            problems: findings.problems,
            notes: findings.notes,
            levels: findings.levels,
        },
    };
}

/** The file's entries as the preview parses them (only called on a file with no problem). */
function toEntries(raw: Record<string, unknown>): Record<string, PolicyConfigEntry> {
    const out: Record<string, PolicyConfigEntry> = {};
    for (const [key, value] of Object.entries(raw)) {
        if (key === "environments") {
            continue;
        }
        if (typeof value === "string") {
            out[key] = { enforcementLevel: value as EnforcementLevel };
        } else if (value !== null && typeof value === "object") {
            const { enforcementLevel, ...properties } = value as Record<string, JsonValue>;
            out[key] = {
                ...(enforcementLevel ? { enforcementLevel: enforcementLevel as EnforcementLevel } : {}),
                ...(Object.keys(properties).length > 0 ? { properties } : {}),
            };
        }
    }
    return out;
}
