// Local stand-ins for the Citrix SDK that `pulumi package add terraform-provider citrix/citrix`
// generates. There is no npm package for it, so each class below registers a resource with the
// same type token the bridged SDK uses (`citrix:index/<lowerCamel>:<UpperCamel>`) and the same
// lowerCamelCase inputs, limited to the arguments the examples use. Argument names follow the
// provider's docs/resources/*.md in citrix/terraform-provider-citrix.
//
// Outputs are declared with `declare` rather than `!`: this repository compiles to ES2022, where
// class fields use define semantics and a `name!: ...` field would overwrite, with undefined, the
// output that CustomResource's constructor has just set.
//
// What `import "@pulumi/citrix"` resolves to where the real SDK is not installed (the examples, and
// any program: preview/sdkResolution.ts, scripts/realCli/staging.ts). `npm run test:real` compiles every
// example with the real SDK instead (scripts/real-sdk): a name or type the real SDK lacks
// fails there.

import * as pulumi from "@pulumi/pulumi";

/** One `{ name, value }` entry of a Citrix object's `metadatas` list (Terraform `metadata`, pluralised by the bridge). */
export interface MetadataArgs {
    name: pulumi.Input<string>;
    value: pulumi.Input<string>;
}

export interface Metadata {
    name: string;
    value: string;
}

// ---------------------------------------------------------------------------------------------
// citrix_zone
// ---------------------------------------------------------------------------------------------

export interface ZoneArgs {
    /** Name of the zone (on-premises). Citrix Cloud uses `resourceLocationId` instead. */
    name?: pulumi.Input<string>;
    description?: pulumi.Input<string>;
    metadatas?: pulumi.Input<pulumi.Input<MetadataArgs>[]>;
    /** Citrix Cloud only: GUID of the resource location behind the zone. */
    resourceLocationId?: pulumi.Input<string>;
}

export class Zone extends pulumi.CustomResource {
    public static readonly __pulumiType = "citrix:index/zone:Zone";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly description: pulumi.Output<string | undefined>;
    declare public readonly metadatas: pulumi.Output<Metadata[] | undefined>;
    declare public readonly resourceLocationId: pulumi.Output<string | undefined>;

    constructor(name: string, args: ZoneArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            description: args.description,
            metadatas: args.metadatas,
            resourceLocationId: args.resourceLocationId,
        };
        super(Zone.__pulumiType, name, resourceInputs, opts);
    }
}

// ---------------------------------------------------------------------------------------------
// citrix_xenserver_hypervisor
// ---------------------------------------------------------------------------------------------

export interface XenserverHypervisorArgs {
    name: pulumi.Input<string>;
    /** Id of the zone the hypervisor connection is associated with. */
    zone: pulumi.Input<string>;
    username: pulumi.Input<string>;
    password: pulumi.Input<string>;
    /** `PlainText` or `Base64`. */
    passwordFormat: pulumi.Input<string>;
    addresses: pulumi.Input<pulumi.Input<string>[]>;
    sslThumbprints?: pulumi.Input<pulumi.Input<string>[]>;
    maxAbsoluteActiveActions?: pulumi.Input<number>;
    maxAbsoluteNewActionsPerMinute?: pulumi.Input<number>;
    maxPowerActionsPercentageOfMachines?: pulumi.Input<number>;
    metadatas?: pulumi.Input<pulumi.Input<MetadataArgs>[]>;
}

export class XenserverHypervisor extends pulumi.CustomResource {
    public static readonly __pulumiType = "citrix:index/xenserverHypervisor:XenserverHypervisor";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly zone: pulumi.Output<string>;
    declare public readonly username: pulumi.Output<string>;
    declare public readonly password: pulumi.Output<string>;
    declare public readonly passwordFormat: pulumi.Output<string>;
    declare public readonly addresses: pulumi.Output<string[]>;
    declare public readonly sslThumbprints: pulumi.Output<string[] | undefined>;
    declare public readonly maxAbsoluteActiveActions: pulumi.Output<number>;
    declare public readonly maxAbsoluteNewActionsPerMinute: pulumi.Output<number>;
    declare public readonly maxPowerActionsPercentageOfMachines: pulumi.Output<number>;
    declare public readonly metadatas: pulumi.Output<Metadata[] | undefined>;

