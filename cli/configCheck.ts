/**
 * `perfguard config check <file>`: a --policy-pack-config file against the pack it configures,
 * before any preview. The Pulumi CLI rejects a bad level or a setting its schema refuses, but a key
 * that names no policy passes (a string level is ignored, exit 0; an object without a level fails
 * with `invalid enforcement level ""`, naming no key), and a policy's unknown setting is sent on
 * unread. Each of these leaves a gate other than the user meant; this command reports every one,
 * in the CLI's words where the CLI has words, with the policy (key) it is about, and exits 1.
 *
 * The pack is asked for its policies and schemas over gRPC (GetAnalyzerInfo), as the CLI asks it,
 * so `--policy-pack` may name any pack.
 */
import * as fs from "fs";
import { didYouMean } from "../policies/pack/config";
import { escapeControl } from "../policies/pack/message";
import { hostKeyProblems, XEN_HOSTS_POLICIES } from "../policies/xen/evaluation";
import { AnalyzerInfo, PolicyConfigEntry, startPack } from "../preview/packClient";
import { reconcilePolicyConfig, validatePolicyProperties } from "../preview/policyConfig";
import { defaultPackDir } from "../preview/runPreview";
import { ENFORCEMENT_LEVELS, EnforcementLevel, JsonValue } from "../preview/types";
import { UsageError } from "./errors";
import { jsonErrorWhere } from "./stackExport";

/** One problem: the key it is about ("" for the file as a whole) and the message. */
export interface ConfigProblem {
    readonly policy: string;
    readonly message: string;
}

/** A policy whose level the file changes. */
export interface LevelChange {
    readonly policy: string;
    readonly level: EnforcementLevel;
    readonly defaultLevel: EnforcementLevel;
}

export interface ConfigFindings {
    /** Sorted by key, then message. */
    readonly problems: readonly ConfigProblem[];
    /** Things that are not errors but worth knowing (ESC environments). */
    readonly notes: readonly ConfigProblem[];
    /** The policies whose level differs from its default after this file (sorted). */
    readonly levels: readonly LevelChange[];
}

function isLevel(value: unknown): value is EnforcementLevel {
    return typeof value === "string" && (ENFORCEMENT_LEVELS as readonly string[]).includes(value);
}

/** A key as shown in a message: quoted and escaped, or its length when it is too long to be a typo. */
function shownKey(key: string): string {
    return key.length <= 64 ? JSON.stringify(escapeControl(key)) : `a key of ${key.length} characters`;
}

/** A value as Go's %v would show it, near enough: JSON, shortened. */
function shownValue(value: unknown): string {
    const text = JSON.stringify(value) ?? String(value);
    return text.length <= 40 ? text : `${text.slice(0, 37)}...`;
}

