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
 *
 * This file judges a parsed config against the pack's policies (checkPolicyConfig); the command
 * that reads the file, starts the pack and prints the findings is cli/configCheckRun.ts.
 */
import { appliedFrom, MOVED_SETTINGS, ROOM_SETTINGS } from "../policies/citrix/evaluation";
import { MOVED_SETTINGS as NSX_MOVED_SETTINGS } from "../policies/nsx-alb/config";
import { didYouMean } from "../policies/pack/config";
import { escapeControl } from "../policies/pack/message";
import { hostDifferences, hostKeyProblems, settingDifferences, XEN_HOSTS_POLICIES } from "../policies/xen/evaluation";
import { AnalyzerInfo, PolicyConfigEntry } from "../preview/packClient";
import { validatePolicyProperties } from "../preview/policyConfig";

import { ENFORCEMENT_LEVELS, EnforcementLevel, JsonValue } from "../preview/types";

import { duplicateKeys } from "./jsonDuplicateKeys";

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
    /** Things that are not errors but worth knowing (ESC environments, the policies the file turns off). */
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
    const lost =
        settings.length > 0 ? `, and ${key === "all" ? "its" : `${JSON.stringify(escapeControl(key))}'s`} settings (${settings.join(", ")}) apply nowhere` : "";
    return (
        `parsing enforcement level for ${JSON.stringify(key)}: ${shown} is not a valid enforcement level${suggestion} ` +
        `(the Pulumi CLI rejects the file: the preview fails before any policy runs${lost})`
    );
}

/** The setting of an object that is meant as its level (`level`, `enforcmentLevel`), if any. */
function misspeltLevelKey(settings: readonly string[]): string | undefined {
    return settings.find((s) => didYouMean(s, ["enforcementLevel"]) !== undefined);
}

/** The flag that lets a file leave no mandatory gate (`config check --allow-gates-off`). */
export const ALLOW_GATES_OFF_FLAG = "--allow-gates-off";

export interface CheckPolicyConfigOptions {
    /** The file's text, to find the keys it gives twice (JSON.parse keeps the last, as the CLI). */
    readonly text?: string;
    /** A file that leaves no policy mandatory is meant (a note, not an error). */
    readonly allowGatesOff?: boolean;
}

/**
 * The keys a file gives twice, one problem each, under the policy (top-level key) they are in:
 * the Pulumi CLI decodes the file with Go's encoding/json into a map, which keeps the last value.
 */
function duplicateKeyProblems(text: string): ConfigProblem[] {
    return duplicateKeys(text).map((d) => {
        const where = d.path.length > 0 ? ` in ${d.path.map((k) => shownKey(k)).join(" > ")}` : "";
        return {
            policy: escapeControl(d.path[0] ?? d.key),
            message:
                `duplicate key ${shownKey(d.key)}${where} at line ${d.line} (first at line ${d.firstLine}): ` +
                `the Pulumi CLI's JSON decoder keeps the last, so the value at line ${d.firstLine} is not applied`,
        };
    });
}

/**
 * Checks a parsed config file (any JSON value) against the pack's policies.
 * Input: the file's JSON, the pack's GetAnalyzerInfo, and options (the text, for duplicate keys;
 * whether a file that leaves no mandatory gate is meant). Output: ConfigFindings. Never throws.
 */
