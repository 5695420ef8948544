/**
 * Synthetic stacks for the benchmark, shaped like the examples and the policy fixtures: per block
 * of 100 resources a Citrix zone with its hypervisor, resource pool, three MCS catalogs, a delivery
 * group and two Delivery Controllers (vSphere VMs, one with its facts in `extraConfig`, one on
 * vsphere.Tag objects of a `perfguard` category); two NSX ALB SE groups with eight virtual
 * services and four pools; two Xen hosts' worth of guests (twenty VMs) and a dom0 service; and
 * plain resources with ordinary tags. Facts sit on the carriers docs/facts.md lists (Citrix
 * `metadatas`, Avi `markers`, vSphere `extraConfig` and tags, Xen Orchestra `tags`). Values vary from block to block (a deterministic PRNG), so the stack carries
 * violations as a real one would: zones over the RTT limit, unthrottled controllers, undersized SE
 * groups, dom0 workloads, crowded Xen links, an invalid fact and a waiver now and then.
 * Props are in wire form as a preview sends them: outputs, with the computed ones (`id`, ...)
 * the engine's unknown sentinel; the joins that need them are property dependencies; resources in
 * no particular order (the engine ranges over a map).
 */
import type { AnalyzeResourceInput, AnalyzeStackResourceInput } from "../../preview/packClient";
import { ROOT_STACK_TYPE, UNKNOWN_STRING } from "../../preview/types";
import type { JsonValue, PropertyBag } from "../../preview/types";

const PROJECT = "perfguard-bench";
const STACK = "bench";
/** Resources per block; the stack sizes are multiples of it. */
export const BLOCK_SIZE = 100;

const ZONE = "citrix:index/zone:Zone";
const HYPERVISOR = "citrix:index/xenserverHypervisor:XenserverHypervisor";
const RESOURCE_POOL = "citrix:index/xenserverHypervisorResourcePool:XenserverHypervisorResourcePool";
const CATALOG = "citrix:index/machineCatalog:MachineCatalog";
const DELIVERY_GROUP = "citrix:index/deliveryGroup:DeliveryGroup";
const VSPHERE_VM = "vsphere:index/virtualMachine:VirtualMachine";
const VSPHERE_TAG = "vsphere:index/tag:Tag";
const VSPHERE_CATEGORY = "vsphere:index/tagCategory:TagCategory";
const SE_GROUP = "avi:index/serviceenginegroup:Serviceenginegroup";
const VS = "avi:index/virtualservice:Virtualservice";
const AVI_POOL = "avi:index/pool:Pool";
const XEN_VM = "xenorchestra:index/vm:Vm";
const DOM0_SERVICE = "perfguard:example:Dom0Service";
const PLAIN_TYPES = [
    "aws:s3/bucket:Bucket",
    "aws:ec2/securityGroup:SecurityGroup",
    "aws:iam/role:Role",
    "kubernetes:core/v1:ConfigMap",
    "random:index/randomPassword:RandomPassword",
    "vsphere:index/folder:Folder",
    "aws:cloudwatch/logGroup:LogGroup",
] as const;

/** Mulberry32: a tiny seeded PRNG, so every run (and every pack) gets the same stack. */
function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

function urnOf(type: string, name: string): string {
    return `urn:pulumi:${STACK}::${PROJECT}::${type}::${name}`;
}

const ROOT_URN = urnOf(ROOT_STACK_TYPE, `${PROJECT}-${STACK}`);

/**
 * Outputs a bridged provider computes, per type: in a preview (a create) they are unknown in the
 * outputs AnalyzeStack gets, next to the inputs. `id` is computed for every custom resource.
 */
const COMPUTED: Readonly<Record<string, readonly string[]>> = {
    [ZONE]: ["id"],
    [HYPERVISOR]: ["id"],
    [RESOURCE_POOL]: ["id"],
    [CATALOG]: ["id"],
    [DELIVERY_GROUP]: ["id", "totalMachines"],
    [VSPHERE_VM]: ["id", "defaultIpAddress", "guestIpAddresses", "moid", "uuid", "vmwareToolsStatus"],
    [VSPHERE_TAG]: ["id"],
    [VSPHERE_CATEGORY]: ["id"],
    [SE_GROUP]: ["id", "uuid"],
    [VS]: ["id", "uuid"],
    [AVI_POOL]: ["id", "uuid"],
    [XEN_VM]: ["id", "ipv4Addresses", "ipv6Addresses", "powerState"],
};

