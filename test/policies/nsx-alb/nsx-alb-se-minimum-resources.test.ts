/**
 * nsx-alb-se-minimum-resources: an SE group's memory and disk against the size its vCPUs were
 * tested with (NSX ALB 20.1.6 per-SE table; beyond 6 vCPUs, the 6 vCPU row). A compliant
 * baseline (web-seg of nsxFixtures.ts: 4 vCPUs, 4096 MB, 30 GB), then one change per case.
 */
import { describe, expect, it } from "vitest";
import { testedSeSize } from "../../../model/seTable";
import { nsxAlbSeMinimumResources } from "../../../policies/nsx-alb/nsx-alb-se-minimum-resources";
import { parseMessage } from "../../../policies/pack/message";
import { runResourcePolicy, UNKNOWN_VALUE, verdicts } from "../../support/policyHarness";
import { nsxStack } from "./nsxFixtures";

const MIN = "nsx-alb-se-minimum-resources";
const mb = (vcpus: number) => testedSeSize(vcpus).memoryGb * 1024;
const gb = (vcpus: number) => testedSeSize(vcpus).diskGb;

describe(`${MIN}: the tested memory and disk for the SE's vCPUs`, () => {
    // [case, web-seg field changes, the problem line (undefined: passes), the fix]
    const cases: Array<[string, Record<string, unknown>, string | undefined, string | undefined]> = [
        ["baseline: 4 vCPUs at the tested 4096 MB and 30 GB", {}, undefined, undefined],
        [
            "memory below the tested size",
            { memoryPerSe: "2048" },
            `Serviceenginegroup "web-seg": 2048 MB memory per 4 vCPU SE; tested: ${mb(4)} MB; capacity may be lower.`,
            `set memoryPerSe "${mb(4)}"`,
        ],
        [
            "memory not set (the provider's 2048 MB)",
            { memoryPerSe: undefined },
            `Serviceenginegroup "web-seg": 2048 MB memory per 4 vCPU SE; tested: ${mb(4)} MB; capacity may be lower.`,
            `set memoryPerSe "${mb(4)}"`,
        ],
        [
            "disk below the tested size",
            { diskPerSe: "20" },
            `Serviceenginegroup "web-seg": 20 GB disk per 4 vCPU SE; tested: ${gb(4)} GB; capacity may be lower.`,
            `set diskPerSe "${gb(4)}"`,
        ],
        [
            "both below",
            { memoryPerSe: "2048", diskPerSe: "20" },
            `Serviceenginegroup "web-seg": 2048 MB memory, 20 GB disk per 4 vCPU SE; tested: ${mb(4)} MB, ${gb(4)} GB; capacity may be lower.`,
            `set memoryPerSe "${mb(4)}" and diskPerSe "${gb(4)}"`,
        ],
        ["more memory and disk than tested", { memoryPerSe: "8192", diskPerSe: "60" }, undefined, undefined],
        [
            "16 vCPUs: the 6 vCPU row's size is the tested minimum",
            { vcpusPerSe: "16", memoryPerSe: "4096", diskPerSe: "40" },
            `Serviceenginegroup "web-seg": 4096 MB memory per 16 vCPU SE; tested: ${mb(6)} MB; capacity may be lower.`,
            `set memoryPerSe "${mb(6)}"`,
        ],
        ["vcpusPerSe unknown in the preview: not checked", { vcpusPerSe: UNKNOWN_VALUE }, "not checked", "vcpusPerSe"],
    ];
    it.each(cases)("%s", async (_name, group, problem, fix) => {
        const found = await runResourcePolicy(nsxAlbSeMinimumResources, nsxStack({ group }));
        expect(verdicts(found)).toEqual(problem === undefined ? [] : [`${MIN} -> web-seg`]);
        if (problem !== undefined) {
            const m = parseMessage(found[0].message);
            expect(m.problem).toContain(problem);
            expect(m.fix).toContain(fix);
            expect(found[0].enforcementLevel).toBe("advisory");
        }
    });
    it("the tested sizes it judges against are the table's rows (4 vCPUs: 4 GB / 30 GB; 6 vCPUs and beyond: 6 GB / 40 GB)", () => {
        expect([mb(4), gb(4), mb(6), gb(6), mb(16), gb(16)]).toEqual([4096, 30, 6144, 40, 6144, 40]);
    });
});
