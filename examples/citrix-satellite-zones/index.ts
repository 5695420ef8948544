// A Citrix Virtual Apps and Desktops Site with one primary zone and three satellite zones.
//
// The primary zone is a translation of citrix/terraform-provider-citrix
// examples/basic_xenserver_mcs_vda (zones.tf, hypervisors.tf, resource_pools.tf,
// machine_catalogs.tf, delivery_groups.tf) to Pulumi. Each satellite zone repeats that shape
// (zone, XenServer connection, resource pool, MCS catalog, delivery group) at a different
// round-trip time to the Site database. Delivery Controllers are plain vSphere VMs, since no
// Citrix resource models them.
//
// perfguard reads "facts" (keys starting with `perfguard:`) from the zones' `metadatas` and the
// controllers' `extraConfig`; see README.md for which zone is meant to trigger which policy.

import * as pulumi from "@pulumi/pulumi";
import * as citrix from "@pulumi/citrix";
import * as vsphere from "@pulumi/vsphere";

/** One entry of a Citrix object's `metadatas` list (the same shape in every Citrix resource). */
type Metadata = { name: string; value: string };

const config = new pulumi.Config();

// Terraform variables of the basic example, as Pulumi config. Defaults let the example run
// (preview, policy checks, mocks) without any config set.
const xenserverUsername = config.get("xenserverUsername") ?? "root";
const xenserverPassword = config.getSecret("xenserverPassword") ?? pulumi.secret("example-password");
const xenserverPasswordFormat = config.get("xenserverPasswordFormat") ?? "PlainText";
const domainFqdn = config.get("domainFqdn") ?? "corp.example.com";
const domainOu = config.get("domainOu") ?? "OU=VDAs,OU=Citrix,DC=corp,DC=example,DC=com";
const domainServiceAccount = config.get("domainServiceAccount") ?? "svc-citrix-mcs";
const domainServiceAccountPassword = config.getSecret("domainServiceAccountPassword") ?? pulumi.secret("example-password");
const masterImageVm = config.get("xenserverMasterImageVm") ?? "win2022-vda-2411-golden";
const allowList = config.getObject<string[]>("allowList") ?? ["CORP\\citrix-users"];

// ---------------------------------------------------------------------------------------------
// perfguard facts
// ---------------------------------------------------------------------------------------------

/** Brokering load and latency of one zone, recorded in the zone's `metadatas`. */
interface ZoneFacts {
    /** RTT in ms between the zone's Delivery Controllers and the Site database. */
    rttMs: number;
    /** Concurrent brokering requests the zone's controllers see at the logon peak. */
    peakConcurrentLaunches: number;
    /** Users launched in the zone's logon storm. */
    users: number;
}

function zoneFactMetadata(facts: ZoneFacts): Metadata[] {
    return [
        // Every brokering transaction is several round trips to the Site database, so the
        // controller-to-database RTT is what decides whether a satellite zone can stay in the
        // Site, and whether its controllers need the concurrent-transaction throttle.
        { name: "perfguard:rttMs", value: String(facts.rttMs) },
        // Peak concurrency times RTT is the load the database connection pool has to absorb.
        { name: "perfguard:peakConcurrentLaunches", value: String(facts.peakConcurrentLaunches) },
        // Size of the logon storm: how long the peak lasts, and so how long launches queue.
        { name: "perfguard:users", value: String(facts.users) },
    ];
}

/**
 * What perfguard needs to know about one Delivery Controller, recorded in its `extraConfig` as
 * `guestinfo.perfguard.<key>` (a vSphere VM's `tags` hold tag ids: docs/facts.md#vsphere).
 */
interface ControllerFacts {
    /** The zone's `name` input (not its id), so the fact is known at preview time. */
    zone: string;
    /**
     * Value of the registry DWORD
     * HKLM\Software\Citrix\DesktopServer\ThrottledRequestAddressMaxConcurrentTransactions
     * on this controller, or undefined when it is not set.
     */
    throttleMaxConcurrentTransactions?: number;
}