/** The computed outputs of `type` (none for components such as the dom0 service). */
function computedOf(type: string): readonly string[] {
    return COMPUTED[type] ?? ((PLAIN_TYPES as readonly string[]).includes(type) ? ["id", "arn"] : []);
}

class StackBuilder {
    readonly resources: AnalyzeStackResourceInput[] = [];

    add(type: string, name: string, properties: PropertyBag, propertyDependencies: Record<string, string[]> = {}): string {
        const urn = urnOf(type, name);
        const dependencies = [...new Set(Object.values(propertyDependencies).flat())];
        const outputs: PropertyBag = { ...properties };
        for (const key of computedOf(type)) {
            outputs[key] ??= UNKNOWN_STRING;
        }
        this.resources.push({ urn, type, name, properties: outputs, parent: ROOT_URN, dependencies, propertyDependencies });
        return urn;
    }
}

function hostUuid(block: number, host: number): string {
    const hex = (block * 2 + host).toString(16).padStart(12, "0");
    return `0b6a4a5e-1f0c-4d1e-9a7f-${hex}`;
}

function citrixBlock(s: StackBuilder, b: number, rnd: () => number): void {
    const zoneName = `zone-${b}`;
    // One zone in ten is past the 250 ms limit, four in ten are satellites that need the throttle.
    const rttMs = b % 10 === 0 ? 260 : b % 10 < 5 ? 90 + Math.round(rnd() * 100) : 2 + Math.round(rnd() * 20);
    const metadata: JsonValue[] = [
        { name: "owner", value: "euc-platform" },
        { name: "perfguard:rttMs", value: String(rttMs) },
        { name: "perfguard:peakConcurrentLaunches", value: String(20 + Math.round(rnd() * 40)) },
        { name: "perfguard:users", value: String(2000 + Math.round(rnd() * 6000)) },
    ];
    if (b % 20 === 0) {
        metadata.push(
            { name: "perfguard:waive", value: "citrix-zone-rtt-limit" },
            { name: "perfguard:waiveReason", value: `CHG-${1000 + b}: Site split planned` },
        );
    }
    // `metadatas`: the Citrix provider's (bridged) name of the Terraform `metadata` list.
    const zone = s.add(ZONE, `${zoneName}-zone`, { name: zoneName, description: `Satellite zone ${b}`, metadatas: metadata });
    const hypervisor = s.add(
        HYPERVISOR,
        `${zoneName}-xenserver`,
        {
            name: `${zoneName}-xenserver`,
            zone: UNKNOWN_STRING,
            username: "root",
            password: "example-password",
            passwordFormat: "PlainText",
            addresses: [`https://xenpool-${b}.corp.example.com`],
        },
        { zone: [zone] },
    );
    const pool = s.add(
        RESOURCE_POOL,
        `${zoneName}-rp`,
        {
            name: `${zoneName}-rp`,
            hypervisor: UNKNOWN_STRING,
            networks: ["VDA-Network"],
            storage: [{ storageName: `sr-nfs-${b}` }],
            temporaryStorage: [{ storageName: `sr-nfs-${b}` }],
            useLocalStorageCaching: false,
        },
        { hypervisor: [hypervisor] },
    );
    const catalogs: string[] = [];
    for (let c = 0; c < 3; c++) {
        catalogs.push(
            s.add(
                CATALOG,
                `${zoneName}-catalog-${c}`,
                {
                    name: `${zoneName}-catalog-${c}`,
                    zone: UNKNOWN_STRING,
                    allocationType: "Random",
                    sessionSupport: "MultiSession",
                    provisioningType: "MCS",
                    provisioningScheme: {
                        hypervisor: UNKNOWN_STRING,
                        hypervisorResourcePool: UNKNOWN_STRING,
                        identityType: "ActiveDirectory",
                        // Every 25th zone overflows Local Host Cache's 10,000 VDAs.
                        numberOfTotalMachines: b % 25 === 0 ? 4000 : 50 + Math.round(rnd() * 300),
                        machineAccountCreationRules: { namingScheme: `vda-${b}-${c}-###`, namingSchemeType: "Numeric" },
                        machineDomainIdentity: {
                            domain: "corp.example.com",
                            domainOu: "OU=VDAs,DC=corp,DC=example,DC=com",
                            serviceAccount: "svc-citrix-mcs",
                            serviceAccountPassword: "example-password",
                        },
                        xenserverMachineConfig: { masterImageVm: "win2022-vda-2411-golden", cpuCount: 4, memoryMb: 16384 },
                    },
                },
                { zone: [zone], provisioningScheme: [hypervisor, pool] },
            ),
        );
    }
    s.add(
        DELIVERY_GROUP,
        `${zoneName}-dg`,
        {
            name: `${zoneName}-dg`,
            associatedMachineCatalogs: catalogs.map(() => ({ machineCatalog: UNKNOWN_STRING, machineCount: 10 })),
            desktops: [{ publishedName: "Desktop", restrictedAccessUsers: { allowLists: ["CORP\\citrix-users"] } }],
            metadatas: [
                { name: "perfguard:peakConcurrentLaunches", value: String(5 + Math.round(rnd() * 15)) },
                { name: "owner", value: "euc-platform" },
            ],
        },
        { associatedMachineCatalogs: catalogs },
    );
    // Controllers carry their facts on the vSphere carriers docs/facts.md lists: the first in
    // `extraConfig` (guestinfo.perfguard.<key>), the second on vsphere.Tag objects of a
    // `perfguard` TagCategory attached through `tags` (in a preview the tag ids are unknown and
    // the join is the property dependency of `tags`).
    const category = s.add(VSPHERE_CATEGORY, `${zoneName}-perfguard-category`, {
        name: "perfguard",
        cardinality: "MULTIPLE",
        associableTypes: ["VirtualMachine"],
    });
    for (let d = 0; d < 2; d++) {
        const facts: Array<[string, string]> = [
            ["citrixRole", "deliveryController"],
            ["citrixZone", zoneName],
        ];
        // Satellites: the first controller is throttled, the second only in half the zones.
        if (rttMs >= 90 && (d === 0 || b % 2 === 0)) {
            facts.push(["throttleMaxConcurrentTransactions", String(8 + (b % 8))]);
        }
        if (b % 50 === 7 && d === 1) {
            facts.push(["throttleMaxConcurrentTransactions", "twelve"]); // an invalid fact
        }
        const vm: PropertyBag = {
            name: `${zoneName}-ddc-${d}`,
            resourcePoolId: "resgroup-10",
            datastoreId: "datastore-12",
            numCpus: 4,
            memory: 8192,
            guestId: "windows2019srv_64Guest",
            networkInterfaces: [{ networkId: "network-20", adapterType: "vmxnet3" }],
            disks: [{ label: "disk0", size: 80, thinProvisioned: true }],
        };
        if (d === 0) {
            vm.extraConfig = Object.fromEntries([["guestinfo.hostname", `${zoneName}-ddc-${d}`], ...facts.map(([k, v]) => [`guestinfo.perfguard.${k}`, v])]);
            s.add(VSPHERE_VM, `${zoneName}-ddc-${d}`, vm);
        } else {
            const tagUrns = facts.map(([k, v], i) =>
                s.add(
                    VSPHERE_TAG,
                    `${zoneName}-ddc-${d}-tag-${i}`,
                    {
                        name: `${k}=${v}`,
                        categoryId: UNKNOWN_STRING,
                        description: "perfguard fact",
                    },
                    { categoryId: [category] },
                ),
            );
            vm.tags = tagUrns.map(() => UNKNOWN_STRING);
            s.add(VSPHERE_VM, `${zoneName}-ddc-${d}`, vm, { tags: tagUrns });
        }
    }
}

