/**
 * nsx-alb-se-dedicated-dispatcher: from minVcpus (default 4: the 4 and 6 vCPU rows were measured
 * with a dedicated dispatcher) an SE group should set dedicatedDispatcherCore "true"; below 4
 * vCPUs one is a layout the table never measured. A compliant baseline (web-seg of
 * nsxFixtures.ts: 4 vCPUs, dispatcher on), then one change per case.
 */
import { describe, expect, it } from "vitest";
import { nsxAlbSeDedicatedDispatcher } from "../../../policies/nsx-alb/nsx-alb-se-dedicated-dispatcher";
import { parseMessage } from "../../../policies/pack/message";
import { runResourcePolicy, UNKNOWN_VALUE, verdicts } from "../../support/policyHarness";
import { nsxStack } from "./nsxFixtures";

const DISPATCH = "nsx-alb-se-dedicated-dispatcher";

describe(`${DISPATCH}: a dedicated dispatcher core where the table measured one`, () => {
    // [case, web-seg field changes, config, the problem line (undefined: passes), the fix]
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, string | undefined, string | undefined]> = [
        ["baseline: 4 vCPUs with a dedicated dispatcher (as measured)", {}, {}, undefined, undefined],
        [
            "4 vCPUs, dispatcher off",
            { dedicatedDispatcherCore: "false" },
            {},
            'Serviceenginegroup "web-seg": 4 vCPUs per SE (minVcpus 4) but no dedicated dispatcher core, unlike the tested SE sizes.',
            'set dedicatedDispatcherCore "true"',
        ],
        [
            "4 vCPUs, dispatcher not set (the provider computes it)",
            { dedicatedDispatcherCore: undefined },
            {},
            'Serviceenginegroup "web-seg": 4 vCPUs per SE (minVcpus 4) but no dedicated dispatcher core, unlike the tested SE sizes.',
            'set dedicatedDispatcherCore "true"',
        ],
        [
            "16 vCPUs, dispatcher off",
            { vcpusPerSe: "16", memoryPerSe: "6144", diskPerSe: "40", dedicatedDispatcherCore: "false" },
            {},
            'Serviceenginegroup "web-seg": 16 vCPUs per SE (minVcpus 4) but no dedicated dispatcher core, unlike the tested SE sizes.',
            'set dedicatedDispatcherCore "true"',
        ],
        ["dispatcher off below minVcpus 6", { dedicatedDispatcherCore: "false" }, { minVcpus: 6 }, undefined, undefined],
        [
            "2 vCPUs without a dispatcher (as measured)",
            { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20", dedicatedDispatcherCore: "false" },
            {},
            undefined,
            undefined,
        ],
        [
            "2 vCPUs with a dispatcher: a layout not measured",
            { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20" },
            {},
            'Serviceenginegroup "web-seg": a dedicated dispatcher core on 2 vCPUs per SE leaves 1 proxy core, a layout the table never measured.',
            'set dedicatedDispatcherCore "false" (as the 2 vCPU row was measured), or vcpusPerSe "4" or more (measured with a dedicated dispatcher).',
        ],
        ["vcpusPerSe unknown in the preview: not checked", { vcpusPerSe: UNKNOWN_VALUE }, {}, "not checked", "vcpusPerSe"],
    ];
    it.each(cases)("%s", async (_name, group, config, problem, fix) => {
        const found = await runResourcePolicy(nsxAlbSeDedicatedDispatcher, nsxStack({ group }), config);
        expect(verdicts(found)).toEqual(problem === undefined ? [] : [`${DISPATCH} -> web-seg`]);
        if (problem !== undefined) {
            const m = parseMessage(found[0].message);
            expect(m.problem).toContain(problem);
            expect(m.fix).toContain(fix);
            expect(found[0].enforcementLevel).toBe("advisory");
        }
    });
});