    constructor(name: string, args: XenserverHypervisorArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            zone: args.zone,
            username: args.username,
            // Sensitive in the provider schema: the generated SDK wraps it as a secret.
            password: pulumi.secret(args.password),
            passwordFormat: args.passwordFormat,
            addresses: args.addresses,
            sslThumbprints: args.sslThumbprints,
            maxAbsoluteActiveActions: args.maxAbsoluteActiveActions,
            maxAbsoluteNewActionsPerMinute: args.maxAbsoluteNewActionsPerMinute,
            maxPowerActionsPercentageOfMachines: args.maxPowerActionsPercentageOfMachines,
            metadatas: args.metadatas,
        };
        super(XenserverHypervisor.__pulumiType, name, resourceInputs, pulumi.mergeOptions(opts, { additionalSecretOutputs: ["password"] }));
    }
}

// ---------------------------------------------------------------------------------------------
// citrix_xenserver_hypervisor_resource_pool
// ---------------------------------------------------------------------------------------------

export interface XenserverStorageArgs {
    storageName: pulumi.Input<string>;
    superseded?: pulumi.Input<boolean>;
}

export interface XenserverHypervisorResourcePoolArgs {
    name: pulumi.Input<string>;
    /** Id of the hypervisor connection the resource pool belongs to. */
    hypervisor: pulumi.Input<string>;
    networks: pulumi.Input<pulumi.Input<string>[]>;
    /** Storage for OS data (Terraform `storage`). */
    storages: pulumi.Input<pulumi.Input<XenserverStorageArgs>[]>;
    /** Storage for temporary data (Terraform `temporary_storage`). */
    temporaryStorages: pulumi.Input<pulumi.Input<XenserverStorageArgs>[]>;
    useLocalStorageCaching?: pulumi.Input<boolean>;
    vmTagging?: pulumi.Input<boolean>;
    metadatas?: pulumi.Input<pulumi.Input<MetadataArgs>[]>;
}

export class XenserverHypervisorResourcePool extends pulumi.CustomResource {
    public static readonly __pulumiType = "citrix:index/xenserverHypervisorResourcePool:XenserverHypervisorResourcePool";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly hypervisor: pulumi.Output<string>;
    declare public readonly networks: pulumi.Output<string[]>;
    declare public readonly storages: pulumi.Output<pulumi.Unwrap<XenserverStorageArgs>[]>;
    declare public readonly temporaryStorages: pulumi.Output<pulumi.Unwrap<XenserverStorageArgs>[]>;
    declare public readonly useLocalStorageCaching: pulumi.Output<boolean>;
    declare public readonly vmTagging: pulumi.Output<boolean>;
    declare public readonly metadatas: pulumi.Output<Metadata[] | undefined>;

    constructor(name: string, args: XenserverHypervisorResourcePoolArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            hypervisor: args.hypervisor,
            networks: args.networks,
            storages: args.storages,
            temporaryStorages: args.temporaryStorages,
            useLocalStorageCaching: args.useLocalStorageCaching,
            vmTagging: args.vmTagging,
            metadatas: args.metadatas,
        };
        super(XenserverHypervisorResourcePool.__pulumiType, name, resourceInputs, opts);
    }
}

// ---------------------------------------------------------------------------------------------
// citrix_machine_catalog
// ---------------------------------------------------------------------------------------------

export interface MachineCatalogMachineDomainIdentityArgs {
    domain?: pulumi.Input<string>;
    domainOu?: pulumi.Input<string>;
    serviceAccount?: pulumi.Input<string>;
    serviceAccountPassword?: pulumi.Input<string>;
}

export interface MachineCatalogXenserverMachineConfigArgs {
    /** Name of the master image VM (case sensitive). */
    masterImageVm: pulumi.Input<string>;
    imageSnapshot?: pulumi.Input<string>;
    cpuCount: pulumi.Input<number>;
    memoryMb: pulumi.Input<number>;
}

