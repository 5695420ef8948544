/**
 * Renders policy results the way `pulumi preview` shows them (pkg/backend/display: diff.go's
 * renderDiffPolicyViolationEvent / renderDiffPolicyRemediationEvent for each event, then
 * progress.go's printPolicies section, then the resource summary unless a mandatory
 * violation was reported). No colours.
 */
import { AppliedRemediation, EnforcementLevel, PropertyBag, Violation } from "./types";

/** Type token from a URN: the last `$`-separated part of its qualified type. */
export function urnType(urn: string): string {
    const qualified = urn.split("::")[2] ?? "";
    return qualified.split("$").pop() ?? qualified;
}

/** Resource name from a URN (everything after the type). */
export function urnName(urn: string): string {
    return urn.split("::").slice(3).join("::");
}

/**
 * The CLI's short type name (tokens.Type.DisplayName): `pkg:mod/file:Name` becomes `pkg:mod:Name`
 * when `file` is `Name` in lower camel case; anything else is returned unchanged.
 */
export function displayType(type: string): string {
    const parts = type.split(":");
    if (parts.length !== 3 || parts[2] === "") {
        return type;
    }
    const [pkg, module, name] = parts;
    const slash = module.lastIndexOf("/");
    if (slash < 0) {
        return type;
    }
    const file = module.slice(slash + 1);
    if (file !== name[0].toLowerCase() + name.slice(1)) {
        return type;
    }
    return `${pkg}:${module.slice(0, slash)}:${name}`;
}

function resourceClause(urn: string | undefined): string {
    return urn ? `  (${displayType(urnType(urn))}: ${urnName(urn)})` : "";
}

function indentLines(message: string, prefix: string): string {
    return message
        .replace(/\n$/, "")
        .split("\n")
        .map((line) => prefix + line)
        .join("\n");
}

/**
 * One violation as an event line: `    <pack>@v<version> [<level>]  <policy>  (<type>: <name>)`,
 * then the message on the following lines, indented 8 spaces. Output ends with "\n".
 */
export function formatViolation(v: Violation): string {
    const head = `    ${v.policyPackName}@v${v.policyPackVersion} [${v.enforcementLevel}]  ${v.policyName}${resourceClause(v.urn)}`;
    return `${head}\n${indentLines(v.message, "        ")}\n`;
}

function shortDiff(before: PropertyBag, after: PropertyBag): string {
    const adds = Object.keys(after)
        .filter((k) => !(k in before))
        .sort();
    const deletes = Object.keys(before)
        .filter((k) => !(k in after))
        .sort();
    const updates = Object.keys(after)
        .filter((k) => k in before && JSON.stringify(before[k]) !== JSON.stringify(after[k]))
        .sort();
    let out = "";
    if (adds.length) out += "+" + adds.join(",");
    if (deletes.length) out += "-" + deletes.join(",");
    if (updates.length) out += "~" + updates.join(",");
    return out;
}

/** One applied remediation as the CLI's event line, with its short diff: `[diff: ~name]`. */
export function formatRemediation(r: AppliedRemediation): string {
    return (
        `    ${r.policyPackName}@v${r.policyPackVersion} [remediate]  ${r.policyName}${resourceClause(r.urn)}` + ` [diff: ${shortDiff(r.before, r.after)}]\n`
    );
}

const LEVEL_RANK: Record<EnforcementLevel, number> = { remediate: 0, mandatory: 1, advisory: 2, disabled: 3 };

export interface PackSummary {
    name: string;
    version: string;
    /** The pack path as given, shown as `(local: <path>)`. */
    localPath: string;
}

/**
 * The "Policies:" section: per pack a ✅/⚠️/❌ header, remediation counts, then violations
 * sorted by level, policy name and URN, messages indented 10 spaces. Output ends with "\n\n".
 */
export function formatPoliciesSection(packs: PackSummary[], violations: Violation[], remediations: AppliedRemediation[]): string {
    let out = "Policies:\n";
    const sortedPacks = [...packs].sort((a, b) => `${a.name}@v${a.version}`.localeCompare(`${b.name}@v${b.version}`));
    for (const pack of sortedPacks) {
        const mine = violations.filter((v) => v.policyPackName === pack.name && v.policyPackVersion === pack.version);
        const mark = mine.some((v) => v.enforcementLevel === "mandatory") ? "❌" : mine.length > 0 ? "⚠️" : "✅";
        out += `    ${mark} ${pack.name}@v${pack.version} (local: ${pack.localPath})\n`;
        const counts = new Map<string, number>();
        for (const r of remediations.filter((x) => x.policyPackName === pack.name)) {
            counts.set(r.policyName, (counts.get(r.policyName) ?? 0) + 1);
        }
        for (const name of [...counts.keys()].sort()) {
            const n = counts.get(name) as number;
            out += `        - [remediate]  ${name}  (${n} ${n === 1 ? "resource" : "resources"})\n`;
        }
        const sorted = [...mine].sort(
            (a, b) =>
                LEVEL_RANK[a.enforcementLevel] - LEVEL_RANK[b.enforcementLevel] ||
                a.policyName.localeCompare(b.policyName) ||
                (a.urn ?? "").localeCompare(b.urn ?? ""),
        );
        for (const v of sorted) {
            out += `        - [${v.enforcementLevel}]  ${v.policyName}${resourceClause(v.urn)}\n`;
            out += indentLines(v.message, "          ") + "\n";
        }
    }
    return out + "\n";
}

/** The CLI's two views of a preview: progress (the default) and diff (`--diff`). */
export type PreviewView = "progress" | "diff";

/**
 * One violation as the diff view prints it (pkg/backend/display diff.go): the header line with the
 * message appended as it came (the SDK puts the description first), no indent of its own lines.
 */
function diffViolation(v: Violation): string {
    return `    ${v.policyPackName}@v${v.policyPackVersion} [${v.enforcementLevel}]  ${v.policyName}${resourceClause(v.urn)}${v.message.replace(/\n$/, "")}\n`;
}

/**
 * Everything the preview prints about policies, as the CLI's view does:
 * - progress (default): the `Policies:` section, then `Resources:` with the count of resources a
 *   preview would create unless a mandatory violation was reported (each violation printed once);
 * - diff: each remediation and violation as an event line, then `Resources:` and the
 *   `Policy Packs run:` table.
 */
export function formatPreviewOutput(
    packs: PackSummary[],
    violations: Violation[],
    remediations: AppliedRemediation[],
    resourceCount: number,
    view: PreviewView = "progress",
): string {
    const mandatory = violations.some((v) => v.enforcementLevel === "mandatory");
    if (view === "progress") {
        let out = formatPoliciesSection(packs, violations, remediations);
        if (!mandatory) {
            out += `Resources:\n    + ${resourceCount} to create\n`;
        }
        return out;
    }
    let out = "";
    for (const r of remediations) {
        out += formatRemediation(r);
    }
    for (const v of violations) {
        out += diffViolation(v);
    }
    out += `Resources:\n    + ${resourceCount} to create\n\nPolicy Packs run:\n`;
    const rows = packs.map((p) => [`${p.name}|local|${p.localPath}`, p.version]);
    const width = Math.max("Name".length, ...rows.map((r) => r[0].length)) + 2;
    out += `    ${"Name".padEnd(width)}Version\n`;
    for (const [name, version] of rows) {
        out += `    ${name.padEnd(width)}${version}\n`;
    }
    return out;
}
