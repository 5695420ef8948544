// A two-host XCP-ng homelab managed through Xen Orchestra, with perfguard facts about each
// guest's network needs and a backup service that runs in dom0 of the second host.
//
// The VM shape follows the Xen Orchestra Pulumi provider's tutorial (vatesfr/pulumi-xenorchestra
// docs/_index.md: nameLabel, cpus, memoryMax, template, cloudConfig, disks with srId, networks
// with networkId, tags) and the usual homelab Terraform layouts for the same provider (a pool,
// a cloud-init Ubuntu template, a fast and a bulk storage repository, a pool-wide network plus a
// services VLAN). See README.md for what each host is meant to trigger.

import * as pulumi from "@pulumi/pulumi";
import * as xoa from "@vates/pulumi-xenorchestra";
import { Dom0Service } from "./dom0";

const config = new pulumi.Config();

// ---------------------------------------------------------------------------------------------
// Pool objects
// ---------------------------------------------------------------------------------------------

// Plain ids, as in the provider tutorial's TypeScript example, rather than getXoaPool /
// getXoaTemplate / getXoaStorageRepository look-ups: under the preview mocks (preview/ and
// pulumi.runtime.setMocks) an invoke returns its own inputs, so a look-up's `id` would be
// undefined there. Override them with stack config for a real pool.
const poolId = config.get("poolId") ?? "3f0b9c4e-6d2a-4e7b-8c15-9a4d2e7f1b60";
const templateId = config.get("templateId") ?? "b7e2c1d4-5f3a-4b8e-9d07-1c6a2f4e8b39"; // "[cloud-init] Ubuntu Noble 24.04"
const lanNetworkId = config.get("lanNetworkId") ?? "d41c7e2a-9b5f-4c3d-8e16-0a7b2f9c4e85"; // "Pool-wide network associated with eth0"
const nvmeSrId = config.get("nvmeSrId") ?? "6a9e2d17-3c4b-4f8a-b25e-7d1c0e3f9a42"; // "NVMe SSD"
const sataSrId = config.get("sataSrId") ?? "e85f3b20-1d7c-4a9e-86b3-5c2a4d0f7e18"; // "SATA HDD (bulk)"

/** The two XCP-ng hosts, by UUID: what a VM's affinityHost takes and policy-config.json keys on. */
const hosts = {
    "xcp-ng-01": config.get("host01") ?? "8c3f7d52-4b1e-4a8c-9d6e-2f1a7b3c5d01",
    "xcp-ng-02": config.get("host02") ?? "8c3f7d52-4b1e-4a8c-9d6e-2f1a7b3c5d02",
};

// A VLAN for the services the household reaches (media, file shares), on the hosts' eth1.
const servicesVlan = new xoa.XoaNetwork("services-vlan", {
    nameLabel: "services (VLAN 20)",
    nameDescription: "Media and file services",
    poolId,
    sourcePifDevice: "eth1",
    vlan: 20,
    mtu: 1500,
});

// ---------------------------------------------------------------------------------------------
// Guests
// ---------------------------------------------------------------------------------------------

const GiB = 1024 ** 3;

/** perfguard facts about one guest, recorded in its `tags`. */
interface GuestFacts {
    /** Transmit bandwidth the guest needs at its peak, MB/s. */
    networkMBps?: number;
    /**
     * The guest's VIF rate limit, MB/s (set on the VIF with qos_algorithm_params:kbps; it caps what the
     * guest transmits only). The kbps unit is not verified: the XenServer guides say kilobytes per second.
     */
    vifCapMBps?: number;
    /** Declares the host when affinityHost is not set (for example a guest HA may restart elsewhere). */
    xenHost?: string;
}

function factTags(facts: GuestFacts): string[] {
    const tags: string[] = [];
    if (facts.networkMBps !== undefined) {
        // What the guest must be able to send; perfguard checks it against its predicted share.
        tags.push(`perfguard:networkMBps=${facts.networkMBps}`);
    }
    if (facts.vifCapMBps !== undefined) {
        // The provider has no VIF QoS argument: the limit is set in XO and declared here.
        tags.push(`perfguard:vifCapMBps=${facts.vifCapMBps}`);
    }
    if (facts.xenHost !== undefined) {
        tags.push(`perfguard:xenHost=${facts.xenHost}`);
    }
    return tags;
}

interface GuestSpec {
    name: string;
    description: string;
    cpus: number;
    memoryGiB: number;
    diskGiB: number;
    srId: string;
    /** Preferred host; absent for guests whose host is declared by fact. */
    affinityHost?: string;
    onServicesVlan: boolean;
    facts: GuestFacts;
    tags: string[];
}

const cloudConfig = `#cloud-config
hostname: {name}
package_update: true
packages:
  - xe-guest-utilities
`;