export function checkPolicyConfig(raw: unknown, info: AnalyzerInfo, opts: CheckPolicyConfigOptions = {}): ConfigFindings {
    const problems: ConfigProblem[] = opts.text !== undefined ? duplicateKeyProblems(opts.text) : [];
    const notes: ConfigProblem[] = [];
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
        return {
            problems: [...problems, { policy: "", message: `the file must be a JSON object keyed by policy name, not ${jsType(raw)}` }],
            notes,
            levels: [],
        };
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
                notes.push({
                    policy,
                    message:
                        'ESC environments are resolved by the Pulumi Cloud backend only; with a file backend the preview fails ("the current backend does not support them")',
                });
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
                    problems.push({
                        policy,
                        message: invalidLevel(key, JSON.stringify(escapeControl(enforcementLevel)), levelSuggestion(enforcementLevel), others),
                    });
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
                problems.push({
                    policy,
                    message:
                        level === undefined
                            ? `invalid enforcement level "" (the Pulumi CLI's error, naming no key): "all" takes only a level, and this one has settings (${settings.join(", ")}) but no enforcementLevel`
                            : `"all" sets only levels: its settings (${settings.join(", ")}) reach no policy`,
                });
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
            problems.push({
                policy,
                message:
                    level === undefined
                        ? `invalid enforcement level "" (the Pulumi CLI's error, naming no key): ${shownKey(key)} is not a policy of ${pack}${meant}${asLevel} ` +
                          `(the Pulumi CLI rejects the file: the preview fails before any policy runs${lost ? `, and ${lost}` : ""})`
                        : `${shownKey(key)} is not a policy of ${pack}${meant} (the Pulumi CLI accepts it and the policy meant keeps its default level${lost ? `; ${lost}` : ""})`,
            });
            continue;
        }
        const accepted = Object.keys(known.configSchema?.properties ?? {});
        for (const setting of settings.filter((s) => !accepted.includes(s))) {
            const near = didYouMean(setting, accepted);
            const accepts = `accepted keys are ${accepted.length > 0 ? accepted.sort().join(", ") : "none"}, plus enforcementLevel`;
            if (near === undefined && misspeltLevelKey([setting]) !== undefined) {
                // `{"level": "mandatory"}`: the CLI takes it for a setting, so the level meant is never set.
                const meantLevel = properties[setting];
                const valueNote =
                    typeof meantLevel === "string" && !isLevel(meantLevel)
                        ? ` And ${JSON.stringify(escapeControl(meantLevel))} is not a valid enforcement level${levelSuggestion(meantLevel)}`
                        : "";
                problems.push({
                    policy,
                    message:
                        `unknown config key ${shownKey(setting)}: did you mean "enforcementLevel"?${valueNote} ` +
                        `(${accepts}; the Pulumi CLI sends it on as a setting, so ${key} keeps its level, ${effectiveLevelOf(info, key, allLevel(raw as Record<string, unknown>)) ?? "its default"})`,
                });
                continue;
            }
            problems.push({
                policy,
                message: `unknown config key ${shownKey(setting)}${near ? `: did you mean "${near}"?` : ""} (${accepts}; the Pulumi CLI sends it on and the setting is not applied)`,
            });
        }
        // A room setting still set in its earlier second home: read there as a fallback, with its one home named.
        for (const moved of MOVED_SETTINGS.filter((x) => x.policy === key && settings.includes(x.key))) {
            notes.push({
                policy,
                message: `${moved.key} is deprecated here: its one home is ${moved.home} (set it there; this copy applies only while ${moved.home} leaves it at its default)`,
            });
        }
        for (const moved of NSX_MOVED_SETTINGS.filter((x) => x.policy === key && settings.includes(x.key))) {
            notes.push({ policy, message: moved.note });
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

    bothSetNotes(info, usable, notes);
    xenHostsNotes(info, usable, notes);

    const levels: LevelChange[] = [];
    const effective = effectiveLevels(info, usable);
    for (const policy of info.policies) {
        const level = effective[policy.name];
        if (level && level !== policy.enforcementLevel) {
            levels.push({ policy: policy.name, level, defaultLevel: policy.enforcementLevel });
        }
    }
    gateFindings(info, usable, effective, opts.allowGatesOff === true, problems, notes);
    const order = (a: ConfigProblem, b: ConfigProblem): number => a.policy.localeCompare(b.policy) || a.message.localeCompare(b.message);
    return { problems: [...problems].sort(order), notes: [...notes].sort(order), levels: levels.sort((a, b) => a.policy.localeCompare(b.policy)) };
}

/**
 * A Citrix room setting this file sets both in its home and in a deprecated copy, to different
 * values: one note naming both and the value that applies to every Citrix policy (the home's where
 * it is set; policies/citrix/roomSettings.ts), on the reconciled values the pack receives.
 */
function bothSetNotes(info: AnalyzerInfo, usable: Record<string, PolicyConfigEntry>, notes: ConfigProblem[]): void {
    for (const setting of ROOM_SETTINGS) {
        const copyIn = setting.deprecatedIn;
        if (copyIn === undefined || usable[setting.home]?.properties?.[setting.key] === undefined || usable[copyIn]?.properties?.[setting.key] === undefined) {
            continue;
        }
        const home = reconciledProperties(info, usable, setting.home)[setting.key];
        const copy = reconciledProperties(info, usable, copyIn)[setting.key];
        if (JSON.stringify(home) === JSON.stringify(copy)) {
            continue;
        }
        const applies =
            appliedFrom(setting, home, copy) === "home"
                ? `${setting.home}'s ${shownValue(home)} applies to every Citrix policy`
                : `${copyIn}'s ${shownValue(copy)} applies to every Citrix policy, as ${setting.home}'s is its default`;
        notes.push({
            policy: copyIn,
            message: `${setting.key} is set both here (${shownValue(copy)}, deprecated) and on its one home ${setting.home} (${shownValue(home)}): ${applies}; remove it here`,
        });
    }
}

