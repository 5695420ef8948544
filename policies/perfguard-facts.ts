/**
 * perfguard-facts: facts (and typed provider fields) that cannot be read, wherever the engine
 * shows them: Analyze inputs, and AnalyzeStack outputs (a component that publishes its facts only
 * in its outputs, a VM's facts on attached vSphere tags). The checks that need them cannot run,
 * so by default this blocks the deploy rather than passing silently.
 */
import type { ReportViolation, StackValidationArgs } from "@pulumi/policy";
import "./nsx-alb/seGroupFields"; // registers the Avi provider's typed fields, whichever policies are loaded
import "./nsx-alb/vsDemand";
import { isolate, resourcePolicy } from "./pack/definePolicy";
import { Finding, KeyProblems, misplacedFinding, resourceFindings } from "./pack/factFindings";
import { unknownPolicyNamesMessage } from "./pack/configMessages";
import { unknownPolicyNames } from "./pack/configuredNames";
import { Message, renderMessage } from "./pack/message";
import { stackOf } from "./pack/resources";
import { currentInventory } from "./pack/inventory/current";
import { inventoryNotices } from "./pack/inventory/messages";

const NAME = "perfguard-facts";
const DESCRIPTION = "The perfguard: facts and fields perfguard reads must parse.";

// One preview is one pack process: what Analyze reported per URN (not sent again from the
// outputs), and the key problems to report once per key. AnalyzeStack, the last call, clears both.
const reportedFromInputs = new Map<string, Set<string>>();
const keyProblems = new KeyProblems();

function remember(urn: string, found: readonly Finding[]): void {
    if (found.length > 0) {
        let seen = reportedFromInputs.get(urn);
        if (!seen) {
            seen = new Set();
            reportedFromInputs.set(urn, seen);
        }
        for (const f of found) {
            seen.add(f.identity);
        }
    }
}

const analyze = resourcePolicy<Record<string, never>>({
    name: NAME,
    reportsUnverified: false,
    description: DESCRIPTION,
    enforcementLevel: "mandatory",
    check(resource, _config, report) {
        // Config keys that name no policy (the CLI passes them on unvalidated): once, on the root stack.
        if (resource.type === "pulumi:pulumi:Stack" && unknownPolicyNames().length > 0) {
            report(unknownPolicyNamesMessage(unknownPolicyNames(), "perfguard"), resource);
        }
        const found = resourceFindings(resource);
        for (const f of found) {
            report(f.message, resource);
        }
        remember(resource.urn, found);
        keyProblems.note(resource);
        if (found.length > 0 || resource.facts.any) {
            report.applied(
                `checked the perfguard: facts${found.length > 0 ? `: ${found.length} unreadable fact(s), field(s) or waiver problem(s)` : ": all readable"}`,
                resource,
            );
        } else {
            report.notApplicable(
                resource.facts.incomplete
                    ? "no perfguard: fact found (a fact container is unknown in this preview) and no provider field perfguard parses is unreadable"
                    : "no perfguard: fact on this resource and no provider field perfguard parses is unreadable",
                resource,
            );
        }
    },
});

function send(reportViolation: ReportViolation, message: Message, urn: string | undefined, level?: "advisory"): void {
    const text = `${DESCRIPTION}\n${renderMessage(message)}`;
    if (level) {
        // The SDK's object form sets the level of one violation (@pulumi/policy 1.21 makeReportViolationFun).
        (reportViolation as unknown as (v: object) => void)({ message: text, description: DESCRIPTION, enforcementLevel: level, urn });
    } else {
        (reportViolation as unknown as (v: object) => void)({ message: text, description: DESCRIPTION, urn });
    }
}

/**
 * AnalyzeStack: the outputs' problems that Analyze did not report on the same resource, facts no
 * policy reads on their resource (advisory: the stack knows roles that attached tags give), and
 * each key problem once. One decode of the stack (the SDK decodes it per policy with validateStack).
 */
function validateStack(args: StackValidationArgs, reportViolation: ReportViolation): void {
    try {
        const stack = stackOf(args.resources);
        const inventory = currentInventory();
        for (const { message, level } of inventory ? inventoryNotices(inventory, Date.now()) : []) {
            send(reportViolation, message, undefined, level === "advisory" ? "advisory" : undefined);
        }
        for (const resource of stack.resources) {
            if (resource.foreign) {
                continue; // another stack's resource (the inventory): its facts are its own stack's concern
            }
            const seen = reportedFromInputs.get(resource.urn);
            const report = Object.assign(
                (m: Message | string) => send(reportViolation, typeof m === "string" ? { problem: m, fix: "see the message." } : m, resource.urn),
                {
                    applied: () => undefined,
                    notApplicable: () => undefined,
                    notChecked: () => undefined,
                },
            );
            isolate(resource, report, () => {
                for (const f of resourceFindings(resource)) {
                    if (!seen?.has(f.identity)) {
                        send(reportViolation, f.message, resource.urn);
                    }
                }
                const misplaced = misplacedFinding(resource);
                if (misplaced) {
                    send(reportViolation, misplaced.message, resource.urn, "advisory");
                }
                keyProblems.note(resource);
            });
        }
        for (const { urn, message } of keyProblems.flush()) {
            send(reportViolation, message, urn);
        }
    } finally {
        reportedFromInputs.clear();
        keyProblems.flush();
    }
}

export const perfguardFacts = { ...analyze, validateStack };