function controllerFactConfig(facts: ControllerFacts): Record<string, string> {
    const config: Record<string, string> = {
        // Marks the VM as a Delivery Controller: nothing in the Citrix provider models one.
        "guestinfo.perfguard.citrixRole": "deliveryController",
        // Ties the controller to the zone whose rttMs/peakConcurrentLaunches it has to serve.
        "guestinfo.perfguard.citrixZone": facts.zone,
    };
    if (facts.throttleMaxConcurrentTransactions !== undefined) {
        // The throttle is set in the guest (GPO or image), not by any resource argument, so it
        // is declared here; its absence on a high-latency controller is what perfguard flags.
        config["guestinfo.perfguard.throttleMaxConcurrentTransactions"] = String(facts.throttleMaxConcurrentTransactions);
    }
    return config;
}

// ---------------------------------------------------------------------------------------------
// Primary zone: the basic_xenserver_mcs_vda example
// ---------------------------------------------------------------------------------------------

// zones.tf: citrix_zone.example-zone
const primaryZone = new citrix.Zone("primary-zone", {
    name: "primary",
    description: "Primary zone, co-located with the Site database",
    metadatas: [{ name: "owner", value: "euc-platform" }, ...zoneFactMetadata({ rttMs: 2, peakConcurrentLaunches: 60, users: 20000 })],
});

// hypervisors.tf: citrix_xenserver_hypervisor.example-xenserver-hypervisor
const primaryHypervisor = new citrix.XenserverHypervisor("primary-xenserver-hypervisor", {
    name: "primary-xenserver",
    zone: primaryZone.id,
    username: xenserverUsername,
    password: xenserverPassword,
    passwordFormat: xenserverPasswordFormat,
    addresses: ["https://xenpool-primary.corp.example.com"],
});

// resource_pools.tf: citrix_xenserver_hypervisor_resource_pool.example-xenserver-rp
const primaryResourcePool = new citrix.XenserverHypervisorResourcePool("primary-xenserver-rp", {
    name: "primary-xenserver-rp",
    hypervisor: primaryHypervisor.id,
    networks: ["VDA-Network"],
    storages: [{ storageName: "primary-sr-nfs01" }],
    temporaryStorages: [{ storageName: "primary-sr-nfs01" }],
    useLocalStorageCaching: false,
});

// machine_catalogs.tf: citrix_machine_catalog.example-catalog. The Terraform example leaves
// `zone` as a "<zone Id>" placeholder; here it references the zone above.
const primaryMachineCount = 700;
const primaryCatalog = new citrix.MachineCatalog("primary-catalog", {
    name: "primary-xen-catalog",
    description: "Multi-session Windows Server 2022 VDAs in the primary zone",
    provisioningType: "MCS",
    allocationType: "Random",
    sessionSupport: "MultiSession",
    zone: primaryZone.id,
    provisioningScheme: {
        hypervisor: primaryHypervisor.id,
        hypervisorResourcePool: primaryResourcePool.id,
        identityType: "ActiveDirectory",
        machineDomainIdentity: {
            domain: domainFqdn,
            domainOu: domainOu,
            serviceAccount: domainServiceAccount,
            serviceAccountPassword: domainServiceAccountPassword,
        },
        xenserverMachineConfig: {
            masterImageVm: masterImageVm,
            cpuCount: 8,
            memoryMb: 32768,
        },
        numberOfTotalMachines: primaryMachineCount,
        machineAccountCreationRules: {
            namingScheme: "ctx-pri-####",
            namingSchemeType: "Numeric",
        },
    },
});

// delivery_groups.tf: citrix_delivery_group.example-delivery-group
const primaryDeliveryGroup = new citrix.DeliveryGroup("primary-delivery-group", {
    name: "primary-desktops",
    associatedMachineCatalogs: [{ machineCatalog: primaryCatalog.id, machineCount: primaryMachineCount }],
    desktops: [
        {
            publishedName: "Corporate Desktop",
            description: "Shared Windows Server 2022 desktop",
            restrictedAccessUsers: { allowLists: allowList },
            enabled: true,
            enableSessionRoaming: false,
        },
    ],
    autoscaleSettings: {
        autoscaleEnabled: true,
        powerTimeSchemes: [
            {
                daysOfWeeks: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
                displayName: "weekdays schedule",
                peakTimeRanges: ["07:00-18:00"],
                poolSizeSchedules: [{ timeRange: "00:00-00:00", poolSize: 10 }],
                poolUsingPercentage: true,
            },
        ],
    },
    restrictedAccessUsers: { allowLists: allowList },
});

