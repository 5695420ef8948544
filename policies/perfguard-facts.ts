/**
 * perfguard-facts: facts (and typed provider fields) that cannot be read. The checks that need
 * them cannot run, so by default this blocks the deploy rather than passing silently.
 */
import { resourcePolicy } from "./support/definePolicy";
import { typedFieldProblems } from "./support/typedFields";
import { waiverProblems } from "./support/waivers";

export const perfguardFacts = resourcePolicy<Record<string, never>>({
    name: "perfguard-facts",
    description: "Facts and provider fields that perfguard reads must parse, so that the checks that need them can run.",
    enforcementLevel: "mandatory",
    check(resource, _config, report) {
        const problems = [...resource.facts.problems.map((p) => p.message), ...typedFieldProblems(resource), ...waiverProblems(resource)];
        for (const problem of problems) {
            report(`${resource.label}: ${problem}. The perfguard checks that need it cannot run on this resource until it is fixed.`, resource);
        }
    },
});
