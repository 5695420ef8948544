/**
 * The SE groups an NSX ALB stack's virtual services can be joined to: declared in the stack (or
 * another stack's, through the inventory) or described in policy config, indexed by URN (aliases
 * included), folded name, uuid, cloud, tenant and Avi Controller, with no first-wins anywhere: a
 * name two groups share returns both (seGroups.ts decides what that means for a VS).
 */
import type { ResourceView, StackView } from "../pack/resources";
import { field, isRecord, isUnknown, UNKNOWN } from "../pack/values";
import { canonicalUuid, foldName, looksLikeUuid, parseAviRef } from "./refs";
import { readSeGroupFields, readSeGroupFieldsOf, SE_GROUP_TYPE, SeGroupFields } from "./seGroupFields";

/** One SE group: declared in the stack, or described in policy config. */
export interface SeGroupView {
    /** The stack resource; undefined for a group described in policy config. */
    readonly resource: ResourceView | undefined;
    /** The Avi name (`name` input; the Pulumi name when unset; the config key). */
    readonly name: string;
    /** How messages name the group. */
    readonly label: string;
    readonly fields: SeGroupFields;
}

/** A text prop as known, "unknown" in a preview, or undefined when absent or not a text. */
export function textProp(props: unknown, key: string): string | undefined {
    const value = field(props, key);
    if (value === UNKNOWN || isUnknown(value)) {
        return "unknown";
    }
    return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The name a ref to a cloud or tenant gives (or its uuid), "unknown", or undefined when not set. */
export function refKey(props: unknown, key: string, objectType: string): string | undefined {
    const text = textProp(props, key);
    if (text === undefined || text === "unknown") {
        return text;
    }
    const parsed = parseAviRef(text, objectType);
    return parsed === undefined ? "unknown" : parsed.by === "name" ? foldName(parsed.name) : `uuid:${parsed.uuid}`;
}

/** A group with what a join compares: folded name, uuid, cloud and tenant ("unknown" when not known). */
export interface IndexedGroup {
    readonly group: SeGroupView;
    /** Folded name; null when unknown in this preview, undefined for a config entry keyed by uuid. */
    readonly name: string | null | undefined;
    readonly uuid: string | undefined;
    readonly cloud: string | undefined;
    readonly tenant: string | undefined;
    /** The Avi Controller of its provider (`aviController`), folded; undefined when not known. */
    readonly controller?: string;
}

export const SEG = "serviceenginegroup";

/**
 * The Controller a resource's provider names (`aviController`, folded), when the engine sent the
 * provider and the endpoint is a literal: an SE group's name is unique per Controller only.
 */
export function controllerOf(resource: ResourceView): string | undefined {
    const endpoint = resource.provider ? field(resource.provider.props, "aviController") : undefined;
    return typeof endpoint === "string" && endpoint.trim() !== "" && !isUnknown(endpoint) ? foldName(endpoint) : undefined;
}

/** Every SE group of the stack and the config, indexed for joins; no first-wins anywhere. */
export class GroupIndex {
    readonly groups: SeGroupView[] = [];
    // O(1) lookups per VS (a stack policy must stay O(n) per stack).
    private readonly urns = new Map<string, SeGroupView>();
    private readonly names = new Map<string, IndexedGroup[]>();
    private readonly uuids = new Map<string, IndexedGroup[]>();
    private unknownName = false;

    private index(g: IndexedGroup): void {
        if (g.group.resource) {
            this.urns.set(g.group.resource.urn, g.group);
            // A renamed group (aliases): what still names it by its old URN finds it.
            for (const urn of g.group.resource.aliases) {
                if (!this.urns.has(urn)) {
                    this.urns.set(urn, g.group);
                }
            }
        }
        if (g.name === null) {
            this.unknownName = true;
        } else if (g.name !== undefined) {
            push(this.names, g.name, g);
        }
        if (g.uuid !== undefined) {
            push(this.uuids, g.uuid, g);
        }
    }

    constructor(stack: StackView, configGroups: Readonly<Record<string, unknown>>) {
        const declared = [...stack.ofType(SE_GROUP_TYPE)].sort((a, b) => compare(a.urn, b.urn));
        for (const resource of declared) {
            const name = textProp(resource.props, "name");
            const uuid = textProp(resource.props, "uuid");
            // Another stack's group (the inventory) is named with its stack: two stacks may declare the same name.
            const label = resource.origin ? `${resource.label} (stack ${resource.origin.project}/${resource.origin.stack})` : resource.label;
            const group: SeGroupView = {
                resource,
                name: name === undefined || name === "unknown" ? resource.name : name,
                label,
                fields: readSeGroupFieldsOf(resource),
            };
            this.groups.push(group);
            // Without a `name` input the Avi name is the Pulumi name, and a renamed group's old
            // names (its aliases) are what existing references still say.
            for (const old of name === undefined ? resource.aliasNames.filter((n) => foldName(n) !== foldName(resource.name)) : []) {
                this.index({
                    group,
                    name: foldName(old),
                    uuid: undefined,
                    cloud: refKey(resource.props, "cloudRef", "cloud"),
                    tenant: refKey(resource.props, "tenantRef", "tenant"),
                });
            }
            this.index({
                controller: controllerOf(resource),
                group,
                name: name === "unknown" ? null : foldName(group.name),
                uuid: uuid !== undefined && uuid !== "unknown" ? canonicalUuid(uuid, SEG) : undefined,
                cloud: refKey(resource.props, "cloudRef", "cloud"),
                tenant: refKey(resource.props, "tenantRef", "tenant"),
            });
        }
        for (const key of Object.keys(configGroups).sort(compare)) {
            const entry = configGroups[key];
            const byUuid = looksLikeUuid(key, SEG);
            const group: SeGroupView = {
                resource: undefined,
                name: key,
                label: `SE group "${key}" (policy config seGroups)`,
                fields: readSeGroupFields(isRecord(entry) ? entry : {}, (f) => `policy config seGroups.${key}.${f}`),
            };
            this.groups.push(group);
            this.index({
                group,
                name: byUuid ? undefined : foldName(key),
                uuid: byUuid ? canonicalUuid(key, SEG) : undefined,
                cloud: undefined,
                tenant: undefined,
            });
        }
    }

    byUrn(urn: string): SeGroupView | undefined {
        return this.urns.get(urn);
    }

    /** Groups a uuid names (stack groups' `uuid`, config keys that are uuids). */
    byUuid(uuid: string): IndexedGroup[] {
        return this.uuids.get(uuid) ?? [];
    }

    /**
     * Groups a name names, filtered by cloud and tenant where both sides are known; a stack
     * declaration wins over a config entry of the same name. `unknownNames` tells whether a stack
     * group whose name is unknown in this preview could also be it.
     */
    byName(name: string, cloud: string | undefined, tenant: string | undefined, controller?: string): { found: IndexedGroup[]; unknownNames: boolean } {
        const folded = foldName(name);
        const matches = (want: string | undefined, have: string | undefined) => want === undefined || have === undefined || have === "unknown" || have === want;
        const named = (this.names.get(folded) ?? []).filter((g) => matches(cloud, g.cloud) && matches(tenant, g.tenant) && matches(controller, g.controller));
        const declared = named.filter((g) => g.group.resource);
        return { found: declared.length > 0 ? declared : named, unknownNames: this.unknownName };
    }
}

export function compare(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
    const list = map.get(key);
    if (list) {
        list.push(value);
    } else {
        map.set(key, [value]);
    }
}