function jsType(value: unknown): string {
    return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** `: did you mean "advisory"?` for a misspelt level, or "". */
function levelSuggestion(value: string): string {
    const near = didYouMean(value, ENFORCEMENT_LEVELS);
    return near ? `: did you mean "${near}"?` : "";
}

/**
 * The CLI's words for an invalid level, then perfguard's: the level it is near, and what the CLI
 * does with the file (it rejects it: the preview fails before any policy runs, so none of the
 * policy's settings in it apply either).
 */
function invalidLevel(key: string, shown: string, suggestion: string, settings: readonly string[]): string {
    const lost = settings.length > 0 ? `, and ${key === "all" ? "its" : `${JSON.stringify(escapeControl(key))}'s`} settings (${settings.join(", ")}) apply nowhere` : "";
    return `parsing enforcement level for ${JSON.stringify(key)}: ${shown} is not a valid enforcement level${suggestion} ` +
        `(the Pulumi CLI rejects the file: the preview fails before any policy runs${lost})`;
}

/** The setting of an object that is meant as its level (`level`, `enforcmentLevel`), if any. */
function misspeltLevelKey(settings: readonly string[]): string | undefined {
    return settings.find((s) => didYouMean(s, ["enforcementLevel"]) !== undefined);
}

/**
 * Checks a parsed config file (any JSON value) against the pack's policies.
 * Input: the file's JSON and the pack's GetAnalyzerInfo. Output: ConfigFindings. Never throws.
 */
export function checkPolicyConfig(raw: unknown, info: AnalyzerInfo): ConfigFindings {
    const problems: ConfigProblem[] = [];
    const notes: ConfigProblem[] = [];
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
        return { problems: [{ policy: "", message: `the file must be a JSON object keyed by policy name, not ${jsType(raw)}` }], notes, levels: [] };
    }
    const pack = `${info.name} ${info.version}`;
    const names = info.policies.map((p) => p.name);
    const byName = new Map(info.policies.map((p) => [p.name, p]));
    // What the CLI would reconcile: only the entries it parses without an error.
    const usable: Record<string, PolicyConfigEntry> = {};

    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
        const policy = escapeControl(key);
        if (key === "environments") {
            if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
                problems.push({ policy, message: `"environments" must be an array of strings, got ${jsType(value)}` });
            } else {
                notes.push({ policy, message: "ESC environments are resolved by the Pulumi Cloud backend only; with a file backend the preview fails (\"the current backend does not support them\")" });
            }
            continue;
        }
        let level: EnforcementLevel | undefined;
        let properties: Record<string, JsonValue> = {};
        if (typeof value === "string") {
            if (!isLevel(value)) {
                problems.push({ policy, message: invalidLevel(key, JSON.stringify(escapeControl(value)), levelSuggestion(value), []) });
                continue;
            }
            level = value;
        } else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
            const { enforcementLevel, ...rest } = value as Record<string, JsonValue>;
            const others = Object.keys(rest).sort();
            if (enforcementLevel !== undefined) {
                if (typeof enforcementLevel !== "string") {
                    problems.push({ policy, message: invalidLevel(key, shownValue(enforcementLevel), "; must be a string", others) });
                    continue;
                }
                if (!isLevel(enforcementLevel)) {
                    problems.push({ policy, message: invalidLevel(key, JSON.stringify(escapeControl(enforcementLevel)), levelSuggestion(enforcementLevel), others) });
                    continue;
                }
                level = enforcementLevel;
            }
            properties = rest;
        } else {
            problems.push({ policy, message: `parsing ${JSON.stringify(key)}: ${shownValue(value)} is not a valid value; must be a string or object` });
            continue;
        }
        const settings = Object.keys(properties).sort();

        if (key === "all") {
            if (settings.length > 0) {
                problems.push({ policy, message: level === undefined
                    ? `invalid enforcement level "" (the Pulumi CLI's error, naming no key): "all" takes only a level, and this one has settings (${settings.join(", ")}) but no enforcementLevel`
                    : `"all" sets only levels: its settings (${settings.join(", ")}) reach no policy` });
            }
            if (level !== undefined) {
                usable[key] = { enforcementLevel: level };
            }
            continue;
        }
        const known = byName.get(key);
        if (!known) {
            const near = didYouMean(key, names);
            const meant = near ? `: did you mean "${near}"?` : "";
            const levelKey = misspeltLevelKey(settings);
            const asLevel = levelKey !== undefined ? ` A level goes in "enforcementLevel", not ${shownKey(levelKey)}.` : "";
            const lost = settings.length > 0 ? `its settings (${settings.map((k) => escapeControl(k)).join(", ")}) reach no policy` : "";
            problems.push({ policy, message: level === undefined
                ? `invalid enforcement level "" (the Pulumi CLI's error, naming no key): ${shownKey(key)} is not a policy of ${pack}${meant}${asLevel} ` +
                    `(the Pulumi CLI rejects the file: the preview fails before any policy runs${lost ? `, and ${lost}` : ""})`
                : `${shownKey(key)} is not a policy of ${pack}${meant} (the Pulumi CLI accepts it and the policy meant keeps its default level${lost ? `; ${lost}` : ""})` });
            continue;
        }
        const accepted = Object.keys(known.configSchema?.properties ?? {});
        for (const setting of settings.filter((s) => !accepted.includes(s))) {
            const near = didYouMean(setting, accepted);
            const accepts = `accepted keys are ${accepted.length > 0 ? accepted.sort().join(", ") : "none"}, plus enforcementLevel`;
            if (near === undefined && misspeltLevelKey([setting]) !== undefined) {
                // `{"level": "mandatory"}`: the CLI takes it for a setting, so the level meant is never set.
                const meantLevel = properties[setting];
                const valueNote = typeof meantLevel === "string" && !isLevel(meantLevel)
                    ? ` And ${JSON.stringify(escapeControl(meantLevel))} is not a valid enforcement level${levelSuggestion(meantLevel)}`
                    : "";
                problems.push({ policy, message: `unknown config key ${shownKey(setting)}: did you mean "enforcementLevel"?${valueNote} ` +
                    `(${accepts}; the Pulumi CLI sends it on as a setting, so ${key} keeps its level, ${effectiveLevelOf(info, key, allLevel(raw as Record<string, unknown>)) ?? "its default"})` });
                continue;
            }
            problems.push({ policy, message: `unknown config key ${shownKey(setting)}${near ? `: did you mean "${near}"?` : ""} (${accepts}; the Pulumi CLI sends it on and the setting is not applied)` });
        }
        // A host key the schema accepts but that names no host (empty or blank): the Xen policies' own rule.
        if (XEN_HOSTS_POLICIES.includes(key)) {
            for (const message of hostKeyProblems(properties.hosts)) {
                problems.push({ policy, message: escapeControl(message) });
            }
        }
        usable[key] = { ...(level !== undefined ? { enforcementLevel: level } : {}), ...(settings.length > 0 ? { properties } : {}) };
    }

    // The schema check, on the reconciled config (defaults < the pack's initial config < this
    // file), with the CLI's validator's words, one line per problem.
    for (const policy of info.policies) {
        if (!policy.configSchema) {
            continue;
        }
        const merged = reconciledProperties(info, usable, policy.name);
        for (const problem of validatePolicyProperties(policy.configSchema, merged)) {
            problems.push({ policy: policy.name, message: problem });
        }
    }

    const levels: LevelChange[] = [];
    const effective = effectiveLevels(info, usable);
    for (const policy of info.policies) {
        const level = effective[policy.name];
        if (level && level !== policy.enforcementLevel) {
            levels.push({ policy: policy.name, level, defaultLevel: policy.enforcementLevel });
        }
    }
    const order = (a: ConfigProblem, b: ConfigProblem): number => a.policy.localeCompare(b.policy) || a.message.localeCompare(b.message);
    return { problems: [...problems].sort(order), notes: [...notes].sort(order), levels: levels.sort((a, b) => a.policy.localeCompare(b.policy)) };
}

