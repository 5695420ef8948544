/**
 * perfguard-facts: facts (and typed provider fields) that cannot be read. The checks that need
 * them cannot run, so by default this blocks the deploy rather than passing silently.
 */
import { resourcePolicy } from "./support/definePolicy";
import { shortLabel, wholeNameBasis } from "./support/message";
import { typedFieldProblems } from "./support/typedFields";
import { waiverProblems } from "./support/waivers";

export const perfguardFacts = resourcePolicy<Record<string, never>>({
    name: "perfguard-facts",
    reportsUnverified: false,
    description: "Facts and provider fields that perfguard reads must parse, so that the checks that need them can run.",
    enforcementLevel: "mandatory",
    check(resource, _config, report) {
        const unreadable = [...resource.facts.problems.map((p) => p.message), ...typedFieldProblems(resource)];
        const waivers = waiverProblems(resource);
        const problems = unreadable.length + waivers.length;
        if (!resource.facts.any && problems === 0) {
            report.notApplicable(resource.facts.incomplete
                ? "no perfguard: fact found (a fact container is unknown in this preview) and no provider field perfguard parses is unreadable"
                : "no perfguard: fact on this resource and no provider field perfguard parses is unreadable", resource);
            return;
        }
        report.applied(`checked the perfguard: facts${problems > 0 ? `: ${problems} unreadable fact(s), field(s) or waiver problem(s)` : ": all readable"}`, resource);
        // TODO(facts helper): the problem sentences come from facts.ts / typedFields / waivers and can
        // exceed the 160-character problem line; split them into problem and fix there.
        for (const problem of unreadable) {
            report({
                problem: `${shortLabel(resource)}: ${problem}.`,
                fix: "correct the value named above; until then the perfguard checks that need it do not run on this resource",
                basis: wholeNameBasis(resource),
            }, resource);
        }
        // The checks still ran; only the waiver did not take effect.
        for (const problem of waivers) {
            report({
                problem: `${shortLabel(resource)}: ${problem}.`,
                fix: "correct the waiver facts named above; until then the waiver does not apply and the verdicts keep their level",
                basis: wholeNameBasis(resource),
            }, resource);
        }
    },
});
