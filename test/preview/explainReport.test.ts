// --explain on the client side: the decisions the pack recorded (applied / not applicable / not
// checked / type not read), read from the explain file and rendered per policy and resource.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import type { ExplainRecord } from "../../policies/pack/decisionLog";
import { formatExplanation, readExplanation, verdictStatus } from "../../preview/explainReport";

const URN = "urn:pulumi:dev::p::avi:index/serviceenginegroup:Serviceenginegroup::web-seg";

function file(records: ExplainRecord[]): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perfguard-explain-"));
    const out = path.join(dir, "explain.jsonl");
    fs.writeFileSync(out, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    return out;
}

describe("readExplanation and formatExplanation", () => {
    const records: ExplainRecord[] = [
        {
            kind: "facts",
            phase: "analyze",
            urn: URN,
            type: "avi:index/serviceenginegroup:Serviceenginegroup",
            name: "web-seg",
            facts: [],
            problems: 0,
            incomplete: false,
        },
        {
            kind: "verdict",
            phase: "analyze",
            policy: "nsx-alb-se-minimum-resources",
            urn: URN,
            violations: 1,
            applies: false,
            reason: "vcpusPerSe is unknown in this preview",
            notChecked: ["vcpusPerSe is unknown in this preview (give it a known value)"],
        },
        {
            kind: "verdict",
            phase: "analyze",
            policy: "nsx-alb-se-dedicated-dispatcher",
            urn: URN,
            violations: 0,
            applies: false,
            reason: "vcpusPerSe 2 below minVcpus 4",
        },
        {
            kind: "verdict",
            phase: "analyze",
            policy: "policy-a",
            urn: URN,
            violations: 2,
            applies: true,
            detail: "memoryPerSe 2048 MB against 4096 MB",
            notChecked: ["diskPerSe is unknown in this preview (give it a known value)"],
        },
        {
            kind: "verdict",
            phase: "analyze",
            policy: "citrix-zone-rtt-limit",
            urn: URN,
            violations: 0,
            applies: false,
            reason: "reads only citrix:index/zone:Zone",
            typeNotRead: true,
        },
    ];

    it("classifies each verdict as one of the recorded decisions", () => {
        const explained = readExplanation(file(records), [URN]);
        expect(explained.resources).toHaveLength(1);
        expect(explained.resources[0].verdicts.map((v) => [v.policy, verdictStatus(v)])).toEqual([
            ["nsx-alb-se-minimum-resources", "not checked"],
            ["nsx-alb-se-dedicated-dispatcher", "not applicable"],
            ["policy-a", "applied"],
            ["citrix-zone-rtt-limit", "not read"],
        ]);
    });

    it("prints applied, not checked (with the remedy), not applicable and not read per policy", () => {
        const text = formatExplanation(readExplanation(file(records), [URN]));
        expect(text).toContain("avi:index/serviceenginegroup:Serviceenginegroup: web-seg\n");
        expect(text).toContain(
            "nsx-alb-se-minimum-resources [Analyze]: not checked, 1 violation: vcpusPerSe is unknown in this preview (give it a known value)\n",
        );
        expect(text).toContain("nsx-alb-se-dedicated-dispatcher [Analyze]: not applicable: vcpusPerSe 2 below minVcpus 4\n");
        expect(text).toContain(
            "policy-a [Analyze]: applied, 2 violations: memoryPerSe 2048 MB against 4096 MB; not checked: diskPerSe is unknown in this preview (give it a known value)\n",
        );
        // citrix-zone-rtt-limit has no zone in this stack: named once at the top, not per resource.
        expect(text).toContain("    not shown: citrix-zone-rtt-limit (nothing of their kind in this stack)\n");
        expect(text).not.toContain("not read by");
    });
});

