/**
 * Plain views of the resources a policy sees, built once per call: props unwrapped from the
 * SDK's proxy (reads never throw), facts parsed lazily, joins kept as URNs.
 */
import type { PolicyResource } from "@pulumi/policy";
import { Facts, readFacts } from "./facts";
import { unwrapProps } from "./values";

/** One resource as perfguard's checks read it. */
export class ResourceView {
    private factCache: Facts | undefined;

    /**
     * @param urn - the resource's URN ("" when the caller has none).
     * @param type - the type token, e.g. `citrix:index/zone:Zone`.
     * @param name - the Pulumi resource name.
     * @param props - plain props (inputs for Analyze, outputs for AnalyzeStack).
     * @param propertyDependencies - property name -> URNs it depends on.
     */
    constructor(
        readonly urn: string,
        readonly type: string,
        readonly name: string,
        readonly props: unknown,
        readonly propertyDependencies: Readonly<Record<string, readonly string[]>> = {},
    ) {}

    /** The resource's facts, parsed on first use. */
    get facts(): Facts {
        if (!this.factCache) {
            this.factCache = readFacts(this.props);
        }
        return this.factCache;
    }

    /** How messages name the resource: `Zone "latam"` (the token's last segment and the Pulumi name). */
    get label(): string {
        const colon = this.type.lastIndexOf(":");
        const kind = colon >= 0 ? this.type.slice(colon + 1) : this.type;
        return `${kind || "resource"} "${this.name}"`;
    }
}

/** The whole stack for a stack policy: resources in engine order, indexed by URN and type. */
export class StackView {
    private urnIndex: Map<string, ResourceView> | undefined;
    private readonly byType = new Map<string, ResourceView[]>();

    constructor(readonly resources: readonly ResourceView[]) {
        for (const r of resources) {
            let list = this.byType.get(r.type);
            if (!list) {
                list = [];
                this.byType.set(r.type, list);
            }
            list.push(r);
        }
    }

    /**
     * Resources by URN, indexed on first use: each stack policy gets its own StackView and most
     * never join by URN, so building the index for every one cost AnalyzeStack time (O(n) each).
     */
    get byUrn(): ReadonlyMap<string, ResourceView> {
        if (!this.urnIndex) {
            this.urnIndex = new Map();
            for (const r of this.resources) {
                this.urnIndex.set(r.urn, r);
            }
        }
        return this.urnIndex;
    }

    /** Resources of one type token, in engine order (empty when none). */
    ofType(type: string): readonly ResourceView[] {
        return this.byType.get(type) ?? [];
    }

    /**
     * The resources of `type` that `from`'s property `prop` depends on (the engine's property
     * dependencies: the only join that works in a preview, where ids are unknown).
     */
    dependencyOf(from: ResourceView, prop: string, type: string): ResourceView[] {
        const urns = from.propertyDependencies[prop] ?? [];
        const found: ResourceView[] = [];
        for (const urn of urns) {
            const target = this.byUrn.get(urn);
            if (target && target.type === type) {
                found.push(target);
            }
        }
        return found;
    }
}

function urnsOf(list: unknown): string[] {
    if (!Array.isArray(list)) {
        return [];
    }
    const urns: string[] = [];
    for (const item of list) {
        const urn = typeof item === "string" ? item : (item as { urn?: unknown } | undefined)?.urn;
        if (typeof urn === "string") {
            urns.push(urn);
        }
    }
    return urns;
}

const NO_DEPENDENCIES: Readonly<Record<string, readonly string[]>> = Object.freeze({});

/**
 * Builds a ResourceView from an SDK resource (`args` of validateResource, or an element of
 * `args.resources` of validateStack, whose property dependencies hold resource objects).
 */
export function viewOf(r: Pick<PolicyResource, "urn" | "type" | "name" | "props"> & { propertyDependencies?: Record<string, unknown> }): ResourceView {
    // Runs for every resource in every stack policy: allocate a dependency record only for the
    // resources that have dependencies (most have none), and keep it shared and frozen otherwise.
    let deps: Record<string, string[]> | undefined;
    const given = r.propertyDependencies;
    if (given) {
        for (const prop of Object.keys(given)) {
            deps ??= {};
            deps[prop] = urnsOf(given[prop]);
        }
    }
    return new ResourceView(String(r.urn ?? ""), String(r.type ?? ""), String(r.name ?? ""), unwrapProps(r.props), deps ?? NO_DEPENDENCIES);
}

/** Builds the StackView of a validateStack call. */
export function stackOf(resources: readonly PolicyResource[]): StackView {
    return new StackView(resources.map(viewOf));
}
