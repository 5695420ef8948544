/**
 * `perfguard config check` and the Citrix room settings' homes (policies/citrix/roomSettings.ts):
 * the targets' one home is citrix-brokering-capacity; a copy still set on citrix-broker-throttle is
 * accepted with its home named, and set on both with different values, one note names both and
 * the value every Citrix policy judges with. Checked against the pack's own GetAnalyzerInfo.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { checkPolicyConfig } from "../../cli/configCheck";
import { AnalyzerInfo, startPack } from "../../preview/packClient";
import { ROOT } from "./cliHarness";

let info: AnalyzerInfo;

beforeAll(async () => {
    const pack = await startPack(ROOT, { onOutput: () => undefined });
    try {
        info = await pack.getAnalyzerInfo();
    } finally {
        await pack.close();
    }
});

describe("config check: the Citrix targets' one home", () => {
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
    ] as const)("%s", (_name, config, notes) => {
        const found = checkPolicyConfig(config, info);
        expect(found.problems).toEqual([]);
        expect(found.notes).toEqual(notes);
    });
});
