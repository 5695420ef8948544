// A Citrix Virtual Apps and Desktops Site whose satellite zones carry several Delivery Groups:
// brokering serializes on one lock per Delivery Group, so what a zone sustains depends on how
// its demand splits over its groups' locks.
//
// - nordics (160 ms): four department Delivery Groups, four locks; the zone's peak splits over
//   them and each lock passes.
// - shared-apps: one Delivery Group whose catalogs sit in emea-east and nordics (both 160 ms):
//   one lock brokered from two zones.
// - The three satellite zones' throttles together allow more against the one Site database than the
//   source ever measured.
//
// Same resource shapes as examples/citrix-satellite-zones (a translation of
// citrix/terraform-provider-citrix examples/basic_xenserver_mcs_vda); Delivery Controllers are
// plain vSphere VMs, since no Citrix resource models them. See README.md.

import * as pulumi from "@pulumi/pulumi";
import * as citrix from "@pulumi/citrix";
import * as vsphere from "@pulumi/vsphere";

/** One entry of a Citrix object's `metadatas` list (the same shape in every Citrix resource). */
type Metadata = { name: string; value: string };

const config = new pulumi.Config();

// Terraform variables of the basic example, as Pulumi config, with defaults so the example runs
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
        { name: "perfguard:rttMs", value: String(facts.rttMs) },
        { name: "perfguard:peakConcurrentLaunches", value: String(facts.peakConcurrentLaunches) },
        { name: "perfguard:users", value: String(facts.users) },
    ];
}

// ---------------------------------------------------------------------------------------------
// Zones, hosting connections, catalogs
// ---------------------------------------------------------------------------------------------

interface ZoneParts {
    zone: citrix.Zone;
    hypervisor: citrix.XenserverHypervisor;
    resourcePool: citrix.XenserverHypervisorResourcePool;
}

function zoneWithHosting(name: string, description: string, facts: ZoneFacts): ZoneParts {
    const zone = new citrix.Zone(`${name}-zone`, {
        name,
        description,
        metadatas: [{ name: "owner", value: "euc-platform" }, ...zoneFactMetadata(facts)],
    });
    // A hosting connection lives in the zone whose controllers manage it.
    const hypervisor = new citrix.XenserverHypervisor(`${name}-xenserver-hypervisor`, {
        name: `${name}-xenserver`,
        zone: zone.id,
        username: xenserverUsername,
        password: xenserverPassword,
        passwordFormat: xenserverPasswordFormat,
        addresses: [`https://xenpool-${name}.corp.example.com`],
    });
    const resourcePool = new citrix.XenserverHypervisorResourcePool(`${name}-xenserver-rp`, {
        name: `${name}-xenserver-rp`,
        hypervisor: hypervisor.id,
        networks: ["VDA-Network"],
        storages: [{ storageName: `${name}-sr-nfs01` }],
        temporaryStorages: [{ storageName: `${name}-sr-nfs01` }],
        useLocalStorageCaching: false,
    });
    return { zone, hypervisor, resourcePool };
}

/** An MCS catalog in one zone: its VDAs register with that zone's Delivery Controllers. */
function mcsCatalog(name: string, parts: ZoneParts, machines: number, namingScheme: string): citrix.MachineCatalog {
    return new citrix.MachineCatalog(name, {
        name,
        description: `Multi-session VDAs (${name})`,
        provisioningType: "MCS",
        allocationType: "Random",
        sessionSupport: "MultiSession",
        zone: parts.zone.id,
        provisioningScheme: {
            hypervisor: parts.hypervisor.id,
            hypervisorResourcePool: parts.resourcePool.id,
            identityType: "ActiveDirectory",
            machineDomainIdentity: {
                domain: domainFqdn,
                domainOu: domainOu,
                serviceAccount: domainServiceAccount,
                serviceAccountPassword: domainServiceAccountPassword,
            },
            xenserverMachineConfig: { masterImageVm: masterImageVm, cpuCount: 8, memoryMb: 32768 },
            numberOfTotalMachines: machines,
            machineAccountCreationRules: { namingScheme, namingSchemeType: "Numeric" },
        },
    });
}