// ---------------------------------------------------------------------------------------------
// Satellite zones: same shape, farther from the Site database
// ---------------------------------------------------------------------------------------------

interface SatelliteZoneSpec {
    /** Zone name input; also the prefix of every Pulumi resource name in the zone. */
    name: string;
    description: string;
    facts: ZoneFacts;
    xenserverAddress: string;
    storageName: string;
    machineCount: number;
    namingScheme: string;
}

const satelliteSpecs: SatelliteZoneSpec[] = [
    {
        name: "apac",
        description: "Satellite zone, Singapore",
        facts: { rttMs: 45, peakConcurrentLaunches: 30, users: 4000 },
        xenserverAddress: "https://xenpool-apac.corp.example.com",
        storageName: "apac-sr-iscsi01",
        machineCount: 150,
        namingScheme: "ctx-apc-###",
    },
    {
        name: "emea-east",
        description: "Satellite zone, Warsaw",
        facts: { rttMs: 160, peakConcurrentLaunches: 40, users: 6000 },
        xenserverAddress: "https://xenpool-emea-east.corp.example.com",
        storageName: "emea-east-sr-nfs01",
        machineCount: 220,
        namingScheme: "ctx-eme-###",
    },
    {
        name: "latam",
        description: "Satellite zone, Sao Paulo",
        facts: { rttMs: 260, peakConcurrentLaunches: 20, users: 1500 },
        xenserverAddress: "https://xenpool-latam.corp.example.com",
        storageName: "latam-sr-local",
        machineCount: 60,
        namingScheme: "ctx-lat-###",
    },
];

interface SatelliteZone {
    zone: citrix.Zone;
    hypervisor: citrix.XenserverHypervisor;
    resourcePool: citrix.XenserverHypervisorResourcePool;
    catalog: citrix.MachineCatalog;
    deliveryGroup: citrix.DeliveryGroup;
}

function satelliteZone(spec: SatelliteZoneSpec): SatelliteZone {
    const zone = new citrix.Zone(`${spec.name}-zone`, {
        name: spec.name,
        description: spec.description,
        metadatas: [{ name: "owner", value: "euc-platform" }, ...zoneFactMetadata(spec.facts)],
    });
    // A hosting connection lives in the zone whose controllers manage it.
    const hypervisor = new citrix.XenserverHypervisor(`${spec.name}-xenserver-hypervisor`, {
        name: `${spec.name}-xenserver`,
        zone: zone.id,
        username: xenserverUsername,
        password: xenserverPassword,
        passwordFormat: xenserverPasswordFormat,
        addresses: [spec.xenserverAddress],
    });
    const resourcePool = new citrix.XenserverHypervisorResourcePool(`${spec.name}-xenserver-rp`, {
        name: `${spec.name}-xenserver-rp`,
        hypervisor: hypervisor.id,
        networks: ["VDA-Network"],
        storages: [{ storageName: spec.storageName }],
        temporaryStorages: [{ storageName: spec.storageName }],
        useLocalStorageCaching: false,
    });
    // The catalog is in the satellite zone, so its VDAs register with that zone's controllers.
    const catalog = new citrix.MachineCatalog(`${spec.name}-catalog`, {
        name: `${spec.name}-xen-catalog`,
        description: `Multi-session VDAs in ${spec.name}`,
        provisioningType: "MCS",
        allocationType: "Random",
        sessionSupport: "MultiSession",
        zone: zone.id,
        provisioningScheme: {
            hypervisor: hypervisor.id,
            hypervisorResourcePool: resourcePool.id,
            identityType: "ActiveDirectory",
            machineDomainIdentity: {
                domain: domainFqdn,
                domainOu: domainOu,
                serviceAccount: domainServiceAccount,
                serviceAccountPassword: domainServiceAccountPassword,
            },
            xenserverMachineConfig: {
                masterImageVm: masterImageVm,
                cpuCount: 8,
                memoryMb: 32768,
            },
            numberOfTotalMachines: spec.machineCount,
            machineAccountCreationRules: {
                namingScheme: spec.namingScheme,
                namingSchemeType: "Numeric",
            },
        },
    });
    const deliveryGroup = new citrix.DeliveryGroup(`${spec.name}-delivery-group`, {
        name: `${spec.name}-desktops`,
        associatedMachineCatalogs: [{ machineCatalog: catalog.id, machineCount: spec.machineCount }],
        desktops: [
            {
                publishedName: `Corporate Desktop (${spec.name})`,
                restrictedAccessUsers: { allowLists: allowList },
                enabled: true,
                enableSessionRoaming: false,
            },
        ],
        restrictedAccessUsers: { allowLists: allowList },
    });
    return { zone, hypervisor, resourcePool, catalog, deliveryGroup };
}

