/**
 * `perfguard size ...` through the built binary: human and --json output, values equal to the
 * models called directly, and answers that the policies accept (and reject one step smaller).
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { maxSafeConcurrency, predictBrokering } from "../../model/brokering";
import { measuredAt } from "../../model/citrixGuidance";
import { testedSeSize } from "../../model/seTable";
import { placeGroup } from "../../model/sePlacement";
import { predictXenShares } from "../../model/xenShares";
import { citrixSiteDatabaseLoad } from "../../policies/citrix/citrix-site-database-load";
import { citrixBrokerThrottle } from "../../policies/citrix/citrix-broker-throttle";
import { nsxAlbSeCapacity } from "../../policies/nsx-alb/nsx-alb-se-capacity";
import { xenGuestNetworkShare } from "../../policies/xen/xen-guest-network-share";
import { runStackPolicy, TestResource } from "../support/policyHarness";
import { perfguard, ROOT, tempDir } from "./cliHarness";

const ZONE = "citrix:index/zone:Zone";
const VM = "vsphere:index/virtualMachine:VirtualMachine";
const SE_GROUP = "avi:index/serviceenginegroup:Serviceenginegroup";
const VS = "avi:index/virtualservice:Virtualservice";
const XEN_VM = "xenorchestra:index/vm:Vm";

function json(stdout: string): Record<string, any> {
    return JSON.parse(stdout) as Record<string, any>;
}

describe("perfguard size citrix", () => {
    it("prints the table, the safe concurrency and the throttle", async () => {
        const run = await perfguard(["size", "citrix", "--rtt-ms", "160"]);
        expect(run.code).toBe(0);
        expect(run.stderr).toBe("");
        // The model's 25, bounded by the source's advice of at most 24 at 160 ms.
        const safe = Math.min(maxSafeConcurrency({ rttMs: 160, targetResponseS: 12, errorBudget: 0.001 }), 24);
        expect(safe).toBe(24);
        expect(run.stdout).toContain("Citrix zone at 160 ms RTT to the Site database, 10000 users, 2 Delivery Controllers");
        expect(run.stdout).toContain(
            `Largest safe concurrency: ${safe} concurrent brokering requests on one Delivery Group's lock (bounded by advice: the source advises at most 24 at 160 ms).`,
        );
        expect(run.stdout).toContain(`to ${Math.floor(safe / 2)} on each of the 2 Delivery Controllers`);
        // Rows 12, 18, ..., 60 with units; the measured cells at 160 ms are shown beside them.
        const rows = run.stdout.split("\n").filter((l) => /^\s+\d+\s+[\d.]+ s/.test(l));
        expect(rows.map((l) => Number(l.trim().split(/\s+/)[0]))).toEqual([12, 18, 24, 30, 36, 42, 48, 54, 60]);
        expect(run.stdout).toContain("measured at 160 ms");
        expect(run.stdout).toContain("11.4 s, 2.1 /s, 0%");
    });

    it("--json equals the model called directly", async () => {
        const args = [
            "size",
            "citrix",
            "--rtt-ms",
            "90",
            "--users",
            "5000",
            "--controllers",
            "3",
            "--target-response-s",
            "10",
            "--error-budget-pct",
            "0.5",
            "--json",
        ];
        const run = await perfguard(args);
        expect(run.code).toBe(0);
        const doc = json(run.stdout);
        const safe = maxSafeConcurrency({ rttMs: 90, targetResponseS: 10, errorBudget: 0.005 });
        expect(doc.maxSafeConcurrency).toBe(safe);
        expect(doc.throttlePerController).toBe(Math.floor(safe / 3));
        expect(doc.rows).toHaveLength(9);
        for (const row of doc.rows) {
            const p = predictBrokering({ rttMs: 90, concurrency: row.concurrency, users: 5000 });
            expect(row.meanResponseS).toBe(p.meanResponseS);
            expect(row.brokeredPerS).toBe(p.brokeredPerS);
            expect(row.errorRate).toBe(p.errorRate);
            // At the successful rate: a timed-out launch is retried.
            expect(row.launchTimeS).toBe(5000 / p.successfulPerS);
        }
        expect(doc.measured).toEqual(
            measuredAt(90).map((c) => ({
                concurrency: c.concurrentRequests,
                meanResponseS: c.meanResponseS,
                brokeredPerS: c.brokeredPerS,
                errorPct: c.errorPct,
                launch10kUsersS: c.launch10kUsersS,
            })),
        );
    });

    it("the throttle it proposes passes citrix-broker-throttle, one more per controller does not", async () => {
        const doc = json((await perfguard(["size", "citrix", "--rtt-ms", "160", "--controllers", "2", "--json"])).stdout);
        const stack = (throttle: number): TestResource[] => [
            { type: ZONE, name: "emea", props: { name: "emea", metadata: [{ name: "perfguard:rttMs", value: "160" }] } },
            ...[1, 2].map((i) => ({
                type: VM,
                name: `ddc-${i}`,
                props: {
                    tags: ["perfguard:citrixRole=deliveryController", "perfguard:citrixZone=emea", `perfguard:throttleMaxConcurrentTransactions=${throttle}`],
                },
            })),
        ];
        expect(await runStackPolicy(citrixBrokerThrottle, stack(doc.throttlePerController))).toEqual([]);
        const over = await runStackPolicy(citrixBrokerThrottle, stack(doc.throttlePerController + 1));
        expect(over).toHaveLength(1);
        expect(over[0].message).toContain(`above the ${doc.maxSafeConcurrency} it sustains`);
    });

    it("--delivery-groups: each group is its own lock; first come, first served, one lock bounds the zone; labelled not measured", async () => {
        const one = json((await perfguard(["size", "citrix", "--rtt-ms", "160", "--json"])).stdout);
        const same = json((await perfguard(["size", "citrix", "--rtt-ms", "160", "--delivery-groups", "1", "--json"])).stdout);
        expect(same.rows).toEqual(one.rows);
        expect(same.notMeasured).toEqual([]);
        const four = json((await perfguard(["size", "citrix", "--rtt-ms", "160", "--delivery-groups", "4", "--json"])).stdout);
        expect(four.maxSafeConcurrency).toBe(one.maxSafeConcurrency);
        expect(four.notMeasured[0]).toContain("4 Delivery Groups at once on one Site database (each lock on its own, their rates added up, no Site cap)");
        expect(four.notMeasured[0]).toContain("not measured (one Delivery Group was tested)");
        const uneven = json((await perfguard(["size", "citrix", "--rtt-ms", "160", "--delivery-groups", "2", "--group-machines", "300,100", "--json"])).stdout);
        expect(uneven.maxSafeConcurrency).toBe(one.maxSafeConcurrency);
        const bad = await perfguard(["size", "citrix", "--rtt-ms", "160", "--delivery-groups", "2", "--group-machines", "300"]);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain("--group-machines needs 2 whole numbers");
    });

    it("with four groups, the throttle it proposes passes citrix-broker-throttle and the Site database load; one more per controller does not", async () => {
        const doc = json((await perfguard(["size", "citrix", "--rtt-ms", "160", "--controllers", "2", "--delivery-groups", "4", "--json"])).stdout);
        // First come, first served: both controllers' requests can go to one lock, which sustains 24 (the source's advice at 160 ms; the model alone gives 25).
        expect(doc.maxSafeConcurrency).toBe(24);
        expect(doc.throttlePerController).toBe(12);
        const stack = (throttle: number): TestResource[] => [
            { type: ZONE, name: "emea", props: { name: "emea", metadatas: [{ name: "perfguard:rttMs", value: "160" }] } },
            ...[1, 2].map((i) => ({
                type: VM,
                name: `ddc-${i}`,
                props: {
                    extraConfig: {
                        "guestinfo.perfguard.citrixRole": "deliveryController",
                        "guestinfo.perfguard.citrixZone": "emea",
                        "guestinfo.perfguard.throttleMaxConcurrentTransactions": String(throttle),
                    },
                },
            })),
            ...[1, 2, 3, 4].flatMap((g): TestResource[] => [
                {
                    type: "citrix:index/machineCatalog:MachineCatalog",
                    name: `cat-${g}`,
                    props: { provisioningScheme: { numberOfTotalMachines: 50 } },
                    propertyDependencies: { zone: ["emea"] },
                },
                {
                    type: "citrix:index/deliveryGroup:DeliveryGroup",
                    name: `dg-${g}`,
                    props: { associatedMachineCatalogs: [{ machineCount: 50 }] },
                    propertyDependencies: { associatedMachineCatalogs: [`cat-${g}`] },
                },
            ]),
        ];
        expect(await runStackPolicy(citrixBrokerThrottle, stack(doc.throttlePerController))).toEqual([]);
        expect(await runStackPolicy(citrixSiteDatabaseLoad, stack(doc.throttlePerController))).toEqual([]);
        const over = await runStackPolicy(citrixBrokerThrottle, stack(doc.throttlePerController + 1));
        expect(over.map((v) => v.urn?.replace(/.*::/, ""))).toEqual(["dg-1", "dg-2", "dg-3", "dg-4"]);
    });

    it("--plot writes an SVG (when the plot renderer is installed)", async () => {
        const renderer = fs.existsSync(path.join(ROOT, "dist", "cli", "plots", "brokeringPlot.js"));
        const chart = fs.existsSync(path.join(ROOT, "node_modules", "echarts"));
        if (!renderer || !chart) {
            return; // the renderer lands separately; this test then checks it through the CLI
        }
        const file = path.join(tempDir(), "brokering.svg");
        const run = await perfguard(["size", "citrix", "--rtt-ms", "160", "--plot", file, "--json"]);
        expect(run.code, run.stderr).toBe(0);
        expect(json(run.stdout).plot).toBe(file);
        const svg = fs.readFileSync(file, "utf8");
        expect(svg).toMatch(/<svg[\s>]/);
        expect(svg).toContain("160 ms");
    });
});

describe("perfguard size citrix beyond the measured range", () => {
    it("says when the safe concurrency is beyond the 60 requests the source measured", async () => {
        const low = await perfguard(["size", "citrix", "--rtt-ms", "2"]);
        expect(maxSafeConcurrency({ rttMs: 2, targetResponseS: 12, errorBudget: 0.001 })).toBeGreaterThan(60);
        expect(low.stdout).toContain("Note: the source measured up to 60 concurrent requests");
        const high = await perfguard(["size", "citrix", "--rtt-ms", "160"]);
        expect(high.stdout).not.toContain("Note: the source measured");
    });
});

describe("perfguard size nsx-alb", () => {
    it("prints the smallest SE size and the utilisation per metric", async () => {
        const run = await perfguard(["size", "nsx-alb", "--ssl-tps", "5000", "--ssl-key", "rsa", "--l7-rps", "100000"]);
        expect(run.code).toBe(0);
        // 5000 RSA TPS needs an SE beyond the 6 vCPU row on one SE: the headline says so.
        expect(run.stdout).toMatch(
            /Smallest SE on 1 SE per VS \(extrapolated, not measured\): vcpusPerSe \d+, memoryPerSe \d+ MB \([\d.]+ GB\), diskPerSe \d+ GB, dedicatedDispatcherCore (true|false)/,
        );
        expect(run.stdout).toContain("SSL TPS (RSA-2048)");
        expect(run.stdout).toContain("5,000 TPS");
        expect(run.stdout).toContain("100,000 RPS");
        expect(run.stdout).toContain("CPU-bound total");
    });

    it("--json equals the model, and the size passes nsx-alb-se-capacity while one vCPU less fails", async () => {
        const run = await perfguard(["size", "nsx-alb", "--ssl-tps", "3000", "--l7-rps", "40000", "--scale-out", "2", "--buffer-se", "1", "--json"]);
        expect(run.code).toBe(0);
        const doc = json(run.stdout);
        expect(doc.fits).toBe(true);
        const v: number = doc.vcpusPerSe;
        expect(doc.memoryPerSeMb).toBe(Math.max(2, testedSeSize(v).memoryGb) * 1024);
        expect(doc.diskPerSeGb).toBe(testedSeSize(v).diskGb);
        const placement = placeGroup([[{ sslTps: 3000, sslKeyType: "rsa", l7Rps: 40000 }]], doc.seGroup);
        expect(doc.utilisation.vs).toEqual(placement.perVs[0]);
        expect(doc.utilisation.group).toEqual(placement.worstSe);

        const stack = (vcpus: number): TestResource[] => [
            {
                type: SE_GROUP,
                name: "web-seg",
                props: {
                    name: "web",
                    vcpusPerSe: String(vcpus),
                    memoryPerSe: String(Math.max(2, testedSeSize(vcpus).memoryGb) * 1024),
                    diskPerSe: String(testedSeSize(vcpus).diskGb),
                    maxSe: String(doc.seGroup.maxSe),
                    minScaleoutPerVs: String(doc.seGroup.minScaleoutPerVs),
                    maxScaleoutPerVs: String(doc.seGroup.maxScaleoutPerVs),
                    bufferSe: String(doc.seGroup.bufferSe),
                    haMode: doc.seGroup.haMode,
                },
            },
            {
                type: VS,
                name: "shop-vs",
                props: {
                    seGroupRef: "/api/serviceenginegroup?name=web",
                    markers: [
                        { key: "perfguard:sslTps", values: ["3000"] },
                        { key: "perfguard:l7Rps", values: ["40000"] },
                    ],
                },
            },
        ];
        expect(await runStackPolicy(nsxAlbSeCapacity, stack(v))).toEqual([]);
        expect(v).toBeGreaterThan(1);
        expect((await runStackPolicy(nsxAlbSeCapacity, stack(v - 1))).length).toBeGreaterThan(0);
    });

    it("points to a measured size when the smallest SE is extrapolated beyond 6 vCPUs", async () => {
        // 4000 RSA-2048 TPS needs 5000 TPS of capacity at 20% headroom: more than the measured 6-vCPU
        // row's 4000 on one SE, so one SE must be extrapolated; on two SEs 2500 each fits within 6 vCPUs.
        const one = json((await perfguard(["size", "nsx-alb", "--ssl-tps", "4000", "--ssl-key", "rsa", "--json"])).stdout);
        expect(one.vcpusPerSe).toBeGreaterThan(6);
        expect(one.measuredAlternative.scaleOut).toBe(2);
        const two = json((await perfguard(["size", "nsx-alb", "--ssl-tps", "4000", "--ssl-key", "rsa", "--scale-out", "2", "--json"])).stdout);
        expect(two.vcpusPerSe).toBe(one.measuredAlternative.vcpusPerSe);
        expect(two.vcpusPerSe).toBeLessThanOrEqual(6);
        expect(two.measuredAlternative).toBeNull();
        const text = (await perfguard(["size", "nsx-alb", "--ssl-tps", "4000", "--ssl-key", "rsa"])).stdout;
        // The size within the table's rows leads; the extrapolated one follows, labelled.
        const preferred = text.indexOf(`Preferred (${two.label}, within the table's rows): --scale-out 2: vcpusPerSe ${two.vcpusPerSe},`);
        const extrapolated = text.indexOf(`Smallest SE on 1 SE per VS (extrapolated, not measured): vcpusPerSe ${one.vcpusPerSe},`);
        expect(preferred).toBeGreaterThanOrEqual(0);
        expect(extrapolated).toBeGreaterThan(preferred);
    });

    it("several VSs in legacy active/standby share the one active SE (--vs repeated, --ha-mode)", async () => {
        // Four VSs of 1000 RSA TPS: all on the active SE, 4000 TPS; a 2 vCPU SE (1800) is 222%.
        const args = [
            "size",
            "nsx-alb",
            "--ssl-tps",
            "1000",
            "--ha-mode",
            "active-standby",
            "--vs",
            "sslTps=1000",
            "--vs",
            "sslTps=1000",
            "--vs",
            "sslTps=1000",
        ];
        const checked = json((await perfguard([...args, "--vcpus", "2", "--json"])).stdout);
        expect(checked.fits).toBe(false);
        expect(checked.utilisation.group.sslTps).toBeCloseTo(4000 / 1800, 9);
        const smallest = json((await perfguard([...args, "--json"])).stdout);
        // 4000 / 0.8 = 5000 TPS on one SE: beyond the 4000 of the 6 vCPU row, so extrapolated; legacy HA
        // has no scale-out, so the measured alternative is N+M with a buffer SE, as the policy's fix offers.
        expect(smallest.vcpusPerSe).toBeGreaterThan(6);
        expect(smallest.extrapolated).toBe(true);
        expect(smallest.measuredAlternative).toMatchObject({ haMode: "HA_MODE_SHARED", bufferSe: 1 });
        expect(smallest.measuredAlternative.vcpusPerSe).toBeLessThanOrEqual(6);
        const text = (await perfguard(args)).stdout;
        expect(text).toContain(
            `Preferred (${smallest.measuredAlternative.vcpusPerSe === 5 ? "interpolated" : "measured"}, within the table's rows): --ha-mode shared (N+M, bufferSe 1;`,
        );
        expect(text).toContain("Or move some of the VSs to another SE group.");
    });

    // The SE group fields printed are those of the HA mode: active/active puts each VS on at least two
    // SEs (minScaleoutPerVs 2); legacy active/standby has no scale-out fields (all VSs on one SE after failover).
    it.each([
        [
            "shared (baseline)",
            "shared",
            "SE group fields: maxSe 2, minScaleoutPerVs 1, maxScaleoutPerVs 4, bufferSe 1, haMode HA_MODE_SHARED, maxVsPerSe 10\n",
            1,
        ],
        [
            "shared-pair",
            "shared-pair",
            "SE group fields: maxSe 2, minScaleoutPerVs 2, maxScaleoutPerVs 4, bufferSe 0, haMode HA_MODE_SHARED_PAIR, maxVsPerSe 10\n",
            2,
        ],
        [
            "active-standby",
            "active-standby",
            "SE group fields: maxSe 2, bufferSe 0, haMode HA_MODE_LEGACY_ACTIVE_STANDBY, maxVsPerSe 10 " +
                "(minScaleoutPerVs and maxScaleoutPerVs do not apply: every VS on the active SE, all on the standby after a failover)\n",
            1,
        ],
    ])("--ha-mode %s prints the fields that apply to it", async (_label, mode, line, minScaleout) => {
        const args = ["size", "nsx-alb", "--l7-rps", "50000", "--ha-mode", mode];
        const text = (await perfguard(args)).stdout;
        expect(text).toContain(line);
        const doc = json((await perfguard([...args, "--json"])).stdout);
        expect(doc.seGroup.minScaleoutPerVs).toBe(minScaleout);
        // 50000 RPS on the one SE each VS counts on: the 2 vCPU row's 80000, 62.5%, in every mode.
        expect(doc.vcpusPerSe).toBe(2);
        expect(doc.utilisation.group.l7Rps).toBeCloseTo(50000 / 80000, 9);
    });

    it("packed placement with --max-vs-per-se, and --vs-file", async () => {
        const file = path.join(tempDir(), "vs.json");
        fs.writeFileSync(file, JSON.stringify(Array.from({ length: 9 }, () => ({ l7Rps: 20000 }))));
        // Ten VSs of 20000 RPS on 4 vCPU SEs: packed at maxVsPerSe 10 the busiest SE holds all ten, 133%.
        const packed = json((await perfguard(["size", "nsx-alb", "--l7-rps", "20000", "--vs-file", file, "--vcpus", "4", "--json"])).stdout);
        expect(packed.fits).toBe(false);
        expect(packed.utilisation.group.l7Rps).toBeCloseTo(200000 / 150000, 9);
        // maxVsPerSe 5: two SEs of five, 66.7%.
        const five = json(
            (await perfguard(["size", "nsx-alb", "--l7-rps", "20000", "--vs-file", file, "--vcpus", "4", "--max-vs-per-se", "5", "--json"])).stdout,
        );
        expect(five.fits).toBe(true);
        expect(five.seGroup.maxSe).toBe(3); // 2 SEs for placement + bufferSe 1
    });

    it("the table and the peak line show the busiest SE, which decides the size, not the heaviest VS", async () => {
        // Two VSs of 1250 RSA TPS on 4 vCPU SEs (2600), packed: each VS alone is 48.1% of an SE, but
        // both sit on the first SE: 2500 / 2600 = 96.2%, over the 80% limit (the table once showed 48.1%).
        const args = ["size", "nsx-alb", "--ssl-tps", "1250", "--vs", "sslTps=1250", "--vcpus", "4"];
        const text = (await perfguard(args)).stdout;
        expect(text).toMatch(/SSL TPS \(RSA-2048\)\s+\|?\s*2,500 TPS\s+\|?\s*2,600 TPS\s+\|?\s*96\.2%/);
        expect(text).toContain("Peak: busiest SE 96.2% (limiting metric: SSL TPS; 1 SE for placement); the heaviest VS needs 48.1% of its 1 SE.");
        expect(text).toContain("Checked SE (does not fit)");
        expect(text).not.toContain("linear scale-out");
        const doc = json((await perfguard([...args, "--json"])).stdout);
        expect(doc.metrics[0]).toMatchObject({ demand: 2500, capacity: 2600 });
        expect(doc.label).toBe("measured");
        // A 5 vCPU SE lies between the 4 and 6 vCPU rows: interpolated, never "measured".
        const five = json((await perfguard(["size", "nsx-alb", "--ssl-tps", "2600", "--vcpus", "5", "--json"])).stdout);
        expect(five.label).toBe("interpolated");
    });

    it("native scale-out: ingress stays on the primary SE; --scaleout-ecmp spreads it", async () => {
        // 12 Gbps L4, all ingress (no direction given), on 2 SEs per VS: the primary SE takes 12 / 13 Gbps (8 vCPUs hold the 6 vCPU row's throughput).
        const native = json((await perfguard(["size", "nsx-alb", "--throughput-gbps", "12", "--scale-out", "2", "--vcpus", "8", "--json"])).stdout);
        expect(native.fits).toBe(false);
        expect(native.utilisation.group.ingress).toBeCloseTo(12 / 13, 9);
        expect(native.utilisation.group.limiting).toBe("ingress");
        const ecmp = json(
            (await perfguard(["size", "nsx-alb", "--throughput-gbps", "12", "--scale-out", "2", "--scaleout-ecmp", "--vcpus", "8", "--json"])).stdout,
        );
        expect(ecmp.fits).toBe(true);
        expect(ecmp.utilisation.group.throughput).toBeCloseTo(6 / 13, 9);
    });

    // Each case: the arguments, what the text must and must not say (one change from the baseline per case).
    const notes: Array<[string, string[], RegExp[], RegExp[]]> = [
        // Baseline: 12 Gbps L4, 10% ingress, on 3 SEs: it fits, and the ingress note is true (native scale-out with throughput).
        [
            "baseline: native scale-out with throughput",
            ["--l4-cps", "50000", "--throughput-gbps", "12", "--ingress-pct", "10", "--scale-out", "3"],
            [/linear scale-out to 3 SEs per VS assumed: not measured \(ingress stays on the primary SE\)/],
            [],
        ],
        [
            "--scaleout-ecmp: ECMP spreads ingress",
            ["--l4-cps", "50000", "--throughput-gbps", "12", "--ingress-pct", "10", "--scale-out", "3", "--scaleout-ecmp"],
            [/linear scale-out to 3 SEs per VS assumed: not measured\./],
            [/ingress stays/],
        ],
        ["no throughput (L7 RPS only)", ["--l7-rps", "250000", "--scale-out", "3"], [/linear scale-out to 3 SEs per VS assumed: not measured\./], [/ingress/]],
        // 90% ingress: the primary SE carries 10.8 + 0.4 Gbps of 13 at any size: lead with ECMP or splitting, the table at 6 vCPUs.
        [
            "90% ingress: ingress-bound",
            ["--l4-cps", "50000", "--throughput-gbps", "12", "--ingress-pct", "90", "--scale-out", "3"],
            [
                /fits this demand on 3 SEs: under native scale-out a VS's ingress stays on its primary SE: add --scaleout-ecmp \(BGP\/ECMP\) with --scale-out, or move part of the traffic to another SE group \(several VSs on this one share an SE under packed placement/,
                /Utilisation at 6 vCPUs \(measured; throughput is held/,
                /the heaviest VS needs 86\.2% of its primary SE's throughput \(ingress 83\.1%\)/,
            ],
            [/raise --scale-out/, /at 64 vCPUs/, /--ingress-pct/],
        ],
        // No direction given: all counted as ingress; giving it comes first.
        [
            "no direction: 20 Gbps",
            ["--throughput-gbps", "20"],
            [/on 1 SE: give --ingress-pct if most of it is egress \(now all counted as ingress\); under native scale-out/],
            [/at 64 vCPUs/],
        ],
        // CPU-bound and too large on one group: scale out.
        [
            "CPU-bound: 200000 RSA TPS",
            ["--ssl-tps", "200000", "--ssl-key", "rsa"],
            [/fits this demand on 1 SE: raise --scale-out, or move part of the traffic to another SE group/, /Utilisation at 64 vCPUs \(not measured\)/],
            [/scaleout-ecmp/],
        ],
    ];
    it.each(notes)("says what is true of the load: %s", async (_name, args, must, mustNot) => {
        const text = (await perfguard(["size", "nsx-alb", ...args])).stdout;
        for (const re of must) {
            expect(text).toMatch(re);
        }
        for (const re of mustNot) {
            expect(text).not.toMatch(re);
        }
    });

    it("rejects a bad --vs spec with a clear message", async () => {
        const run = await perfguard(["size", "nsx-alb", "--l7-rps", "1", "--vs", "l7rps=5"]);
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain('unknown key "l7rps"');
    });

    // Memory raised for open connections: that figure is scaled by memory from the row, not measured.
    it.each([
        ["baseline: L7 RPS only", ["--l7-rps", "50000"], false],
        ["open connections within the 1 vCPU row's memory (32000 at 80% of 40000)", ["--open-connections", "30000"], false],
        ["open connections beyond the row's memory", ["--open-connections", "200000"], true],
    ])("labels open connections scaled by memory: %s", async (_name, args, scaled) => {
        const text = (await perfguard(["size", "nsx-alb", ...args])).stdout;
        expect(text.includes("open connections scaled by memory: not measured)")).toBe(scaled);
        expect(text.includes("open connections (scaled by memory: not measured)")).toBe(scaled);
        const doc = json((await perfguard(["size", "nsx-alb", ...args, "--json"])).stdout);
        expect(doc.openConnectionsScaled).toBe(scaled);
        // 200000 connections at 80%: 250000 per SE; the smallest SE holding them at its own row is scaled from it.
        if (scaled) {
            expect(doc.memoryPerSeMb).toBeGreaterThan(testedSeSize(doc.vcpusPerSe).memoryGb * 1024);
        }
    });

    it("raises memory, not vCPUs, for open connections", async () => {
        const doc = json((await perfguard(["size", "nsx-alb", "--open-connections", "5000000", "--json"])).stdout);
        expect(doc.fits).toBe(true);
        expect(doc.memoryPerSeMb).toBeGreaterThan(Math.max(2, testedSeSize(doc.vcpusPerSe).memoryGb) * 1024);
        expect(doc.utilisation.vs.openConnections).toBeLessThanOrEqual(0.8 + 1e-9);
    });

    it("--plot writes an SVG (when the plot renderer is installed)", async () => {
        const renderer = fs.existsSync(path.join(ROOT, "dist", "cli", "plots", "seCapacityPlot.js"));
        const chart = fs.existsSync(path.join(ROOT, "node_modules", "echarts"));
        if (!renderer || !chart) {
            return;
        }
        const file = path.join(tempDir(), "se.svg");
        const run = await perfguard(["size", "nsx-alb", "--ssl-tps", "5000", "--l7-rps", "100000", "--plot", file]);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain(`Plot written to ${file}.`);
        expect(fs.readFileSync(file, "utf8")).toMatch(/<svg[\s>]/);
    });
});

describe("perfguard size xen", () => {
    it("--plot writes the shares as an SVG (when the plot renderer is installed)", async () => {
        if (!fs.existsSync(path.join(ROOT, "node_modules", "echarts"))) {
            return;
        }
        const file = path.join(tempDir(), "xen.svg");
        const run = await perfguard([
            "size",
            "xen",
            "--link-mb-per-s",
            "111",
            "--guests",
            "3",
            "--dom0-mb-per-s",
            "60",
            "--guest-mb-per-s",
            "30",
            "--plot",
            file,
        ]);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain(`Plot written to ${file}.`);
        const svg = fs.readFileSync(file, "utf8");
        expect(svg).toMatch(/<svg[\s>]/);
        expect(svg).toContain("guest 3");
    });
    it("prints each guest's predicted share with units", async () => {
        const run = await perfguard(["size", "xen", "--link-mb-per-s", "117", "--guests", "3", "--dom0-mb-per-s", "40", "--guest-mb-per-s", "30"]);
        expect(run.code).toBe(0);
        expect(run.stdout).toContain("Xen host: 117 MB/s usable link, 3 guests needing 30 MB/s each, dom0 receiving 40 MB/s");
        expect(run.stdout).toMatch(/guest 1\s+30 MB\/s\s+25\.67 MB\/s \(extrapolated\)/);
        expect(run.stdout).toContain("3 of 3 guests get less than they need");
        expect(run.stdout).not.toContain("sender");
    });
    // The split was measured on a ~100 Mb/s link (11.1 MB/s): every figure beyond it is labelled.
    it.each([
        ["1100 MB/s", "1100", true],
        ["117 MB/s", "117", true],
        ["11.1 MB/s (the measured link)", "11.1", false],
        ["8 MB/s", "8", false],
    ])("labels the figures on a %s link extrapolated or not", async (_name, link, extrapolated) => {
        const run = await perfguard(["size", "xen", "--link-mb-per-s", link, "--guests", "2", "--guest-mb-per-s", "3"]);
        expect(run.code, run.stderr).toBe(0);
        const label = "extrapolated: the dom0/domU split was not measured beyond 11.1 MB/s (~100 Mb/s link, old netback)";
        expect(run.stdout.includes(`Every predicted figure is ${label}.`)).toBe(extrapolated);
        expect(/guest 1 .*\(extrapolated\)/.test(run.stdout)).toBe(extrapolated);
        expect(run.stdout).toMatch(/^ *receiver /m);
        const doc = json((await perfguard(["size", "xen", "--link-mb-per-s", link, "--guests", "2", "--guest-mb-per-s", "3", "--json"])).stdout);
        expect(doc.extrapolated).toBe(extrapolated ? label : null);
    });

    it("--json equals the model, and the guests it calls short are the ones xen-guest-network-share reports", async () => {
        const doc = json(
            (await perfguard(["size", "xen", "--link-mb-per-s", "117", "--guests", "3", "--dom0-mb-per-s", "40", "--guest-mb-per-s", "30", "--json"])).stdout,
        );
        const direct = predictXenShares({
            linkMBps: 117,
            guests: [
                { name: "dom0", domain: "dom0", demandMBps: 40 },
                ...[1, 2, 3].map((i) => ({ name: `guest ${i}`, domain: "domU" as const, demandMBps: 30 })),
            ],
        });
        expect(doc.shares.map((s: { predictedMBps: number }) => s.predictedMBps)).toEqual(direct.map((s) => s.MBps));
        const host = "xcp-01";
        const stack: TestResource[] = [
            {
                type: "custom:index:Backup",
                name: "backup",
                props: { tags: ["perfguard:xenDomain=dom0", `perfguard:xenHost=${host}`, "perfguard:networkMBps=40"] },
            },
            ...[1, 2, 3].map((i) => ({ type: XEN_VM, name: `guest-${i}`, props: { tags: [`perfguard:xenHost=${host}`, "perfguard:networkMBps=30"] } })),
        ];
        const reported = await runStackPolicy(xenGuestNetworkShare, stack, {
            hosts: { [host]: { linkMBps: 117, dedicated: true } },
            defaultLinkMBps: null,
            dom0Share: 0.5,
        });
        const short = doc.shares.filter((s: { meetsNeed: boolean | null }) => s.meetsNeed === false).length;
        expect(reported).toHaveLength(short);
        expect(short).toBe(3);
    });
});

describe("--help on every command", () => {
    it.each([[[]], [["size"]], [["size", "citrix"]], [["size", "nsx-alb"]], [["size", "xen"]], [["check"]]])("perfguard %j --help", async (args) => {
        const run = await perfguard([...args, "--help"]);
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/^Usage: perfguard/);
        if ((args.length > 0 && args[0] !== "size") || args.length > 1) {
            expect(run.stdout).toContain("--json");
        }
    });
});
