/**
 * JUnit XML (the schema Jenkins, GitLab and Azure DevOps test tabs read): a testsuite per policy,
 * a testcase per judged resource. A violation is a failure (its message the problem line, its
 * body the whole message), "not checked" is skipped with the reason, a waived verdict is skipped
 * with the waiver (it no longer gates), a pass is a plain testcase. From `perfguard diff`, a
 * verdict that is not a pass carries the property `baseline` ("new" or "unchanged").
 */
import { resourceText } from "./model";
import type { Results, Verdict } from "./model";

/** XML 1.0 text: the five entities, and characters XML 1.0 cannot carry dropped. */
export function xmlEscape(text: string): string {
    return (
        text
            // eslint-disable-next-line no-control-regex
            .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
            .replace(/&/g, "&amp;")
            .replace(/</g, "&lt;")
            .replace(/>/g, "&gt;")
            .replace(/"/g, "&quot;")
            .replace(/'/g, "&apos;")
    );
}

function caseName(v: Verdict): string {
    return resourceText(v);
}

function body(v: Verdict): string {
    return [
        v.waiver,
        v.problem,
        v.fix !== undefined ? `Fix: ${v.fix}` : undefined,
        ...v.basis.map((b) => `Basis: ${b}`),
        `At: ${v.location.file}:${v.location.line}`,
    ]
        .filter((l): l is string => l !== undefined && l !== "")
        .join("\n");
}

/** From `perfguard diff`: whether base had the verdict, as a testcase property (JUnit's `properties`). */
function properties(v: Verdict): string {
    return v.baseline === undefined ? "" : `      <properties><property name="baseline" value="${v.baseline}"/></properties>\n`;
}

function testcase(v: Verdict): string {
    const head = `    <testcase classname="${xmlEscape(v.policy)}" name="${xmlEscape(caseName(v))}" file="${xmlEscape(v.location.file)}" line="${v.location.line}"`;
    switch (v.outcome) {
        case "passed":
            return `${head}/>\n`;
        case "violation":
            return `${head}>\n${properties(v)}      <failure message="${xmlEscape(v.problem)}" type="${v.level}">${xmlEscape(body(v))}</failure>\n    </testcase>\n`;
        case "not checked":
            return `${head}>\n${properties(v)}      <skipped message="${xmlEscape(v.problem)}"/>\n    </testcase>\n`;
        case "waived":
            return `${head}>\n${properties(v)}      <skipped message="${xmlEscape(`${v.waiver ?? "waived"}: ${v.problem}`)}"/>\n    </testcase>\n`;
    }
}

/** The JUnit document. Suites in rule order (sorted ids); only policies with a judged resource. */
export function writeJunit(results: Results): string {
    const byPolicy = new Map<string, Verdict[]>();
    for (const v of results.verdicts) {
        byPolicy.set(v.policy, [...(byPolicy.get(v.policy) ?? []), v]);
    }
    const suites = [...byPolicy.keys()].sort().map((policy) => {
        const cases = byPolicy.get(policy) as Verdict[];
        const failures = cases.filter((v) => v.outcome === "violation").length;
        const skipped = cases.filter((v) => v.outcome === "not checked" || v.outcome === "waived").length;
        return (
            `  <testsuite name="${xmlEscape(policy)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}">\n` +
            cases.map(testcase).join("") +
            "  </testsuite>\n"
        );
    });
    const all = results.verdicts;
    const failures = all.filter((v) => v.outcome === "violation").length;
    const skipped = all.filter((v) => v.outcome === "not checked" || v.outcome === "waived").length;
    return (
        `<?xml version="1.0" encoding="UTF-8"?>\n` +
        `<testsuites name="${xmlEscape(results.tool.name)}" tests="${all.length}" failures="${failures}" errors="0" skipped="${skipped}">\n` +
        suites.join("") +
        "</testsuites>\n"
    );
}
