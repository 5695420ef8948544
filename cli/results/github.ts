/**
 * GitHub Actions workflow commands, one per verdict that is not a pass:
 * `::error file=…,line=…,title=…::message` (mandatory), `::warning` (advisory, waived),
 * `::notice` (not checked). Escaped as the Actions toolkit does (@actions/core command.ts):
 * data: % \r \n; property values also : and ,. From `perfguard diff`, a verdict base did not have
 * carries " [new]" in its title.
 */
import { resourceText } from "./model";
import type { Results, Verdict } from "./model";

export function escapeData(text: string): string {
    return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeProperty(text: string): string {
    return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function command(v: Verdict): "error" | "warning" | "notice" {
    if (v.outcome === "not checked") {
        return "notice";
    }
    return v.outcome === "violation" && v.level === "mandatory" ? "error" : "warning";
}

function line(v: Verdict): string {
    const where = v.resourceName !== undefined || v.stack !== undefined ? ` (${resourceText(v, true)})` : "";
    const title = `${v.policy}${where}${v.outcome === "waived" ? " [waived]" : ""}${v.baseline === "new" ? " [new]" : ""}`;
    const text = [v.waiver, v.problem, v.fix !== undefined ? `Fix: ${v.fix}` : undefined, ...v.basis.map((b) => `Basis: ${b}`)]
        .filter((l): l is string => l !== undefined && l !== "")
        .join("\n");
    return `::${command(v)} file=${escapeProperty(v.location.file)},line=${v.location.line},title=${escapeProperty(title)}::${escapeData(text)}\n`;
}

export function writeGithub(results: Results): string {
    return results.verdicts
        .filter((v) => v.outcome !== "passed")
        .map(line)
        .join("");
}
