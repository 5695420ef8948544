/**
 * One resource as perfguard's checks read it (ResourceView) and where a resource of another stack
 * comes from: apart from resources.ts so that the inventory's merge, which builds views of other
 * stacks' resources, and the stack view, which merges them in, import no cycle.
 */
import type { Facts, JoinedFact } from "./facts";
import { readFacts } from "./facts";
import { escapeControl } from "./message";

/** Where a resource of another stack comes from (the inventory, PERFGUARD_INVENTORY). */
/** A vSphere VM: its facts also live on the tag objects attached to it, which a StackView joins. */
export const VSPHERE_VM_TYPE = "vsphere:index/virtualMachine:VirtualMachine";

export interface ResourceOrigin {
    readonly project: string;
    readonly stack: string;
    /** The deployment's `manifest.time`, when known. */
    readonly time?: string;
}

/** Facts found on objects attached to a resource, as readFacts takes them. */
export interface JoinedFacts {
    readonly facts: readonly JoinedFact[];
    /** Attached objects whose facts cannot be read (unknown in the preview, outside the stack). */
    readonly hidden: number;
}

/** One resource as perfguard's checks read it. */
export class ResourceView {
    private factCache: Facts | undefined;

    /**
     * @param urn - the resource's URN ("" when the caller has none).
     * @param type - the type token, e.g. `citrix:index/zone:Zone`.
     * @param name - the Pulumi resource name.
     * @param props - plain props (inputs for Analyze, outputs for AnalyzeStack).
     * @param propertyDependencies - property name -> URNs it depends on.
     * @param aliases - the alias URNs the engine sent (a renamed resource's old URN, matched in
     *   the stack's state; pulumi/pulumi#11173): references by name also match these.
     */
    constructor(
        readonly urn: string,
        readonly type: string,
        readonly name: string,
        readonly props: unknown,
        readonly propertyDependencies: Readonly<Record<string, readonly string[]>> = {},
        readonly aliases: readonly string[] = [],
        readonly origin?: ResourceOrigin,
    ) {}

    /**
     * The resource's provider (its props as the engine sends them, secrets included: read only the
     * endpoint fields), when known: a shared object's identity includes its provider's endpoint
     * (an Avi Controller, a Citrix Site, a Xen Orchestra).
     */
    provider: { readonly urn: string; readonly props: unknown } | undefined;

    /** True for a resource of another stack, read from the inventory: it adds load, it gets no verdict. */
    get foreign(): boolean {
        return this.origin !== undefined;
    }

    /**
     * The names another resource may use for this one besides its Pulumi name: each alias's
     * old URN and the old name in it, deduplicated, in alias order.
     */
    get aliasNames(): string[] {
        const names: string[] = [];
        for (const urn of this.aliases) {
            for (const name of [urn, urn.split("::").slice(3).join("::")]) {
                if (name && !names.includes(name)) {
                    names.push(name);
                }
            }
        }
        return names;
    }

    /** Set by a StackView for the resources whose facts also live on attached objects (vSphere tags). */
    joinFacts: (() => JoinedFacts) | undefined;

    /** The resource's facts, parsed on first use (with the attached objects' facts in a stack). */
    get facts(): Facts {
        return this.parseFacts();
    }

    /** Parses the facts now (the inventory's read-ahead), or gives those parsed before. */
    parseFacts(): Facts {
        if (!this.factCache) {
            this.factCache = readFacts(this.props, this.type, this.joinFacts?.());
        }
        return this.factCache;
    }

    /**
     * How messages name the resource: `Zone "latam"` (the token's last segment and the Pulumi name),
     * control characters escaped, so that a name can never start a line of its own in the CLI's output.
     */
    get label(): string {
        const colon = this.type.lastIndexOf(":");
        const kind = colon >= 0 ? this.type.slice(colon + 1) : this.type;
        return `${escapeControl(kind) || "resource"} "${escapeControl(this.name)}"`;
    }
}
