import { describe, expect, it } from "vitest";
import type { Policy, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import table from "../../model/data/nsx-alb-se-20.1.6.json";
import { nsxAlbSeCapacity } from "../../policies/nsx-alb-se-capacity";
import { nsxAlbSeDedicatedDispatcher } from "../../policies/nsx-alb-se-dedicated-dispatcher";
import { nsxAlbSeMinimumResources } from "../../policies/nsx-alb-se-minimum-resources";
import { perfguardFacts } from "../../policies/perfguard-facts";
import { policies } from "../../policies";
import { seGroupNameOfRef } from "../../policies/support/aviSeGroups";
import { num, pct } from "../../policies/support/format";
import { runPolicies, runResourcePolicy, runStackPolicy, TestResource, UNKNOWN_VALUE, verdicts, Violation } from "../support/policyHarness";
import { nsxStack, SE_GROUP, SECRET, seGroupProps, VS } from "./nsxFixtures";

const NSX_POLICIES: Policy[] = [perfguardFacts, nsxAlbSeCapacity, nsxAlbSeMinimumResources, nsxAlbSeDedicatedDispatcher];
type Config = Record<string, Record<string, unknown>>;

function runAll(resources: TestResource[], config: Record<string, Record<string, unknown>> = {}): Promise<Violation[]> {
    return runPolicies(NSX_POLICIES, resources, config);
}

/** A row of the published table by vCPUs, keyed by column name (read from the JSON here). */
function row(vcpus: number): Record<string, number> {
    const found = table.rows.find((r) => r[0] === vcpus);
    if (!found) {
        throw new Error(`no ${vcpus} vCPU row`);
    }
    return Object.fromEntries(table.columns.map((c, i) => [c, found[i]])) as Record<string, number>;
}

const CAP = "nsx-alb-se-capacity";
const MIN = "nsx-alb-se-minimum-resources";
const DISPATCH = "nsx-alb-se-dedicated-dispatcher";
const FACTS = "perfguard-facts";
const DEFAULT_GROUP_OK = { [CAP]: { seGroups: { "Default-Group": { vcpusPerSe: "2", memoryPerSe: 4096 } } } };
const DEFAULT_GROUP_SMALL = { [CAP]: { seGroups: { "Default-Group": { vcpusPerSe: 1 } } } };

describe("NSX ALB policies: a compliant baseline and one change per failing case", () => {
    const cases: Array<[string, TestResource[], string[], Config?]> = [
        ["baseline (4 vCPU SEs, 3 VSs)", nsxStack(), []],
        ["shop-vs needs 3000 RSA TPS on one SE", nsxStack({ shop: { sslTps: "3000" } }), [`${CAP} -> shop-vs`]],
        ["ECC keys: 3000 TPS fit", nsxStack({ shop: { sslTps: "3000", sslKeyType: "ecc" } }), []],
        ["1800 TPS do not fit one SE", nsxStack({ shop: { sslTps: "1800" } }), [`${CAP} -> shop-vs`]],
        ["1800 TPS fit once scaled out (assumeScaleOut)", nsxStack({ shop: { sslTps: "1800" } }), [], { [CAP]: { assumeScaleOut: true } }],
        ["a stricter headroom", nsxStack(), [`${CAP} -> shop-vs`], { [CAP]: { headroomPct: 45 } }],
        ["maxSe 2 leaves 1 SE of load after bufferSe", nsxStack({ group: { maxSe: "2" } }), [`${CAP} -> web-seg`]],
        ["shared pair with maxSe 2 carries 1 SE's worth", nsxStack({ group: { maxSe: "2", haMode: "HA_MODE_SHARED_PAIR" } }), [`${CAP} -> web-seg`]],
        ["shared pair with maxSe 4 fits", nsxStack({ group: { haMode: "HA_MODE_SHARED_PAIR" } }), []],
        ["2 vCPU SEs are too small for shop-vs", nsxStack({ group: { vcpusPerSe: "2" } }), [`${CAP} -> shop-vs`]],
        ["api-vs (literal ref) needs 100000 CPS", nsxStack({ api: { l4Cps: "100000" } }), [`${CAP} -> api-vs`]],
        ["api-vs (full URL ref) needs 100000 CPS", nsxStack({ api: { l4Cps: "100000" }, apiRef: "https://avi.example.com/api/serviceenginegroup?name=web&cloud=Default-Cloud" }), [`${CAP} -> api-vs`]],
        ["api-vs names a group not in the stack", nsxStack({ api: { l4Cps: "100000" }, apiRef: "/api/serviceenginegroup?name=other" }), []],
        ["api-vs needs 200000 open connections", nsxStack({ api: { l4OpenConnections: "200000" } }), [`${CAP} -> api-vs`]],
        ["memory 8192 MB carries 200000 open connections", nsxStack({ api: { l4OpenConnections: "200000" }, group: { memoryPerSe: "8192" } }), []],
        ["Default-Group described in config fits intranet-vs", nsxStack(), [], DEFAULT_GROUP_OK],
        ["Default-Group of 1 vCPU is too small for intranet-vs", nsxStack(), [`${CAP} -> intranet-vs`], DEFAULT_GROUP_SMALL],
        ["memory below the tested 4 GB", nsxStack({ group: { memoryPerSe: "2048" } }), [`${MIN} -> web-seg`]],
        ["memory absent (provider default 2048 MB)", nsxStack({ group: { memoryPerSe: undefined } }), [`${MIN} -> web-seg`]],
        ["disk below the tested 30 GB", nsxStack({ group: { diskPerSe: "20" } }), [`${MIN} -> web-seg`]],
        ["dispatcher off", nsxStack({ group: { dedicatedDispatcherCore: "false" } }), [`${DISPATCH} -> web-seg`]],
        ["dispatcher absent (provider default false)", nsxStack({ group: { dedicatedDispatcherCore: undefined } }), [`${DISPATCH} -> web-seg`]],
        ["dispatcher off below minVcpus", nsxStack({ group: { dedicatedDispatcherCore: "false" } }), [], { [DISPATCH]: { minVcpus: 6 } }],
        ["vcpusPerSe \"4.5\"", nsxStack({ group: { vcpusPerSe: "4.5" } }), [`${FACTS} -> web-seg`]],
        ["vcpusPerSe \" 4\" (Go rejects spaces)", nsxStack({ group: { vcpusPerSe: " 4" } }), [`${FACTS} -> web-seg`]],
        ["vcpusPerSe \"128\" (out of range)", nsxStack({ group: { vcpusPerSe: "128" } }), [`${FACTS} -> web-seg`]],
        ["dedicatedDispatcherCore \"yes\"", nsxStack({ group: { dedicatedDispatcherCore: "yes" } }), [`${FACTS} -> web-seg`]],
        ["dedicatedDispatcherCore \"1\" (Go true)", nsxStack({ group: { dedicatedDispatcherCore: "1" } }), []],
        ["haMode misspelt", nsxStack({ group: { haMode: "HA_MODE_N_PLUS_M" } }), [`${FACTS} -> web-seg`]],
        ["minScaleoutPerVs above maxScaleoutPerVs", nsxStack({ group: { minScaleoutPerVs: "3" } }), [`${FACTS} -> web-seg`]],
        ["enableSsl \"yes\"", nsxStack({ shopEnableSsl: "yes" }), [`${FACTS} -> shop-vs`]],
        ["an invalid demand fact", nsxStack({ shop: { sslTps: "3000 tps" } }), [`${FACTS} -> shop-vs`]],
    ];
    it.each(cases)("%s", async (_name, resources, expected, config) => {
        expect(verdicts(await runAll(resources, config))).toEqual([...expected].sort());
    });

    it("registers the three policies", () => {
        const names = policies.map((p) => p.name);
        expect(names).toEqual(expect.arrayContaining([CAP, MIN, DISPATCH]));
        expect(nsxAlbSeCapacity.enforcementLevel).toBe("mandatory");
        expect(nsxAlbSeMinimumResources.enforcementLevel).toBe("advisory");
        expect(nsxAlbSeDedicatedDispatcher.enforcementLevel).toBe("advisory");
    });
});

describe("joins and unknown values (preview)", () => {
    it("joins a VS whose seGroupRef is unknown through property dependencies", async () => {
        const stack = nsxStack({ shop: { sslTps: "3000" } });
        expect(stack[1].props.seGroupRef).toBe(UNKNOWN_VALUE);
        expect(verdicts(await runStackPolicy(nsxAlbSeCapacity, stack))).toEqual([`${CAP} -> shop-vs`]);
        // Without the dependency there is nothing to join: not evaluable, not a violation.
        expect(await runStackPolicy(nsxAlbSeCapacity, nsxStack({ shop: { sslTps: "3000" }, shopJoined: false }))).toEqual([]);
    });
    it("skips a group whose vcpusPerSe is unknown, without failing the others", async () => {
        const other: TestResource = { type: SE_GROUP, name: "other-seg", props: seGroupProps({ name: "other", vcpusPerSe: "1" }) };
        const busy: TestResource = {
            type: VS, name: "busy-vs",
            props: { seGroupRef: "/api/serviceenginegroup?name=other", markers: [{ key: "perfguard:l4Cps", values: ["80000"] }] },
        };
        const stack = nsxStack({ group: { vcpusPerSe: UNKNOWN_VALUE }, shop: { sslTps: "3000" }, extra: [other, busy] });
        expect(verdicts(await runAll(stack))).toEqual([`${CAP} -> busy-vs`]);
    });
    it("skips a VS whose demand fact is unknown, and says the group total is incomplete", async () => {
        // The VS gets minScaleoutPerVs 2 SEs (0.45 of them); the group carries 2 - 1 = 1 SE (0.9 of it).
        const stack = nsxStack({ group: { maxSe: "2", minScaleoutPerVs: "2" }, api: { l4Cps: "90000" }, shop: { l7Rps: UNKNOWN_VALUE } });
        const found = await runStackPolicy(nsxAlbSeCapacity, stack);
        expect(verdicts(found)).toEqual([`${CAP} -> web-seg`]);
        expect(found[0].message).toContain("the 1 VS placed on it needs");
        expect(found[0].message).toContain("1 further VS on the group not counted");
    });
    it("reads the reference forms", () => {
        expect(seGroupNameOfRef("/api/serviceenginegroup?name=web")).toBe("web");
        expect(seGroupNameOfRef("/api/serviceenginegroup/?name=web")).toBe("web");
        expect(seGroupNameOfRef("https://ctl/api/serviceenginegroup?tenant=admin&name=Default-Group")).toBe("Default-Group");
        expect(seGroupNameOfRef("/api/serviceenginegroup?name=a%20b&cloud=x")).toBe("a b");
        expect(seGroupNameOfRef("https://ctl/api/serviceenginegroup/serviceenginegroup-1234")).toBeUndefined();
        expect(seGroupNameOfRef("/api/pool?name=web")).toBeUndefined();
    });
});

describe("config", () => {
    it.each([
        [CAP, nsxAlbSeCapacity as Policy, { headroomPct: 99 }, /invalid config for policy nsx-alb-se-capacity: field headroomPct must be <= 95 \(got 99\)/],
        [CAP, nsxAlbSeCapacity as Policy, { assumeScaleOut: "yes" }, /invalid config for policy nsx-alb-se-capacity: field assumeScaleOut must be boolean \(got "yes"\)/],
        [CAP, nsxAlbSeCapacity as Policy, { seGroups: { "Default-Group": { vcpus: "2" } } }, /invalid config for policy nsx-alb-se-capacity: field seGroups.Default-Group.vcpus is not a known key \(misspelt\?\)/],
        [CAP, nsxAlbSeCapacity as Policy, { seGroups: { "Default-Group": { vcpusPerSe: "4.5" } } }, /invalid config for policy nsx-alb-se-capacity: field seGroups.Default-Group: vcpusPerSe "4.5" \(policy config seGroups.Default-Group.vcpusPerSe\) is not an integer \(Go strconv.ParseInt\)/],
        [CAP, nsxAlbSeCapacity as Policy, { seGroups: { "Default-Group": { haMode: "N+M" } } }, /field seGroups.Default-Group: haMode "N\+M" .* is not one of HA_MODE_SHARED/],
        [DISPATCH, nsxAlbSeDedicatedDispatcher as Policy, { minVcpus: 0 }, /invalid config for policy nsx-alb-se-dedicated-dispatcher: field minVcpus must be >= 1 \(got 0\)/],
        [DISPATCH, nsxAlbSeDedicatedDispatcher as Policy, { minVcpus: 4.5 }, /invalid config for policy nsx-alb-se-dedicated-dispatcher: field minVcpus must be integer/],
    ])("rejects bad config of %s", async (_name, policy, config, pattern) => {
        const found = !("validateResource" in policy && policy.validateResource)
            ? await runStackPolicy(policy as StackValidationPolicy, nsxStack(), config)
            : await runResourcePolicy(policy as ResourceValidationPolicy, nsxStack(), config);
        expect(found).toHaveLength(1);
        expect(found[0].enforcementLevel).toBe("mandatory");
        expect(found[0].message).toMatch(pattern);
    });
    it("reports an unknown key of a policy without config", async () => {
        const found = await runResourcePolicy(nsxAlbSeMinimumResources, nsxStack(), { minMemory: 1 });
        expect(found).toHaveLength(1);
        expect(found[0].message).toMatch(/unknown config key "minMemory" for policy nsx-alb-se-minimum-resources .* none \(this policy takes no config\)/);
    });
});

describe("messages give the numbers, their source, the threshold and the fix", () => {
    it("nsx-alb-se-capacity on a VS", async () => {
        const r4 = row(4);
        const r6 = row(6);
        // Demand 3000 RSA TPS + 30000 RPS on 1 SE of 4 vCPUs (RSA figure: the sslTpsRsa2048 column).
        const ssl = 3000 / r4.sslTpsRsa2048;
        const rps = 30000 / r4.l7Rps;
        // Smallest vcpusPerSe at <= 80%: 6 vCPUs give 3000/4000 + 30000/185000 = 0.912 (no); 7 vCPUs scale the
        // 6 vCPU row by 7/6: 3000/4666.7 + 30000/215833 = 0.782 (yes).
        expect(3000 / r6.sslTpsRsa2048 + 30000 / r6.l7Rps).toBeGreaterThan(0.8);
        expect(3000 / (r6.sslTpsRsa2048 * 7 / 6) + 30000 / (r6.l7Rps * 7 / 6)).toBeLessThanOrEqual(0.8);
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack({ shop: { sslTps: "3000" } }));
        expect(v.message).toContain(`Virtualservice "shop-vs" does not fit what Serviceenginegroup "web-seg" gives one VS: its demand needs ${pct(ssl + rps)} of it (limiting metric: SSL TPS), above the 80% allowed (headroomPct 20: demand <= 0.8 x capacity).`);
        expect(v.message).toContain("The VS gets 1 SE (minScaleoutPerVs 1, assumeScaleOut false");
        expect(v.message).toContain(`per SE ${r4.sslTpsRsa2048} RSA-2048 SSL TPS, ${r4.l7Rps} L7 RPS, ${r4.l7SslThroughputGbps} Gbps L7 SSL throughput, ${r4.l4OpenConnections} open connections`);
        expect(v.message).toContain("(NSX ALB 20.1.6 per-SE table, 4 vCPU row)");
        expect(v.message).toContain(`SSL TPS 3000 (perfguard:sslTps in markers; RSA-2048: perfguard:sslKeyType not set: default rsa, the conservative one) = ${pct(ssl)}`);
        expect(v.message).toContain(`L7 RPS 30000 (perfguard:l7Rps in markers) = ${pct(rps)}`);
        expect(v.message).toContain(`throughput 2 Gbps (perfguard:throughputGbps in markers; L7 SSL row, SSL: services[0].enableSsl) = ${pct(2 / r4.l7SslThroughputGbps)}`);
        // At 4 vCPUs: 1.354 / 0.8 = 1.69 -> 2 SEs.
        expect(v.message).toContain(`Fix: set vcpusPerSe to "7" on Serviceenginegroup "web-seg"`);
        expect(v.message).toContain(`or set minScaleoutPerVs to "2" (2 SEs at the current 4 vCPUs)`);
    });

    it("nsx-alb-se-capacity on the SE group", async () => {
        const r4 = row(4);
        // maxSe 2 - bufferSe 1 = 1 SE of load; CPU: 1000/2600 + 30000/150000 + 30000/100000 = 0.885.
        const cpu = 1000 / r4.sslTpsRsa2048 + 30000 / r4.l7Rps + 30000 / r4.l4Cps;
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack({ group: { maxSe: "2" } }));
        expect(v.message).toContain(`Serviceenginegroup "web-seg" is overloaded: the 2 VSs placed on it need ${pct(cpu)} of what it carries (limiting metric: SSL TPS)`);
        expect(v.message).toContain("The group carries maxSe 2 - bufferSe 1 = 1 SE of load (haMode HA_MODE_SHARED, N+M: bufferSe SEs stay spare for failover)");
        expect(v.message).toContain(`L4 CPS ${pct(30000 / r4.l4Cps)} (Virtualservice "api-vs" 30000; perfguard:l4Cps); CPU-bound total ${pct(cpu)}`);
        expect(v.message).toContain(`throughput ${pct(2 / r4.l7SslThroughputGbps + 3 / r4.l4ThroughputGbps)} (Virtualservice "shop-vs" 2 Gbps L7 SSL and Virtualservice "api-vs" 3 Gbps L4`);
        // 5 vCPUs interpolate the 4 and 6 rows: 1000/3300 + 30000/167500 + 30000/116000 = 0.74 <= 0.8. At 4 vCPUs:
        // 0.885 / 0.8 = 1.1 -> 2 SEs + bufferSe 1 = maxSe 3.
        expect(1000 / ((r4.sslTpsRsa2048 + row(6).sslTpsRsa2048) / 2) + 30000 / ((r4.l7Rps + row(6).l7Rps) / 2) + 30000 / ((r4.l4Cps + row(6).l4Cps) / 2)).toBeLessThanOrEqual(0.8);
        expect(v.message).toContain(`Fix: set vcpusPerSe to "5" on Serviceenginegroup "web-seg" (the smallest size that fits; NSX ALB 20.1.6 per-SE table, interpolated between the 4 and 6 vCPU rows); or raise maxSe to "3" (2 SEs at the current 4 vCPUs + bufferSe 1).`);
    });

    it("nsx-alb-se-capacity on open connections proposes memory", async () => {
        const r4 = row(4);
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack({ api: { l4OpenConnections: "200000" } }));
        expect(v.message).toContain(`(limiting metric: open connections)`);
        expect(v.message).toContain(`open connections 200000 (perfguard:l4OpenConnections in markers) = ${pct(200000 / r4.l4OpenConnections)} of 1 SE`);
        // 200000 / 0.8 = 250000 per SE; the 4 vCPU row has 160000 at 4 GB: 250000 / 160000 x 4 GB = 6.25 GB = 6400 MB.
        expect(v.message).toContain(`raise memoryPerSe to "6400" (open connections grow with memory: add memory to the SE)`);
    });

    it("nsx-alb-se-capacity on a config-described Default-Group", async () => {
        const r1 = row(1);
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack(), DEFAULT_GROUP_SMALL[CAP]);
        expect(v.message).toContain(`Virtualservice "intranet-vs" does not fit what SE group "Default-Group" (policy config seGroups) gives one VS: its demand needs ${pct(50000 / r1.l7Rps)} of it`);
        expect(v.message).toContain("vcpusPerSe 1 (policy config seGroups.Default-Group.vcpusPerSe) and memoryPerSe 2048 MB (not set: provider default) per SE");
        expect(v.message).toContain(`per SE ${r1.l7Rps} L7 RPS (NSX ALB 20.1.6 per-SE table, 1 vCPU row)`);
    });

    it("nsx-alb-se-minimum-resources", async () => {
        const r4 = row(4);
        const [v] = await runResourcePolicy(nsxAlbSeMinimumResources, nsxStack({ group: { memoryPerSe: undefined, diskPerSe: "20" } }));
        expect(v.message).toBe(
            `Serviceenginegroup "web-seg" has vcpusPerSe 4, but memoryPerSe 2048 MB (not set: provider default) is below the tested ${r4.memoryGb * 1024} MB (NSX ALB 20.1.6 per-SE table, 4 vCPU row), ` +
            `and diskPerSe 20 GB is below the tested ${r4.diskGb} GB (NSX ALB 20.1.6 per-SE table, 4 vCPU row). The published per-SE figures were measured at that size, and open connections are memory bound, ` +
            `so a smaller SE may carry less than perfguard's capacity checks assume. Fix: set memoryPerSe to "4096" and diskPerSe to "30" (at enforcement level remediate this policy sets them).`,
        );
        // Beyond 6 vCPUs the 6 vCPU row's 6 GB / 40 GB is the tested minimum.
        const [big] = await runResourcePolicy(nsxAlbSeMinimumResources, nsxStack({ group: { vcpusPerSe: "16", memoryPerSe: "4096", diskPerSe: "40" } }));
        expect(big.message).toContain(`memoryPerSe 4096 MB is below the tested ${row(6).memoryGb * 1024} MB (NSX ALB 20.1.6 per-SE table, 6 vCPU row (the largest tested size; used beyond 6 vCPUs))`);
    });

    it("nsx-alb-se-dedicated-dispatcher", async () => {
        const [v] = await runResourcePolicy(nsxAlbSeDedicatedDispatcher, nsxStack({ group: { vcpusPerSe: "6", memoryPerSe: "6144", diskPerSe: "40", dedicatedDispatcherCore: "false" } }));
        expect(v.message).toBe(
            `Serviceenginegroup "web-seg" has vcpusPerSe 6, at or above 4 (minVcpus), but dedicatedDispatcherCore false. ` +
            `The NSX ALB 20.1.6 per-SE table measured its 4 vCPU row with 1 dedicated dispatcher core + 3 proxy cores and its 6 vCPU row with 2 + 4; ` +
            `without a dedicated dispatcher an SE of this size may not reach those figures. Fix: set dedicatedDispatcherCore to "true" (at enforcement level remediate this policy sets it).`,
        );
        expect(table.notes.some((n) => n.includes("4 cores: 1 dispatcher + 3 proxy cores") && n.includes("6 cores: 2 dispatcher + 4 proxy cores"))).toBe(true);
        expect(num(row(4).l7Rps)).toBe("150000");
    });

    it("never echoes other property values", async () => {
        const stack = nsxStack({ group: { maxSe: "2", memoryPerSe: "2048", dedicatedDispatcherCore: undefined }, shop: { sslTps: "5000" }, api: { l4OpenConnections: "900000" } });
        const all = await runAll(stack, DEFAULT_GROUP_SMALL);
        expect(all.length).toBeGreaterThanOrEqual(5);
        for (const v of all) {
            expect(v.message).not.toContain(SECRET);
            expect(v.message).not.toContain("admin");
        }
    });
});

