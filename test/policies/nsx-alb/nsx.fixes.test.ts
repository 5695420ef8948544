/**
 * Every fix nsx-alb-se-capacity offers (and the measured fix nsx-alb-se-capacity-advisory offers
 * for an extrapolated size) passes perfguard's own NSX checks: each option is applied to the SE
 * group as the message states it, and all NSX policies run again on the changed stack.
 */
import { describe, expect, it } from "vitest";
import { policies } from "../../../policies";
import { parseMessage } from "../../../policies/pack/message";
import { resourceOf, runPolicies, TestResource, UNKNOWN_VALUE, urnOf, Violation } from "../../support/policyHarness";
import { groupStack, SE_GROUP, VS } from "./nsxFixtures";

const NSX = policies.filter((p) => p.name.startsWith("nsx-"));
const CAP = "nsx-alb-se-capacity";
const ADV = "nsx-alb-se-capacity-advisory";
const SSL = [{ port: "443", enableSsl: "true" }];

/** The example's web-se-group (examples/nsx-alb-se-groups): 2 vCPUs, 2048 MB, 20 GB, N+M, maxSe 4. */
const WEB = {
    vcpusPerSe: "2",
    memoryPerSe: "2048",
    diskPerSe: "20",
    maxSe: "4",
    bufferSe: "1",
    minScaleoutPerVs: "1",
    maxScaleoutPerVs: "2",
    haMode: "HA_MODE_SHARED",
};

function stack(group: Record<string, unknown>, vss: Array<Record<string, string>>): TestResource[] {
    return [
        { type: SE_GROUP, name: "g-seg", props: { name: "g", cloudRef: "/api/cloud/?name=Default-Cloud", ...group } },
        ...vss.map((facts, i): TestResource => ({
            type: VS,
            name: `vs-${i + 1}`,
            props: {
                name: `vs${i + 1}`,
                seGroupRef: UNKNOWN_VALUE,
                services: SSL,
                markers: Object.entries(facts).map(([key, v]) => ({ key: `perfguard:${key}`, values: [v] })),
            },
            propertyDependencies: { seGroupRef: ["g-seg"] },
        })),
    ];
}

