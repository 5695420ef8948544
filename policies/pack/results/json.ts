/**
 * The results as JSON: the tool, the rules and every verdict (passes included), with counts per
 * outcome. This is the verdict list itself; `check --json` keeps its own document.
 */
import { countOutcomes, Results } from "./verdict";

export function toResultsJson(results: Results): Record<string, unknown> {
    return {
        tool: results.tool,
        counts: countOutcomes(results.verdicts),
        rules: results.rules,
        verdicts: results.verdicts,
    };
}

export function writeJson(results: Results): string {
    return JSON.stringify(toResultsJson(results), null, 2) + "\n";
}
