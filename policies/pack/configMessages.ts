/**
 * The message for policy config keys that name no policy of the pack (configuredNames.ts): the
 * Pulumi CLI accepts them silently, so the gate the user meant to set stays at its default.
 */
import type { UnknownPolicyName } from "./configuredNames";
import { escapeControl, Message } from "./message";

function shown(name: string): string {
    return name.length <= 40 ? `"${escapeControl(name)}"` : `a name of ${name.length} characters`;
}

/** Input: the unknown names (sorted, at least one) and the pack's name. Output: the Message. */
export function unknownPolicyNamesMessage(names: readonly UnknownPolicyName[], pack: string): Message {
    const first = names[0];
    const more = names.length > 1 ? ` and ${names.length - 1} more key${names.length > 2 ? "s" : ""}` : "";
    const problem = `policy pack config names ${shown(first.name)}${more}, not ${names.length > 1 ? "policies" : "a policy"} of ${pack}: ignored, so the policy meant keeps its defaults.`;
    const fix =
        names
            .map((n) =>
                n.suggestion
                    ? `rename ${shown(n.name)} to "${n.suggestion}"`
                    : `remove ${shown(n.name)} or rename it to a policy of ${pack} (README, Policies)`,
            )
            .join("; ") + " in the --policy-pack-config file (`perfguard config check <file>` lists every problem)";
    return {
        problem,
        fix,
        basis: ["the Pulumi CLI validates only the config keys that name a policy and passes the others to the pack, which reports them here"],
    };
}
