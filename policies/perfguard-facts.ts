/**
 * perfguard-facts: facts (and typed provider fields) that cannot be read. The checks that need
 * them cannot run, so by default this blocks the deploy rather than passing silently.
 */
import { resourcePolicy } from "./support/definePolicy";
import { shortLabel, shortName, wholeNameBasis } from "./support/message";
import { typedFieldProblems } from "./support/typedFields";
import { waiverProblems } from "./support/waivers";

export const perfguardFacts = resourcePolicy<Record<string, never>>({
    name: "perfguard-facts",
    reportsUnverified: false,
    description: "Facts and provider fields that perfguard reads must parse, so that the checks that need them can run.",
    enforcementLevel: "mandatory",
    check(resource, _config, report) {
        const waivers = waiverProblems(resource);
        const problems = resource.facts.problems.length + typedFieldProblems(resource).length + waivers.length;
        if (!resource.facts.any && problems === 0) {
            report.notApplicable(resource.facts.incomplete
                ? "no perfguard: fact found (a fact container is unknown in this preview) and no provider field perfguard parses is unreadable"
                : "no perfguard: fact on this resource and no provider field perfguard parses is unreadable", resource);
            return;
        }
        report.applied(`checked the perfguard: facts${problems > 0 ? `: ${problems} unreadable fact(s), field(s) or waiver problem(s)` : ": all readable"}`, resource);
        // The problem line names what cannot be used; the sentence that says why (and the value to
        // write) is the fix, since it can be long (it quotes the key as written).
        const cannotRun = "so the perfguard checks that need it do not run";
        for (const problem of resource.facts.problems) {
            report({ problem: `${shortLabel(resource)}: fact ${shortName(problem.key)} cannot be used, ${cannotRun}.`, fix: `correct it: ${problem.message}`, basis: wholeNameBasis(resource) }, resource);
        }
        for (const problem of typedFieldProblems(resource)) {
            const field = /^[A-Za-z][A-Za-z0-9]*/.exec(problem)?.[0] ?? "a field";
            report({ problem: `${shortLabel(resource)}: provider field ${field} cannot be read, ${cannotRun}.`, fix: `correct it: ${problem}`, basis: wholeNameBasis(resource) }, resource);
        }
        // The checks still ran; only the waiver did not take effect.
        for (const problem of waivers) {
            report({ problem: `${shortLabel(resource)}: its waiver (perfguard:waive) does not apply, so the verdicts keep their level.`, fix: `correct it: ${problem}`, basis: wholeNameBasis(resource) }, resource);
        }
    },
});
