/**
 * Waivers: `perfguard:waive=<policy-id>[,<policy-id>...]` with a required `perfguard:waiveReason`
 * on a resource. A waived verdict is not dropped: it is reported at advisory level, prefixed
 * "waived", with the reason, so the waiver stays visible in every preview.
 */
import type { ResourceView } from "./resources";

/** A granted waiver: the reason as shown in messages and where it was declared. */
export interface Waiver {
    readonly reason: string;
    readonly where: string;
}

// Every policy defined through definePolicy registers its id here, so waivers can be checked
// against the ids without importing the registry (which imports the policies).
const definedPolicyIds = new Set<string>();

/** Records a policy id as defined (called by definePolicy). */
export function registerPolicyId(id: string): void {
    definedPolicyIds.add(id);
}

function waivedIds(resource: ResourceView): string[] {
    const waive = resource.facts.text("waive");
    return waive.state === "ok" ? waive.value.split(",").map((id) => id.trim().toLowerCase()).filter((id) => id.length > 0) : [];
}

/** The reason as messages show it: one line, at most 200 characters. */
function shownReason(reason: string): string {
    const line = reason.replace(/\s+/g, " ").trim();
    return line.length <= 200 ? line : `${line.slice(0, 197)}...`;
}

/**
 * The waiver of `policyId` on `resource`, or undefined (none, or no valid reason: then the
 * violation keeps its level and perfguard-facts reports the missing reason).
 */
export function waiverFor(resource: ResourceView, policyId: string): Waiver | undefined {
    if (!waivedIds(resource).includes(policyId)) {
        return undefined;
    }
    const reason = resource.facts.text("waiveReason");
    return reason.state === "ok" ? { reason: shownReason(reason.value), where: reason.where } : undefined;
}

/** Problems with a resource's waiver, as perfguard-facts reports them (one sentence each). */
export function waiverProblems(resource: ResourceView): string[] {
    const ids = waivedIds(resource);
    if (ids.length === 0) {
        return [];
    }
    const problems: string[] = [];
    const reason = resource.facts.text("waiveReason");
    if (reason.state === "absent") {
        problems.push(`perfguard:waive names ${ids.join(", ")} but there is no perfguard:waiveReason: a waiver needs a reason, so the verdicts keep their level`);
    }
    if (ids.includes("perfguard-facts")) {
        problems.push("perfguard:waive names perfguard-facts, which cannot be waived: an unreadable fact means the checks that need it did not run, so fix the fact instead");
    }
    const unknown = ids.filter((id) => !definedPolicyIds.has(id));
    if (unknown.length > 0) {
        const shown = unknown.map((id) => (id.length <= 64 ? `"${id}"` : `an id of ${id.length} characters`)).join(", ");
        problems.push(`perfguard:waive names ${shown}, which ${unknown.length === 1 ? "is not a policy" : "are not policies"} of this pack (policies: ${[...definedPolicyIds].join(", ")})`);
    }
    return problems;
}
