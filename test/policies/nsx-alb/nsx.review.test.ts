/**
 * Findings of the NSX ALB expert review, each table-driven (a compliant baseline, one change per
 * case): N+M with bufferSe 0 judged at the first SE failure, the report's fix column read from the
 * evaluation, a summed CPU figure named as such, fixes without repeats, the minScaleoutPerVs >
 * maxSe cause named.
 */
import { describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { nsxAlbEvaluation } from "../../../policies/nsx-alb/evaluation";
import { groupFigures, nsxAlbFigures } from "../../../policies/nsx-alb/figures";
import { limitingName } from "../../../policies/nsx-alb/names";
import { parseMessage } from "../../../policies/pack/message";
import { StackView, viewOf } from "../../../policies/pack/resources";
import { nsxAlbSection } from "../../../cli/report/nsxAlb";
import { runPolicies, TestResource, UNKNOWN_VALUE, urnOf, Violation } from "../../support/policyHarness";
import { SE_GROUP, VS } from "./nsxFixtures";

const NSX = policies.filter((p) => p.name.startsWith("nsx-"));
const CAP = "nsx-alb-se-capacity";
const ADV = "nsx-alb-se-capacity-advisory";
const SSL = [{ port: "443", enableSsl: "true" }];
const L4 = "/api/applicationprofile/?name=System-L4-Application";

function stack(group: Record<string, unknown>, vss: Array<Record<string, string>>, vsProps: Record<string, unknown> = {}): TestResource[] {
    return [
        { type: SE_GROUP, name: "g-seg", props: { name: "g", cloudRef: "/api/cloud/?name=Default-Cloud", ...group } },
        ...vss.map((facts, i): TestResource => ({
            type: VS,
            name: `vs-${i + 1}`,
            props: { name: `vs${i + 1}`, seGroupRef: UNKNOWN_VALUE, services: SSL, markers: Object.entries(facts).map(([key, v]) => ({ key: `perfguard:${key}`, values: [v] })), ...vsProps },
            propertyDependencies: { seGroupRef: ["g-seg"] },
        })),
    ];
}

function stackOf(resources: readonly TestResource[]): StackView {
    return new StackView(resources.map((r) => viewOf({
        urn: urnOf(r.type, r.name), type: r.type, name: r.name, props: r.props,
        propertyDependencies: Object.fromEntries(Object.entries(r.propertyDependencies ?? {}).map(([p, names]) => [p, names.map((n) => ({ urn: urnOf(SE_GROUP, n) }))])),
    })));
}

const onGroup = (vs: Violation[], policy: string) => vs.filter((v) => v.policyName === policy && v.urn === urnOf(SE_GROUP, "g-seg"));
const problemOf = (v: Violation) => parseMessage(v.message).problem;

/** N+M, 2 vCPU SEs (1800 RSA TPS each), each VS on 2 SEs, maxSe 2, bufferSe 0, packed. */
const NM0 = { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20", haMode: "HA_MODE_SHARED", maxSe: "2", bufferSe: "0", minScaleoutPerVs: "2", maxScaleoutPerVs: "2" };

describe("N+M with bufferSe 0 is judged after one SE fails, as legacy active/standby is at failover", () => {
    // [case, group fields, RSA TPS, mandatory figure on the group (undefined: passes), advisory figure]
    const cases: Array<[string, Record<string, string>, string, string | undefined, string | undefined]> = [
        // 1000 TPS on 2 SEs: 27.8% each; after one fails the survivor carries all: 55.6% (within 80%).
        ["baseline: fits after one SE fails (advisory gives the figure)", NM0, "1000", undefined, "busiest 55.6%"],
        // 2160 TPS: 60% on each of 2 SEs, 120% on the survivor.
        ["2160 TPS: the survivor needs 120%", NM0, "2160", "the busiest survivor needs 120%", undefined],
        // Its only VS is reported (the group's line points to it): the figure is on the VS.
        ["the same load on legacy active/standby: 120% at failover", { ...NM0, haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY" }, "2160", "needs 120% of its 1 SE", undefined],
        ["the same load with bufferSe 1, maxSe 3: the buffer SE takes it", { ...NM0, bufferSe: "1", maxSe: "3" }, "2160", undefined, undefined],
        ["distributed placement: the survivor needs 120% too", { ...NM0, algo: "PLACEMENT_ALGO_DISTRIBUTED" }, "2160", "the busiest survivor needs 120%", undefined],
    ];
    it.each(cases)("%s", async (_name, group, tps, mandatory, advisory) => {
        const resources = stack(group, [{ sslTps: tps, sslKeyType: "rsa" }]);
        const out = await runPolicies(NSX, resources);
        const cap = out.filter((v) => v.policyName === CAP);
        if (mandatory === undefined) {
            expect(cap).toEqual([]);
        } else {
            expect(onGroup(out, CAP)).toHaveLength(1);
            expect(cap.every((v) => v.enforcementLevel === "mandatory")).toBe(true);
            expect(cap.map(problemOf).join("\n")).toContain(mandatory);
            expect(Math.max(...cap.map((v) => problemOf(v).length))).toBeLessThanOrEqual(160);
        }
        const adv = onGroup(out, ADV);
        if (advisory === undefined) {
            expect(adv.map(problemOf).filter((p) => p.includes("bufferSe 0"))).toEqual([]);
        } else {
            expect(adv).toHaveLength(1);
            expect(problemOf(adv[0])).toContain(advisory);
        }
    });

    it("the figures and the report state the survivor's load, the steady state beside it", () => {
        const view = stackOf(stack(NM0, [{ sslTps: "2160", sslKeyType: "rsa" }]));
        const [e] = nsxAlbEvaluation(view).groups;
        const f = groupFigures(e, nsxAlbEvaluation(view).config);
        expect(f?.busiestSe.peak).toBeCloseTo(1.2, 9);
        expect(f?.steadyState?.peak).toBeCloseTo(0.6, 9);
        expect(f?.fits).toBe(false);
        expect(f?.fixOptions).toEqual(["set bufferSe \"1\", maxSe \"3\""]);
        const busiest = nsxAlbFigures(view).find((x) => x.id === "g")?.figures.find((x) => x.label.startsWith("busiest SE after one SE fails"));
        expect(busiest?.text).toBe("120%");
        expect(nsxAlbSection(view, {})).toContain("| 120% (SSL TPS) | 60% | set bufferSe \"1\", maxSe \"3\" |");
    });

    it("the fix it offers passes nsx-alb-se-capacity", async () => {
        const out = await runPolicies(NSX, stack({ ...NM0, bufferSe: "1", maxSe: "3" }, [{ sslTps: "2160", sslKeyType: "rsa" }]));
        expect(out.filter((v) => v.policyName === CAP)).toEqual([]);
    });
});

/** 6 vCPU N+M, each VS on 3 SEs: 15 Gbps L4 binds on the primary SE's ingress (native scale-out). */
const SO = { vcpusPerSe: "6", memoryPerSe: "6144", diskPerSe: "40", dedicatedDispatcherCore: "true", haMode: "HA_MODE_SHARED", maxSe: "4", bufferSe: "1", minScaleoutPerVs: "3", maxScaleoutPerVs: "3" };

describe("the report's fix column shows the verdict's fix, VS-level ones too", () => {
    const cases: Array<[string, Record<string, string>, Record<string, unknown>, string]> = [
        ["baseline: scaleoutEcmp on the VS, fits", { throughputGbps: "15" }, { scaleoutEcmp: "true" }, "| fits |"],
        ["no direction, no ECMP: declare the direction or set scaleoutEcmp", { throughputGbps: "15" }, {}, "| declare perfguard:ingressPct on its VSs; or set scaleoutEcmp \"true\" on its VSs |"],
        ["direction given (ingress 90%), no ECMP: set scaleoutEcmp", { throughputGbps: "15", ingressPct: "90" }, {}, "| set scaleoutEcmp \"true\" on its VSs |"],
    ];
    it.each(cases)("%s", (_name, facts, props, cellText) => {
        const section = nsxAlbSection(stackOf(stack(SO, [facts], { services: [{ port: "80" }], applicationProfileRef: L4, ...props })), {});
        expect(section).toContain(cellText);
        expect(section).not.toContain("nothing within the provider's ranges");
    });
});

describe("a CPU figure summed over kinds of load is named as a sum", () => {
    // 2 vCPU N+M: 1800 RSA TPS, 40000 L7 RPS per SE (NSX ALB 20.1.6 table).
    const G = { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20", maxSe: "4", bufferSe: "1" };
    const cases: Array<[string, Record<string, string>, string]> = [
        ["baseline: SSL TPS alone", { sslTps: "1000", sslKeyType: "rsa" }, "SSL TPS"],
        ["SSL TPS + L7 RPS: summed", { sslTps: "1000", sslKeyType: "rsa", l7Rps: "10000" }, "CPU total (summed, not measured)"],
        ["L7 RPS alone", { l7Rps: "10000" }, "L7 RPS"],
    ];
    it.each(cases)("%s", (_name, facts, name) => {
        const view = stackOf(stack(G, [facts]));
        const [e] = nsxAlbEvaluation(view).groups;
        const f = groupFigures(e, nsxAlbEvaluation(view).config);
        expect(limitingName(f?.busiestSe as NonNullable<typeof f>["busiestSe"])).toBe(name);
        expect(nsxAlbSection(view, {})).toContain(`(${name}) |`);
    });
});

describe("fixes are offered once, and an unplaceable group names its cause", () => {
    // 4 vCPU, 8192 MB: 300000 open connections need memoryPerSe 9600 both as a scale-up and as the scale-out option.
    const O4 = { vcpusPerSe: "4", memoryPerSe: "8192", diskPerSe: "30", dedicatedDispatcherCore: "true", maxSe: "2", bufferSe: "1" };
    it("open connections: one option setting memoryPerSe \"9600\", not two", async () => {
        const out = await runPolicies(NSX, stack(O4, [{ l4OpenConnections: "300000" }], { services: [{ port: "443", enableSsl: "false" }] }));
        const fix = parseMessage(onGroup(out, CAP)[0]?.message ?? "").fix ?? "";
        expect(fix.match(/memoryPerSe "9600"/g)).toHaveLength(1);
        expect(fix).not.toContain("; or ");
    });

    const G = { vcpusPerSe: "1", maxSe: "2", bufferSe: "1", minScaleoutPerVs: "1", maxScaleoutPerVs: "4", maxVsPerSe: "1" };
    const cases: Array<[string, Record<string, string>, number, string | undefined]> = [
        ["baseline: 1 VS, minScaleoutPerVs 1, maxSe 2: placed", G, 1, undefined],
        ["minScaleoutPerVs 3 > maxSe 2: that cause, singular VS", { ...G, minScaleoutPerVs: "3" }, 1,
            "Serviceenginegroup \"g-seg\": minScaleoutPerVs 3 exceeds maxSe 2: the Controller cannot place its 1 VS."],
        ["3 VSs at maxVsPerSe 1 on maxSe 2: the SE count", G, 3,
            "Serviceenginegroup \"g-seg\": its 3 VSs need 3 SEs at maxVsPerSe 1 but maxSe is 2: the Controller cannot place them all."],
    ];
    it.each(cases)("%s", async (_name, group, count, problem) => {
        const out = onGroup(await runPolicies(NSX, stack(group, Array.from({ length: count }, () => ({ sslTps: "100" })))), CAP);
        expect(out.map(problemOf)).toEqual(problem === undefined ? [] : [problem]);
    });
});
