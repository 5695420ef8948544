/**
 * `perfguard check --report FILE.md`: a Markdown report for a pull-request comment: the
 * violations grouped by level, then per Citrix zone and per NSX ALB SE group the predicted
 * figures. The figures come from the same readers and models as the policies (citrixSite,
 * predictBrokering; the NSX ALB section: cli/report/nsxAlb.ts, from its evaluation), run in this process on the
 * resources' outputs as AnalyzeStack sends them, with the config the pack was given.
 */
import { effectiveConcurrency, groupLoads, round } from "../policies/citrix/load";
import { siteBudget } from "../policies/citrix/budget";
import { predictLoad } from "../policies/citrix/capacityMessages";
import { citrixSite } from "../policies/citrix/site";
import { nsxAlbSection } from "./report/nsxAlb";
import { duration, num, pct } from "../policies/pack/format";
import { ResourceView, StackView } from "../policies/pack/resources";
import type { PolicyConfigEntry } from "../preview/packClient";
import { displayType } from "../preview/printViolations";
import type { RecordedResource, Violation } from "../preview/types";
import { xenSection } from "./report/xen";

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

function zonesSection(stack: StackView, config: ReportInput["config"]): string {
    const site = citrixSite(stack);
    if (site.zones.length === 0) {
        return "";
    }
    const cap = propsOf(config, "citrix-brokering-capacity");
    const targets = { targetResponseS: numberOr(cap.targetResponseS, 12), errorBudgetPct: numberOr(cap.errorBudgetPct, 0.1) };
    const loads = groupLoads(site);
    const budget = siteBudget(loads, targets);
    const zoneRows: string[] = [];
    for (const zone of site.zones) {
        const rtt = zone.rttMs;
        const peak = zone.peakConcurrentLaunches;
        const throttles = zone.controllers.map((c) => (c.throttle.state === "ok" ? String(c.throttle.value) : "none"));
        const controllers = zone.controllers.length === 0 ? "none in stack" : `${zone.controllers.length} (throttles ${throttles.join(", ")})`;
        const rttText = zone.daas ? "Citrix DaaS (not judged)" : rtt.state === "ok" ? `${num(rtt.value)} ms` : rtt.state === "absent" ? "no perfguard:rttMs" : `rttMs ${rtt.state}`;
        const concurrency = rtt.state === "ok" && !zone.daas ? effectiveConcurrency(zone, loads) : undefined;
        const zoneBudget = budget.zoneBudget.get(zone);
        zoneRows.push(`| ${cell(zone.zoneName)} | ${rttText} | ${peak.state === "ok" ? `${peak.value} requests` : "-"} | ${concurrency ? `${round(concurrency.value)} requests` : "-"} | ${zone.groups.length} | ${zoneBudget !== undefined ? `${round(zoneBudget)} requests` : "-"} | ${cell(controllers)} |`);
    }
    const groupRows: string[] = [];
    for (const load of loads) {
        const name = load.group.implicit ? `(zone ${load.group.resource.name})` : load.group.resource.name;
        if (load.notChecked) {
            groupRows.push(`| ${cell(name)} | - | - | - | - | - | not checked: ${cell(load.notChecked.reason)} |`);
            continue;
        }
        const p = predictLoad(load);
        const zones = load.classes.map((c) => `${c.zone.zoneName} ${num(c.rttMs)} ms`).join(", ") || "-";
        const safe = budget.byGroup.get(load.group)?.safe;
        if (!p) {
            groupRows.push(`| ${cell(name)} | ${cell(zones)} | - | - | - | - | ${safe !== undefined ? `${safe} requests` : "-"} |`);
            continue;
        }
        const launch = p.launchTimeS !== undefined && load.users !== undefined ? `${duration(p.launchTimeS)} for ${load.users} users` : "no perfguard:users";
        const notMeasured = p.notMeasured.length > 0 ? " (not measured)" : "";
        groupRows.push(`| ${cell(name)} | ${cell(zones)} | ${round(p.concurrency)} requests | ${num(p.worstMeanResponseS)} s${notMeasured} | ${pct(p.worstErrorRate)} | ${launch} | ${safe !== undefined ? `${safe} requests` : "-"} |`);
    }
    return `## Citrix zones\n\nEach Delivery Group is its own brokering lock; a zone's budget is the sum over its groups of what each sustains at mean response <= ${num(targets.targetResponseS)} s and timed-out requests <= ${num(targets.errorBudgetPct, 4)}%. A zone without a Delivery Group in the stack is one lock of its own.\n\n` +
        "| zone | RTT | peak | into its groups' locks | Delivery Groups | zone budget | Delivery Controllers |\n" +
        "| --- | --- | --- | --- | --- | --- | --- |\n" + zoneRows.join("\n") + "\n\n" +
        "### Delivery Group locks\n\nPredicted by the brokering model at each lock's concurrency (its peak, capped by its share of the throttles); the worst zone's response and timeouts.\n\n" +
        "| Delivery Group | zones | concurrency | mean response | timed out | launch | safe concurrency |\n" +
        "| --- | --- | --- | --- | --- | --- | --- |\n" + groupRows.join("\n") + "\n\n";
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
    out += zonesSection(stack, input.config);
    out += nsxAlbSection(stack, input.config);
    out += xenSection(stack, propsOf(input.config, "xen-guest-network-share"));
    return out.replace(/\n+$/, "\n");
}
