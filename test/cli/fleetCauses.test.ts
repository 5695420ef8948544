/**
 * One cause, one verdict across a fleet (cli/fleetCauses.ts): the same policy, level, problem and
 * fix reported by several stacks' checks is kept once, on the shared object where a stack declares
 * it, else on the first contributing stack's resource, naming every contributing stack (sorted).
 */
import { describe, expect, it } from "vitest";
import { dedupeCauses, StackViolations } from "../../cli/fleetCauses";
import type { Violation } from "../../preview/types";

const GROUP = "avi:index/serviceenginegroup:Serviceenginegroup";
const VS = "avi:index/virtualservice:Virtualservice";
const PROBLEM =
    'NSX ALB virtual services must fit their Service Engines, with headroom.\nServiceenginegroup "shared-web": its busiest SE needs 123.8%.\nFix: set algo.';

const NOT_CHECKED =
    "Each Xen guest should get the network bandwidth it declares.\n2 resources not checked, for 1 reason (below); their verdicts are unknown.\nFix: add the host's link under hosts.";

function v(project: string, type: string, name: string, basis: string, problem = PROBLEM): Violation {
    return {
        policyName: "nsx-alb-se-capacity",
        policyPackName: "perfguard",
        policyPackVersion: "0.1.0",
        enforcementLevel: "mandatory",
        message: `${problem}\nBasis: ${basis}`,
        urn: `urn:pulumi:prod::${project}::${type}::${name}`,
        resourceType: type,
        resourceName: name,
        phase: "analyzeStack",
    };
}

const network = (): StackViolations => ({ project: "network", stack: "prod", violations: [v("network", GROUP, "shared-web", "other stacks' VSs: a, b")] });
const teamA = (): StackViolations => ({ project: "team-a", stack: "prod", violations: [v("team-a", VS, "checkout-api", "other stacks' VSs: b")] });
const teamB = (): StackViolations => ({ project: "team-b", stack: "prod", violations: [v("team-b", VS, "catalog-web", "other stacks' VSs: a")] });

/** "project: resource" of each kept violation, and the last Basis line of the first one. */
function summary(stacks: StackViolations[]): { kept: string[]; named?: string } {
    const kept = dedupeCauses(stacks);
    const flat = kept.flatMap((list, i) => list.map((x) => ({ project: stacks[i].project, x })));
    return { kept: flat.map(({ project, x }) => `${project}: ${x.resourceName}`), named: flat[0]?.x.message.split("\n").pop() };
}

describe("dedupeCauses", () => {
    it("baseline: one stack's verdict is kept as it is", () => {
        expect(summary([teamA()])).toEqual({ kept: ["team-a: checkout-api"], named: "Basis: other stacks' VSs: b" });
    });

    const cases: Array<[string, () => StackViolations[], { kept: string[]; named?: string }]> = [
        [
            "the owner and both teams: once, on the group",
            () => [teamB(), network(), teamA()],
            {
                kept: ["network: shared-web"],
                named: 'Basis: one cause in 3 stacks of the fleet, reported once here: network/prod "shared-web", team-a/prod "checkout-api", team-b/prod "catalog-web"',
            },
        ],
        [
            "no stack declares the group (config): once, on the first stack's VS",
            () => [teamB(), teamA()],
            {
                kept: ["team-a: checkout-api"],
                named: 'Basis: one cause in 2 stacks of the fleet, reported once here: team-a/prod "checkout-api", team-b/prod "catalog-web"',
            },
        ],
        [
            "another problem in team B: both kept",
            () => [teamA(), { ...teamB(), violations: [v("team-b", VS, "catalog-web", "x", PROBLEM.replace("123.8%", "90%"))] }],
            {
                kept: ["team-a: checkout-api", "team-b: catalog-web"],
                named: "Basis: other stacks' VSs: b",
            },
        ],
        [
            "each stack's own resources not checked (the same words, their names in the Basis): both kept",
            () => [
                {
                    project: "xa",
                    stack: "prod",
                    violations: [v("xa", "pulumi:pulumi:Stack", "xa-prod", 'its host has no link figure: 2 (Vm "a2", Vm "a3")', NOT_CHECKED)],
                },
                {
                    project: "xb",
                    stack: "prod",
                    violations: [v("xb", "pulumi:pulumi:Stack", "xb-prod", 'its host has no link figure: 2 (Vm "b1", Vm "b2")', NOT_CHECKED)],
                },
            ],
            { kept: ["xa: xa-prod", "xb: xb-prod"], named: 'Basis: its host has no link figure: 2 (Vm "a2", Vm "a3")' },
        ],
    ];
    it.each(cases)("%s", (_name, stacks, expected) => {
        expect(summary(stacks())).toEqual(expected);
    });
});
