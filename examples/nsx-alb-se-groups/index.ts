// Three NSX Advanced Load Balancer (Avi) Service Engine groups on a vCenter cloud, and the
// virtual services placed on them.
//
// Translated to Pulumi from vmware/terraform-provider-avi:
// - examples/vmware/vsphere_steps/06_vmware_cc_with_vs_ssl/serviceenginegroup.tf (the SE group),
// - examples/virtualservice/https_vs/main.tf and examples/virtualservice/tcp_vs/main.tf (a VS
//   with its vsvip, pool, application/network profile and SSL certificate refs),
// - examples/vmware/vsphere_steps/06_vmware_cc_with_vs_ssl/vsvip.tf and vs_and_pool.tf.
// The Terraform examples also create the cloud, profiles, SSL profile and certificate; here those
// are existing objects referenced by name ("/api/<type>/?name=<name>"), which the Avi API
// accepts wherever it takes a ref.
//
// perfguard reads "facts" (keys starting with `perfguard:`) from the virtual services' `markers`
// and compares that demand with the published per-SE capacity of the SE group each VS sits on.
// See README.md for which part is meant to trigger which policy.

import * as pulumi from "@pulumi/pulumi";
import * as avi from "@pulumi/avi";

/** One entry of an Avi object's `markers` list. */
type Marker = { key: string; values: string[] };

const config = new pulumi.Config();

// Terraform variables of the examples, as Pulumi config. Defaults let the example run
// (preview, policy checks, mocks) without any config set.
const tenant = config.get("tenant") ?? "admin";
const cloudName = config.get("cloud") ?? "Default-Cloud";
const webVip = config.get("webVip") ?? "10.20.30.10";
const pgVip = config.get("pgVip") ?? "10.20.30.20";
const webServers = config.getObject<string[]>("webServers") ?? ["10.20.40.11", "10.20.40.12", "10.20.40.13"];
const pgServers = config.getObject<string[]>("pgServers") ?? ["10.20.50.21", "10.20.50.22"];

const tenantRef = `/api/tenant/?name=${tenant}`;
const cloudRef = `/api/cloud/?name=${cloudName}`;

// ---------------------------------------------------------------------------------------------
// perfguard facts
// ---------------------------------------------------------------------------------------------

/** Peak demand of one virtual service, recorded in its `markers`. */
interface VsDemand {
    /** New TLS handshakes per second at peak. */
    sslTps?: number;
    /** Key type of the VS certificate, which decides what a handshake costs. */
    sslKeyType?: "rsa" | "ecc";
    /** HTTP requests per second at peak. */
    l7Rps?: number;
    /** New TCP connections per second at peak. */
    l4Cps?: number;
    /** Concurrent open connections at peak. */
    l4OpenConnections?: number;
    /** Client-side throughput at peak, in Gbps. */
    throughputGbps?: number;
}

function demandMarkers(demand: VsDemand): Marker[] {
    const markers: Marker[] = [];
    const add = (key: string, value: string | number | undefined): void => {
        if (value !== undefined) {
            markers.push({ key: `perfguard:${key}`, values: [String(value)] });
        }
    };
    // TLS handshakes are the most CPU-expensive work an SE does; the published per-vCPU TPS
    // is what sizes an SSL-terminating VS.
    add("sslTps", demand.sslTps);
    // An RSA-2048 handshake costs several times an ECDSA P-256 one, so the TPS figure only
    // means something together with the key type.
    add("sslKeyType", demand.sslKeyType);
    // L7 request rate: HTTP parsing and proxying, compared with the published L7 RPS.
    add("l7Rps", demand.l7Rps);
    // L4 connection setup rate, compared with the published L4 CPS.
    add("l4Cps", demand.l4Cps);
    // Open connections use SE memory (connection table), not just CPU.
    add("l4OpenConnections", demand.l4OpenConnections);
    // Throughput is bounded per SE by vCPUs and vNIC queues.
    add("throughputGbps", demand.throughputGbps);
    return markers;
}

// ---------------------------------------------------------------------------------------------
// Service Engine groups (serviceenginegroup.tf)
// ---------------------------------------------------------------------------------------------

