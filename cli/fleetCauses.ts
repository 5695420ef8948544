/**
 * One cause, one verdict across a fleet (issue 32): a shared object over its limit is judged in
 * every stack that adds load to it, so each stack's check reports the same cause (the same
 * policy, level, problem and fix; only the Basis naming the other stacks differs). The fleet
 * keeps it once: on the shared object where a stack of the fleet declares it, else on the first
 * contributing stack's resource (sorted by project, stack and URN), with a Basis line naming
 * every contributing stack and resource, sorted. A Xen host's guests are each their own verdict
 * with one fix: fleetXen.ts keeps the host's fix once.
 */
import { escapeControl } from "../policies/pack/message";
import type { Violation } from "../preview/types";

/** The types of shared objects a verdict may land on (an SE group, a Citrix zone). */
const SHARED_OBJECT_TYPES = new Set(["avi:index/serviceenginegroup:Serviceenginegroup", "citrix:index/zone:Zone"]);

/** One stack's violations, with its project and stack. */
export interface StackViolations {
    readonly project: string;
    readonly stack: string;
    readonly violations: readonly Violation[];
}

/**
 * The cause of a violation: its policy, level and every line but the Basis lines (which name the
 * other stacks), with another stack's object named as its own stack names it: `zone "apac" (stack
 * vdi-platform/prod, deployed …)` in the desktop team's fix is `zone "apac"` in the platform's.
 */
function causeOf(v: Violation): string {
    const all = v.message.split("\n");
    // "Not checked" is about each stack's own resources, which its Basis lines name: one stack's
    // never stands for another's (their guests would go unnamed), so those lines count too.
    const notChecked = all.some((line) => !line.startsWith("Basis:") && !line.startsWith("Fix:") && /\bnot checked\b/.test(line));
    const lines = all.filter((line) => notChecked || !line.startsWith("Basis:")).map((line) => line.replace(/ \(stack [^()]*\)/g, ""));
    return `${v.policyName}\u0000${v.enforcementLevel}\u0000${lines.join("\n")}`;
}

function compare(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Each stack's violations with every cause reported in more than one stack kept once (see the
 * header). Output: the stacks in the order given, each with its kept violations in their order.
 */
export function dedupeCauses(stacks: readonly StackViolations[]): Violation[][] {
    const byCause = new Map<string, Array<{ stack: number; index: number; v: Violation; name: string }>>();
    stacks.forEach((s, stack) =>
        s.violations.forEach((v, index) => {
            const key = causeOf(v);
            const list = byCause.get(key) ?? [];
            list.push({ stack, index, v, name: `${escapeControl(s.project)}/${escapeControl(s.stack)}` });
            byCause.set(key, list);
        }),
    );
    const dropped = new Set<string>();
    const replaced = new Map<string, Violation>();
    for (const list of byCause.values()) {
        const stacksOfCause = new Set(list.map((o) => o.stack));
        if (stacksOfCause.size < 2) {
            continue;
        }
        const ordered = [...list].sort(
            (a, b) =>
                Number(!SHARED_OBJECT_TYPES.has(a.v.resourceType ?? "")) - Number(!SHARED_OBJECT_TYPES.has(b.v.resourceType ?? "")) ||
                compare(a.name, b.name) ||
                compare(a.v.urn ?? "", b.v.urn ?? ""),
        );
        const kept = ordered[0];
        const named = [...new Set(list.map((o) => `${o.name} ${o.v.resourceName ? `"${escapeControl(o.v.resourceName)}"` : "(stack)"}`))].sort(compare);
        const message = `${kept.v.message.replace(/\n+$/, "")}\nBasis: one cause in ${stacksOfCause.size} stacks of the fleet, reported once here: ${named.join(", ")}`;
        replaced.set(`${kept.stack}:${kept.index}`, { ...kept.v, message });
        for (const o of ordered.slice(1)) {
            dropped.add(`${o.stack}:${o.index}`);
        }
    }
    return stacks.map((s, stack) =>
        s.violations.flatMap((v, index) => {
            const key = `${stack}:${index}`;
            return dropped.has(key) ? [] : [replaced.get(key) ?? v];
        }),
    );
}
