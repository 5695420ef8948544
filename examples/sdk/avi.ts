// Local stand-ins for the Avi SDK that `pulumi package add terraform-provider vmware/avi`
// generates. There is no npm package for it, so each class below registers a resource with the
// same type token the bridged SDK uses (`avi:index/<name>:<Name>`) and the same lowerCamelCase
// inputs, limited to the arguments the examples use. Argument names follow the provider's
// website/docs/r/avi_*.html.markdown in vmware/terraform-provider-avi; nested blocks use the
// bridged (pluralised) names of the provider's Pulumi docs (`vips`, `ipAddresses`, `ips`,
// `failActions`).
//
// The Avi provider types almost every number and boolean as a string ("2", "true"), and so does
// the bridged SDK; the fields below follow it. Refs are strings too: either another object's id
// (its API URL) or a name-based ref such as "/api/applicationprofile/?name=System-HTTP".
//
// Outputs are declared with `declare` rather than `!`: this repository compiles to ES2022, where
// class fields use define semantics and a `name!: ...` field would overwrite, with undefined, the
// output that CustomResource's constructor has just set.
//
// What `import "@pulumi/avi"` resolves to where the real SDK is not installed (the examples, and
// any program: preview/sdkResolution.ts, scripts/realCli/staging.ts). `npm run test:real` compiles every
// example with the real SDK instead (scripts/real-sdk): a name or type the real SDK lacks
// fails there.

import * as pulumi from "@pulumi/pulumi";

/** One `{ key, values }` label of an Avi object's `markers` list (RoleFilterMatchLabel). */
export interface MarkerArgs {
    key: pulumi.Input<string>;
    values?: pulumi.Input<pulumi.Input<string>[]>;
}

export interface Marker {
    key: string;
    values?: string[];
}

/** An Avi IpAddr (`{ addr, type }`, type "V4" or "V6"). */
export interface IpAddrArgs {
    addr: pulumi.Input<string>;
    type: pulumi.Input<string>;
}

export interface IpAddr {
    addr: string;
    type: string;
}

// ---------------------------------------------------------------------------------------------
// avi_serviceenginegroup
// ---------------------------------------------------------------------------------------------

export interface ServiceenginegroupArgs {
    name?: pulumi.Input<string>;
    description?: pulumi.Input<string>;
    cloudRef?: pulumi.Input<string>;
    tenantRef?: pulumi.Input<string>;
    /** HA_MODE_SHARED (elastic N+M), HA_MODE_SHARED_PAIR (active/active) or HA_MODE_LEGACY_ACTIVE_STANDBY. */
    haMode?: pulumi.Input<string>;
    /** PLACEMENT_ALGO_PACKED or PLACEMENT_ALGO_DISTRIBUTED. */
    algo?: pulumi.Input<string>;
    /** vCPUs of each SE VM (string number). */
    vcpusPerSe?: pulumi.Input<string>;
    /** Memory of each SE VM in MB (string number). */
    memoryPerSe?: pulumi.Input<string>;
    /** Disk of each SE VM in GB (string number). */
    diskPerSe?: pulumi.Input<string>;
    /** Maximum number of SEs in the group, 0-1000 (string number). */
    maxSe?: pulumi.Input<string>;
    /** Excess SE capacity kept for HA failover (string number). */
    bufferSe?: pulumi.Input<string>;
    /** Minimum number of active SEs per virtual service, 1-64 (string number). */
    minScaleoutPerVs?: pulumi.Input<string>;
    /** Maximum number of active SEs per virtual service, 1-64 (string number). */
    maxScaleoutPerVs?: pulumi.Input<string>;
    /** Maximum number of virtual services on one SE, 1-1000 (string number). */
    maxVsPerSe?: pulumi.Input<string>;
    /** Dedicate the packet receive/transmit core to dispatching only (string boolean). */
    dedicatedDispatcherCore?: pulumi.Input<string>;
    /** Legacy active/standby: place VSs on both SEs while both run (string boolean; after a failover one SE carries them all). */
    distributeLoadActiveStandby?: pulumi.Input<string>;
    /** Minutes an unused SE VM is kept before it is deleted (string number). */
    seDeprovisionDelay?: pulumi.Input<string>;
    seNamePrefix?: pulumi.Input<string>;
    markers?: pulumi.Input<pulumi.Input<MarkerArgs>[]>;
    uuid?: pulumi.Input<string>;
}

