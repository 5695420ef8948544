/**
 * The digest `perfguard inventory` writes: the inventory's stacks with only the resources the
 * policies can read (the systems' types and their providers, and any resource carrying a
 * perfguard: fact), each with its URN, type, id, outputs (secrets already opaque), provider
 * and property dependencies. A fleet of a thousand stacks costs a preview one small file.
 */
import { stackIndex, StackIndex } from "./touched";
import { DIGEST_KIND, Inventory, InventoryResource } from "./types";

/** The provider packages whose resources the rooms read (policies/citrix, nsx-alb, xen; vSphere VMs carry facts). */
export const DIGEST_PACKAGES: readonly string[] = ["avi", "citrix", "vsphere", "xenorchestra"];

/** True for a resource a policy can read: a system's type or provider, or anything with a perfguard: fact. */
export function readByPolicies(r: InventoryResource): boolean {
    const pkg = r.type.startsWith("pulumi:providers:") ? r.type.slice("pulumi:providers:".length) : r.type.slice(0, r.type.indexOf(":"));
    return DIGEST_PACKAGES.includes(pkg) || /perfguard[:_.]/i.test(JSON.stringify(r.outputs));
}

export interface Digest {
    readonly kind: typeof DIGEST_KIND;
    /** 2: each stack also carries its index (join keys, shared objects), so a preview reads only the stacks it touches. */
    readonly version: 2;
    /** When the digest was built (ISO 8601). */
    readonly built: string;
    readonly stacks: ReadonlyArray<{ project: string; stack: string; time?: string; index: StackIndex; resources: readonly InventoryResource[] }>;
}

/** The digest of an inventory (entries sorted, resources by URN), built at `now`. */
export function digestOf(inventory: Inventory, now: Date): Digest {
    return {
        kind: DIGEST_KIND,
        version: 2,
        built: now.toISOString(),
        stacks: inventory.entries.map((e) => {
            const resources = e.resources.filter(readByPolicies).sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
            return { project: e.project, stack: e.stack, ...(e.time ? { time: e.time } : {}), index: stackIndex(resources), resources };
        }),
    };
}