function aviBlock(s: StackBuilder, b: number, rnd: () => number): void {
    const groups: Array<{ urn: string; name: string }> = [];
    for (let g = 0; g < 2; g++) {
        const name = `seg-${b}-${g}`;
        const vcpus = g === 0 ? 2 : 4;
        const props: PropertyBag = {
            name,
            tenantRef: "/api/tenant?name=admin",
            cloudRef: "/api/cloud?name=Default-Cloud",
            vcpusPerSe: String(vcpus),
            memoryPerSe: b % 7 === 0 ? "2048" : String(vcpus * 2048),
            diskPerSe: String(vcpus >= 4 ? 30 : 20),
            maxSe: String(2 + (b % 4)),
            minScaleoutPerVs: "1",
            maxScaleoutPerVs: "2",
            bufferSe: "1",
            haMode: "HA_MODE_SHARED",
            seNamePrefix: "Avi",
            description: `SE group ${name}`,
            algo: "PLACEMENT_ALGO_PACKED",
        };
        if (b % 3 !== 0) {
            props.dedicatedDispatcherCore = "true";
        }
        groups.push({ urn: s.add(SE_GROUP, `${name}-seg`, props), name });
    }
    for (let v = 0; v < 8; v++) {
        const group = groups[v % 2];
        const name = `vs-${b}-${v}`;
        const ssl = v % 2 === 0;
        // Every 9th block's first group gets a VS far beyond what 2 vCPUs carry.
        const heavy = b % 9 === 0 && v === 0;
        const markers: JsonValue[] = [
            { key: "team", values: ["web"] },
            { key: "perfguard:l7Rps", values: [String(heavy ? 400000 : 500 + Math.round(rnd() * 3000))] },
            { key: "perfguard:throughputGbps", values: [(0.1 + rnd() * 0.5).toFixed(2)] },
            { key: "perfguard:l4OpenConnections", values: [String(1000 + Math.round(rnd() * 5000))] },
        ];
        if (ssl) {
            markers.push({ key: "perfguard:sslTps", values: [String(heavy ? 50000 : 50 + Math.round(rnd() * 300))] });
        }
        // Half are joined through the property dependency (preview: the ref is unknown), half by a literal ref.
        const joined = v < 4;
        s.add(
            VS,
            `${name}-vs`,
            {
                name,
                seGroupRef: joined ? UNKNOWN_STRING : `/api/serviceenginegroup?name=${group.name}`,
                tenantRef: "/api/tenant?name=admin",
                cloudRef: "/api/cloud?name=Default-Cloud",
                services: [{ port: ssl ? "443" : "80", enableSsl: ssl ? "true" : "false" }],
                vsvipRef: UNKNOWN_STRING,
                poolRef: UNKNOWN_STRING,
                markers,
            },
            joined ? { seGroupRef: [group.urn] } : {},
        );
    }
    for (let p = 0; p < 4; p++) {
        s.add(AVI_POOL, `pool-${b}-${p}`, {
            name: `pool-${b}-${p}`,
            tenantRef: "/api/tenant?name=admin",
            lbAlgorithm: "LB_ALGORITHM_LEAST_CONNECTIONS",
            servers: [
                { ip: [{ addr: `10.${b % 250}.${p}.10`, type: "V4" }], port: "8080" },
                { ip: [{ addr: `10.${b % 250}.${p}.11`, type: "V4" }], port: "8080" },
            ],
            markers: [{ key: "team", values: ["web"] }],
        });
    }
}