function deliveryGroup(
    name: string,
    published: string,
    catalogs: Array<{ catalog: citrix.MachineCatalog; machines: number }>,
    metadatas?: Metadata[],
): citrix.DeliveryGroup {
    return new citrix.DeliveryGroup(`${name}-group`, {
        name,
        associatedMachineCatalogs: catalogs.map((c) => ({ machineCatalog: c.catalog.id, machineCount: c.machines })),
        desktops: [{ publishedName: published, restrictedAccessUsers: { allowLists: allowList }, enabled: true }],
        restrictedAccessUsers: { allowLists: allowList },
        ...(metadatas ? { metadatas } : {}),
    });
}

// The primary zone, next to the Site database: the baseline, no finding.
const primary = zoneWithHosting("primary", "Primary zone, co-located with the Site database", { rttMs: 2, peakConcurrentLaunches: 60, users: 20000 });
const primaryCatalog = mcsCatalog("primary-catalog", primary, 700, "ctx-pri-####");
const primaryGroup = deliveryGroup("primary-desktops", "Corporate Desktop", [{ catalog: primaryCatalog, machines: 700 }]);

// emea-east, 160 ms: its own desktops group, and half of shared-apps.
const emeaEast = zoneWithHosting("emea-east", "Satellite zone, Warsaw", { rttMs: 160, peakConcurrentLaunches: 16, users: 3000 });
const emeaEastCatalog = mcsCatalog("emea-east-catalog", emeaEast, 120, "ctx-eme-###");
const emeaEastGroup = deliveryGroup("emea-east-desktops", "Corporate Desktop (emea-east)", [{ catalog: emeaEastCatalog, machines: 120 }]);

// nordics, 160 ms, shared by four departments: each Delivery Group is its own brokering lock,
// so the zone's peak of 24 splits over four locks (6 each, by their machines) and passes.
// Several groups at once on one Site database is "not measured" (--explain says so).
const nordics = zoneWithHosting("nordics", "Satellite zone, Stockholm", { rttMs: 160, peakConcurrentLaunches: 24, users: 8000 });
const nordicsDepartments = ["finance", "hr", "sales", "engineering"];
const nordicsGroups = nordicsDepartments.map((department, i) => {
    const catalog = mcsCatalog(`nordics-${department}-catalog`, nordics, 50, `ctx-nd${i}-###`);
    return deliveryGroup(`nordics-${department}`, `Desktop (${department})`, [{ catalog, machines: 50 }]);
});

// baltics, 120 ms: one Delivery Group, throttled within what its lock sustains; it adds its 16 to
// what the satellite zones together allow against the one Site database.
const baltics = zoneWithHosting("baltics", "Satellite zone, Riga", { rttMs: 120, peakConcurrentLaunches: 16, users: 2500 });
const balticsCatalog = mcsCatalog("baltics-catalog", baltics, 80, "ctx-bal-###");
const balticsGroup = deliveryGroup("baltics-desktops", "Corporate Desktop (baltics)", [{ catalog: balticsCatalog, machines: 80 }]);

// One Delivery Group whose catalogs sit in both 160 ms zones: one lock, brokered by both zones'
// controllers. Its own peak of 48 splits 24 / 24 by machines; the zones' throttles cap what
// reaches the lock, still above what one lock sustains at 160 ms.
const sharedEmeaCatalog = mcsCatalog("shared-apps-emea-east-catalog", emeaEast, 40, "ctx-sae-###");
const sharedNordicsCatalog = mcsCatalog("shared-apps-nordics-catalog", nordics, 40, "ctx-san-###");
const sharedAppsGroup = deliveryGroup(
    "shared-apps",
    "Shared apps",
    [
        { catalog: sharedEmeaCatalog, machines: 40 },
        { catalog: sharedNordicsCatalog, machines: 40 },
    ],
    [
        { name: "perfguard:peakConcurrentLaunches", value: "48" },
        { name: "perfguard:users", value: "3000" },
    ],
);

