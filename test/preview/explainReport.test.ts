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
        { kind: "facts", phase: "analyze", urn: URN, type: "avi:index/serviceenginegroup:Serviceenginegroup", name: "web-seg", facts: [], problems: 0, incomplete: false },
        { kind: "verdict", phase: "analyze", policy: "nsx-alb-se-minimum-resources", urn: URN, violations: 1, applies: false, reason: "vcpusPerSe is unknown in this preview", notChecked: ["vcpusPerSe is unknown in this preview (give it a known value)"] },
        { kind: "verdict", phase: "analyze", policy: "nsx-alb-se-dedicated-dispatcher", urn: URN, violations: 0, applies: false, reason: "vcpusPerSe 2 below minVcpus 4" },
        { kind: "verdict", phase: "analyze", policy: "policy-a", urn: URN, violations: 2, applies: true, detail: "memoryPerSe 2048 MB against 4096 MB", notChecked: ["diskPerSe is unknown in this preview (give it a known value)"] },
        { kind: "verdict", phase: "analyze", policy: "citrix-zone-rtt-limit", urn: URN, violations: 0, applies: false, reason: "reads only citrix:index/zone:Zone", typeNotRead: true },
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
        expect(text).toContain("nsx-alb-se-minimum-resources [Analyze]: not checked, 1 violation: vcpusPerSe is unknown in this preview (give it a known value)\n");
        expect(text).toContain("nsx-alb-se-dedicated-dispatcher [Analyze]: not applicable: vcpusPerSe 2 below minVcpus 4\n");
        expect(text).toContain("policy-a [Analyze]: applied, 2 violations: memoryPerSe 2048 MB against 4096 MB; not checked: diskPerSe is unknown in this preview (give it a known value)\n");
        expect(text).toContain("not read by (other resource types): citrix-zone-rtt-limit\n");
    });
});
