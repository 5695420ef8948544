/**
 * The Xen room's settings: the config both Xen policies take (xen-guest-network-share and
 * xen-dom0-workload declare the same schema, so the `hosts` table is accepted under either), its
 * JSON Schema, and the settings built from it. Every default is written once, in the schema
 * below; xenSettings and the CLI (`size xen`) read it from there, never restate it.
 */
import type { PolicyConfigJSONSchema } from "@pulumi/policy/schema";
import { MEASURED_DOM0_SHARE } from "../../model/xenShares";

export const BOND_MODES = ["balance-slb", "active-backup", "lacp"] as const;
export type XenBondMode = (typeof BOND_MODES)[number];

/** One host's bond as the `hosts` config states it. */
export interface XenBondConfig {
    members: number;
    mode?: XenBondMode;
}

const BOND_MODE_SCHEMA = {
    type: "string",
    enum: [...BOND_MODES],
    default: "balance-slb",
    description:
        "How the bond spreads traffic (default balance-slb, XenServer's default): balance-slb places each VIF on one member, active-backup uses one member, lacp places each flow on one member.",
} satisfies PolicyConfigJSONSchema;

/** Schema of `hosts.<host>.bond` (the mode's default is written here only). */
export const BOND_SCHEMA: PolicyConfigJSONSchema = {
    type: "object",
    properties: {
        members: {
            type: "integer",
            minimum: 2,
            description: "NICs (PIFs) in the bond; linkMBps is their aggregate and each member carries linkMBps / members.",
        },
        mode: BOND_MODE_SCHEMA,
    },
    required: ["members"],
    additionalProperties: false,
    description: "The host's link is a bond: { members, mode }. One VIF's share is capped by one member's rate (balance-slb, active-backup; lacp: one flow).",
};

/** One host's entry in the `hosts` config. */
export interface XenHostConfig {
    linkMBps?: number;
    dom0NetworkMBps?: number;
    bond?: XenBondConfig;
    dedicated?: boolean;
}

/** The config of both Xen policies (a stack policy sees only its own config: give both the same hosts). */
export interface XenShareConfig {
    hosts: Record<string, XenHostConfig>;
    /** null (the default) = none: hosts without a hosts entry's linkMBps are unchecked. */
    defaultLinkMBps: number | null;
    dom0Share: number;
}

/** Schema properties of XenShareConfig, with the defaults and bounds. */
export const XEN_SHARE_SCHEMA: Record<keyof XenShareConfig, PolicyConfigJSONSchema> = {
    hosts: {
        type: "object",
        default: {},
        additionalProperties: {
            type: "object",
            properties: {
                linkMBps: {
                    type: "number",
                    exclusiveMinimum: 0,
                    description: "The host link's usable throughput, MB/s (1 Gb/s carries about 111 MB/s, scaling the source's 11.1 MB/s on 100 Mb/s).",
                },
                dom0NetworkMBps: {
                    type: "number",
                    minimum: 0,
                    default: 0,
                    description: "What the host's dom0 transfers besides the dom0 resources of this stack, MB/s (the source measured receiving).",
                },
                bond: BOND_SCHEMA,
                dedicated: {
                    type: "boolean",
                    default: false,
                    description:
                        "True when only this stack places guests on the host. Without PERFGUARD_INVENTORY, a host that is not dedicated has its passing guests reported as not checked: other stacks' guests on it are not counted.",
                },
            },
            additionalProperties: false,
        },
        description:
            "Host UUID or name (as in a VM's affinityHost or a perfguard:xenHost fact) -> { linkMBps, dom0NetworkMBps, bond, dedicated }; a bond's linkMBps is its aggregate.",
    },
    defaultLinkMBps: {
        // null = none: every property has a default (registry rule), and a guessed link would hide
        // an unconfigured host, so the default is "no figure".
        type: ["number", "null"],
        exclusiveMinimum: 0,
        default: null,
        description: "Link throughput, MB/s, for hosts without hosts.<host>.linkMBps (default null = none: such hosts are reported as unchecked).",
    },
    dom0Share: {
        type: "number",
        minimum: 0,
        maximum: 1,
        default: MEASURED_DOM0_SHARE,
        description: "dom0's guaranteed fraction of the link while it transfers (default 0.5, measured in the source's one test).",
    },
};

/** A setting's default as its schema states it (the one place it is written). */
function schemaDefault<T>(schema: PolicyConfigJSONSchema): T {
    return schema.default as T;
}

/**
 * The defaults of the Xen settings, read from the schema: what a policy gets from the CLI for a
 * key it is not given, and what `size xen` assumes for an option it is not given.
 */
export const xenDefaults = {
    hosts: schemaDefault<Record<string, XenHostConfig>>(XEN_SHARE_SCHEMA.hosts),
    defaultLinkMBps: schemaDefault<number | null>(XEN_SHARE_SCHEMA.defaultLinkMBps),
    dom0Share: schemaDefault<number>(XEN_SHARE_SCHEMA.dom0Share),
    /** `hosts.<host>.dom0NetworkMBps` when a host entry gives none: no traffic besides the stack's dom0 resources. */
    dom0NetworkMBps: schemaDefault<number>(
        (XEN_SHARE_SCHEMA.hosts.additionalProperties as PolicyConfigJSONSchema).properties?.dom0NetworkMBps as PolicyConfigJSONSchema,
    ),
    /** `hosts.<host>.dedicated` when a host entry gives none: other stacks may place guests on it. */
    dedicated: schemaDefault<boolean>((XEN_SHARE_SCHEMA.hosts.additionalProperties as PolicyConfigJSONSchema).properties?.dedicated as PolicyConfigJSONSchema),
    /** `hosts.<host>.bond.mode` when a bond gives none. */
    bondMode: schemaDefault<XenBondMode>(BOND_MODE_SCHEMA),
} as const;

/** A bond's mode: the one it states, else the schema's default. */
export function bondModeOf(bond: Pick<XenBondConfig, "mode"> | undefined): XenBondMode {
    return bond?.mode ?? xenDefaults.bondMode;
}

/**
 * The settings the Xen evaluation runs on: each key as given where the schema accepts it, else the
 * schema's default (what a policy gets from the CLI; a direct caller may give less or odd values).
 */
export function xenSettings(config: Partial<XenShareConfig> | undefined): XenShareConfig {
    const hosts = config?.hosts !== null && typeof config?.hosts === "object" ? config.hosts : xenDefaults.hosts;
    const link = config?.defaultLinkMBps;
    const share = config?.dom0Share;
    return {
        hosts,
        defaultLinkMBps: typeof link === "number" && Number.isFinite(link) && link > 0 ? link : xenDefaults.defaultLinkMBps,
        dom0Share: typeof share === "number" && share >= 0 && share <= 1 ? share : xenDefaults.dom0Share,
    };
}
