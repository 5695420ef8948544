/**
 * SARIF 2.1.0 (OASIS; the form GitHub code scanning, Azure DevOps and GitLab read): one run, one
 * rule per policy, one result per verdict that is not a pass. Levels: mandatory error, advisory
 * warning, not checked note. A waived verdict carries a suppression with the waiver as its
 * justification. Each result is located at the line that declares the resource, else at the
 * project file's line 1 (code scanning drops results without a physical location), and names the
 * resource's URN as its logical location. From `perfguard diff`, each result's baselineState says
 * whether base had it ("new" or "unchanged").
 */
import { createHash } from "crypto";
import { policyDocUrl } from "./docsUrl";
import type { Results, Verdict } from "./verdict";

export const SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/** Key of partialFingerprints: versioned, so a change of what it hashes starts a new series. */
export const FINGERPRINT_KEY = "perfguardVerdict/v1";

export interface SarifOptions {
    /** Base URL of the repository's files (docsUrl.ts); absent: rules carry no helpUri. */
    readonly docsBase?: string;
}

function levelOf(v: Verdict): "error" | "warning" | "note" {
    if (v.outcome === "not checked") {
        return "note";
    }
    return v.level === "mandatory" ? "error" : "warning";
}

/** The message text: problem, Fix and Basis lines; a waived one says so first. */
function messageText(v: Verdict): string {
    return [v.waiver, v.problem, v.fix !== undefined ? `Fix: ${v.fix}` : undefined, ...v.basis.map((b) => `Basis: ${b}`)]
        .filter((l): l is string => l !== undefined && l !== "")
        .join("\n");
}

/** A stack-wide verdict's place: the stack's own in a fleet (each stack's is another series), else "(stack)". */
function stackWide(v: Verdict): string {
    return v.stack !== undefined ? `(stack ${v.stack})` : "(stack)";
}

/**
 * Fingerprint per policy and resource: the same on every commit while the resource keeps its URN,
 * whatever the figures in the message. A second verdict of one policy on one resource gets its
 * rank among them (in the sorted order) so the fingerprints stay distinct.
 */
function fingerprint(v: Verdict, rank: number): string {
    const hash = createHash("sha256")
        .update(`${v.policy}\u0000${v.urn ?? stackWide(v)}`)
        .digest("hex")
        .slice(0, 32);
    return rank === 0 ? hash : `${hash}:${rank}`;
}

/** The SARIF log as a JSON value. Input: Results (verdicts sorted). Output: the log object. */
export function toSarif(results: Results, opts: SarifOptions = {}): Record<string, unknown> {
    const ruleIndex = new Map(results.rules.map((r, i) => [r.id, i]));
    const rules = results.rules.map((r) => {
        const helpUri = policyDocUrl(opts.docsBase, r.id);
        return {
            id: r.id,
            name: r.id,
            shortDescription: { text: r.description },
            help: { text: `${r.description}\nThe policy's model, levels, settings and fixes: docs/policies/${r.id}.md` },
            ...(helpUri !== undefined ? { helpUri } : {}),
        };
    });
    const seen = new Map<string, number>();
    const out = results.verdicts
        .filter((v) => v.outcome !== "passed")
        .map((v) => {
            const key = `${v.policy}\u0000${v.urn ?? stackWide(v)}`;
            const rank = seen.get(key) ?? 0;
            seen.set(key, rank + 1);
            const index = ruleIndex.get(v.policy);
            return {
                ruleId: v.policy,
                ...(index !== undefined ? { ruleIndex: index } : {}),
                level: levelOf(v),
                message: { text: messageText(v) },
                locations: [
                    {
                        physicalLocation: {
                            artifactLocation: { uri: v.location.file, uriBaseId: "%SRCROOT%" },
                            region: { startLine: v.location.line },
                        },
                        ...(v.urn !== undefined ? { logicalLocations: [{ fullyQualifiedName: v.urn, name: v.resourceName, kind: "resource" }] } : {}),
                    },
                ],
                partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(v, rank) },
                ...(v.baseline !== undefined ? { baselineState: v.baseline } : {}),
                ...(v.outcome === "waived" ? { suppressions: [{ kind: "inSource", justification: v.waiver ?? "waived" }] } : {}),
                properties: {
                    enforcementLevel: v.level,
                    outcome: v.outcome,
                    ...(v.resourceType ? { resourceType: v.resourceType } : {}),
                    ...(v.stack !== undefined ? { stack: v.stack } : {}),
                },
            };
        });
    return {
        $schema: SARIF_SCHEMA_URI,
        version: "2.1.0",
        runs: [
            {
                tool: {
                    driver: {
                        name: results.tool.name,
                        version: results.tool.version,
                        ...(opts.docsBase !== undefined ? { informationUri: opts.docsBase.replace(/\/blob\/[^/]+$/, "") } : {}),
                        rules,
                    },
                },
                originalUriBaseIds: { "%SRCROOT%": { description: { text: "The repository root." } } },
                results: out,
            },
        ],
    };
}

/** The SARIF document as written: indented JSON and a final newline. */
export function writeSarif(results: Results, opts: SarifOptions = {}): string {
    return JSON.stringify(toSarif(results, opts), null, 2) + "\n";
}
