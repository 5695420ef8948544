/**
 * The test case behind each docs/policies/<id>.md "Example" section: `npm run docs:examples`
 * writes what the policy reports for these cases into the docs, and test/docs.test.ts fails when a
 * doc differs from it. Each case is a fixture of test/policies with one change that fails the policy.
 * To change an example: edit its case here, then run `npm run docs:examples`.
 */
import { citrixStack, VM, ZONE } from "../policies/citrix/citrixFixtures";
import { nsxStack } from "../policies/nsx-alb/nsxFixtures";
import { dom0Service, setTags, XCP01_UUID, xenBaselineConfig, xenStack } from "../policies/xen/xenFixtures";
import type { TestResource } from "../support/policyHarness";

export interface ExampleCase {
    /** One sentence above the block: what the case changes. */
    readonly title: string;
    readonly resources: TestResource[];
    /** The policy's config (as Configure delivers it). */
    readonly config?: Record<string, unknown>;
    /** Show only the violations on these resources (names; "(stack)"); all when omitted. */
    readonly only?: readonly string[];
}

/** A further satellite zone of the same Site with two Delivery Controllers throttled at 12 (facts in extraConfig). */
function satelliteZone(zoneName: string, rttMs: string): TestResource[] {
    return [
        {
            type: ZONE,
            name: `${zoneName}-zone`,
            props: {
                name: zoneName,
                metadatas: [
                    { name: "perfguard:rttMs", value: rttMs },
                    { name: "perfguard:peakConcurrentLaunches", value: "20" },
                ],
            },
        },
        ...[1, 2].map((i): TestResource => ({
            type: VM,
            name: `ddc-${zoneName}-${i}`,
            props: {
                name: `ddc-${zoneName}-${i}`,
                extraConfig: {
                    "guestinfo.perfguard.citrixRole": "deliveryController",
                    "guestinfo.perfguard.citrixZone": zoneName,
                    "guestinfo.perfguard.throttleMaxConcurrentTransactions": "12",
                },
            },
        })),
    ];
}

/** Policy id -> its example cases, in the order the doc shows them. */
export const EXAMPLE_CASES: Readonly<Record<string, readonly ExampleCase[]>> = {
    "citrix-zone-rtt-limit": [
        {
            title: "Zone emea at 260 ms from the Site database (test/policies/citrix/citrixFixtures.ts, rttMs changed):",
            resources: citrixStack({ rttMs: "260" }),
        },
    ],
    "citrix-zone-rtt-warning": [
        {
            title: "Zone emea at 240 ms, below the 250 ms limit but in the warning band (test/policies/citrix/citrixFixtures.ts, rttMs changed):",
            resources: citrixStack({ rttMs: "240" }),
        },
    ],
    "citrix-broker-throttle": [
        { title: "Zone emea at 160 ms; its second Delivery Controller sets no throttle:", resources: citrixStack({ throttles: ["12", undefined] }) },
    ],
    "citrix-brokering-capacity": [
        { title: "Zone emea at 160 ms with 20000 users (test/policies/citrix/citrixFixtures.ts, users changed):", resources: citrixStack({ users: "20000" }) },
    ],
    "citrix-site-limits": [{ title: "Zone emea with 12000 machines in its catalog:", resources: citrixStack({ machines: 12000 }) }],
    "citrix-site-database-load": [
        {
            title: "Zone emea and two more satellite zones at 160 ms, each with two Delivery Controllers throttled at 12 (72 in all):",
            resources: citrixStack({ extra: [...satelliteZone("apac", "160"), ...satelliteZone("latam", "160")] }),
        },
    ],
    "nsx-alb-se-capacity": [
        {
            title: "A VS needing 3000 RSA-2048 TPS and 30000 RPS on one 4 vCPU SE (test/policies/nsx-alb/nsxFixtures.ts, sslTps changed):",
            resources: nsxStack({ shop: { sslTps: "3000" } }),
        },
        { title: "The group-wide form (maxSe 2, bufferSe 1):", resources: nsxStack({ group: { maxSe: "2" } }) },
    ],
    "nsx-alb-se-capacity-advisory": [
        {
            title: "An N+M group that cannot keep its buffer: one VS per SE, bufferSe 2, maxSe 3 (test/policies/nsx-alb/nsxFixtures.ts, group changed):",
            resources: nsxStack({ group: { maxSe: "3", bufferSe: "2", maxVsPerSe: "1" } }),
        },
    ],
    "nsx-alb-se-minimum-resources": [
        {
            title: "A 4 vCPU SE group with the provider's default memory and 20 GB of disk:",
            resources: nsxStack({ group: { memoryPerSe: undefined, diskPerSe: "20" } }),
        },
    ],
    "nsx-alb-se-dedicated-dispatcher": [
        {
            title: 'A 6 vCPU SE group (at its tested 6 GB / 40 GB) with dedicatedDispatcherCore "false":',
            resources: nsxStack({ group: { vcpusPerSe: "6", memoryPerSe: "6144", diskPerSe: "40", dedicatedDispatcherCore: "false" } }),
        },
    ],
    "perfguard-facts": [{ title: "A zone whose RTT is written with its unit:", resources: citrixStack({ rttMs: "160ms" }) }],
    "xen-dom0-workload": [
        {
            title: "A backup job declared in dom0 of xcp-01 as a workload (test/policies/xen/xenFixtures.ts, one resource added):",
            resources: xenStack({ add: [dom0Service("backup", XCP01_UUID, "workload", "30")] }),
        },
    ],
    "xen-guest-network-share": [
        {
            title: "The management agent in dom0 of xcp-01 sending 100 MB/s (test/policies/xen/xenFixtures.ts):",
            resources: xenStack({
                name: "xo-agent",
                edit: setTags("perfguard:xenDomain=dom0", `perfguard:xenHost=${XCP01_UUID}`, "perfguard:xenDom0Role=management", "perfguard:networkMBps=100"),
            }),
            config: xenBaselineConfig(),
        },
        {
            title: "A host without a link figure (xcp-02 left out of hosts):",
            resources: xenStack(),
            config: { hosts: { [XCP01_UUID]: { linkMBps: 110, dedicated: true } } },
        },
    ],
};
