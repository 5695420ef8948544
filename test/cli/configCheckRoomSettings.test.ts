/**
 * `perfguard config check` and the room settings' homes (policies/citrix/roomSettings.ts, the NSX ALB
 * config): the targets' one home is citrix-brokering-capacity, measuredSiteBrokeredPerS's
 * citrix-site-database-load, headroomPct's and seGroups' nsx-alb-se-capacity; a copy still set on citrix-broker-throttle is
 * accepted with its home named, and set on both with different values, one note names both and
 * the value every Citrix policy judges with. Checked against the pack's own GetAnalyzerInfo.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkPolicyConfig } from "../../cli/configCheck";
import type { AnalyzerInfo } from "../../preview/packClient";
import { packAnalyzerInfo } from "./cliHarness";

let info: AnalyzerInfo;

beforeAll(async () => {
    info = await packAnalyzerInfo();
});

describe("config check: each room setting's one home", () => {
    it.each([
        ["the targets in their one home, citrix-brokering-capacity (baseline)", { "citrix-brokering-capacity": { targetResponseS: 20 } }, []],
        [
            "targetResponseS still on citrix-broker-throttle: accepted, its home named",
            { "citrix-broker-throttle": { targetResponseS: 20 } },
            [
                {
                    policy: "citrix-broker-throttle",
                    message:
                        "targetResponseS is deprecated here: its one home is citrix-brokering-capacity (set it there; this copy applies only while citrix-brokering-capacity leaves it at its default)",
                },
            ],
        ],
        [
            "targetResponseS on both, different: the home's applies, both named",
            { "citrix-brokering-capacity": { targetResponseS: 20 }, "citrix-broker-throttle": { targetResponseS: 6 } },
            [
                {
                    policy: "citrix-broker-throttle",
                    message:
                        "targetResponseS is deprecated here: its one home is citrix-brokering-capacity (set it there; this copy applies only while citrix-brokering-capacity leaves it at its default)",
                },
                {
                    policy: "citrix-broker-throttle",
                    message:
                        "targetResponseS is set both here (6, deprecated) and on its one home citrix-brokering-capacity (20): citrix-brokering-capacity's 20 applies to every Citrix policy; remove it here",
                },
            ],
        ],
        [
            "targetResponseS on both, the home at its default: the copy's applies, and the note says why",
            { "citrix-brokering-capacity": { targetResponseS: 12 }, "citrix-broker-throttle": { targetResponseS: 6 } },
            [
                {
                    policy: "citrix-broker-throttle",
                    message:
                        "targetResponseS is deprecated here: its one home is citrix-brokering-capacity (set it there; this copy applies only while citrix-brokering-capacity leaves it at its default)",
                },
                {
                    policy: "citrix-broker-throttle",
                    message:
                        "targetResponseS is set both here (6, deprecated) and on its one home citrix-brokering-capacity (12): citrix-broker-throttle's 6 applies to every Citrix policy, as citrix-brokering-capacity's is its default; remove it here",
                },
            ],
        ],
        [
            "targetResponseS on both, equal: only the deprecation note",
            { "citrix-brokering-capacity": { targetResponseS: 20 }, "citrix-broker-throttle": { targetResponseS: 20 } },
            [
                {
                    policy: "citrix-broker-throttle",
                    message:
                        "targetResponseS is deprecated here: its one home is citrix-brokering-capacity (set it there; this copy applies only while citrix-brokering-capacity leaves it at its default)",
                },
            ],
        ],
        ["measuredSiteBrokeredPerS in its one home (baseline)", { "citrix-site-database-load": { measuredSiteBrokeredPerS: 40 } }, []],
        [
            "measuredSiteBrokeredPerS still on citrix-brokering-capacity: accepted, its home named",
            { "citrix-brokering-capacity": { measuredSiteBrokeredPerS: 40 } },
            [
                {
                    policy: "citrix-brokering-capacity",
                    message:
                        "measuredSiteBrokeredPerS is deprecated here: its one home is citrix-site-database-load (set it there; this copy applies only while citrix-site-database-load leaves it at its default)",
                },
            ],
        ],
        ["the NSX ALB settings in their one home (baseline)", { "nsx-alb-se-capacity": { headroomPct: 30, seGroups: {} } }, []],
        [
            "headroomPct and seGroups still on nsx-alb-se-capacity-advisory: accepted, the home named",
            { "nsx-alb-se-capacity-advisory": { headroomPct: 30, seGroups: {} } },
            [
                {
                    policy: "nsx-alb-se-capacity-advisory",
                    message:
                        "headroomPct is deprecated here: its one home is nsx-alb-se-capacity (set it there; this copy still applies, to nsx-alb-se-capacity-advisory alone)",
                },
                {
                    policy: "nsx-alb-se-capacity-advisory",
                    message:
                        "seGroups is deprecated here: its one home is nsx-alb-se-capacity (set it there; this copy still applies, to nsx-alb-se-capacity-advisory alone)",
                },
            ],
        ],
    ] as const)("%s", (_name, config, notes) => {
        const found = checkPolicyConfig(config, info);
        expect(found.problems).toEqual([]);
        expect(found.notes).toEqual(notes);
    });
});