export class Serviceenginegroup extends pulumi.CustomResource {
    public static readonly __pulumiType = "avi:index/serviceenginegroup:Serviceenginegroup";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly description: pulumi.Output<string | undefined>;
    declare public readonly cloudRef: pulumi.Output<string>;
    declare public readonly tenantRef: pulumi.Output<string>;
    declare public readonly haMode: pulumi.Output<string>;
    declare public readonly algo: pulumi.Output<string>;
    declare public readonly vcpusPerSe: pulumi.Output<string>;
    declare public readonly memoryPerSe: pulumi.Output<string>;
    declare public readonly diskPerSe: pulumi.Output<string>;
    declare public readonly maxSe: pulumi.Output<string>;
    declare public readonly bufferSe: pulumi.Output<string>;
    declare public readonly minScaleoutPerVs: pulumi.Output<string>;
    declare public readonly maxScaleoutPerVs: pulumi.Output<string>;
    declare public readonly maxVsPerSe: pulumi.Output<string>;
    declare public readonly dedicatedDispatcherCore: pulumi.Output<string>;
    declare public readonly distributeLoadActiveStandby: pulumi.Output<string>;
    declare public readonly seDeprovisionDelay: pulumi.Output<string>;
    declare public readonly seNamePrefix: pulumi.Output<string>;
    declare public readonly markers: pulumi.Output<Marker[] | undefined>;
    declare public readonly uuid: pulumi.Output<string>;

    constructor(name: string, args: ServiceenginegroupArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            description: args.description,
            cloudRef: args.cloudRef,
            tenantRef: args.tenantRef,
            haMode: args.haMode,
            algo: args.algo,
            vcpusPerSe: args.vcpusPerSe,
            memoryPerSe: args.memoryPerSe,
            diskPerSe: args.diskPerSe,
            maxSe: args.maxSe,
            bufferSe: args.bufferSe,
            minScaleoutPerVs: args.minScaleoutPerVs,
            maxScaleoutPerVs: args.maxScaleoutPerVs,
            maxVsPerSe: args.maxVsPerSe,
            dedicatedDispatcherCore: args.dedicatedDispatcherCore,
            distributeLoadActiveStandby: args.distributeLoadActiveStandby,
            seDeprovisionDelay: args.seDeprovisionDelay,
            seNamePrefix: args.seNamePrefix,
            markers: args.markers,
            uuid: args.uuid,
        };
        super(Serviceenginegroup.__pulumiType, name, resourceInputs, opts);
    }
}

// ---------------------------------------------------------------------------------------------
// avi_healthmonitor
// ---------------------------------------------------------------------------------------------

export interface HealthmonitorArgs {
    name?: pulumi.Input<string>;
    tenantRef?: pulumi.Input<string>;
    /** HEALTH_MONITOR_TCP, HEALTH_MONITOR_HTTP, HEALTH_MONITOR_HTTPS, ... */
    type: pulumi.Input<string>;
    /** Seconds between probes (string number). */
    sendInterval?: pulumi.Input<string>;
    /** Seconds to wait for a valid response (string number). */
    receiveTimeout?: pulumi.Input<string>;
    /** Consecutive successes before a server is marked up (string number). */
    successfulChecks?: pulumi.Input<string>;
    /** Consecutive failures before a server is marked down (string number). */
    failedChecks?: pulumi.Input<string>;
    /** Probe this port instead of the pool member's port (string number). */
    monitorPort?: pulumi.Input<string>;
    markers?: pulumi.Input<pulumi.Input<MarkerArgs>[]>;
    uuid?: pulumi.Input<string>;
}

