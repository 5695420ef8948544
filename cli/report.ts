/**
 * `perfguard check --report FILE.md`: a Markdown report for a pull-request comment: the
 * violations grouped by level, then per Citrix zone and per NSX ALB SE group the predicted
 * figures. The figures come from the same readers and models as the policies (citrixSite,
 * aviStack, predictBrokering, seUtilisation, requiredVcpusPerSe), run in this process on the
 * resources' outputs as AnalyzeStack sends them, with the config the pack was given.
 */
import {
    requiredVcpusPerSe,
    SeGroupCapacity,
    seGroupCapacity,
    sesFor,
    seUtilisation,
    VsDemand,
} from "../model/seCapacity";
import { aviStack, seGroupSizing } from "../policies/nsx-alb/seGroups";
import { citrixSection } from "./report/citrix";
import { num, pct } from "../policies/pack/format";
import { ResourceView, StackView } from "../policies/pack/resources";
import type { PolicyConfigEntry } from "../preview/packClient";
import { displayType } from "../preview/printViolations";
import type { RecordedResource, Violation } from "../preview/types";

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
}

/**
 * The stack as the pack's stack policies see it: one ResourceView per resource with its outputs
 * and property dependencies (the unwrapping the pack does is a no-op on plain JSON).
 */
export function stackViewOf(resources: readonly RecordedResource[]): StackView {
    return new StackView(resources.map((r) => new ResourceView(r.urn, r.type, r.name, r.outputs, r.propertyDependencies)));
}

function propsOf(config: ReportInput["config"], policy: string): Record<string, unknown> {
    return (config[policy]?.properties ?? {}) as Record<string, unknown>;
}

function numberOr(value: unknown, fallback: number): number {
    return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** Markdown-safe cell text: no pipes or line breaks. */
function cell(text: string): string {
    return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

function violationLines(violations: readonly Violation[]): string {
    let out = "";
    for (const v of violations) {
        const where = v.urn ? ` on \`${displayType(v.resourceType ?? "")}\` \`${v.resourceName ?? ""}\`` : "";
        // The message's first line is the policy's description (as the CLI prints it); keep it all.
        const body = v.message.trim().split("\n").map((line) => `  ${line}`).join("\n");
        out += `- **${v.policyName}**${where}\n${body}\n`;
    }
    return out;
}

function groupsSection(stack: StackView, config: ReportInput["config"]): string {
    const props = propsOf(config, "nsx-alb-se-capacity");
    const headroomPct = numberOr(props.headroomPct, 20);
    const assumeScaleOut = props.assumeScaleOut === true;
    const seGroups = (props.seGroups !== null && typeof props.seGroups === "object" ? props.seGroups : {}) as Record<string, unknown>;
    const avi = aviStack(stack, seGroups);
    if (avi.groups.length === 0) {
        return "";
    }
    const rows: string[] = [];
    for (const group of avi.groups) {
        const sizing = seGroupSizing(group.fields);
        const placed = avi.placements.filter((p) => p.group === group);
        const demands: VsDemand[] = placed.flatMap((p) => (p.demand.state === "ok" ? [p.demand.demand] : []));
        const notCounted = placed.filter((p) => p.demand.state === "unusable").length;
        const name = cell(group.resource ? group.name : `${group.name} (policy config)`);
        if (!sizing) {
            rows.push(`| ${name} | fields unknown or invalid | - | ${placed.length} | - | - | - | - | - | - | - |`);
            continue;
        }
        const capacity: SeGroupCapacity = seGroupCapacity(sizing.spec);
        const u = seUtilisation(demands, capacity.perSe, capacity.groupSes);
        let required: number | undefined = sizing.spec.vcpusPerSe;
        let none = false;
        if (demands.length > 0) {
            const needs = [requiredVcpusPerSe(demands, sizing.spec, { headroomPct, scope: "group" }).vcpusPerSe,
                ...demands.map((d) => requiredVcpusPerSe([d], sizing.spec, { headroomPct, scope: "vs", assumeScaleOut }).vcpusPerSe)];
            none = needs.some((n) => n === undefined);
            required = Math.max(...needs.map((n) => n ?? 0));
        }
        const vsSes = sesFor(capacity, { scope: "vs", assumeScaleOut });
        const vss = `${placed.length}${notCounted > 0 ? ` (${notCounted} not counted)` : ""}`;
        rows.push(`| ${name} | ${sizing.spec.vcpusPerSe} vCPU, ${num(sizing.spec.memoryPerSeMb / 1024, 2)} GB | ${vsSes} / ${capacity.groupSes} | ${vss} | ` +
            `${pct(u.sslTps)} | ${pct(u.l7Rps)} | ${pct(u.l4Cps)} | ${pct(u.throughput)} | ${pct(u.openConnections)} | ${pct(u.peak)} | ` +
            `${none ? "none up to 64 fits" : demands.length === 0 ? "- (no demand)" : `${required}`} |`);
    }
    return `## NSX ALB SE groups\n\nUtilisation of what each group carries by the virtual services placed on it (NSX ALB 20.1.6 per-SE table); required vcpusPerSe keeps ${num(headroomPct)}% headroom for the group and for each VS on the SEs it gets.\n\n` +
        "| SE group | size per SE | SEs (per VS / group) | VSs | SSL TPS | L7 RPS | L4 CPS | throughput | open connections | peak | required vcpusPerSe |\n" +
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n" + rows.join("\n") + "\n\n";
}

/**
 * Builds the Markdown report.
 * Input: ReportInput. Output: Markdown text ending with "\n"; sections without resources (no
 * zone, no SE group) are left out. Never throws on odd props (the readers do not).
 */
export function buildReport(input: ReportInput): string {
    const mandatory = input.violations.filter((v) => v.enforcementLevel === "mandatory");
    const advisory = input.violations.filter((v) => v.enforcementLevel === "advisory");
    const verdict = mandatory.length > 0 ? "❌ mandatory violations" : advisory.length > 0 ? "⚠️ advisory violations only" : "✅ no violations";
    let out = `# perfguard check: ${verdict}\n\n`;
    out += `\`${input.file}\`: ${input.resources.length} resources checked by ${input.packName}@v${input.packVersion}; ` +
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
    const stack = stackViewOf(input.resources);
    out += citrixSection(stack, input.config);
    out += groupsSection(stack, input.config);
    return out.replace(/\n+$/, "\n");
}
