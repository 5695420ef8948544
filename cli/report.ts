/**
 * `perfguard check --report FILE.md`: a Markdown report for a pull-request comment: the
 * violations grouped by level, then each registered system's section (cli/systems: per Citrix
 * zone, NSX ALB SE group and Xen host the predicted figures, cli/report/<system>.ts). The figures
 * come from each system's evaluation, the one its policies judge, run in this process on the
 * resources' outputs as AnalyzeStack sends them, with the config the pack was given.
 */
import { ResourceView, StackView } from "../policies/pack/resources";
import type { PolicyConfigEntry } from "../preview/packClient";
import { displayType } from "../preview/printViolations";
import type { RecordedResource, Violation } from "../preview/types";
import { SYSTEMS } from "./systems";

/** What the report is built from. */
export interface ReportInput {
    /** The checked file, as given. */
    readonly file: string;
    readonly packName: string;
    readonly packVersion: string;
    readonly resources: readonly RecordedResource[];
    readonly violations: readonly Violation[];
    /** The reconciled policy config the pack was given (levels and properties with defaults). */
    readonly config: Readonly<Record<string, PolicyConfigEntry>>;
    /** The view the figures are computed on; default: the resources as one stack (a fleet gives each its stack). */
    readonly stack?: StackView;
}

/**
 * The stack as the pack's stack policies see it: one ResourceView per resource with its outputs
 * and property dependencies (the unwrapping the pack does is a no-op on plain JSON).
 */
export function stackViewOf(resources: readonly RecordedResource[]): StackView {
    return new StackView(resources.map((r) => new ResourceView(r.urn, r.type, r.name, r.outputs, r.propertyDependencies)));
}

/** A Markdown code fence. */
const FENCE = "```";

function violationLines(violations: readonly Violation[]): string {
    const items: string[] = [];
    for (const v of violations) {
        const where = v.urn ? ` on \`${displayType(v.resourceType ?? "")}\` \`${v.resourceName ?? ""}\`` : "";
        // The message's first line is the policy's description (as the CLI prints it); keep it all,
        // in a fenced text block under the item (as `diff --format markdown` shows messages), so
        // GitHub keeps its problem, Fix: and Basis: lines apart instead of joining them into one
        // paragraph. A fence inside a message would end the block early: it is shown as '''.
        const body = v.message
            .trim()
            .replace(/```/g, "'''")
            .split("\n")
            .map((line) => `  ${line}`.trimEnd())
            .join("\n");
        items.push(`- **${v.policyName}**${where}\n\n  ${FENCE}text\n${body}\n  ${FENCE}\n`);
    }
    return items.join("\n");
}

export function buildReport(input: ReportInput): string {
    const mandatory = input.violations.filter((v) => v.enforcementLevel === "mandatory");
    const advisory = input.violations.filter((v) => v.enforcementLevel === "advisory");
    const verdict = mandatory.length > 0 ? "❌ mandatory violations" : advisory.length > 0 ? "⚠️ advisory violations only" : "✅ no violations";
    let out = `# perfguard check: ${verdict}\n\n`;
    out +=
        `\`${input.file}\`: ${input.resources.length} resources checked by ${input.packName}@v${input.packVersion}; ` +
        `${mandatory.length} mandatory and ${advisory.length} advisory violation${advisory.length === 1 ? "" : "s"}.\n\n`;
    if (input.violations.length > 0) {
        out += "## Violations\n\n";
        if (mandatory.length > 0) {
            out += `### Mandatory (${mandatory.length})\n\n${violationLines(mandatory)}\n`;
        }
        if (advisory.length > 0) {
            out += `### Advisory (${advisory.length})\n\n${violationLines(advisory)}\n`;
        }
    }
    const stack = input.stack ?? stackViewOf(input.resources);
    for (const system of SYSTEMS) {
        out += system.report(stack, input.config);
    }
    return out.replace(/\n+$/, "\n");
}