const satellites = satelliteSpecs.map(satelliteZone);

// ---------------------------------------------------------------------------------------------
// Delivery Controllers (vSphere VMs)
// ---------------------------------------------------------------------------------------------

/** Where each zone's infrastructure VMs run (vSphere managed object ids of each datacenter). */
const vsphereSites: Record<string, { resourcePoolId: string; datastoreId: string; networkId: string }> = {
    primary: { resourcePoolId: "resgroup-1001", datastoreId: "datastore-1101", networkId: "network-1201" },
    apac: { resourcePoolId: "resgroup-2001", datastoreId: "datastore-2101", networkId: "network-2201" },
    "emea-east": { resourcePoolId: "resgroup-3001", datastoreId: "datastore-3101", networkId: "network-3201" },
    latam: { resourcePoolId: "resgroup-4001", datastoreId: "datastore-4101", networkId: "network-4201" },
};

interface ControllerSpec {
    name: string;
    numCpus: number;
    memoryMb: number;
    facts: ControllerFacts;
}

const controllerSpecs: ControllerSpec[] = [
    // Primary zone: 2 ms from the database, no throttle needed.
    { name: "ddc-primary-01", numCpus: 8, memoryMb: 16384, facts: { zone: "primary" } },
    { name: "ddc-primary-02", numCpus: 8, memoryMb: 16384, facts: { zone: "primary" } },
    // emea-east, 160 ms: the first controller has the throttle, the second was built without it.
    {
        name: "ddc-emea-east-01",
        numCpus: 4,
        memoryMb: 8192,
        facts: { zone: "emea-east", throttleMaxConcurrentTransactions: 12 },
    },
    { name: "ddc-emea-east-02", numCpus: 4, memoryMb: 8192, facts: { zone: "emea-east" } },
    // apac, 45 ms: below the latency at which the throttle is required.
    { name: "ddc-apac-01", numCpus: 4, memoryMb: 8192, facts: { zone: "apac" } },
    // latam, 260 ms: throttled, but too far from the database to stay in this Site at all.
    {
        name: "ddc-latam-01",
        numCpus: 4,
        memoryMb: 8192,
        facts: { zone: "latam", throttleMaxConcurrentTransactions: 8 },
    },
];

const controllers = controllerSpecs.map((spec) => {
    const site = vsphereSites[spec.facts.zone];
    if (site === undefined) {
        throw new Error(`no vSphere placement for zone ${spec.facts.zone}`);
    }
    return new vsphere.VirtualMachine(spec.name, {
        name: spec.name,
        resourcePoolId: site.resourcePoolId,
        datastoreId: site.datastoreId,
        numCpus: spec.numCpus,
        memory: spec.memoryMb,
        guestId: "windows2019srvNext_64Guest",
        networkInterfaces: [{ networkId: site.networkId, adapterType: "vmxnet3" }],
        disks: [{ label: "disk0", size: 100, thinProvisioned: true }],
        extraConfig: controllerFactConfig(spec.facts),
    });
});

// ---------------------------------------------------------------------------------------------
// Outputs
// ---------------------------------------------------------------------------------------------

export const zoneIds = {
    primary: primaryZone.id,
    ...Object.fromEntries(satellites.map((s, i) => [satelliteSpecs[i].name, s.zone.id])),
};
export const machineCatalogIds = [primaryCatalog.id, ...satellites.map((s) => s.catalog.id)];
export const deliveryGroupIds = [primaryDeliveryGroup.id, ...satellites.map((s) => s.deliveryGroup.id)];
export const deliveryControllers = controllers.map((c) => c.name);
