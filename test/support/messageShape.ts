/**
 * The message shape every violation must have (issue 10): a problem line of at most 160
 * characters, then `Fix: ...`. The harness checks every violation a policy test produces, and the
 * registry test every violation the bundled examples print through the preview path.
 */
import { parseMessage, PROBLEM_LINE_MAX } from "../../policies/pack/message";

/**
 * Policies whose messages are still being converted to the Message shape, with who converts them.
 * TODO(lead): remove each entry once its conversion is merged (the checks then cover it); the list
 * must end empty.
 */
export const SHAPE_PENDING: Readonly<Record<string, string>> = {};

/** What is wrong with the shape of one message, or undefined when it has the shape. */
export function shapeProblem(message: string): string | undefined {
    const parsed = parseMessage(message);
    if (parsed.fix === undefined) {
        return `no "Fix: " line`;
    }
    if (parsed.problem.length === 0) {
        return "an empty problem line";
    }
    if (parsed.problem.length > PROBLEM_LINE_MAX) {
        return `a problem line of ${parsed.problem.length} characters (at most ${PROBLEM_LINE_MAX})`;
    }
    return undefined;
}

/**
 * The violations whose message lacks the shape, as "policy -> resource: problem", skipping the
 * policies in SHAPE_PENDING and config problems (mandatory, about the config, not a resource)
 * only when their policy is pending too.
 */
export function shapeProblems(violations: ReadonlyArray<{ policyName: string; message: string; resource: string }>): string[] {
    const out: string[] = [];
    for (const v of violations) {
        if (v.policyName in SHAPE_PENDING) {
            continue;
        }
        const problem = shapeProblem(v.message);
        if (problem) {
            out.push(`${v.policyName} -> ${v.resource}: ${problem}: ${JSON.stringify(v.message.slice(0, 300))}`);
        }
    }
    return out;
}
