/**
 * The validated config of each stack policy that has run on a stack, for a room setting that one
 * policy declares and the others read (one home per setting). The stack policies of one
 * AnalyzeStack share one StackView (resources.ts), so the configs go with it (WeakMap) when the
 * call ends; a policy that has not run on this stack (disabled, or later in the pack) has none.
 */
import type { StackView } from "./resources";

const configs = new WeakMap<StackView, Map<string, unknown>>();

/** Records `policy`'s validated config for `stack` (definePolicy's stackPolicy, before its check). */
export function rememberConfig(stack: StackView, policy: string, config: unknown): void {
    let byPolicy = configs.get(stack);
    if (!byPolicy) {
        byPolicy = new Map();
        configs.set(stack, byPolicy);
    }
    byPolicy.set(policy, config);
}

/** `policy`'s validated config on `stack`, when it has run there; undefined otherwise. */
export function configOf(stack: StackView, policy: string): Readonly<Record<string, unknown>> | undefined {
    const config = configs.get(stack)?.get(policy);
    return config !== null && typeof config === "object" ? (config as Readonly<Record<string, unknown>>) : undefined;
}

/**
 * Every policy's properties as the engine's Configure carried them (the reconciled config, schema
 * defaults applied), recorded by the pack's entry point (configuredNames.ts, tapConfigure). A room
 * setting's home may run later in the pack than a policy that reads it: this is how that policy
 * reads it (@pulumi/policy hands a policy only its own entry).
 */
let configured: ReadonlyMap<string, Readonly<Record<string, unknown>>> = new Map();

/** Records Configure's properties by policy name (replacing the last call's: one per preview). */
export function recordConfiguredProperties(byPolicy: ReadonlyMap<string, Readonly<Record<string, unknown>>>): void {
    configured = byPolicy;
}

/**
 * `policy`'s settings on `stack`: its validated config when it has run there, else what Configure
 * carried for it (a policy later in the pack, or disabled), else undefined (no pack run: a test
 * or a CLI reader, which pass the pack config themselves).
 */
export function settingsOf(stack: StackView, policy: string): Readonly<Record<string, unknown>> | undefined {
    return configOf(stack, policy) ?? configured.get(policy);
}