/** The options of a fix ("set a "1", b "2" (why); or set ..."): each as field -> provider string. */
function options(fix: string): Array<Record<string, string>> {
    return fix
        .split("; or ")
        .filter((o) => o.startsWith("set "))
        .map((o) => {
            const fields = o.slice(4, o.indexOf(" (") < 0 ? undefined : o.indexOf(" ("));
            return Object.fromEntries([...fields.matchAll(/(\w+) "([^"]*)"/g)].map((m) => [m[1], m[2]]));
        });
}

/** The stack with the group's fields changed. */
function applied(resources: TestResource[], change: Record<string, string>): TestResource[] {
    return resources.map((r) => (r.type === SE_GROUP ? { ...r, props: { ...r.props, ...change } } : r));
}

/** Violations of any NSX policy on the group or its VSs, as "policy -> resource". */
function remaining(violations: Violation[]): Violation[] {
    return violations.filter((v) => v.urn !== undefined);
}

function fixOf(violations: Violation[], policy: string): string {
    // A fix may first offer declaring what was assumed (the key type, the direction): its "set" options follow.
    const found = violations.find((v) => v.policyName === policy && (parseMessage(v.message).fix ?? "").split("; or ").some((o) => o.startsWith("set ")));
    expect(found, `${policy} offers a fix`).toBeDefined();
    return parseMessage((found as Violation).message).fix as string;
}

describe("each fix nsx-alb-se-capacity offers passes every NSX policy", () => {
    const cases: Array<[string, TestResource[], number]> = [
        // The example: a scale-out at 2 vCPUs and a 10 vCPU SE (extrapolated).
        ["the example's web-se-group, 4000 RSA TPS + 60000 RPS", stack(WEB, [{ sslTps: "4000", l7Rps: "60000" }]), 2],
        // As a real preview sends it: the provider computes dedicatedDispatcherCore, so it is unknown.
        [
            "the same, dedicatedDispatcherCore unknown (preview)",
            stack({ ...WEB, dedicatedDispatcherCore: UNKNOWN_VALUE }, [{ sslTps: "4000", l7Rps: "60000" }]),
            2,
        ],
        // 2000 RSA TPS fits a 4 vCPU SE (2600 x 80% = 2080): a measured scale-up, defaults for disk and dispatcher.
        ["1 vCPU defaults, 2000 RSA TPS", stack({}, [{ sslTps: "2000" }]), 2],
        ['2 vCPUs, dispatcher "false", 2000 RSA TPS', stack({ ...WEB, dedicatedDispatcherCore: "false" }, [{ sslTps: "2000" }]), 2],
        // Legacy active/standby: everything on the active SE; a larger SE or distributing the load.
        [
            "legacy active/standby, 4 x 1000 RSA TPS on 2 vCPUs",
            stack(
                { ...WEB, haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY" },
                [1, 2, 3, 4].map(() => ({ sslTps: "1000" })),
            ),
            2,
        ],
        // Legacy pairs are often declared with bufferSe "0": the N+M option must still keep a spare SE.
        [
            "legacy active/standby, bufferSe 0, maxSe 2, 2 x 65000 RPS on 4 vCPUs",
            stack(
                {
                    vcpusPerSe: "4",
                    memoryPerSe: "4096",
                    diskPerSe: "30",
                    dedicatedDispatcherCore: "true",
                    haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY",
                    maxSe: "2",
                    bufferSe: "0",
                },
                [{ l7Rps: "65000" }, { l7Rps: "65000" }],
            ),
            2,
        ],
    ];

    it.each(cases)("%s", async (_title, resources, count) => {
        const before = await runPolicies(NSX, resources);
        const offered = options(fixOf(before, CAP));
        expect(offered).toHaveLength(count);
        for (const change of offered) {
            const vcpus = Number(change.vcpusPerSe ?? "0");
            if (vcpus >= 4) {
                const declared = resources.find((r) => r.type === SE_GROUP)?.props.dedicatedDispatcherCore;
                expect(change.dedicatedDispatcherCore ?? declared, JSON.stringify(change)).toBe("true");
                expect(change.diskPerSe, JSON.stringify(change)).toBeDefined();
            }
            const fixed = applied(resources, change);
            const after = await runPolicies(NSX, fixed);
            if (vcpus <= 6) {
                expect(
                    remaining(after).map((v) => `${v.policyName} -> ${resourceOf(v)}`),
                    JSON.stringify(change),
                ).toEqual([]);
                continue;
            }
            // Beyond the 6 vCPU row the fit rests on the extrapolation: the advisory says so, as
            // intended, and offers a measured size; that one passes everything.
            expect(
                remaining(after).map((v) => v.policyName),
                JSON.stringify(change),
            ).toEqual(remaining(after).map(() => ADV));
            expect(remaining(after).length).toBeGreaterThan(0);
            const measured = options(fixOf(after, ADV))[0];
            expect(Number(measured.vcpusPerSe ?? vcpus)).toBeLessThanOrEqual(6);
            const final = await runPolicies(NSX, applied(fixed, measured));
            expect(
                remaining(final).map((v) => `${v.policyName} -> ${resourceOf(v)}`),
                JSON.stringify(measured),
            ).toEqual([]);
        }
    });
});

describe("the N+M option for a legacy active/standby pair keeps a buffer SE", () => {
    const legacy = {
        vcpusPerSe: "4",
        memoryPerSe: "4096",
        diskPerSe: "30",
        dedicatedDispatcherCore: "true",
        haMode: "HA_MODE_LEGACY_ACTIVE_STANDBY",
        maxSe: "2",
    };
    const cases: Array<[string, Record<string, string>, Record<string, string>]> = [
        // Default bufferSe 1: 2 SEs per VS, 2 VSs at maxVsPerSe 10 need 2 SEs, + 1 spare.
        ["bufferSe default (1)", legacy, { haMode: "HA_MODE_SHARED", minScaleoutPerVs: "2", maxSe: "3" }],
        ['bufferSe "0"', { ...legacy, bufferSe: "0" }, { haMode: "HA_MODE_SHARED", minScaleoutPerVs: "2", bufferSe: "1", maxSe: "3" }],
    ];
    it.each(cases)("%s", async (_name, group, expected) => {
        const fix = fixOf(await runPolicies(NSX, stack(group, [{ l7Rps: "65000" }, { l7Rps: "65000" }])), CAP);
        expect(options(fix).find((o) => o.haMode === "HA_MODE_SHARED")).toEqual(expected);
    });
});

describe("what a fix rests on is labelled", () => {
    it("a scale-out over several SEs says linear scale-out is assumed, not measured; a measured scale-up does not", async () => {
        const scaleOut = fixOf(await runPolicies(NSX, stack(WEB, [{ sslTps: "4000", l7Rps: "60000" }])), CAP).split("; or ");
        const option = scaleOut.find((o) => o.includes('minScaleoutPerVs "4"'));
        expect(option).toMatch(/2 vCPU row per SE; linear scale-out to 4 SEs assumed: not measured/);
        const up = fixOf(await runPolicies(NSX, stack({}, [{ sslTps: "2000" }])), CAP)
            .split("; or ")
            .find((o) => o.includes('vcpusPerSe "4"'));
        expect(up).toMatch(/4 vCPU row, measured\)/);
    });
});

describe("labels: measured only for a table row, interpolated between rows, extrapolated beyond; no scale-out note on a one-SE figure", () => {
    // Each case: the group, one VS's demand, the option picked by the field it sets, what its label must and must not say.
    const cases: Array<[string, Record<string, unknown>, Record<string, string>, string, RegExp, RegExp]> = [
        // 2500 RSA TPS: 96% of a 4 vCPU SE; the 5 vCPU size (3300, between the 4 and 6 vCPU rows) fits at 75.8%.
        [
            "a 5 vCPU size is interpolated",
            { ...WEB, vcpusPerSe: "4", memoryPerSe: "4096", diskPerSe: "30", dedicatedDispatcherCore: "true" },
            { sslTps: "2500" },
            'vcpusPerSe "5"',
            /interpolated between the 4 and 6 vCPU rows\)/,
            /measured\)|linear scale-out/,
        ],
        ["a 4 vCPU size is measured", {}, { sslTps: "2000" }, 'vcpusPerSe "4"', /4 vCPU row, measured\)/, /linear scale-out|interpolated/],
        // Active/active runs the VS on 2 SEs but counts on one after a failure: a one-SE figure, no scale-out note.
        [
            "active/active scale-up: a one-SE figure",
            { ...WEB, haMode: "HA_MODE_SHARED_PAIR" },
            { sslTps: "2000" },
            'vcpusPerSe "4"',
            /4 vCPU row, measured\)/,
            /linear scale-out/,
        ],
        [
            "beyond 6 vCPUs is extrapolated",
            { ...WEB, vcpusPerSe: "6", memoryPerSe: "6144", diskPerSe: "40", dedicatedDispatcherCore: "true", maxSe: "2", maxScaleoutPerVs: "1" },
            { sslTps: "3400" },
            'vcpusPerSe "7"',
            /extrapolated beyond the 6 vCPU row: not measured/,
            /, measured\)/,
        ],
    ];
    it.each(cases)("%s", async (_name, group, demand, picks, must, mustNot) => {
        const fix = fixOf(await runPolicies(NSX, stack(group, [demand])), CAP);
        const option = fix.split("; or ").find((o) => o.includes(picks));
        expect(option, fix).toBeDefined();
        expect(option).toMatch(must);
        expect(option).not.toMatch(mustNot);
    });
});

// The expert review: fixes are offered once (formerly nsx.review.test.ts).
describe("fixes are offered once", () => {
    // 4 vCPU, 8192 MB: 300000 open connections need memoryPerSe 9600 both as a scale-up and as the scale-out option.
    const O4 = { vcpusPerSe: "4", memoryPerSe: "8192", diskPerSe: "30", dedicatedDispatcherCore: "true", maxSe: "2", bufferSe: "1" };
    it('open connections: one option setting memoryPerSe "9600", not two', async () => {
        const out = await runPolicies(NSX, groupStack(O4, [{ l4OpenConnections: "300000" }], { services: [{ port: "443", enableSsl: "false" }] }));
        const fix = parseMessage(out.filter((v) => v.policyName === CAP && v.urn === urnOf(SE_GROUP, "g-seg"))[0]?.message ?? "").fix ?? "";
        expect(fix.match(/memoryPerSe "9600"/g)).toHaveLength(1);
        expect(fix).not.toContain("; or ");
    });
});