function xenBlock(s: StackBuilder, b: number, rnd: () => number): void {
    for (let i = 0; i < 20; i++) {
        const host = i < 10 ? 0 : 1;
        const name = `xen-${b}-${i}`;
        const tags = ["env:prod", `app:${name.slice(0, 6)}`];
        if (i % 2 === 0) {
            // Ten guests of one host needing 8-14 MB/s crowd a 111 MB/s link now and then.
            tags.push(`perfguard:networkMBps=${8 + Math.round(rnd() * 6)}`);
        }
        if (i % 5 === 4) {
            tags.push("perfguard:vifCapMBps=10");
        }
        s.add(XEN_VM, name, {
            nameLabel: name,
            cpus: 2,
            memoryMax: 4 * 1024 ** 3,
            template: "tmpl-ubuntu-2204",
            networks: [{ networkId: UNKNOWN_STRING }],
            disks: [{ nameLabel: `${name}-root`, size: 20 * 1024 ** 3, srId: "sr-local" }],
            cloudConfig: "#cloud-config\npackage_update: true",
            affinityHost: hostUuid(b, host),
            tags,
        });
    }
    const role = b % 4 === 0 ? "backup-agent" : "management";
    s.add(DOM0_SERVICE, `dom0-${b}`, {
        tags: ["perfguard:xenDomain=dom0", `perfguard:xenHost=${hostUuid(b, 0)}`, `perfguard:xenDom0Role=${role}`, `perfguard:networkMBps=${2 + (b % 5)}`],
        command: "/opt/xo-agent/bin/agent",
    });
}