describe("remediation (in-process; the gRPC path is in nsx.remediation.test.ts)", () => {
    const view = (props: Record<string, unknown>) => ({
        type: SE_GROUP, name: "g", urn: "urn:g", props, opts: {}, stackTags: new Map(), getConfig: () => ({}),
        isType: () => false, asType: () => undefined, notApplicable: () => undefined,
    });
    it("raises memory and disk as strings and keeps every other field", async () => {
        const props = seGroupProps({ memoryPerSe: "2048", diskPerSe: undefined });
        const out = await nsxAlbSeMinimumResources.remediateResource?.(view(props) as never) as Record<string, unknown>;
        expect(out).toEqual({ ...props, memoryPerSe: "4096", diskPerSe: "30" });
    });
    it("sets the dispatcher as \"true\" and changes nothing when compliant or unknown", async () => {
        const props = seGroupProps({ dedicatedDispatcherCore: "false" });
        expect(await nsxAlbSeDedicatedDispatcher.remediateResource?.(view(props) as never)).toEqual({ ...props, dedicatedDispatcherCore: "true" });
        expect(await nsxAlbSeDedicatedDispatcher.remediateResource?.(view(seGroupProps()) as never)).toBeUndefined();
        expect(await nsxAlbSeMinimumResources.remediateResource?.(view(seGroupProps({ vcpusPerSe: UNKNOWN_VALUE, memoryPerSe: "1024" })) as never)).toBeUndefined();
    });
});