export class Healthmonitor extends pulumi.CustomResource {
    public static readonly __pulumiType = "avi:index/healthmonitor:Healthmonitor";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly tenantRef: pulumi.Output<string>;
    declare public readonly type: pulumi.Output<string>;
    declare public readonly sendInterval: pulumi.Output<string>;
    declare public readonly receiveTimeout: pulumi.Output<string>;
    declare public readonly successfulChecks: pulumi.Output<string>;
    declare public readonly failedChecks: pulumi.Output<string>;
    declare public readonly monitorPort: pulumi.Output<string | undefined>;
    declare public readonly markers: pulumi.Output<Marker[] | undefined>;
    declare public readonly uuid: pulumi.Output<string>;

    constructor(name: string, args: HealthmonitorArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            tenantRef: args.tenantRef,
            type: args.type,
            sendInterval: args.sendInterval,
            receiveTimeout: args.receiveTimeout,
            successfulChecks: args.successfulChecks,
            failedChecks: args.failedChecks,
            monitorPort: args.monitorPort,
            markers: args.markers,
            uuid: args.uuid,
        };
        super(Healthmonitor.__pulumiType, name, resourceInputs, opts);
    }
}

// ---------------------------------------------------------------------------------------------
// avi_pool
// ---------------------------------------------------------------------------------------------

/** One entry of a pool's `servers` block. */
export interface PoolServerArgs {
    /** The server's address (Terraform `ip { addr, type }`). */
    ips: pulumi.Input<pulumi.Input<IpAddrArgs>[]>;
    /** Server port; the pool's `defaultServerPort` when absent (string number). */
    port?: pulumi.Input<string>;
    hostname?: pulumi.Input<string>;
    /** Relative weight for ratio-based algorithms, 1-20 (string number). */
    ratio?: pulumi.Input<string>;
    /** String boolean. */
    enabled?: pulumi.Input<string>;
}

export interface PoolServer {
    ips: IpAddr[];
    port?: string;
    hostname?: string;
    ratio?: string;
    enabled?: string;
}

/** One entry of a pool's `fail_action` block. */
export interface PoolFailActionArgs {
    /** FAIL_ACTION_CLOSE_CONN, FAIL_ACTION_HTTP_RESPONSE, ... */
    type: pulumi.Input<string>;
}

export interface PoolFailAction {
    type: string;
}

export interface PoolArgs {
    name?: pulumi.Input<string>;
    description?: pulumi.Input<string>;
    cloudRef?: pulumi.Input<string>;
    tenantRef?: pulumi.Input<string>;
    /** LB_ALGORITHM_LEAST_CONNECTIONS, LB_ALGORITHM_ROUND_ROBIN, ... */
    lbAlgorithm?: pulumi.Input<string>;
    /** Port of servers that do not set one (string number). */
    defaultServerPort?: pulumi.Input<string>;
    servers?: pulumi.Input<pulumi.Input<PoolServerArgs>[]>;
    healthMonitorRefs?: pulumi.Input<pulumi.Input<string>[]>;
    failActions?: pulumi.Input<pulumi.Input<PoolFailActionArgs>[]>;
    /** SSL profile for connections to the servers; absent means plain TCP to the back end. */
    sslProfileRef?: pulumi.Input<string>;
    markers?: pulumi.Input<pulumi.Input<MarkerArgs>[]>;
    uuid?: pulumi.Input<string>;
}

