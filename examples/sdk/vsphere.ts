// Local stand-in for the bridged vSphere provider's virtual machine (@pulumi/vsphere is not a
// dependency of this repository). Same type token and lowerCamelCase inputs as
// `vsphere.VirtualMachine`, limited to what the examples' Delivery Controllers need.
//
// Outputs use `declare` (not `!`) so that ES2022 class-field semantics do not reset them.
//
// What `import "@pulumi/vsphere"` resolves to where the real SDK is not installed (the examples, and
// any program: preview/sdkResolution.ts, scripts/realCli/staging.ts). `npm run test:real` compiles every
// example with the real SDK instead (scripts/real-sdk): a name or type the real SDK lacks
// fails there.

import * as pulumi from "@pulumi/pulumi";

export interface VirtualMachineNetworkInterfaceArgs {
    networkId: pulumi.Input<string>;
    adapterType?: pulumi.Input<string>;
}

export interface VirtualMachineDiskArgs {
    label: pulumi.Input<string>;
    /** Size in GB. */
    size: pulumi.Input<number>;
    thinProvisioned?: pulumi.Input<boolean>;
}

export interface VirtualMachineArgs {
    name?: pulumi.Input<string>;
    resourcePoolId: pulumi.Input<string>;
    datastoreId?: pulumi.Input<string>;
    numCpus?: pulumi.Input<number>;
    /** Memory in MB. */
    memory?: pulumi.Input<number>;
    guestId?: pulumi.Input<string>;
    networkInterfaces?: pulumi.Input<pulumi.Input<VirtualMachineNetworkInterfaceArgs>[]>;
    disks?: pulumi.Input<pulumi.Input<VirtualMachineDiskArgs>[]>;
    /** The ids of vsphere.Tag objects (not free text). */
    tags?: pulumi.Input<pulumi.Input<string>[]>;
    /** VM advanced settings; `guestinfo.*` keys pass data to the guest. */
    extraConfig?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

export class VirtualMachine extends pulumi.CustomResource {
    public static readonly __pulumiType = "vsphere:index/virtualMachine:VirtualMachine";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly resourcePoolId: pulumi.Output<string>;
    declare public readonly datastoreId: pulumi.Output<string>;
    declare public readonly numCpus: pulumi.Output<number | undefined>;
    declare public readonly memory: pulumi.Output<number | undefined>;
    declare public readonly guestId: pulumi.Output<string>;
    declare public readonly networkInterfaces: pulumi.Output<pulumi.Unwrap<VirtualMachineNetworkInterfaceArgs>[] | undefined>;
    declare public readonly disks: pulumi.Output<pulumi.Unwrap<VirtualMachineDiskArgs>[]>;
    declare public readonly tags: pulumi.Output<string[] | undefined>;
    declare public readonly extraConfig: pulumi.Output<Record<string, string> | undefined>;

    constructor(name: string, args: VirtualMachineArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            resourcePoolId: args.resourcePoolId,
            datastoreId: args.datastoreId,
            numCpus: args.numCpus,
            memory: args.memory,
            guestId: args.guestId,
            networkInterfaces: args.networkInterfaces,
            disks: args.disks,
            tags: args.tags,
            extraConfig: args.extraConfig,
        };
        super(VirtualMachine.__pulumiType, name, resourceInputs, opts);
    }
}
