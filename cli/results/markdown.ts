/**
 * The verdicts as Markdown: counts, then one table row per verdict that is not a pass (level,
 * outcome, policy, resource, where declared, problem line). Table cells escape `|` and newlines.
 */
import { countOutcomes, resourceText, Results } from "./model";

function cell(text: string): string {
    return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

export function writeMarkdown(results: Results): string {
    const counts = countOutcomes(results.verdicts);
    const shown = results.verdicts.filter((v) => v.outcome !== "passed");
    let out =
        `## ${results.tool.name} ${results.tool.version}: verdicts\n\n` +
        `${counts.violation} violation(s) (${shown.filter((v) => v.outcome === "violation" && v.level === "mandatory").length} mandatory), ` +
        `${counts["not checked"]} not checked, ${counts.waived} waived, ${counts.passed} passed.\n`;
    if (shown.length === 0) {
        return out;
    }
    out += "\n| Level | Outcome | Policy | Resource | Declared at | Problem |\n| --- | --- | --- | --- | --- | --- |\n";
    for (const v of shown) {
        const resource = resourceText(v);
        out += `| ${v.level} | ${v.outcome} | ${cell(v.policy)} | ${cell(resource)} | ${cell(`${v.location.file}:${v.location.line}`)} | ${cell(v.problem)} |\n`;
    }
    return out;
}