export class Pool extends pulumi.CustomResource {
    public static readonly __pulumiType = "avi:index/pool:Pool";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly description: pulumi.Output<string | undefined>;
    declare public readonly cloudRef: pulumi.Output<string>;
    declare public readonly tenantRef: pulumi.Output<string>;
    declare public readonly lbAlgorithm: pulumi.Output<string>;
    declare public readonly defaultServerPort: pulumi.Output<string>;
    declare public readonly servers: pulumi.Output<PoolServer[] | undefined>;
    declare public readonly healthMonitorRefs: pulumi.Output<string[] | undefined>;
    declare public readonly failActions: pulumi.Output<PoolFailAction[] | undefined>;
    declare public readonly sslProfileRef: pulumi.Output<string | undefined>;
    declare public readonly markers: pulumi.Output<Marker[] | undefined>;
    declare public readonly uuid: pulumi.Output<string>;

    constructor(name: string, args: PoolArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            description: args.description,
            cloudRef: args.cloudRef,
            tenantRef: args.tenantRef,
            lbAlgorithm: args.lbAlgorithm,
            defaultServerPort: args.defaultServerPort,
            servers: args.servers,
            healthMonitorRefs: args.healthMonitorRefs,
            failActions: args.failActions,
            sslProfileRef: args.sslProfileRef,
            markers: args.markers,
            uuid: args.uuid,
        };
        super(Pool.__pulumiType, name, resourceInputs, opts);
    }
}

// ---------------------------------------------------------------------------------------------
// avi_vsvip
// ---------------------------------------------------------------------------------------------

/** One entry of a vsvip's `vip` block. */
export interface VsvipVipArgs {
    /** Id of the VIP within the vsvip, "0" for the first (string number). */
    vipId?: pulumi.Input<string>;
    /** The static VIP address (Terraform `ip_address { addr, type }`). */
    ipAddresses?: pulumi.Input<pulumi.Input<IpAddrArgs>[]>;
    /** Let the cloud's IPAM allocate the address instead (string boolean). */
    autoAllocateIp?: pulumi.Input<string>;
}

export interface VsvipVip {
    vipId?: string;
    ipAddresses?: IpAddr[];
    autoAllocateIp?: string;
}

export interface VsvipArgs {
    name?: pulumi.Input<string>;
    cloudRef?: pulumi.Input<string>;
    tenantRef?: pulumi.Input<string>;
    vips?: pulumi.Input<pulumi.Input<VsvipVipArgs>[]>;
    markers?: pulumi.Input<pulumi.Input<MarkerArgs>[]>;
    uuid?: pulumi.Input<string>;
}

export class Vsvip extends pulumi.CustomResource {
    public static readonly __pulumiType = "avi:index/vsvip:Vsvip";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly cloudRef: pulumi.Output<string>;
    declare public readonly tenantRef: pulumi.Output<string>;
    declare public readonly vips: pulumi.Output<VsvipVip[] | undefined>;
    declare public readonly markers: pulumi.Output<Marker[] | undefined>;
    declare public readonly uuid: pulumi.Output<string>;

    constructor(name: string, args: VsvipArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            cloudRef: args.cloudRef,
            tenantRef: args.tenantRef,
            vips: args.vips,
            markers: args.markers,
            uuid: args.uuid,
        };
        super(Vsvip.__pulumiType, name, resourceInputs, opts);
    }
}

// ---------------------------------------------------------------------------------------------
// avi_sslkeyandcertificate
// ---------------------------------------------------------------------------------------------

/** `rsa_params`: keySize SSL_KEY_1024_BITS ... SSL_KEY_4096_BITS (default SSL_KEY_2048_BITS). */
export interface SslkeyandcertificateKeyParamRsaParamArgs {
    keySize?: pulumi.Input<string>;
    exponent?: pulumi.Input<string>;
}

/** `ec_params`: curve SSL_KEY_EC_CURVE_SECP256R1 (the default), SSL_KEY_EC_CURVE_SECP384R1, ... */
export interface SslkeyandcertificateKeyParamEcParamArgs {
    curve?: pulumi.Input<string>;
}