export interface MachineCatalogMachineAccountCreationRulesArgs {
    namingScheme: pulumi.Input<string>;
    /** `Numeric` or `Alphabetic`. */
    namingSchemeType: pulumi.Input<string>;
}

export interface MachineCatalogProvisioningSchemeArgs {
    hypervisor: pulumi.Input<string>;
    hypervisorResourcePool: pulumi.Input<string>;
    /** `ActiveDirectory`, `AzureAD` or `HybridAzureAD`. */
    identityType: pulumi.Input<string>;
    numberOfTotalMachines: pulumi.Input<number>;
    machineDomainIdentity?: pulumi.Input<MachineCatalogMachineDomainIdentityArgs>;
    xenserverMachineConfig?: pulumi.Input<MachineCatalogXenserverMachineConfigArgs>;
    machineAccountCreationRules?: pulumi.Input<MachineCatalogMachineAccountCreationRulesArgs>;
}

export interface MachineCatalogArgs {
    name: pulumi.Input<string>;
    description?: pulumi.Input<string>;
    /** `MCS`, `Manual` or `PVSStreaming`. */
    provisioningType: pulumi.Input<string>;
    /** `Static` or `Random`. */
    allocationType: pulumi.Input<string>;
    /** `SingleSession` or `MultiSession`. */
    sessionSupport: pulumi.Input<string>;
    /** Id of the zone the machine catalog is associated with. */
    zone: pulumi.Input<string>;
    isPowerManaged?: pulumi.Input<boolean>;
    persistUserChanges?: pulumi.Input<string>;
    minimumFunctionalLevel?: pulumi.Input<string>;
    provisioningScheme?: pulumi.Input<MachineCatalogProvisioningSchemeArgs>;
    metadatas?: pulumi.Input<pulumi.Input<MetadataArgs>[]>;
}

export class MachineCatalog extends pulumi.CustomResource {
    public static readonly __pulumiType = "citrix:index/machineCatalog:MachineCatalog";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly description: pulumi.Output<string | undefined>;
    declare public readonly provisioningType: pulumi.Output<string>;
    declare public readonly allocationType: pulumi.Output<string>;
    declare public readonly sessionSupport: pulumi.Output<string>;
    declare public readonly zone: pulumi.Output<string>;
    declare public readonly isPowerManaged: pulumi.Output<boolean>;
    declare public readonly persistUserChanges: pulumi.Output<string>;
    declare public readonly minimumFunctionalLevel: pulumi.Output<string>;
    declare public readonly provisioningScheme: pulumi.Output<pulumi.Unwrap<MachineCatalogProvisioningSchemeArgs> | undefined>;
    declare public readonly metadatas: pulumi.Output<Metadata[] | undefined>;

    constructor(name: string, args: MachineCatalogArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            description: args.description,
            provisioningType: args.provisioningType,
            allocationType: args.allocationType,
            sessionSupport: args.sessionSupport,
            zone: args.zone,
            isPowerManaged: args.isPowerManaged,
            persistUserChanges: args.persistUserChanges,
            minimumFunctionalLevel: args.minimumFunctionalLevel,
            provisioningScheme: args.provisioningScheme,
            metadatas: args.metadatas,
        };
        super(MachineCatalog.__pulumiType, name, resourceInputs, opts);
    }
}

// ---------------------------------------------------------------------------------------------
// citrix_delivery_group
// ---------------------------------------------------------------------------------------------

export interface DeliveryGroupAssociatedMachineCatalogArgs {
    /** Id of the machine catalog from which to add machines. */
    machineCatalog: pulumi.Input<string>;
    machineCount: pulumi.Input<number>;
}

export interface DeliveryGroupRestrictedAccessUsersArgs {
    allowLists?: pulumi.Input<pulumi.Input<string>[]>;
    blockList?: pulumi.Input<pulumi.Input<string>[]>;
}