/** A policy's level when the file does not set it itself: its default, the pack's initial config, then the file's "all". */
function effectiveLevelOf(info: AnalyzerInfo, name: string, all: EnforcementLevel | undefined): EnforcementLevel | undefined {
    return effectiveLevels(info, all !== undefined ? { all: { enforcementLevel: all } } : {})[name];
}

/** The file's valid "all" level, in either form. */
function allLevel(raw: Record<string, unknown>): EnforcementLevel | undefined {
    const all = raw.all;
    const level = all !== null && typeof all === "object" && !Array.isArray(all) ? (all as Record<string, unknown>).enforcementLevel : all;
    return isLevel(level) ? level : undefined;
}

/** One policy's properties after the CLI's reconciliation (schema defaults, initial config, file). */
function reconciledProperties(info: AnalyzerInfo, usable: Record<string, PolicyConfigEntry>, name: string): Record<string, JsonValue> {
    const base: Record<string, JsonValue> = {};
    const policy = info.policies.find((p) => p.name === name);
    for (const [key, schema] of Object.entries(policy?.configSchema?.properties ?? {})) {
        if (schema !== null && typeof schema === "object" && !Array.isArray(schema) && "default" in schema) {
            base[key] = (schema as Record<string, JsonValue>).default;
        }
    }
    return { ...base, ...(info.initialConfig[name]?.properties ?? {}), ...(usable[name]?.properties ?? {}) } as Record<string, JsonValue>;
}

/** Each policy's level after defaults, the initial config and the file ("all" first, as the CLI applies it). */
function effectiveLevels(info: AnalyzerInfo, usable: Record<string, PolicyConfigEntry>): Record<string, EnforcementLevel> {
    const result: Record<string, EnforcementLevel> = {};
    for (const p of info.policies) {
        result[p.name] = p.enforcementLevel;
    }
    for (const layer of [info.initialConfig, usable]) {
        const all = layer.all?.enforcementLevel;
        if (all) {
            for (const name of Object.keys(result)) {
                result[name] = all;
            }
        }
        for (const [name, entry] of Object.entries(layer)) {
            if (name !== "all" && name in result && entry.enforcementLevel) {
                result[name] = entry.enforcementLevel;
            }
        }
    }
    return result;
}

export interface ConfigCheckOptions {
    file: string;
    /** Policy pack folder; default: this repository (the perfguard pack). */
    packDir?: string;
    /** Receives the pack's own log output. */
    log: (chunk: string) => void;
}

export interface ConfigCheckResult {
    /** 1 on any problem, else 0. */
    exitCode: number;
    text: string;
    json: Record<string, unknown>;
}

/** Reads the file: a missing, unreadable or malformed file is a usage error (exit 2); its content is checked. */
function readConfigFile(file: string): { raw: unknown } {
    let text: string;
    try {
        text = fs.readFileSync(file, "utf8");
    } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        throw new UsageError(`cannot read policy pack config ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (err as Error).message}`);
    }
    if (text.trim() === "") {
        return { raw: {} }; // the CLI accepts an empty file: no config
    }
    try {
        return { raw: JSON.parse(text) as unknown };
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
    const findings: ConfigFindings = checkPolicyConfig(read.raw, info);
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
        lines.push(`note: ${n.policy}: ${n.message}`);
    }
    if (findings.levels.length > 0) {
        lines.push("Levels this file changes:");
        for (const l of findings.levels) {
            lines.push(`    ${l.policy}: ${l.level} (default ${l.defaultLevel})`);
        }
    }
    const count = findings.problems.length;
    lines.push(count === 0
        ? "ok: every key names a policy, every level and setting is valid."
        : `${count} problem${count === 1 ? "" : "s"}: this config would not do what it says; fix ${count === 1 ? "it" : "them"} before a preview.`);
    return {
        exitCode: count === 0 ? 0 : 1,
        text: lines.join("\n") + "\n",
        json: {
            file: opts.file, pack: info.name, version: info.version, valid: count === 0,
            problems: findings.problems, notes: findings.notes, levels: findings.levels,
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
            out[key] = { ...(enforcementLevel ? { enforcementLevel: enforcementLevel as EnforcementLevel } : {}), ...(Object.keys(properties).length > 0 ? { properties } : {}) };
        }
    }
    return out;
}
