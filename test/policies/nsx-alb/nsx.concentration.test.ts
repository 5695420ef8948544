/**
 * Issue 19, Avi: shared capacity concentrates. Legacy active/standby is sized for the SE that
 * survives a failover (both settings of distributeLoadActiveStandby); native scale-out keeps a
 * VS's ingress on its primary SE. One table per rule: a compliant baseline and one change per case.
 */
import { describe, expect, it } from "vitest";
import table from "../../../model/data/nsx-alb-se-20.1.6.json";
import { nsxAlbSeCapacity } from "../../../policies/nsx-alb/nsx-alb-se-capacity";
import { parseMessage, PROBLEM_LINE_MAX } from "../../../policies/pack/message";
import { pct } from "../../../policies/pack/format";
import { runStackPolicy, TestResource, UNKNOWN_VALUE, Violation } from "../../support/policyHarness";
import { SE_GROUP, VS } from "./nsxFixtures";

function cell(vcpus: number, column: string): number {
    const row = table.rows.find((r) => r[0] === vcpus) as Array<number | boolean>;
    return row[table.columns.indexOf(column)] as number;
}

function group(fields: Record<string, string>): TestResource {
    return { type: SE_GROUP, name: "g-seg", props: { name: "g", cloudRef: "/api/cloud/?name=Default-Cloud", ...fields } };
}

function vs(name: string, facts: Record<string, string>, props: Record<string, unknown> = {}): TestResource {
    return {
        type: VS,
        name,
        props: { name, seGroupRef: UNKNOWN_VALUE, markers: Object.entries(facts).map(([k, v]) => ({ key: `perfguard:${k}`, values: [v] })), ...props },
        propertyDependencies: { seGroupRef: ["g-seg"] },
    };
}

const SSL = { services: [{ port: "443", enableSsl: "true" }] };
const L4 = { applicationProfileRef: "/api/applicationprofile/?name=System-L4-Application", services: [{ port: "5432" }] };

function levelled(out: Violation[]): string[] {
    return out.map((v) => `${(v.urn ?? "::(stack)").split("::").pop()} [${v.enforcementLevel}]`).sort();
}

function on(out: Violation[], resource: string): ReturnType<typeof parseMessage> {
    const v = out.find((x) => (x.urn ?? "").endsWith(`::${resource}`));
    expect(v, resource).toBeDefined();
    return parseMessage((v as Violation).message);
}