export interface DeliveryGroupDesktopArgs {
    publishedName: pulumi.Input<string>;
    description?: pulumi.Input<string>;
    enabled?: pulumi.Input<boolean>;
    enableSessionRoaming?: pulumi.Input<boolean>;
    restrictedAccessUsers?: pulumi.Input<DeliveryGroupRestrictedAccessUsersArgs>;
}

export interface DeliveryGroupPoolSizeScheduleArgs {
    /** e.g. `00:00-00:00`. */
    timeRange: pulumi.Input<string>;
    poolSize: pulumi.Input<number>;
}

export interface DeliveryGroupPowerTimeSchemeArgs {
    daysOfWeeks: pulumi.Input<pulumi.Input<string>[]>;
    displayName: pulumi.Input<string>;
    peakTimeRanges: pulumi.Input<pulumi.Input<string>[]>;
    poolSizeSchedules?: pulumi.Input<pulumi.Input<DeliveryGroupPoolSizeScheduleArgs>[]>;
    poolUsingPercentage: pulumi.Input<boolean>;
}

export interface DeliveryGroupAutoscaleSettingsArgs {
    autoscaleEnabled: pulumi.Input<boolean>;
    timezone?: pulumi.Input<string>;
    peakBufferSizePercent?: pulumi.Input<number>;
    offPeakBufferSizePercent?: pulumi.Input<number>;
    powerTimeSchemes?: pulumi.Input<pulumi.Input<DeliveryGroupPowerTimeSchemeArgs>[]>;
}

export interface DeliveryGroupArgs {
    name: pulumi.Input<string>;
    description?: pulumi.Input<string>;
    associatedMachineCatalogs?: pulumi.Input<pulumi.Input<DeliveryGroupAssociatedMachineCatalogArgs>[]>;
    desktops?: pulumi.Input<pulumi.Input<DeliveryGroupDesktopArgs>[]>;
    autoscaleSettings?: pulumi.Input<DeliveryGroupAutoscaleSettingsArgs>;
    restrictedAccessUsers?: pulumi.Input<DeliveryGroupRestrictedAccessUsersArgs>;
    /** `DesktopsOnly`, `AppsOnly` or `DesktopsAndApps`. */
    deliveryType?: pulumi.Input<string>;
    enabled?: pulumi.Input<boolean>;
    metadatas?: pulumi.Input<pulumi.Input<MetadataArgs>[]>;
}

export class DeliveryGroup extends pulumi.CustomResource {
    public static readonly __pulumiType = "citrix:index/deliveryGroup:DeliveryGroup";

    declare public readonly name: pulumi.Output<string>;
    declare public readonly description: pulumi.Output<string | undefined>;
    declare public readonly associatedMachineCatalogs: pulumi.Output<pulumi.Unwrap<DeliveryGroupAssociatedMachineCatalogArgs>[] | undefined>;
    declare public readonly desktops: pulumi.Output<pulumi.Unwrap<DeliveryGroupDesktopArgs>[] | undefined>;
    declare public readonly autoscaleSettings: pulumi.Output<pulumi.Unwrap<DeliveryGroupAutoscaleSettingsArgs> | undefined>;
    declare public readonly restrictedAccessUsers: pulumi.Output<pulumi.Unwrap<DeliveryGroupRestrictedAccessUsersArgs> | undefined>;
    declare public readonly deliveryType: pulumi.Output<string>;
    declare public readonly enabled: pulumi.Output<boolean>;
    declare public readonly metadatas: pulumi.Output<Metadata[] | undefined>;

    constructor(name: string, args: DeliveryGroupArgs, opts?: pulumi.CustomResourceOptions) {
        const resourceInputs: pulumi.Inputs = {
            name: args.name,
            description: args.description,
            associatedMachineCatalogs: args.associatedMachineCatalogs,
            desktops: args.desktops,
            autoscaleSettings: args.autoscaleSettings,
            restrictedAccessUsers: args.restrictedAccessUsers,
            deliveryType: args.deliveryType,
            enabled: args.enabled,
            metadatas: args.metadatas,
        };
        super(DeliveryGroup.__pulumiType, name, resourceInputs, opts);
    }
}