// web-se-group: the Terraform example's defaults (2 vCPUs, 2048 MB) with a bigger disk. It
// carries the HTTPS storefront below and is too small for it: at 2 vCPUs an SE is published at
// about 1800 RSA-2048 TPS and 80000 L7 RPS, so 4000 TPS with 60000 RPS needs 297% of one SE (four
// SEs at the 80% limit, assuming linear scale-out), and the VS is placed on minScaleoutPerVs 1.
const webSeGroup = new avi.Serviceenginegroup("web-se-group", {
    name: "web-se-group",
    description: "L7/TLS Service Engines for the storefront",
    cloudRef: cloudRef,
    tenantRef: tenantRef,
    // Elastic N+M: every SE is active, `bufferSe` spare capacity covers a failure.
    haMode: "HA_MODE_SHARED",
    algo: "PLACEMENT_ALGO_PACKED",
    // 2 vCPUs per SE: the sizing of the published 2-vCPU capacity figures.
    vcpusPerSe: "2",
    // 2048 MB and 20 GB meet the tested minimums for a 2-vCPU SE.
    memoryPerSe: "2048",
    diskPerSe: "20",
    // Up to four SEs in the group, one of them kept spare for HA.
    maxSe: "4",
    bufferSe: "1",
    // A VS starts on one SE and scales out to two: its ceiling is 2 x the per-SE capacity.
    minScaleoutPerVs: "1",
    maxScaleoutPerVs: "2",
    maxVsPerSe: "10",
    seDeprovisionDelay: "5",
    seNamePrefix: "web",
});

// tcp-se-group: 4-vCPU SEs with a dedicated dispatcher core, the configuration the published
// 4-vCPU numbers were measured with (1 dispatcher + 3 proxy cores; the L4 throughput figure
// with 2 + 2). It carries the PostgreSQL L4 service below, which fits one SE (100000 CPS,
// 160000 open connections, 9.5 Gbps published per 4-vCPU SE).
const tcpSeGroup = new avi.Serviceenginegroup("tcp-se-group", {
    name: "tcp-se-group",
    description: "L4 Service Engines for database and TCP services",
    cloudRef: cloudRef,
    tenantRef: tenantRef,
    haMode: "HA_MODE_SHARED",
    algo: "PLACEMENT_ALGO_PACKED",
    vcpusPerSe: "4",
    memoryPerSe: "4096",
    diskPerSe: "30",
    // One core only moves packets between the vNICs and the other cores; at 4+ vCPUs this is
    // how the published L4 and throughput figures were obtained.
    dedicatedDispatcherCore: "true",
    maxSe: "4",
    bufferSe: "1",
    minScaleoutPerVs: "1",
    maxScaleoutPerVs: "2",
    maxVsPerSe: "10",
    seDeprovisionDelay: "5",
    seNamePrefix: "tcp",
});

// bulk-se-group: 6-vCPU SEs kept for bulk/batch traffic, with no virtual service yet. It leaves
// out `dedicatedDispatcherCore`, although the published 6-vCPU results used a dedicated
// dispatcher, so its SEs would not reach the published 6-vCPU capacity.
const bulkSeGroup = new avi.Serviceenginegroup("bulk-se-group", {
    name: "bulk-se-group",
    description: "Large Service Engines reserved for bulk transfer services",
    cloudRef: cloudRef,
    tenantRef: tenantRef,
    haMode: "HA_MODE_SHARED",
    algo: "PLACEMENT_ALGO_PACKED",
    vcpusPerSe: "6",
    memoryPerSe: "6144",
    diskPerSe: "40",
    maxSe: "2",
    bufferSe: "1",
    minScaleoutPerVs: "1",
    maxScaleoutPerVs: "2",
    seDeprovisionDelay: "5",
    seNamePrefix: "bulk",
});

// ---------------------------------------------------------------------------------------------
// HTTPS storefront on web-se-group (https_vs/main.tf)
// ---------------------------------------------------------------------------------------------

// vsvip.tf: a static VIP on the cloud's VIP network.
const webVsvip = new avi.Vsvip("web-vsvip", {
    name: "shop-vip",
    cloudRef: cloudRef,
    tenantRef: tenantRef,
    vips: [{ vipId: "0", ipAddresses: [{ type: "V4", addr: webVip }] }],
});

// avi_pool.lb_pool: the storefront's web servers, plain HTTP behind the TLS-terminating VS.
const webPool = new avi.Pool("web-pool", {
    name: "shop-pool",
    cloudRef: cloudRef,
    tenantRef: tenantRef,
    lbAlgorithm: "LB_ALGORITHM_LEAST_CONNECTIONS",
    defaultServerPort: "8080",
    servers: webServers.map((addr) => ({ ips: [{ type: "V4", addr }], port: "8080", enabled: "true" })),
    healthMonitorRefs: ["/api/healthmonitor/?name=System-HTTP"],
    failActions: [{ type: "FAIL_ACTION_CLOSE_CONN" }],
});