/** `key_params` (a set of one): algorithm SSL_KEY_ALGORITHM_RSA or SSL_KEY_ALGORITHM_EC. */
export interface SslkeyandcertificateKeyParamArgs {
    algorithm: pulumi.Input<string>;
    rsaParams?: pulumi.Input<pulumi.Input<SslkeyandcertificateKeyParamRsaParamArgs>[]>;
    ecParams?: pulumi.Input<pulumi.Input<SslkeyandcertificateKeyParamEcParamArgs>[]>;
}

export interface SslkeyandcertificateKeyParam {
    algorithm: string;
    rsaParams?: Array<{ keySize?: string; exponent?: string }>;
    ecParams?: Array<{ curve?: string }>;
}

/** `certificate` (a set of one, required): the PEM certificate. */
export interface SslkeyandcertificateCertificateArgs {
    certificate?: pulumi.Input<string>;
}

export interface SslkeyandcertificateArgs {
    name?: pulumi.Input<string>;
    tenantRef?: pulumi.Input<string>;
    /** SSL_CERTIFICATE_TYPE_VIRTUALSERVICE, SSL_CERTIFICATE_TYPE_SYSTEM or SSL_CERTIFICATE_TYPE_CA. */
    type?: pulumi.Input<string>;
    certificates: pulumi.Input<pulumi.Input<SslkeyandcertificateCertificateArgs>[]>;
    /** The private key, PEM (a secret). */
    key?: pulumi.Input<string>;
    /** The key's algorithm and size or curve: what perfguard reads for a VS's SSL TPS row. */
    keyParams?: pulumi.Input<pulumi.Input<SslkeyandcertificateKeyParamArgs>[]>;
    markers?: pulumi.Input<pulumi.Input<MarkerArgs>[]>;
    uuid?: pulumi.Input<string>;
}

export class Sslkeyandcertificate extends pulumi.CustomResource {
    public static readonly __pulumiType = "avi:index/sslkeyandcertificate:Sslkeyandcertificate";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly tenantRef: pulumi.Output<string>;
    declare public readonly type: pulumi.Output<string>;
    declare public readonly keyParams: pulumi.Output<SslkeyandcertificateKeyParam[]>;
    declare public readonly markers: pulumi.Output<Marker[] | undefined>;
    declare public readonly uuid: pulumi.Output<string>;

    constructor(name: string, args: SslkeyandcertificateArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            tenantRef: args.tenantRef,
            type: args.type,
            certificates: args.certificates,
            key: args.key === undefined ? undefined : pulumi.secret(args.key),
            keyParams: args.keyParams,
            markers: args.markers,
            uuid: args.uuid,
        };
        super(Sslkeyandcertificate.__pulumiType, name, resourceInputs, opts);
    }
}

// ---------------------------------------------------------------------------------------------
// avi_virtualservice
// ---------------------------------------------------------------------------------------------

/** One entry of a virtual service's `services` block. */
export interface VirtualserviceServiceArgs {
    /** Listening port (string number). */
    port: pulumi.Input<string>;
    /** Last port of a port range, when the service listens on one (string number). */
    portRangeEnd?: pulumi.Input<string>;
    /** Terminate TLS on this port (string boolean). */
    enableSsl?: pulumi.Input<string>;
    /** Accept HTTP/2 on this port (string boolean). */
    enableHttp2?: pulumi.Input<string>;
}

export interface VirtualserviceService {
    port: string;
    portRangeEnd?: string;
    enableSsl?: string;
    enableHttp2?: string;
}

