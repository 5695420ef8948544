/**
 * One cause, one verdict across a fleet, for a Xen host (issue 32). A host's link short for its
 * guests is one cause; within one stack xen-guest-network-share already gives each short guest
 * its own verdict and puts the host's fix and context on one of them (the others point to it). In
 * a fleet each stack's check does so for its own guests, so the host's fix would be printed once
 * per stack. Here it is kept once: on the first stack's (by project/stack) guest that carries it,
 * with a Basis line naming the host and every short guest per stack (sorted); every other stack's
 * short guest keeps its own verdict (one per resource: its problem line, its need) and points to
 * that one. A guest short by the bond or only by its own VIF cap has a fix of its own: untouched.
 *
 * Which guests share a host is read from the Xen evaluation of the fleet's one view (every
 * stack's resources, as the fleet's report reads them), never from the messages' wording.
 */
import { escapeControl, shortLabel, shortName } from "../policies/pack/message";
import type { StackView } from "../policies/pack/resources";
import { xenEvaluation } from "../policies/xen/evaluation";
import type { Violation } from "../preview/types";
import type { StackViolations } from "./fleetCauses";

const POLICY = "xen-guest-network-share";

/** Short guests listed on the fleet's Basis line before "and N more". */
const LISTED = 12;

/** One host whose short guests share its fix: the host's name and those guests' URNs. */
export interface XenHostCause {
    readonly host: string;
    readonly guests: ReadonlySet<string>;
}

/**
 * The hosts of the fleet with guests short of their need through the host (not only by their own
 * VIF cap, not by the bond), from the Xen evaluation of the fleet's view.
 * @param config - xen-guest-network-share's properties, as every stack's pack was given them.
 */
export function xenHostCauses(view: StackView, config: Record<string, unknown>): XenHostCause[] {
    return xenEvaluation(view, config).hosts.flatMap((h) => {
        const guests = new Set(h.guests.filter((g) => g.short && !g.capOnly && !g.bondBound).map((g) => g.entry.guest.resource.urn));
        return guests.size > 0 ? [{ host: h.host.name, guests }] : [];
    });
}

function compare(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

function isPointer(v: Violation): boolean {
    return v.message.split("\n").some((line) => line.startsWith("Fix: see the fix on "));
}

/** A pointing verdict: the guest's own lines (description, problem, its need and any full names), its fix the lead's. */
function pointing(v: Violation, fix: string): Violation {
    const lines = v.message.replace(/\n+$/, "").split("\n");
    const head = lines.filter((line) => !line.startsWith("Fix:") && !line.startsWith("Basis:"));
    const basis = lines.filter((line) => line.startsWith("Basis:"));
    const own = basis.slice(0, 1).concat(basis.slice(1).filter((line) => line.startsWith("Basis: full names:")));
    return { ...v, message: [...head, `Fix: ${fix}`, ...own].join("\n") };
}

/**
 * The fleet's violations with each Xen host's fix kept once (see the header). Input: the stacks
 * (project, stack) and their kept violations in the same order (fleetCauses.ts's output), the hosts.
 * Output: the same lists, in the same order, the host's verdicts rewritten; none is dropped.
 */
export function dedupeXenHosts(
    stacks: ReadonlyArray<Pick<StackViolations, "project" | "stack">>,
    kept: ReadonlyArray<readonly Violation[]>,
    hosts: readonly XenHostCause[],
): Violation[][] {
    const out = kept.map((list) => [...list]);
    const names = stacks.map((s) => `${escapeControl(s.project)}/${escapeControl(s.stack)}`);
    for (const host of hosts) {
        const found: Array<{ stack: number; index: number; v: Violation }> = [];
        out.forEach((list, stack) =>
            list.forEach((v, index) => {
                if (v.policyName === POLICY && v.urn !== undefined && host.guests.has(v.urn)) {
                    found.push({ stack, index, v });
                }
            }),
        );
        const stacksOf = new Set(found.map((f) => f.stack));
        if (stacksOf.size < 2) {
            continue;
        }
        const ordered = [...found].sort((a, b) => compare(names[a.stack], names[b.stack]) || compare(a.v.urn ?? "", b.v.urn ?? ""));
        const leadStack = ordered[0].stack;
        const lead = ordered.find((f) => f.stack === leadStack && !isPointer(f.v)) ?? ordered[0];
        const label = shortLabel({ type: lead.v.resourceType ?? "", name: lead.v.resourceName ?? "" });
        const fix = `see the fix on ${label} of stack ${names[lead.stack]} (same host).`;
        // Each stack's short guests, by name, the stacks sorted: at most LISTED named.
        const byStack = [...stacksOf]
            .sort((a, b) => compare(names[a], names[b]))
            .map((s) => ({
                stack: names[s],
                guests: found
                    .filter((f) => f.stack === s)
                    .map((f) => `"${shortName(f.v.resourceName ?? "")}"`)
                    .sort(compare),
            }));
        let room = LISTED;
        const listed = byStack.flatMap(({ stack, guests }) => {
            const shown = guests.slice(0, Math.max(room, 0));
            room -= shown.length;
            return shown.length > 0 ? [`${stack} ${shown.join(", ")}`] : [];
        });
        const more = found.length > LISTED ? ` and ${found.length - LISTED} more` : "";
        const line =
            `Basis: one cause in ${stacksOf.size} stacks of the fleet, reported once here: Xen host "${shortName(host.host)}" ` +
            `is short for ${found.length} guests: ${listed.join("; ")}${more}`;
        for (const f of found) {
            out[f.stack][f.index] =
                f === lead ? { ...f.v, message: `${f.v.message.replace(/\n+$/, "")}\n${line}` } : f.stack === lead.stack ? f.v : pointing(f.v, fix);
        }
    }
    return out;
}
