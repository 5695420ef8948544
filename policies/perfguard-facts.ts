/**
 * perfguard-facts: facts (and typed provider fields) that cannot be read. The checks that need
 * them cannot run, so by default this blocks the deploy rather than passing silently.
 */
import { resourcePolicy } from "./support/definePolicy";
import { applied, Applicability, notApplicable } from "./support/explain";
import type { ResourceView } from "./support/resources";
import { typedFieldProblems } from "./support/typedFields";
import { waiverProblems } from "./support/waivers";

/** --explain: which facts and typed fields were checked, and how many problems they have. */
function explainFacts(resource: ResourceView): Applicability {
    const problems = resource.facts.problems.length + typedFieldProblems(resource).length + waiverProblems(resource).length;
    if (!resource.facts.any && problems === 0) {
        return notApplicable(resource.facts.incomplete
            ? "no perfguard: fact found (a fact container is unknown in this preview) and no provider field perfguard parses is unreadable"
            : "no perfguard: fact on this resource and no provider field perfguard parses is unreadable");
    }
    return applied(`checked the perfguard: facts${problems > 0 ? `: ${problems} unreadable fact(s), field(s) or waiver problem(s)` : ": all readable"}`);
}

export const perfguardFacts = resourcePolicy<Record<string, never>>({
    name: "perfguard-facts",
    reportsUnverified: false,
    description: "Facts and provider fields that perfguard reads must parse, so that the checks that need them can run.",
    enforcementLevel: "mandatory",
    explain: explainFacts,
    check(resource, _config, report) {
        const unreadable = [...resource.facts.problems.map((p) => p.message), ...typedFieldProblems(resource)];
        for (const problem of unreadable) {
            report(`${resource.label}: ${problem}. The perfguard checks that need it cannot run on this resource until it is fixed.`, resource);
        }
        // The checks still ran; only the waiver did not take effect.
        for (const problem of waiverProblems(resource)) {
            report(`${resource.label}: ${problem}. Until it is fixed, the waiver does not apply and the verdicts keep their level.`, resource);
        }
    },
});
