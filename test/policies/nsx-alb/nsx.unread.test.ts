/**
 * Fail closed on an input the verdict depends on that is unknown in a preview or unreadable
 * (dedicatedDispatcherCore, a VS's scaleoutEcmp, perfguard:ingressPct): the group is judged with
 * both settings; the same verdict is given with a Basis line saying so, else "not checked" naming
 * the field. Table-driven: a compliant baseline, one change per case.
 */
import { describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { nsxAlbEvaluation } from "../../../policies/nsx-alb/evaluation";
import { groupFigures } from "../../../policies/nsx-alb/figures";
import { parseMessage } from "../../../policies/pack/message";
import { StackView, viewOf } from "../../../policies/pack/resources";
import { runPolicies, TestResource, UNKNOWN_VALUE, urnOf, Violation } from "../../support/policyHarness";
import { SE_GROUP, VS } from "./nsxFixtures";

const NSX = policies.filter((p) => p.name.startsWith("nsx-"));
const CAP = "nsx-alb-se-capacity";
const SSL = [{ port: "443", enableSsl: "true" }];
const L4 = "/api/applicationprofile/?name=System-L4-Application";

/**
 * The group and one VS. An unknown dedicatedDispatcherCore is set from another resource's output
 * (a property dependency at its key) unless `unsetComputed`: then it is the provider's computed,
 * unset attribute, which a preview also shows unknown.
 */
function stack(group: Record<string, unknown>, facts: Record<string, string>, vsProps: Record<string, unknown> = {}, unsetComputed = false): TestResource[] {
    const fromOutput = group.dedicatedDispatcherCore === UNKNOWN_VALUE && !unsetComputed;
    return [
        {
            type: SE_GROUP,
            name: "g-seg",
            props: { name: "g", cloudRef: "/api/cloud/?name=Default-Cloud", ...group },
            ...(fromOutput ? { propertyDependencies: { dedicatedDispatcherCore: ["settings"] } } : {}),
        },
        // What the unknown value comes from (a resource the program reads it off).
        ...(fromOutput ? [{ type: "random:index/randomString:RandomString", name: "settings", props: {} }] : []),
        {
            type: VS,
            name: "vs-1",
            props: {
                name: "vs1",
                seGroupRef: UNKNOWN_VALUE,
                markers: Object.entries(facts).map(([key, v]) => ({ key: `perfguard:${key}`, values: [v] })),
                ...vsProps,
            },
            propertyDependencies: { seGroupRef: ["g-seg"] },
        },
    ];
}

function stackOf(resources: readonly TestResource[]): StackView {
    return new StackView(
        resources.map((r) =>
            viewOf({
                urn: urnOf(r.type, r.name),
                type: r.type,
                name: r.name,
                props: r.props,
                propertyDependencies: Object.fromEntries(
                    Object.entries(r.propertyDependencies ?? {}).map(([p, names]) => [p, names.map((n) => ({ urn: urnOf(SE_GROUP, n) }))]),
                ),
            }),
        ),
    );
}

/** The outcome of nsx-alb-se-capacity in short: "pass", "fail" (a mandatory verdict on the group) or "not checked". */
function outcome(out: readonly Violation[]): string {
    const cap = out.filter((v) => v.policyName === CAP);
    if (cap.some((v) => v.enforcementLevel === "mandatory")) {
        return "fail";
    }
    return cap.some((v) => parseMessage(v.message).problem.includes("not checked")) ? "not checked" : cap.length === 0 ? "pass" : "other";
}

function text(out: readonly Violation[]): string {
    return out
        .filter((v) => v.policyName === CAP)
        .map((v) => v.message)
        .join("\n");
}

/** 2 vCPU SEs (the 2 vCPU row: 1800 RSA TPS; with a dedicated dispatcher the 1 vCPU row: 950), one SE per VS. */
const G2 = {
    vcpusPerSe: "2",
    memoryPerSe: "2048",
    diskPerSe: "20",
    maxSe: "3",
    bufferSe: "1",
    minScaleoutPerVs: "1",
    maxScaleoutPerVs: "1",
    dedicatedDispatcherCore: "false",
};

describe("dedicatedDispatcherCore unknown or invalid is judged with true and with false", () => {
    // [case, group fields, RSA TPS, outcome, text the messages hold (or "")]
    const cases: Array<[string, Record<string, string>, string, string, string]> = [
        ["baseline: false, 1000 TPS (55.6% of 1800)", G2, "1000", "pass", ""],
        ["true, 1000 TPS (105.3% of the 1 vCPU row's 950)", { ...G2, dedicatedDispatcherCore: "true" }, "1000", "fail", "105.3%"],
        // Before: judged as false (55.6%), a silent pass.
        [
            "unknown, 1000 TPS: true fails, false fits: not checked",
            { ...G2, dedicatedDispatcherCore: UNKNOWN_VALUE },
            "1000",
            "not checked",
            "dedicatedDispatcherCore is unknown in this preview and the verdict depends on it",
        ],
        [
            'invalid ("yes"), 1000 TPS: not checked too',
            { ...G2, dedicatedDispatcherCore: "yes" },
            "1000",
            "not checked",
            "dedicatedDispatcherCore is invalid and the verdict depends on it",
        ],
        // Both fail: the verdict with the higher load (2000 / 950 = 210.5%, not 2000 / 1800 = 111.1%).
        [
            "unknown, 2000 TPS: both fail",
            { ...G2, dedicatedDispatcherCore: UNKNOWN_VALUE },
            "2000",
            "fail",
            "dedicatedDispatcherCore is unknown in this preview: judged with true and false, the same verdict; figures with true (the higher load)",
        ],
        ["unknown, 400 TPS: both fit", { ...G2, dedicatedDispatcherCore: UNKNOWN_VALUE }, "400", "pass", ""],
        // 1 vCPU: with true there is no proxy core (no row), with false it fits.
        [
            "1 vCPU, unknown, 300 TPS: not checked (no proxy core with true)",
            { ...G2, vcpusPerSe: "1", diskPerSe: "15", dedicatedDispatcherCore: UNKNOWN_VALUE },
            "300",
            "not checked",
            "a 1 vCPU SE has no proxy core",
        ],
        // 4 vCPUs: the row was measured with a dispatcher; the setting moves no figure: one verdict.
        [
            "4 vCPUs, unknown, 2000 TPS (76.9% of 2600)",
            { ...G2, vcpusPerSe: "4", memoryPerSe: "4096", diskPerSe: "30", dedicatedDispatcherCore: UNKNOWN_VALUE },
            "2000",
            "pass",
            "",
        ],
    ];
    it.each(cases)("%s", async (_name, group, tps, expected, holds) => {
        const out = await runPolicies(NSX, stack(group, { sslTps: tps, sslKeyType: "rsa" }, { services: SSL }));
        expect(outcome(out)).toBe(expected);
        if (holds) {
            expect(text(out)).toContain(holds);
        }
    });

    it("unknown only because the provider computes an unset field (no property dependency): read as false, as the Controller stores it", async () => {
        // The Avi API: an unset dedicated_dispatcher_core is "interpreted by Avi Controller as False".
        const out = await runPolicies(
            NSX,
            stack({ ...G2, dedicatedDispatcherCore: UNKNOWN_VALUE }, { sslTps: "1000", sslKeyType: "rsa" }, { services: SSL }, true),
        );
        expect(outcome(out)).toBe("pass");
        const over = await runPolicies(
            NSX,
            stack({ ...G2, dedicatedDispatcherCore: UNKNOWN_VALUE }, { sslTps: "2000", sslKeyType: "rsa" }, { services: SSL }, true),
        );
        expect(outcome(over)).toBe("fail");
        // 2000 / 1800 (the 2 vCPU row, no dispatcher core), not 2000 / 950.
        expect(text(over)).toContain("111.1%");
        expect(text(over)).not.toContain("judged with true and false");
    });

    it("a verdict both settings agree on carries the Basis line, and its figures are the higher load's", () => {
        const view = stackOf(stack({ ...G2, dedicatedDispatcherCore: UNKNOWN_VALUE }, { sslTps: "400", sslKeyType: "rsa" }, { services: SSL }));
        const evaluation = nsxAlbEvaluation(view);
        const [e] = evaluation.groups;
        expect(e.judgedBothWays).toContain("judged with true and false, the same verdict");
        // 400 / 950 (the 1 vCPU row, a dispatcher core taken) = 42.1%, not 400 / 1800 = 22.2%.
        expect(groupFigures(e, evaluation.config)?.busiestSe.peak).toBeCloseTo(400 / 950, 9);
        expect(groupFigures(e, evaluation.config)?.sizeLabel).toBe("not measured");
    });

    it("the fix of a verdict both agree on sets the field, and passes", async () => {
        const resources = stack({ ...G2, dedicatedDispatcherCore: UNKNOWN_VALUE }, { sslTps: "2000", sslKeyType: "rsa" }, { services: SSL });
        const evaluation = nsxAlbEvaluation(stackOf(resources));
        const fix = groupFigures(evaluation.groups[0], evaluation.config)?.fix ?? [];
        // The first option is a 4 vCPU SE, measured with a dispatcher: it sets it "true"; an option
        // that stays below 4 vCPUs was searched with it off (as those rows were measured) and says "false".
        expect(fix).toContain('dedicatedDispatcherCore "true"');
        const options = groupFigures(evaluation.groups[0], evaluation.config)?.fixOptions ?? [];
        expect(options.filter((o) => !o.includes("vcpusPerSe")).every((o) => o.includes('dedicatedDispatcherCore "false"'))).toBe(true);
        expect(options.some((o) => o.includes('dedicatedDispatcherCore "false"'))).toBe(true);
        const changes = Object.fromEntries(fix.map((c) => c.match(/^(\w+) "(.*)"$/)?.slice(1) as [string, string]));
        const fixed = stack({ ...G2, ...changes }, { sslTps: "2000", sslKeyType: "rsa" }, { services: SSL });
        expect(outcome(await runPolicies(NSX, fixed))).toBe("pass");
    });
});

/** 4 vCPU SEs, each VS on 2 SEs (native scale-out): an L4 VS of 12 Gbps, all ingress, binds on its primary SE (126% of 9.5). */
const G4 = {
    vcpusPerSe: "4",
    memoryPerSe: "4096",
    diskPerSe: "30",
    dedicatedDispatcherCore: "true",
    maxSe: "4",
    bufferSe: "1",
    minScaleoutPerVs: "2",
    maxScaleoutPerVs: "2",
};
const VS12 = { throughputGbps: "12" };

describe("a VS's scaleoutEcmp or perfguard:ingressPct unknown is judged both ways", () => {
    // [case, VS facts, VS props, outcome, text]
    const cases: Array<[string, Record<string, string>, Record<string, unknown>, string, string]> = [
        ["baseline: scaleoutEcmp true, 12 Gbps spread over 2 SEs (63.2%)", VS12, { scaleoutEcmp: "true" }, "pass", ""],
        ["scaleoutEcmp false: the primary SE takes all ingress (126.3%)", VS12, { scaleoutEcmp: "false" }, "fail", "126.3%"],
        // Before: an unknown scaleoutEcmp was taken as false, a verdict on a guess.
        [
            "scaleoutEcmp unknown: not checked",
            VS12,
            { scaleoutEcmp: UNKNOWN_VALUE },
            "not checked",
            "scaleoutEcmp of vs-1 is unknown in this preview and the verdict depends on it",
        ],
        ["scaleoutEcmp unknown, 6 Gbps: both fit (63.2% and 31.6%)", { throughputGbps: "6" }, { scaleoutEcmp: UNKNOWN_VALUE }, "pass", ""],
        ["ingressPct 0 (all egress), native: 63.2%", { ...VS12, ingressPct: "0" }, { scaleoutEcmp: "false" }, "pass", ""],
        // Before: an unknown direction was counted as all ingress, a verdict on a guess.
        [
            "ingressPct unknown, native: not checked",
            { ...VS12, ingressPct: UNKNOWN_VALUE },
            { scaleoutEcmp: "false" },
            "not checked",
            "perfguard:ingressPct of vs-1 is unknown or invalid",
        ],
        [
            "ingressPct unknown, 20 Gbps: both fail",
            { throughputGbps: "20", ingressPct: UNKNOWN_VALUE },
            { scaleoutEcmp: "false" },
            "fail",
            "perfguard:ingressPct of vs-1 is unknown or invalid: judged with all ingress and all egress, the same verdict",
        ],
    ];
    it.each(cases)("%s", async (_name, facts, vsProps, expected, holds) => {
        const out = await runPolicies(NSX, stack(G4, facts, { applicationProfileRef: L4, ...vsProps }));
        expect(outcome(out)).toBe(expected);
        if (holds) {
            expect(text(out)).toContain(holds);
        }
    });
});

/** 4 vCPU SEs, one SE per VS: 8 Gbps of plain throughput is 84.2% of the L4 row (9.5) and 72.7% of the L7 row (11). */
const G4ONE = { ...G4, minScaleoutPerVs: "1", maxScaleoutPerVs: "1" };
const HTTP = "/api/applicationprofile/?name=System-HTTP";

describe("an applicationProfileRef unknown in the preview is judged on the L4 and the L7 row", () => {
    // [case, applicationProfileRef, Gbps, outcome, text]
    const cases: Array<[string, string, string, string, string]> = [
        ["baseline: System-HTTP, 8 Gbps on the L7 row (72.7%)", HTTP, "8", "pass", ""],
        ["System-L4-Application: the L4 row (84.2%)", L4, "8", "fail", "84.2%"],
        // Before: an unknown profile fell back to L4 (no RPS), a verdict on a guess.
        ["unknown: not checked", UNKNOWN_VALUE, "8", "not checked", "applicationProfileRef of vs-1 is unknown in this preview and the verdict depends on it"],
        ["unknown, 5 Gbps: both fit", UNKNOWN_VALUE, "5", "pass", ""],
    ];
    it.each(cases)("%s", async (_name, profile, gbps, expected, holds) => {
        const out = await runPolicies(NSX, stack(G4ONE, { throughputGbps: gbps, ingressPct: "50" }, { applicationProfileRef: profile }));
        expect(outcome(out)).toBe(expected);
        if (holds) {
            expect(text(out)).toContain(holds);
        }
    });
});