function plainBlock(s: StackBuilder, b: number, count: number): void {
    for (let i = 0; i < count; i++) {
        const type = PLAIN_TYPES[i % PLAIN_TYPES.length];
        const name = `res-${b}-${i}`;
        s.add(type, name, {
            name,
            description: `plain resource ${i} of block ${b}`,
            tags: { env: "prod", team: `team-${b % 17}`, costCenter: String(1000 + (i % 50)), owner: "platform" },
            settings: { enabled: true, retentionDays: 30, region: "eu-west-1", labels: ["a", "b", "c"] },
        });
    }
}

/**
 * Builds a stack of `size` resources (a multiple of BLOCK_SIZE), the root stack resource included.
 * @param size - resources in the stack (1,000, 10,000, 50,000 for the benchmark).
 * @returns the resources in engine order, as AnalyzeStack receives them.
 */
export function benchStack(size: number): AnalyzeStackResourceInput[] {
    if (size % BLOCK_SIZE !== 0 || size <= 0) {
        throw new Error(`stack size ${size} is not a positive multiple of ${BLOCK_SIZE}`);
    }
    const s = new StackBuilder();
    const rnd = prng(20240611);
    s.resources.push({ urn: ROOT_URN, type: ROOT_STACK_TYPE, name: `${PROJECT}-${STACK}`, properties: {}, parent: "" });
    for (let b = 0; b < size / BLOCK_SIZE; b++) {
        const before = s.resources.length;
        citrixBlock(s, b, rnd);
        aviBlock(s, b, rnd);
        xenBlock(s, b, rnd);
        // The first block also holds the root stack resource.
        const target = b === 0 ? BLOCK_SIZE - 1 : BLOCK_SIZE;
        plainBlock(s, b, target - (s.resources.length - before));
    }
    return engineOrder(s.resources, prng(7));
}

/** The resources of a stack as Analyze receives them (inputs; in a preview the same props). */
export function analyzeInputs(stack: readonly AnalyzeStackResourceInput[]): AnalyzeResourceInput[] {
    return stack.map((r) => ({ urn: r.urn, type: r.type, name: r.name, properties: inputsOf(r), options: { parent: r.parent } }));
}

/** The inputs of a resource: its preview outputs without the computed ones. */
function inputsOf(r: AnalyzeStackResourceInput): PropertyBag {
    const computed = computedOf(r.type);
    const inputs: PropertyBag = {};
    for (const [key, value] of Object.entries(r.properties)) {
        if (!computed.includes(key)) {
            inputs[key] = value;
        }
    }
    return inputs;
}

/**
 * The engine's order: AnalyzeStack ranges over a Go sync.Map, so resources arrive in no
 * particular order (a deterministic Fisher-Yates shuffle here, the root stack resource anywhere).
 */
function engineOrder(resources: AnalyzeStackResourceInput[], rnd: () => number): AnalyzeStackResourceInput[] {
    const out = [...resources];
    for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
}

/** Resource counts by kind, for the report. */
export function stackComposition(stack: readonly AnalyzeStackResourceInput[]): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const r of stack) {
        counts[r.type] = (counts[r.type] ?? 0) + 1;
    }
    return counts;
}
