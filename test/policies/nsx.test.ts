import { describe, expect, it } from "vitest";
import type { Policy, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import table from "../../model/data/nsx-alb-se-20.1.6.json";
import { nsxAlbSeCapacity } from "../../policies/nsx-alb-se-capacity";
import { nsxAlbSeDedicatedDispatcher } from "../../policies/nsx-alb-se-dedicated-dispatcher";
import { nsxAlbSeMinimumResources } from "../../policies/nsx-alb-se-minimum-resources";
import { perfguardFacts } from "../../policies/perfguard-facts";
import { policies } from "../../policies";
import { SE_GROUP_FIELD_NAMES, seGroupNameOfRef } from "../../policies/support/aviSeGroups";
import * as fs from "fs";
import * as path from "path";
import { num, pct } from "../../policies/support/format";
import { expectViolation, runPolicies, runResourcePolicy, runStackPolicy, TestResource, UNKNOWN_VALUE, verdicts, Violation } from "../support/policyHarness";
import { nsxStack, NsxStackOptions, SE_GROUP, SECRET, seGroupProps, VS } from "./nsxFixtures";

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
/** web-seg as examples/nsx-alb-se-groups' web-se-group (2 vCPUs, 2 GB, 20 GB, no dispatcher) and shop-vs's 4000 RSA TPS + 60000 RPS. */
const EXAMPLE_LIKE: NsxStackOptions = {
    group: { vcpusPerSe: "2", memoryPerSe: "2048", diskPerSe: "20", dedicatedDispatcherCore: undefined },
    shop: { sslTps: "4000", l7Rps: "60000", throughputGbps: undefined, l4OpenConnections: undefined },
};
/** 6 vCPU SEs at the tested 6 GB / 40 GB with a VS needing 5000 RSA TPS. */
const SIX_VCPU_5000: NsxStackOptions = { group: { vcpusPerSe: "6", memoryPerSe: "6144", diskPerSe: "40" }, shop: { sslTps: "5000" } };

/** The Fix options of a capacity message, each as the SE group fields it sets (quoted provider strings). */
function fixOptions(message: string): Array<Record<string, string>> {
    const at = message.indexOf(" Fix on ");
    expect(at).toBeGreaterThan(0);
    const body = message.slice(message.indexOf("): ", at) + 3);
    const names = new Set<string>(SE_GROUP_FIELD_NAMES);
    return body.split("; or ").map((option) => Object.fromEntries([...option.matchAll(/(\w+) "([^"]*)"/g)].filter((m) => names.has(m[1])).map((m) => [m[1], m[2]])));
}

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
        // Review fixes: one change per finding.
        ["2 vCPU SEs and 4000 RSA TPS (as in examples/nsx-alb-se-groups)", nsxStack(EXAMPLE_LIKE), [`${CAP} -> shop-vs`, `${CAP} -> web-seg`]],
        ["6 vCPU SEs and 5000 RSA TPS (a larger SE would be extrapolated)", nsxStack(SIX_VCPU_5000), [`${CAP} -> shop-vs`]],
        ["maxSe 1 = bufferSe 1: the group carries no load", nsxStack({ group: { maxSe: "1" } }), [`${CAP} -> web-seg`]],
        ["preview: sslTps unknown, the known 150000 RPS already exceed one SE", nsxStack({ shop: { sslTps: UNKNOWN_VALUE, l7Rps: "150000" } }), [`${CAP} -> shop-vs`]],
        ["preview: sslTps unknown, the known demand fits", nsxStack({ shop: { sslTps: UNKNOWN_VALUE } }), []],
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
        // The sizing policies cannot check web-seg either: "not checked" (fail closed), advisory by default.
        const found = await runAll(stack);
        expect(verdicts(found)).toEqual([`${CAP} -> busy-vs`, `${DISPATCH} -> web-seg`, `${MIN} -> web-seg`]);
        expectViolation(found, { policy: MIN, resource: "web-seg", problem: ["not checked", "vcpusPerSe is unknown in this preview"], fix: ["vcpusPerSe"], level: "advisory" });
    });
    it("counts the known demand of a VS with an unknown demand fact in the group total, and says so", async () => {
        // api-vs gets minScaleoutPerVs 2 SEs (0.45 of them); the group carries 2 - 1 = 1 SE: api-vs 90000/100000 CPS
        // plus shop-vs's known 1000/2600 RSA TPS (its l7Rps is unknown) = 1.285 of it. shop-vs alone fits its 2 SEs.
        const stack = nsxStack({ group: { maxSe: "2", minScaleoutPerVs: "2" }, api: { l4Cps: "90000" }, shop: { l7Rps: UNKNOWN_VALUE } });
        const found = await runStackPolicy(nsxAlbSeCapacity, stack);
        expect(verdicts(found)).toEqual([`${CAP} -> web-seg`]);
        expect(found[0].message).toContain(`the 2 VSs placed on it need ${pct(90000 / row(4).l4Cps + 1000 / row(4).sslTpsRsa2048)} of what it carries`);
        expect(found[0].message).toContain("Known demand only for Virtualservice \"shop-vs\" (perfguard:l7Rps unknown in this preview): the real total can only be higher.");
        // An invalid fact (reported by perfguard-facts) still leaves the VS out, counted as such.
        const invalid = await runStackPolicy(nsxAlbSeCapacity, nsxStack({ group: { maxSe: "2", minScaleoutPerVs: "2" }, api: { l4Cps: "90000" }, shop: { l7Rps: "lots" } }));
        expect(invalid[0].message).toContain("the 1 VS placed on it needs");
        expect(invalid[0].message).toContain("1 further VS on the group not counted");
    });
    it("reports a VS whose known demand already exceeds capacity although another demand fact is unknown", async () => {
        // shop-vs: sslTps unknown; its known 150000 RPS alone need 150000/150000 = 100% of its 1 SE (> 80%).
        const found = await runStackPolicy(nsxAlbSeCapacity, nsxStack({ shop: { sslTps: UNKNOWN_VALUE, l7Rps: "150000" } }));
        expect(verdicts(found)).toEqual([`${CAP} -> shop-vs`]);
        expect(found[0].message).toContain(`its known demand already needs ${pct(150000 / row(4).l7Rps)} of 1 SE`);
        expect(found[0].message).toContain("perfguard:sslTps is unknown in this preview and not counted: the real demand can only be higher.");
        // Known demand that fits gives no verdict either way.
        expect(await runStackPolicy(nsxAlbSeCapacity, nsxStack({ shop: { sslTps: UNKNOWN_VALUE } }))).toEqual([]);
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
        expect(found[0].message).toMatch(/unknown config key "minMemory" for policy nsx-alb-se-minimum-resources[\s\S]* unverified, plus enforcementLevel/);
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
        expect(v.message).toContain(`Virtualservice "shop-vs" does not fit what Serviceenginegroup "web-seg" gives one VS: it needs ${pct(ssl + rps)} of 1 SE (limiting metric: SSL TPS), above the 80% allowed (headroomPct 20).`);
        expect(v.message).toContain("One VS gets 1 SE (minScaleoutPerVs 1, assumeScaleOut false; haMode HA_MODE_SHARED, N+M)");
        // Only the limit above 80% (the CPU-bound metrics) is detailed; the others are summarised.
        expect(v.message).toContain(`give ${r4.sslTpsRsa2048} RSA-2048 SSL TPS, ${r4.l7Rps} L7 RPS per SE (NSX ALB 20.1.6 per-SE table, 4 vCPU row)`);
        expect(v.message).toContain(`SSL TPS 3000 (perfguard:sslTps in markers; RSA-2048: perfguard:sslKeyType not set: default rsa, the conservative one) = ${pct(ssl)}`);
        expect(v.message).toContain(`L7 RPS 30000 (perfguard:l7Rps in markers) = ${pct(rps)}`);
        expect(v.message).toContain(`CPU-bound total ${pct(ssl + rps)} (they share the SE's cores) of 1 SE; within the limit: throughput ${pct(2 / r4.l7SslThroughputGbps)}, open connections ${pct(50000 / r4.l4OpenConnections)}.`);
        // The smallest fitting size, 7 vCPUs, is beyond the published 6 vCPU row, so scale-out leads: at 4 vCPUs
        // 1.354 / 0.8 = 1.69 -> 2 SEs per VS; the group (shop-vs and api-vs: 1.654 of one SE) needs 1.654 / 0.8 -> 3 SEs,
        // which maxSe 4 - bufferSe 1 already carries. Then 2 SEs of 6 vCPUs (0.912 / 0.8 -> 2) at the tested 6 GB / 40 GB.
        const groupOnOne = ssl + rps + 30000 / r4.l4Cps;
        expect(Math.ceil(groupOnOne / 0.8)).toBe(3);
        expect(Math.ceil((3000 / r6.sslTpsRsa2048 + 30000 / r6.l7Rps) / 0.8)).toBe(2);
        expect(v.message).toContain(
            `Fix on Serviceenginegroup "web-seg" (each option fits all 2 VSs on it and their total): set minScaleoutPerVs "${Math.ceil((ssl + rps) / 0.8)}" (2 SEs per VS; at the current size); ` +
            `or set vcpusPerSe "6", memoryPerSe "${r6.memoryGb * 1024}", diskPerSe "${r6.diskGb}" and minScaleoutPerVs "2" (2 SEs per VS; 6 vCPU row, as tested).`,
        );
        expect(v.message).not.toContain("no vcpusPerSe");
        expect(v.message.length).toBeLessThan(1000);
    });

    it("nsx-alb-se-capacity on the SE group", async () => {
        const r4 = row(4);
        // maxSe 2 - bufferSe 1 = 1 SE of load; CPU: 1000/2600 + 30000/150000 + 30000/100000 = 0.885.
        const cpu = 1000 / r4.sslTpsRsa2048 + 30000 / r4.l7Rps + 30000 / r4.l4Cps;
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack({ group: { maxSe: "2" } }));
        expect(v.message).toContain(`Serviceenginegroup "web-seg" is overloaded: the 2 VSs placed on it need ${pct(cpu)} of what it carries (limiting metric: SSL TPS)`);
        expect(v.message).toContain("It carries maxSe 2 - bufferSe 1 = 1 SE of load (haMode HA_MODE_SHARED: N+M)");
        expect(v.message).toContain(`L4 CPS ${pct(30000 / r4.l4Cps)} (Virtualservice "api-vs" 30000; perfguard:l4Cps); CPU-bound total ${pct(cpu)}`);
        expect(v.message).toContain(`within the limit: throughput ${pct(2 / r4.l7SslThroughputGbps + 3 / r4.l4ThroughputGbps)}, open connections ${pct(90000 / r4.l4OpenConnections)}.`);
        // 5 vCPUs interpolate the 4 and 6 rows: 1000/3300 + 30000/167500 + 30000/116000 = 0.74 <= 0.8. At 4 vCPUs:
        // 0.885 / 0.8 = 1.1 -> 2 SEs + bufferSe 1 = maxSe 3.
        expect(1000 / ((r4.sslTpsRsa2048 + row(6).sslTpsRsa2048) / 2) + 30000 / ((r4.l7Rps + row(6).l7Rps) / 2) + 30000 / ((r4.l4Cps + row(6).l4Cps) / 2)).toBeLessThanOrEqual(0.8);
        // 5 vCPUs at their tested size: (4 + 6) / 2 GB = 5120 MB and (30 + 40) / 2 GB = 35 GB of disk.
        expect(v.message).toContain(
            `Fix on Serviceenginegroup "web-seg" (each option fits all 2 VSs on it and their total): set vcpusPerSe "5", memoryPerSe "${(r4.memoryGb + row(6).memoryGb) / 2 * 1024}" and diskPerSe "${(r4.diskGb + row(6).diskGb) / 2}" ` +
            `(the smallest SE that fits: NSX ALB 20.1.6 per-SE table, interpolated between the 4 and 6 vCPU rows, as tested); or set maxSe "${Math.ceil(cpu / 0.8) + 1}" (1 SE per VS, 2 of load + bufferSe 1; at the current size).`,
        );
        expect(v.message.length).toBeLessThan(1100); // two VSs, each named in the metrics above the limit
    });

    it("nsx-alb-se-capacity on open connections proposes memory", async () => {
        const r4 = row(4);
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack({ api: { l4OpenConnections: "200000" } }));
        expect(v.message).toContain(`(limiting metric: open connections)`);
        expect(v.message).toContain(`open connections 200000 (perfguard:l4OpenConnections in markers) = ${pct(200000 / r4.l4OpenConnections)} of 1 SE`);
        // 200000 / 0.8 = 250000 per SE; the 4 vCPU row has 160000 at 4 GB: 250000 / 160000 x 4 GB = 6.25 GB = 6400 MB.
        expect(v.message).toContain(`set memoryPerSe "6400" (open connections grow with memory)`);
    });

    it("nsx-alb-se-capacity on a config-described Default-Group", async () => {
        const r1 = row(1);
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack(), DEFAULT_GROUP_SMALL[CAP]);
        expect(v.message).toContain(`Virtualservice "intranet-vs" does not fit what SE group "Default-Group" (policy config seGroups) gives one VS: it needs ${pct(50000 / r1.l7Rps)} of 1 SE`);
        expect(v.message).toContain(`vcpusPerSe 1 (policy config seGroups.Default-Group.vcpusPerSe) and memoryPerSe 2048 MB (not set: provider default) give ${r1.l7Rps} L7 RPS per SE (NSX ALB 20.1.6 per-SE table, 1 vCPU row)`);
        // 2 vCPUs carry 50000 / 80000 = 62.5% (<= 80%), at the tested 2 GB and 20 GB (the provider default disk is 15 GB).
        expect(v.message).toContain(`Fix on the controller's SE group "Default-Group" (each option fits its VS and the group total; then update policy config seGroups to match): set vcpusPerSe "2" and diskPerSe "${row(2).diskGb}"`);
    });

    it("nsx-alb-se-minimum-resources", async () => {
        const r4 = row(4);
        const found = await runResourcePolicy(nsxAlbSeMinimumResources, nsxStack({ group: { memoryPerSe: undefined, diskPerSe: "20" } }));
        expectViolation(found, {
            policy: MIN, resource: "web-seg",
            problem: ["Serviceenginegroup \"web-seg\"", "2048 MB memory, 20 GB disk per 4 vCPU SE", `tested: ${r4.memoryGb * 1024} MB, ${r4.diskGb} GB`],
            fix: [`memoryPerSe "${r4.memoryGb * 1024}"`, `diskPerSe "${r4.diskGb}"`, "remediate"],
        });
        // Beyond 6 vCPUs the 6 vCPU row's 6 GB / 40 GB is the tested minimum.
        const big = await runResourcePolicy(nsxAlbSeMinimumResources, nsxStack({ group: { vcpusPerSe: "16", memoryPerSe: "4096", diskPerSe: "40" } }));
        const v = expectViolation(big, { policy: MIN, resource: "web-seg", problem: ["per 16 vCPU SE", "4096 MB memory", row(6).memoryGb * 1024], fix: [`memoryPerSe "${row(6).memoryGb * 1024}"`] });
        expect(v.fix).not.toContain("diskPerSe");
        expect(v.basis.join("\n")).toContain("6 vCPU row (the largest tested size; used beyond 6 vCPUs)");
    });

    it("nsx-alb-se-dedicated-dispatcher", async () => {
        const found = await runResourcePolicy(nsxAlbSeDedicatedDispatcher, nsxStack({ group: { vcpusPerSe: "6", memoryPerSe: "6144", diskPerSe: "40", dedicatedDispatcherCore: "false" } }));
        expectViolation(found, {
            policy: DISPATCH, resource: "web-seg",
            problem: ["Serviceenginegroup \"web-seg\"", "6 vCPUs per SE", "minVcpus 4", "no dedicated dispatcher core"],
            fix: ["dedicatedDispatcherCore \"true\""],
        });
        // A long name is shortened on the problem line and given whole in a basis line.
        const long = "web-se-group-for-the-emea-production-tenant-with-long-name";
        const named = await runResourcePolicy(nsxAlbSeDedicatedDispatcher, [{ type: SE_GROUP, name: long, props: seGroupProps({ vcpusPerSe: "16", memoryPerSe: "6144", diskPerSe: "40", dedicatedDispatcherCore: "false" }) }]);
        const v = expectViolation(named, { policy: DISPATCH, resource: long, problem: [`"${long.slice(0, 39)}…"`, "16 vCPUs per SE"], fix: ["dedicatedDispatcherCore"] });
        expect(v.basis).toContain(`Serviceenginegroup "${long.slice(0, 39)}…" is "${long}"`);
        const small = await runResourcePolicy(nsxAlbSeMinimumResources, [{ type: SE_GROUP, name: long, props: seGroupProps({ vcpusPerSe: "16", memoryPerSe: "1024", diskPerSe: "1", dedicatedDispatcherCore: "true" }) }]);
        expectViolation(small, {
            policy: MIN, resource: long,
            problem: ["1024 MB memory, 1 GB disk per 16 vCPU SE", `tested: ${row(6).memoryGb * 1024} MB, ${row(6).diskGb} GB`],
            fix: [`memoryPerSe "${row(6).memoryGb * 1024}" and diskPerSe "${row(6).diskGb}"`],
        });
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

describe("review fixes: applicable, consistent fixes and clear messages", () => {
    // Failing stacks (compliant with nsx-alb-se-minimum-resources and -dedicated-dispatcher before the change).
    const failing: Array<[string, NsxStackOptions, Config?]> = [
        ["2 vCPU SEs, 4000 RSA TPS (the example)", EXAMPLE_LIKE],
        ["3000 RSA TPS on one 4 vCPU SE", { shop: { sslTps: "3000" } }],
        ["maxSe 2", { group: { maxSe: "2" } }],
        ["maxSe 1 = bufferSe 1", { group: { maxSe: "1" } }],
        ["200000 open connections", { api: { l4OpenConnections: "200000" } }],
        ["6 vCPU SEs, 5000 RSA TPS", SIX_VCPU_5000],
        ["shared pair, 3000 RSA TPS", { group: { haMode: "HA_MODE_SHARED_PAIR" }, shop: { sslTps: "3000" } }],
        ["shared pair, maxSe 2", { group: { maxSe: "2", haMode: "HA_MODE_SHARED_PAIR" } }],
        ["assumeScaleOut, 4000 RSA TPS", { shop: { sslTps: "4000" } }, { [CAP]: { assumeScaleOut: true } }],
        ["preview: l7Rps unknown, api-vs 90000 CPS on maxSe 2", { group: { maxSe: "2", minScaleoutPerVs: "2" }, api: { l4Cps: "90000" }, shop: { l7Rps: UNKNOWN_VALUE } }],
    ];
    it.each(failing)("every suggested fix clears every NSX verdict: %s", async (_name, options, config = {}) => {
        const before = await runAll(nsxStack(options), config);
        expect(before.filter((v) => v.policyName !== CAP)).toEqual([]);
        const messages = before.map((v) => v.message);
        expect(messages.length).toBeGreaterThan(0);
        const fixes = fixOptions(messages[0]);
        expect(fixes.length).toBeGreaterThan(0);
        // One fix per group: every message about the group proposes the same options.
        for (const m of messages) {
            expect(fixOptions(m)).toEqual(fixes);
            expect(m).not.toMatch(/Fix[^.]*: no vcpusPerSe|n\/a/);
        }
        for (const fix of fixes) {
            expect(Object.keys(fix).length).toBeGreaterThan(0);
            const after = await runAll(nsxStack({ ...options, group: { ...options.group, ...fix } }), config);
            expect(after.map((v) => `${v.policyName}: ${v.message.slice(0, 120)}`), JSON.stringify(fix)).toEqual([]);
        }
    });
    it("a fix on a config-described group applies to the config", async () => {
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack(), DEFAULT_GROUP_SMALL[CAP]);
        for (const fix of fixOptions(v.message)) {
            const config = { [CAP]: { seGroups: { "Default-Group": { ...DEFAULT_GROUP_SMALL[CAP].seGroups["Default-Group"], ...fix } } } };
            expect(await runAll(nsxStack(), config)).toEqual([]);
        }
    });
    it("the example's fix names every field to change, and the VS and group messages agree", async () => {
        const found = await runStackPolicy(nsxAlbSeCapacity, nsxStack(EXAMPLE_LIKE));
        const r2 = row(2);
        const r6 = row(6);
        // Per VS on one 2 vCPU SE: 4000/1800 + 60000/80000 = 2.97 -> 2.97 / 0.8 = 3.7 -> 4 SEs. The group adds api-vs
        // (30000/54000 CPS): 3.53 of one SE -> 4.4 -> 5 SEs + bufferSe 1 = maxSe 6. maxScaleoutPerVs must follow minScaleoutPerVs.
        const vsOnOne = 4000 / r2.sslTpsRsa2048 + 60000 / r2.l7Rps;
        const groupOnOne = vsOnOne + 30000 / r2.l4Cps;
        const kVs = Math.ceil(vsOnOne / 0.8);
        const kGroup = Math.ceil(groupOnOne / 0.8);
        expect([kVs, kGroup]).toEqual([4, 5]);
        // At 6 vCPUs: 4000/4000 + 60000/185000 = 1.32 -> 2 SEs per VS; the group 1.32 + 30000/132000 = 1.55 -> 2 SEs: maxSe 4 holds.
        const vs6 = 4000 / r6.sslTpsRsa2048 + 60000 / r6.l7Rps;
        expect([Math.ceil(vs6 / 0.8), Math.ceil((vs6 + 30000 / r6.l4Cps) / 0.8)]).toEqual([2, 2]);
        const fix = `Fix on Serviceenginegroup "web-seg" (each option fits all 2 VSs on it and their total): ` +
            `set minScaleoutPerVs "${kVs}", maxScaleoutPerVs "${kVs}" and maxSe "${kGroup + 1}" (${kVs} SEs per VS, ${kGroup} of load + bufferSe 1; at the current size); ` +
            `or set vcpusPerSe "6", memoryPerSe "${r6.memoryGb * 1024}", diskPerSe "${r6.diskGb}", dedicatedDispatcherCore "true" and minScaleoutPerVs "2" (2 SEs per VS; 6 vCPU row, as tested).`;
        expect(found).toHaveLength(2);
        for (const v of found) {
            expect(v.message.endsWith(fix)).toBe(true);
            expect(v.message.length).toBeLessThan(1100); // two alternative fixes that name every field they change
        }
    });
    it("leads with scale-out and says plainly when a larger SE is extrapolated", async () => {
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack(SIX_VCPU_5000));
        const r6 = row(6);
        const onOne = 5000 / r6.sslTpsRsa2048 + 30000 / r6.l7Rps;
        // Per core beyond 6 vCPUs: 6 x 1.412 / 0.8 = 10.6 -> 11 vCPUs; at 6 vCPUs 1.412 / 0.8 -> 2 SEs per VS.
        const v11 = Math.ceil(6 * onOne / 0.8);
        expect(v11).toBe(11);
        expect(v.message).toContain(`: set minScaleoutPerVs "${Math.ceil(onOne / 0.8)}" (2 SEs per VS; at the current size); or set, extrapolated beyond the published 6-vCPU row (not measured), vcpusPerSe "${v11}".`);
    });
    it("a group that carries no SE of load says so, with no n/a figures", async () => {
        const r4 = row(4);
        const [v] = await runStackPolicy(nsxAlbSeCapacity, nsxStack({ group: { maxSe: "1" } }));
        const cpu = 1000 / r4.sslTpsRsa2048 + 30000 / r4.l7Rps + 30000 / r4.l4Cps;
        expect(v.message).toContain(`Serviceenginegroup "web-seg" carries no load: maxSe 1 - bufferSe 1 = 0 SEs of load (haMode HA_MODE_SHARED: N+M), so every SE is kept spare: raise maxSe above bufferSe. ` +
            `Yet the 2 VSs placed on it need ${pct(cpu)} of one SE (limiting metric: SSL TPS; the 80% allowed (headroomPct 20)).`);
        // 5 vCPUs fit one SE (0.74, see the group test), so maxSe 2 suffices then; at 4 vCPUs 0.885 / 0.8 -> 2 SEs + bufferSe 1.
        expect(v.message).toContain(`set vcpusPerSe "5", memoryPerSe "5120", diskPerSe "35" and maxSe "2"`);
        expect(v.message).toContain(`or set maxSe "${Math.ceil(cpu / 0.8) + 1}"`);
        expect(v.message).not.toContain("n/a");
    });
    it("docs carry no ANSI escape codes", () => {
        const root = path.resolve(__dirname, "../../docs");
        const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".md"));
        expect(files.length).toBeGreaterThan(0);
        for (const f of files) {
            expect(fs.readFileSync(path.join(root, f), "utf8"), f).not.toContain("\u001b");
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