/**
 * A Xen host given different values in the two Xen policies' `hosts` (each reads only its own):
 * one note per host and field, on the reconciled values the pack receives, in bothSetNotes' words.
 */
function xenHostsNotes(info: AnalyzerInfo, usable: Record<string, PolicyConfigEntry>, notes: ConfigProblem[]): void {
    const [here, there] = XEN_HOSTS_POLICIES;
    if (!info.policies.some((p) => p.name === here) || !info.policies.some((p) => p.name === there)) {
        return;
    }
    const config = (name: string): unknown => reconciledProperties(info, usable, name);
    for (const d of settingDifferences(config(here), config(there))) {
        notes.push({
            policy: here,
            message:
                `${d.setting} is ${d.values[0]} here and ${d.values[1]} on ${there}: ` +
                "each Xen policy reads only its own settings, so the two judge the hosts with different figures; set the same on both",
        });
    }
    for (const d of hostDifferences(config(here), config(there))) {
        const key = (k: string) => JSON.stringify(escapeControl(k));
        const as = d.keys[1] !== d.keys[0] ? ` (as hosts[${key(d.keys[1])}])` : "";
        const listed = d.only === "first" ? ` (not in its hosts)` : d.only === "second" ? "" : as;
        const hereNote = d.only === "second" ? ` (not in its hosts)` : "";
        notes.push({
            policy: here,
            message:
                `hosts[${key(d.keys[0])}].${d.field} is ${d.values[0]} here${hereNote} and ${d.values[1]} on ${there}${listed}: ` +
                "each Xen policy reads only its own hosts, so the two judge this host with different figures; set the same on both",
        });
    }
}

/**
 * What the file turns off. The CLI applies "all" first, then each policy's own key
 * (pkg/resource/analyzer/config.go applyConfig, read in pulumi/pulumi): `{"all": "disabled"}` turns
 * off every policy the file does not set itself. Notes: the policies "all" turns off, and those a
 * policy's own "disabled" turns off. A problem (a note with allowGatesOff): a file after which no
 * policy is mandatory, while the pack has mandatory policies by default: a preview with it never
 * fails on a verdict.
 */
function gateFindings(
    info: AnalyzerInfo,
    usable: Record<string, PolicyConfigEntry>,
    effective: Record<string, EnforcementLevel>,
    allowGatesOff: boolean,
    problems: ConfigProblem[],
    notes: ConfigProblem[],
): void {
    const names = info.policies.map((p) => p.name).sort();
    const disabled = names.filter((n) => effective[n] === "disabled");
    const byAll = usable.all?.enforcementLevel === "disabled" ? disabled.filter((n) => usable[n]?.enforcementLevel === undefined) : [];
    const byKey = disabled.filter((n) => usable[n]?.enforcementLevel === "disabled");
    if (byAll.length > 0) {
        notes.push({
            policy: "all",
            message:
                `"disabled" turns off every policy this file does not set itself: ${byAll.join(", ")} ` +
                `(${byAll.length} of ${names.length}; the Pulumi CLI applies "all" first, then each policy's own key)`,
        });
    }
    if (byKey.length > 0) {
        notes.push({ policy: "", message: `turned off by their own "disabled": ${byKey.join(", ")} (no verdicts from ${byKey.length === 1 ? "it" : "them"})` });
    }
    const gates = info.policies
        .filter((p) => p.enforcementLevel === "mandatory")
        .map((p) => p.name)
        .sort();
    if (gates.length === 0 || gates.some((g) => effective[g] === "mandatory")) {
        return;
    }
    const off = gates.filter((g) => effective[g] === "disabled");
    const advisory = gates.filter((g) => effective[g] === "advisory");
    const how = [off.length > 0 ? `disabled: ${off.join(", ")}` : "", advisory.length > 0 ? `advisory: ${advisory.join(", ")}` : ""]
        .filter((x) => x !== "")
        .join("; ");
    const message = `no policy is mandatory after this file: every mandatory gate is off (${how}): a preview with this config never fails on a verdict`;
    if (allowGatesOff) {
        notes.push({ policy: "", message: `${message} (allowed by ${ALLOW_GATES_OFF_FLAG})` });
    } else {
        problems.push({ policy: "", message: `${message}; pass ${ALLOW_GATES_OFF_FLAG} if that is meant` });
    }
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
    return { ...base, ...(info.initialConfig[name]?.properties ?? {}), ...(usable[name]?.properties ?? {}) };
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