// ---------------------------------------------------------------------------------------------
// Delivery Controllers (vSphere VMs); facts in extraConfig as guestinfo.perfguard.<key>
// ---------------------------------------------------------------------------------------------

/** Where each zone's infrastructure VMs run (vSphere managed object ids of each datacenter). */
const vsphereSites: Record<string, { resourcePoolId: string; datastoreId: string; networkId: string }> = {
    primary: { resourcePoolId: "resgroup-1001", datastoreId: "datastore-1101", networkId: "network-1201" },
    "emea-east": { resourcePoolId: "resgroup-3001", datastoreId: "datastore-3101", networkId: "network-3201" },
    nordics: { resourcePoolId: "resgroup-5001", datastoreId: "datastore-5101", networkId: "network-5201" },
    baltics: { resourcePoolId: "resgroup-6001", datastoreId: "datastore-6101", networkId: "network-6201" },
};

interface ControllerSpec {
    name: string;
    /** The zone's `name` input (not its id), so the fact is known at preview time. */
    zone: string;
    /** HKLM\Software\Citrix\DesktopServer\ThrottledRequestAddressMaxConcurrentTransactions, if set. */
    throttle?: number;
}

const controllerSpecs: ControllerSpec[] = [
    // Primary zone: 2 ms from the database, no throttle needed.
    { name: "ddc-primary-01", zone: "primary" },
    { name: "ddc-primary-02", zone: "primary" },
    // The satellites: every controller throttled (the throttle policy passes), but together
    // they allow more than was ever measured against one Site database.
    { name: "ddc-emea-east-01", zone: "emea-east", throttle: 12 },
    { name: "ddc-emea-east-02", zone: "emea-east", throttle: 12 },
    { name: "ddc-nordics-01", zone: "nordics", throttle: 12 },
    { name: "ddc-nordics-02", zone: "nordics", throttle: 12 },
    { name: "ddc-baltics-01", zone: "baltics", throttle: 8 },
    { name: "ddc-baltics-02", zone: "baltics", throttle: 8 },
];

const controllers = controllerSpecs.map((spec) => {
    const site = vsphereSites[spec.zone];
    if (site === undefined) {
        throw new Error(`no vSphere placement for zone ${spec.zone}`);
    }
    const extraConfig: Record<string, string> = {
        // Marks the VM as a Delivery Controller: nothing in the Citrix provider models one.
        "guestinfo.perfguard.citrixRole": "deliveryController",
        "guestinfo.perfguard.citrixZone": spec.zone,
    };
    if (spec.throttle !== undefined) {
        // Set in the guest (GPO or image), not by any resource argument, so it is declared here.
        extraConfig["guestinfo.perfguard.throttleMaxConcurrentTransactions"] = String(spec.throttle);
    }
    return new vsphere.VirtualMachine(spec.name, {
        name: spec.name,
        resourcePoolId: site.resourcePoolId,
        datastoreId: site.datastoreId,
        numCpus: 4,
        memory: 8192,
        guestId: "windows2019srvNext_64Guest",
        networkInterfaces: [{ networkId: site.networkId, adapterType: "vmxnet3" }],
        disks: [{ label: "disk0", size: 100, thinProvisioned: true }],
        extraConfig,
    });
});

// ---------------------------------------------------------------------------------------------
// Outputs
// ---------------------------------------------------------------------------------------------

export const zoneIds = { primary: primary.zone.id, emeaEast: emeaEast.zone.id, nordics: nordics.zone.id, baltics: baltics.zone.id };
export const deliveryGroupIds = [primaryGroup.id, emeaEastGroup.id, ...nordicsGroups.map((g) => g.id), balticsGroup.id, sharedAppsGroup.id];
export const deliveryControllers = controllers.map((c) => c.name);