// avi_virtualservice.https_vs: TLS terminated on the SEs with an RSA-2048 certificate.
const webHttpsVs = new avi.Virtualservice("web-https-vs", {
    name: "shop-https",
    cloudRef: cloudRef,
    cloudType: "CLOUD_VCENTER",
    tenantRef: tenantRef,
    // Unknown during a preview (the SE group is created in the same update); perfguard follows
    // the property dependency to web-se-group.
    seGroupRef: webSeGroup.id,
    vsvipRef: webVsvip.id,
    poolRef: webPool.id,
    services: [{ port: "443", enableSsl: "true" }],
    applicationProfileRef: "/api/applicationprofile/?name=System-Secure-HTTP",
    networkProfileRef: "/api/networkprofile/?name=System-TCP-Proxy",
    sslProfileRef: "/api/sslprofile/?name=System-Standard",
    sslKeyAndCertificateRefs: ["/api/sslkeyandcertificate/?name=shop-example-com-rsa2048"],
    markers: [
        { key: "app", values: ["storefront"] },
        // Sale-day peak: 4000 new TLS sessions/s on an RSA-2048 key needs three 2-vCPU SEs
        // (about 1800 TPS each), more than maxScaleoutPerVs allows; 60000 RPS alone would fit
        // one SE (about 80000 RPS).
        ...demandMarkers({ sslTps: 4000, sslKeyType: "rsa", l7Rps: 60000 }),
    ],
});

// ---------------------------------------------------------------------------------------------
// PostgreSQL L4 service on tcp-se-group (tcp_vs/main.tf)
// ---------------------------------------------------------------------------------------------

const pgVsvip = new avi.Vsvip("pg-vsvip", {
    name: "orders-db-vip",
    cloudRef: cloudRef,
    tenantRef: tenantRef,
    vips: [{ vipId: "0", ipAddresses: [{ type: "V4", addr: pgVip }] }],
});

// A plain TCP connect check on the PostgreSQL port.
const pgHealthMonitor = new avi.Healthmonitor("pg-tcp-hm", {
    name: "orders-db-tcp",
    tenantRef: tenantRef,
    type: "HEALTH_MONITOR_TCP",
    sendInterval: "10",
    receiveTimeout: "4",
    successfulChecks: "2",
    failedChecks: "3",
});

const pgPool = new avi.Pool("pg-pool", {
    name: "orders-db-pool",
    cloudRef: cloudRef,
    tenantRef: tenantRef,
    lbAlgorithm: "LB_ALGORITHM_LEAST_CONNECTIONS",
    defaultServerPort: "5432",
    servers: pgServers.map((addr) => ({ ips: [{ type: "V4", addr }], port: "5432", enabled: "true" })),
    healthMonitorRefs: [pgHealthMonitor.id],
    failActions: [{ type: "FAIL_ACTION_CLOSE_CONN" }],
});

// avi_virtualservice with an L4 application profile: no TLS, no HTTP, so only the L4 facts.
const pgTcpVs = new avi.Virtualservice("pg-tcp-vs", {
    name: "orders-db",
    cloudRef: cloudRef,
    cloudType: "CLOUD_VCENTER",
    tenantRef: tenantRef,
    seGroupRef: tcpSeGroup.id,
    vsvipRef: pgVsvip.id,
    poolRef: pgPool.id,
    services: [{ port: "5432", enableSsl: "false" }],
    applicationProfileRef: "/api/applicationprofile/?name=System-L4-Application",
    networkProfileRef: "/api/networkprofile/?name=System-TCP-Fast-Path",
    markers: [
        { key: "app", values: ["orders-db"] },
        // Connection storms when the application tier restarts (30000 CPS), pooled client
        // connections held open (50000), bulk reads (2 Gbps): all well inside one 4-vCPU SE.
        ...demandMarkers({ l4Cps: 30000, l4OpenConnections: 50000, throughputGbps: 2 }),
    ],
});

// ---------------------------------------------------------------------------------------------
// Outputs
// ---------------------------------------------------------------------------------------------

export const seGroupIds = {
    web: webSeGroup.id,
    tcp: tcpSeGroup.id,
    bulk: bulkSeGroup.id,
};
export const virtualServiceIds = {
    shopHttps: webHttpsVs.id,
    ordersDb: pgTcpVs.id,
};