function guest(spec: GuestSpec): xoa.Vm {
    const networks: xoa.types.input.VmNetwork[] = [{ networkId: lanNetworkId }];
    if (spec.onServicesVlan) {
        // The VLAN's id is unknown until it exists: the engine joins through property dependencies.
        networks.push({ networkId: servicesVlan.id });
    }
    return new xoa.Vm(spec.name, {
        nameLabel: spec.name,
        nameDescription: spec.description,
        cpus: spec.cpus,
        memoryMax: spec.memoryGiB * GiB,
        template: templateId,
        cloudConfig: cloudConfig.replace("{name}", spec.name),
        disks: [{ nameLabel: `${spec.name}-root`, size: spec.diskGiB * GiB, srId: spec.srId }],
        networks,
        affinityHost: spec.affinityHost,
        autoPoweron: true,
        powerState: "Running",
        tags: [...spec.tags, ...factTags(spec.facts)],
    });
}

const guests: GuestSpec[] = [
    // xcp-ng-01: light household services. 2 + 1 + 30 MB/s declared, gitea capped at 20 MB/s:
    // well inside a 1 GbE link (~111 MB/s).
    {
        name: "home-assistant",
        description: "Home automation",
        cpus: 2,
        memoryGiB: 4,
        diskGiB: 32,
        srId: nvmeSrId,
        affinityHost: hosts["xcp-ng-01"],
        onServicesVlan: false,
        facts: { networkMBps: 2 },
        tags: ["pulumi", "home"],
    },
    {
        name: "pihole",
        description: "DNS filtering",
        cpus: 1,
        memoryGiB: 1,
        diskGiB: 8,
        srId: nvmeSrId,
        affinityHost: hosts["xcp-ng-01"],
        onServicesVlan: false,
        facts: { networkMBps: 1, vifCapMBps: 5 },
        tags: ["pulumi", "dns"],
    },
    {
        name: "nextcloud",
        description: "Files and calendars",
        cpus: 4,
        memoryGiB: 8,
        diskGiB: 64,
        srId: nvmeSrId,
        affinityHost: hosts["xcp-ng-01"],
        onServicesVlan: true,
        facts: { networkMBps: 30 },
        tags: ["pulumi", "files"],
    },
    {
        name: "gitea",
        description: "Git forge and CI artefacts",
        cpus: 2,
        memoryGiB: 4,
        diskGiB: 64,
        srId: nvmeSrId,
        affinityHost: hosts["xcp-ng-01"],
        onServicesVlan: false,
        // No declared need, but a VIF rate limit: it can burst to 20 MB/s and no further.
        facts: { vifCapMBps: 20 },
        tags: ["pulumi", "dev"],
    },
    // xcp-ng-02: media and storage. 40 + 45 + 30 = 115 MB/s needed, more than the link alone.
    {
        name: "jellyfin",
        description: "Media streaming",
        cpus: 4,
        memoryGiB: 8,
        diskGiB: 32,
        srId: nvmeSrId,
        affinityHost: hosts["xcp-ng-02"],
        onServicesVlan: true,
        facts: { networkMBps: 40 },
        tags: ["pulumi", "media"],
    },
    {
        name: "samba-nas",
        description: "SMB shares for the household",
        cpus: 2,
        memoryGiB: 4,
        diskGiB: 500,
        srId: sataSrId,
        affinityHost: hosts["xcp-ng-02"],
        onServicesVlan: true,
        facts: { networkMBps: 45 },
        tags: ["pulumi", "storage"],
    },
    {
        name: "downloads",
        description: "Download and seeding box",
        cpus: 2,
        memoryGiB: 2,
        diskGiB: 250,
        // No affinityHost: HA may restart it on either host, so its current host is declared by fact.
        srId: sataSrId,
        onServicesVlan: true,
        facts: { networkMBps: 30, xenHost: hosts["xcp-ng-02"] },
        tags: ["pulumi", "media"],
    },
];

const vms = guests.map(guest);

// ---------------------------------------------------------------------------------------------
// dom0 services
// ---------------------------------------------------------------------------------------------

// A monitoring agent in dom0 of xcp-ng-01: a management tool, which the source allows in dom0.
const monitoringAgent = new Dom0Service("netdata-dom0", {
    host: hosts["xcp-ng-01"],
    role: "management",
    networkMBps: 1,
    extraTags: ["owner:homelab"],
});

// The nightly off-site backup runs in dom0 of xcp-ng-02 (it reads the VM disks from the SR
// there) and pushes up to 60 MB/s: a workload, which takes dom0's >= 50% of the link from the
// media and storage guests while it runs.
const offsiteBackup = new Dom0Service("offsite-backup", {
    host: hosts["xcp-ng-02"],
    role: "backup",
    networkMBps: 60,
    extraTags: ["owner:homelab", "schedule:nightly"],
});

// ---------------------------------------------------------------------------------------------
// Outputs
// ---------------------------------------------------------------------------------------------

export const vmIds = vms.map((vm) => vm.id);
export const servicesVlanId = servicesVlan.id;
export const dom0Services = [monitoringAgent.urn, offsiteBackup.urn];