export interface VirtualserviceArgs {
    name?: pulumi.Input<string>;
    description?: pulumi.Input<string>;
    cloudRef?: pulumi.Input<string>;
    /** CLOUD_VCENTER, CLOUD_NSXT, CLOUD_NONE, ... */
    cloudType?: pulumi.Input<string>;
    tenantRef?: pulumi.Input<string>;
    /** The SE group the virtual service is placed on. */
    seGroupRef?: pulumi.Input<string>;
    vsvipRef?: pulumi.Input<string>;
    poolRef?: pulumi.Input<string>;
    poolGroupRef?: pulumi.Input<string>;
    services?: pulumi.Input<pulumi.Input<VirtualserviceServiceArgs>[]>;
    applicationProfileRef?: pulumi.Input<string>;
    networkProfileRef?: pulumi.Input<string>;
    sslProfileRef?: pulumi.Input<string>;
    sslKeyAndCertificateRefs?: pulumi.Input<pulumi.Input<string>[]>;
    /** VS_TYPE_NORMAL, VS_TYPE_VH_PARENT or VS_TYPE_VH_CHILD (SNI). */
    type?: pulumi.Input<string>;
    /** An SNI child's parent virtual service (its ref): the child runs on the parent's SEs. */
    vhParentVsRef?: pulumi.Input<string>;
    /** An SNI child's domain names. */
    vhDomainNames?: pulumi.Input<pulumi.Input<string>[]>;
    /** BGP/ECMP scale-out: the upstream router spreads ingress over the SEs (string boolean). */
    scaleoutEcmp?: pulumi.Input<string>;
    /** String boolean. */
    enabled?: pulumi.Input<string>;
    markers?: pulumi.Input<pulumi.Input<MarkerArgs>[]>;
    uuid?: pulumi.Input<string>;
}

export class Virtualservice extends pulumi.CustomResource {
    public static readonly __pulumiType = "avi:index/virtualservice:Virtualservice";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly description: pulumi.Output<string | undefined>;
    declare public readonly cloudRef: pulumi.Output<string>;
    declare public readonly cloudType: pulumi.Output<string>;
    declare public readonly tenantRef: pulumi.Output<string>;
    declare public readonly seGroupRef: pulumi.Output<string>;
    declare public readonly vsvipRef: pulumi.Output<string | undefined>;
    declare public readonly poolRef: pulumi.Output<string | undefined>;
    declare public readonly poolGroupRef: pulumi.Output<string | undefined>;
    declare public readonly services: pulumi.Output<VirtualserviceService[] | undefined>;
    declare public readonly applicationProfileRef: pulumi.Output<string>;
    declare public readonly networkProfileRef: pulumi.Output<string>;
    declare public readonly sslProfileRef: pulumi.Output<string | undefined>;
    declare public readonly sslKeyAndCertificateRefs: pulumi.Output<string[] | undefined>;
    declare public readonly type: pulumi.Output<string>;
    declare public readonly vhParentVsRef: pulumi.Output<string | undefined>;
    declare public readonly vhDomainNames: pulumi.Output<string[] | undefined>;
    declare public readonly scaleoutEcmp: pulumi.Output<string>;
    declare public readonly enabled: pulumi.Output<string>;
    declare public readonly markers: pulumi.Output<Marker[] | undefined>;
    declare public readonly uuid: pulumi.Output<string>;

    constructor(name: string, args: VirtualserviceArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            description: args.description,
            cloudRef: args.cloudRef,
            cloudType: args.cloudType,
            tenantRef: args.tenantRef,
            seGroupRef: args.seGroupRef,
            vsvipRef: args.vsvipRef,
            poolRef: args.poolRef,
            poolGroupRef: args.poolGroupRef,
            services: args.services,
            applicationProfileRef: args.applicationProfileRef,
            networkProfileRef: args.networkProfileRef,
            sslProfileRef: args.sslProfileRef,
            sslKeyAndCertificateRefs: args.sslKeyAndCertificateRefs,
            type: args.type,
            vhParentVsRef: args.vhParentVsRef,
            vhDomainNames: args.vhDomainNames,
            scaleoutEcmp: args.scaleoutEcmp,
            enabled: args.enabled,
            markers: args.markers,
            uuid: args.uuid,
        };
        super(Virtualservice.__pulumiType, name, resourceInputs, opts);
    }
}