describe("legacy active/standby: after a failover one SE carries every VS of the pair (both settings of distributeLoadActiveStandby)", () => {
    const AS = { vcpusPerSe: "4", memoryPerSe: "4096", diskPerSe: "30", dedicatedDispatcherCore: "true", haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY" };
    // 2 x 1430 RSA TPS = 2860 on one 4 vCPU SE (2600): 110%; 2 x 1000 = 76.9% fits.
    const pair = (tps: string) => [vs("vs-a", { sslTps: tps }, SSL), vs("vs-b", { sslTps: tps }, SSL)];
    const cases: Array<[string, TestResource[], string[]]> = [
        ["baseline: 2 x 1000 RSA TPS, flag unset", [group(AS), ...pair("1000")], []],
        ["baseline: 2 x 1000 RSA TPS, distributeLoadActiveStandby true", [group({ ...AS, distributeLoadActiveStandby: "true" }), ...pair("1000")], []],
        [
            "2 x 1430 RSA TPS, distributeLoadActiveStandby false",
            [group({ ...AS, distributeLoadActiveStandby: "false" }), ...pair("1430")],
            ["g-seg [mandatory]"],
        ],
        ["2 x 1430 RSA TPS, distributeLoadActiveStandby true", [group({ ...AS, distributeLoadActiveStandby: "true" }), ...pair("1430")], ["g-seg [mandatory]"]],
    ];
    it.each(cases)("%s", async (_name, resources, expected) => {
        expect(levelled(await runStackPolicy(nsxAlbSeCapacity, resources))).toEqual(expected);
    });
    it.each([["false"], ["true"]])("distributeLoadActiveStandby %s: 110% on the surviving SE; the flag is never the fix", async (flag) => {
        const m = on(await runStackPolicy(nsxAlbSeCapacity, [group({ ...AS, distributeLoadActiveStandby: flag }), ...pair("1430")]), "g-seg");
        expect(m.problem).toContain(`after a failover one SE carries all 2 VSs: busiest SE ${pct(2860 / cell(4, "sslTpsRsa2048"))}`);
        expect(m.problem.length).toBeLessThanOrEqual(PROBLEM_LINE_MAX);
        expect(m.fix).not.toContain("distributeLoadActiveStandby");
        // A measured larger SE, N+M with scale-out (not in Essentials/Basic), or another SE group.
        expect(m.fix).toMatch(/set vcpusPerSe "6"[^;]*\(busiest SE 71\.5%; 6 vCPU row, measured\)/);
        expect(m.fix).toMatch(/haMode "HA_MODE_SHARED".*not in the Essentials and Basic editions/);
        expect(m.fix).toContain("or move some of its VSs to another SE group");
        expect(m.basis.join("\n")).toContain("the surviving SE takes over traffic for all virtual services previously active on the failed SE");
    });
    it("the steady-state figure is reported beside the failover figure when the flag is true", async () => {
        const out = await runStackPolicy(nsxAlbSeCapacity, [group({ ...AS, distributeLoadActiveStandby: "true" }), ...pair("1430")]);
        expect(on(out, "g-seg").basis.join("\n")).toContain(`busier SE ${pct(1430 / cell(4, "sslTpsRsa2048"))}, steady state`);
    });
});

describe("native scale-out: the primary SE carries all of a VS's ingress", () => {
    const NM = {
        vcpusPerSe: "8",
        memoryPerSe: "8192",
        diskPerSe: "40",
        dedicatedDispatcherCore: "true",
        haMode: "HA_MODE_SHARED",
        maxSe: "6",
        bufferSe: "1",
        minScaleoutPerVs: "2",
        maxScaleoutPerVs: "4",
    };
    // 8 vCPUs hold the 6 vCPU row's 13 Gbps L4 throughput (bound by packets and the NIC).
    const l4 = cell(6, "l4ThroughputGbps");
    const cases: Array<[string, TestResource[], Record<string, unknown>, string[]]> = [
        // Egress heavy: 10% of 12 Gbps in, 90% out over 2 SEs: 1.2 + 5.4 = 6.6 / 13 = 50.8% on the primary.
        ["baseline: 12 Gbps L4, 10% ingress, on 2 SEs", [group(NM), vs("vs-1", { throughputGbps: "12", ingressPct: "10" }, L4)], {}, []],
        // Upload heavy: 90% in: 10.8 + 0.6 = 11.4 / 13 = 87.7% on the primary.
        [
            "12 Gbps L4, 90% ingress (uploads), on 2 SEs",
            [group(NM), vs("vs-1", { throughputGbps: "12", ingressPct: "90" }, L4)],
            {},
            ["g-seg [mandatory]", "vs-1 [mandatory]"],
        ],
        // No direction: all ingress: 12 / 13 = 92.3%.
        ["12 Gbps L4, no direction, on 2 SEs", [group(NM), vs("vs-1", { throughputGbps: "12" }, L4)], {}, ["g-seg [mandatory]", "vs-1 [mandatory]"]],
        ["12 Gbps L4, no direction, scaleoutEcmp true", [group(NM), vs("vs-1", { throughputGbps: "12" }, { ...L4, scaleoutEcmp: "true" })], {}, []],
        // assumeScaleOut: 30 Gbps on 4 SEs was 57.7% of each; all of its ingress reaches the primary: 231%.
        [
            "30 Gbps L4, no direction, assumeScaleOut on 4 SEs",
            [group(NM), vs("vs-1", { throughputGbps: "30" }, L4)],
            { assumeScaleOut: true },
            ["g-seg [mandatory]", "vs-1 [mandatory]"],
        ],
        [
            "30 Gbps L4, scaleoutEcmp true, assumeScaleOut on 4 SEs",
            [group(NM), vs("vs-1", { throughputGbps: "30" }, { ...L4, scaleoutEcmp: "true" })],
            { assumeScaleOut: true },
            [],
        ],
        // CPU work spreads: 8000 RSA TPS over 2 SEs of 8 vCPUs (4000 x 8/6 each, extrapolated) is 75%.
        ["CPU work spreads: 8000 RSA TPS on 2 SEs", [group(NM), vs("vs-1", { sslTps: "8000" }, SSL)], {}, []],
        // Active/active keeps fitting with one SE lost: 2000 RSA TPS on 2 of 3 SEs of 2 vCPUs, 55.6%.
        [
            "active/active surviving one SE loss",
            [group({ vcpusPerSe: "2", haMode: "HA_MODE_SHARED_PAIR", minScaleoutPerVs: "3" }), vs("vs-1", { sslTps: "2000" }, SSL)],
            {},
            [],
        ],
    ];
    it.each(cases)("%s", async (_name, resources, config, expected) => {
        expect(levelled(await runStackPolicy(nsxAlbSeCapacity, resources, config))).toEqual(expected);
    });
    it("the upload-heavy VS names its primary SE's ingress; the fix scales out only with ECMP", async () => {
        const out = await runStackPolicy(nsxAlbSeCapacity, cases[1][1]);
        const m = on(out, "vs-1");
        // The primary's throughput (ingress + its half of the egress), with the ingress figure quoted as in the basis.
        expect(m.problem).toContain(
            `needs ${pct((12 * 0.9 + (12 * 0.1) / 2) / l4)} of its primary SE's throughput (ingress ${pct((12 * 0.9) / l4)}, not spread over its 2 SEs)`,
        );
        expect(m.basis[0]).toContain(`primary SE ingress ${pct((12 * 0.9) / l4)}`);
        expect(m.problem).not.toContain("no direction given");
        const fix = on(out, "g-seg").fix ?? "";
        for (const option of fix.split("; or ")) {
            if (/ScaleoutPerVs/.test(option)) {
                expect(option).toContain('scaleoutEcmp "true"');
            }
        }
        expect(fix).toContain('scaleoutEcmp "true"');
        expect(fix).not.toMatch(/vcpusPerSe "6", [^;]*minScaleoutPerVs "2"(?![^;]*scaleoutEcmp)/);
    });
    it("the assumed-scale-out VS names the primary SE's ingress and says the throughput was counted as all ingress", async () => {
        const out = await runStackPolicy(nsxAlbSeCapacity, cases[4][1], { assumeScaleOut: true });
        const m = on(out, "vs-1");
        expect(m.problem).toContain(`needs ${pct(30 / l4)} of its primary SE's throughput (not spread`);
        expect(m.problem).toContain("not spread over its 4 SEs; no direction given: all counted as ingress");
        expect(m.problem.length).toBeLessThanOrEqual(PROBLEM_LINE_MAX);
        expect(m.basis.join("\n")).toContain("all ingress of a VS goes through its primary SE");
    });
    // Each case: the VS's facts and fields on NM at 4 vCPUs (9.5 Gbps L4 per SE, minScaleoutPerVs 3), what the group's fix must and must not say.
    const NATIVE3 = { ...NM, vcpusPerSe: "4", memoryPerSe: "4096", diskPerSe: "30", minScaleoutPerVs: "3", maxSe: "5" };
    const fixCases: Array<[string, Record<string, string>, Record<string, unknown>, RegExp[], RegExp[]]> = [
        // 15 Gbps, 80% in: the primary carries 12 + 1 Gbps; ECMP alone fits, the group keeps its fields.
        [
            "80% ingress declared",
            { l4Cps: "30000", throughputGbps: "15", ingressPct: "80" },
            {},
            [/^set scaleoutEcmp "true" on its VSs \(BGP\/ECMP/, /or, without BGP\/ECMP, split the traffic of its ingress-bound VSs over several VSs/],
            [/set ,/, /set \(/, /perfguard:ingressPct/],
        ],
        // No direction: all counted as ingress; declaring the direction comes first.
        [
            "no direction declared",
            { throughputGbps: "15" },
            {},
            [
                /^declare perfguard:ingressPct on its VSs if their traffic is mostly egress \(now all counted as ingress\); or set /,
                /split the traffic of its ingress-bound VSs/,
            ],
            [/set ,/],
        ],
    ];
    it.each(fixCases)("the fix of an ingress-bound VS on native scale-out: %s", async (_name, facts, props, must, mustNot) => {
        const fix = on(await runStackPolicy(nsxAlbSeCapacity, [group(NATIVE3), vs("vs-1", facts, { ...L4, ...props })]), "g-seg").fix ?? "";
        for (const re of must) {
            expect(fix).toMatch(re);
        }
        for (const re of mustNot) {
            expect(fix).not.toMatch(re);
        }
    });
    it("a CPU-bound VS on native scale-out gets no split or direction advice", async () => {
        const fix = on(await runStackPolicy(nsxAlbSeCapacity, [group(NATIVE3), vs("vs-1", { sslTps: "9000" }, SSL)]), "g-seg").fix ?? "";
        // RSA-2048 assumed: declaring the key type comes first, then the group's changes.
        expect(fix).toMatch(/^declare the key type of vs-1 first \(RSA-2048 assumed\)[^;]*; or set /);
        expect(fix).not.toMatch(/split the traffic|perfguard:ingressPct/);
    });
    it("on one SE the direction changes nothing and no scale-out note is made", async () => {
        const one = { ...NM, minScaleoutPerVs: "1" };
        const out = await runStackPolicy(nsxAlbSeCapacity, [group(one), vs("vs-1", { throughputGbps: "12" }, L4)]);
        const m = on(out, "vs-1");
        expect(m.problem).toContain(`needs ${pct(12 / l4)} of its 1 SE`);
        expect(m.problem).not.toContain("ingress");
    });
});