describe("formatExplanation keeps to what the stack holds", () => {
    const ZONE = "urn:pulumi:dev::p::citrix:index/zone:Zone::emea";
    const POOL = "urn:pulumi:dev::p::avi:index/pool:Pool::web-pool";
    const VSVIP = "urn:pulumi:dev::p::avi:index/vsvip:Vsvip::web-vip";
    const notRead = (policy: string, urn: string): ExplainRecord => ({
        kind: "verdict",
        phase: "analyzeStack",
        policy,
        urn,
        violations: 0,
        applies: false,
        reason: "other types",
        typeNotRead: true,
    });
    const facts = (urn: string, type: string, name: string): ExplainRecord => ({
        kind: "facts",
        phase: "analyze",
        urn,
        type,
        name,
        facts: [],
        problems: 0,
        incomplete: false,
    });
    // An Avi-only stack: one SE group that policy-se judges; the Citrix stack policies judged nothing.
    const aviOnly: ExplainRecord[] = [
        facts(URN, "avi:index/serviceenginegroup:Serviceenginegroup", "web-seg"),
        { kind: "verdict", phase: "analyzeStack", policy: "policy-se", urn: URN, violations: 0, applies: true, detail: "busiest SE 30%" },
        notRead("citrix-site-limits", URN),
        notRead("citrix-zone-rtt-limit", URN),
        notRead("policy-vs", URN),
        facts(POOL, "avi:index/pool:Pool", "web-pool"),
        notRead("policy-se", POOL),
        notRead("citrix-site-limits", POOL),
        facts(VSVIP, "avi:index/vsvip:Vsvip", "web-vip"),
        notRead("policy-se", VSVIP),
        {
            kind: "verdict",
            phase: "analyzeStack",
            policy: "citrix-site-limits",
            urn: "",
            violations: 0,
            applies: true,
            detail: "0 Citrix zones against maxZonesPerSite 50",
        },
        { kind: "verdict", phase: "analyzeStack", policy: "policy-vs", urn: "", violations: 0, applies: false, reason: "no virtual service", notChecked: [] },
        // policy-vs judges virtual services, and this stack has none: its stack-wide decision is left out too.
    ];

    it("leaves out the policies with nothing of their kind, and their stack verdicts, naming them once", () => {
        const text = formatExplanation(readExplanation(file(aviOnly), [URN, POOL, VSVIP]));
        expect(text).toContain("    not shown: citrix-site-limits, citrix-zone-rtt-limit, policy-vs (nothing of their kind in this stack)\n");
        expect(text).not.toContain("0 Citrix zones");
        expect(text).not.toContain("the stack as a whole");
        expect(text.match(/citrix-site-limits/g)).toHaveLength(1);
    });

    it("puts a resource no policy reads on one line, consecutive ones together", () => {
        const text = formatExplanation(readExplanation(file(aviOnly), [URN, POOL, VSVIP]));
        expect(text).toContain(
            "\n\n    avi:index/pool:Pool: web-pool: no perfguard: facts; no policy applies\n    avi:index/vsvip:Vsvip: web-vip: no perfguard: facts; no policy applies\n",
        );
    });

    it("lists on one line, sorted, only the policies of this stack that do not read a resource", () => {
        const mixed: ExplainRecord[] = [
            ...aviOnly,
            facts(ZONE, "citrix:index/zone:Zone", "emea"),
            {
                kind: "verdict",
                phase: "analyze",
                policy: "citrix-zone-rtt-limit",
                urn: ZONE,
                violations: 1,
                applies: true,
                detail: "RTT 260 ms against maxRttMs 250 ms",
            },
            { kind: "verdict", phase: "analyzeStack", policy: "citrix-site-limits", urn: ZONE, violations: 0, applies: true, detail: "20 machines" },
            notRead("policy-se", ZONE),
        ];
        const text = formatExplanation(readExplanation(file(mixed), [URN, POOL, VSVIP, ZONE]));
        expect(text).toContain("    not shown: policy-vs (nothing of their kind in this stack)\n");
        expect(text).toContain("        citrix-site-limits [AnalyzeStack]: applied, 0 violations: 0 Citrix zones against maxZonesPerSite 50\n");
        expect(text).toContain(
            "    avi:index/serviceenginegroup:Serviceenginegroup: web-seg\n        facts (inputs, Analyze): none\n        policy-se [AnalyzeStack]: applied, 0 violations: busiest SE 30%\n        not read by: citrix-site-limits, citrix-zone-rtt-limit (other resource types)\n",
        );
        expect(text).toContain("        not read by: policy-se (other resource types)\n");
    });
});
