/**
 * Plain views of the resources a policy sees, built once per call: props unwrapped from the
 * SDK's proxy (reads never throw), facts parsed lazily, joins kept as URNs.
 */
import type { PolicyResource } from "@pulumi/policy";
import { Secret, unknownCheckingProxy } from "@pulumi/policy";
import { secretsPreservingProxy } from "@pulumi/policy/secret";
import type { JoinedFact } from "./facts";
import { factKeyDef } from "./factKeys";
import { withInventory } from "./inventory/merge";
import { field, foldCase, isRecord, isUnknown, rawTarget, unwrapProps } from "./values";

/** vSphere types whose tag objects carry a VM's facts (docs/facts.md#vsphere). */
export { VSPHERE_VM_TYPE } from "./resourceView";
export const VSPHERE_TAG_TYPE = "vsphere:index/tag:Tag";
export const VSPHERE_CATEGORY_TYPE = "vsphere:index/tagCategory:TagCategory";

/** A vSphere tag id (vSphere Automation API tagging: `urn:vmomi:InventoryServiceTag:<uuid>:GLOBAL`). */
const TAG_ID = /^urn:vmomi:InventoryServiceTag:/i;

export type { JoinedFacts, ResourceOrigin } from "./resourceView";
import type { JoinedFacts } from "./resourceView";
export { ResourceView } from "./resourceView";
import { ResourceView, VSPHERE_VM_TYPE } from "./resourceView";

/** The whole stack for a stack policy: resources in engine order, indexed by URN and type. */
export class StackView {
    private urnIndex: Map<string, ResourceView> | undefined;
    private readonly byType = new Map<string, ResourceView[]>();

    private tagIndex: { tags: Map<string, ResourceView>; categories: Map<string, ResourceView> } | undefined;

    constructor(readonly resources: readonly ResourceView[]) {
        for (const r of resources) {
            let list = this.byType.get(r.type);
            if (!list) {
                list = [];
                this.byType.set(r.type, list);
            }
            list.push(r);
        }
        // Every VM joins its tags (lazily, when its facts are read): in a stack without tag objects
        // its tag ids are of another stack or a data source, whose facts are hidden, not absent.
        for (const vm of this.ofType(VSPHERE_VM_TYPE)) {
            vm.joinFacts = () => this.vsphereTagFacts(vm);
        }
    }

    /** The id (outputs `id`) of a resource, when known. */
    private static idOf(r: ResourceView): string | undefined {
        const id = field(r.props, "id");
        return typeof id === "string" && id.length > 0 ? id : undefined;
    }

    private tagsAndCategories(): { tags: Map<string, ResourceView>; categories: Map<string, ResourceView> } {
        if (!this.tagIndex) {
            const index = (type: string) =>
                new Map(
                    this.ofType(type).flatMap((r) => {
                        const id = StackView.idOf(r);
                        return id === undefined ? [] : [[id, r] as const];
                    }),
                );
            this.tagIndex = { tags: index(VSPHERE_TAG_TYPE), categories: index(VSPHERE_CATEGORY_TYPE) };
        }
        return this.tagIndex;
    }

    /**
     * The facts on the vSphere tags attached to `vm`: joined through the property dependencies of
     * `tags` (a preview, where ids are unknown) and by id (state). A tag is a fact when its name is
     * `perfguard:<key>=<value>`, or `<key>=<value>` in a TagCategory named `perfguard`.
     */
    vsphereTagFacts(vm: ResourceView): JoinedFacts {
        const { tags: byId, categories } = this.tagsAndCategories();
        const attached = new Map<string, ResourceView>();
        for (const tag of this.dependencyOf(vm, "tags", VSPHERE_TAG_TYPE)) {
            attached.set(tag.urn, tag);
        }
        const byDependency = attached.size;
        const list = field(vm.props, "tags");
        let matchedDependency = 0;
        let unknownIds = 0;
        let outside = 0;
        if (Array.isArray(list)) {
            for (const id of list) {
                const tag = typeof id === "string" && !isUnknown(id) ? byId.get(id) : undefined;
                if (tag) {
                    matchedDependency += attached.has(tag.urn) ? 1 : 0;
                    attached.set(tag.urn, tag);
                } else if (isUnknown(id)) {
                    unknownIds += 1;
                } else if (typeof id === "string" && TAG_ID.test(id)) {
                    outside += 1; // a tag of another stack or a data source: its name is not known here
                }
                // Any other string is no tag id (a `perfguard:` string there is read as a tags entry,
                // and perfguard-facts says the provider rejects it): it hides nothing.
            }
        }
        // In a preview the unknown ids are the tags joined through dependencies: only the rest hide a fact.
        const hidden = outside + Math.max(0, unknownIds - (byDependency - matchedDependency));
        const facts: JoinedFact[] = [];
        let unreadable = 0;
        for (const tag of attached.values()) {
            const fact = this.tagFact(tag, categories);
            if (fact === "hidden") {
                unreadable += 1;
            } else if (fact) {
                facts.push(fact);
            }
        }
        return { facts, hidden: hidden + unreadable };
    }

    private tagFact(tag: ResourceView, categories: ReadonlyMap<string, ResourceView>): JoinedFact | "hidden" | undefined {
        const name = field(tag.props, "name");
        if (typeof name !== "string") {
            return isUnknown(name) ? "hidden" : undefined;
        }
        const eq = name.indexOf("=");
        const place = `vSphere tag "${tag.name}"`;
        const head = name.slice(0, eq < 0 ? name.length : eq).trim();
        const prefix = foldCase(head.slice(0, 10));
        if (prefix === "perfguard:" || prefix === "perfguard_") {
            return { rawKey: head, value: eq < 0 ? undefined : name.slice(eq + 1), place };
        }
        if (eq < 0) {
            return undefined;
        }
        const categoryId = field(tag.props, "categoryId");
        const category =
            this.dependencyOf(tag, "categoryId", VSPHERE_CATEGORY_TYPE)[0] ?? (typeof categoryId === "string" ? categories.get(categoryId) : undefined);
        const categoryName = category ? field(category.props, "name") : undefined;
        if (typeof categoryName === "string") {
            return foldCase(categoryName.trim()) === "perfguard"
                ? { rawKey: `perfguard:${head}`, value: name.slice(eq + 1), place: `${place} (category perfguard)` }
                : undefined;
        }
        // A category unknown in the preview (or outside the stack) may be perfguard's: a tag that
        // would then be a fact hides it; any other tag is an ordinary one.
        return factKeyDef(head) ? "hidden" : undefined;
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
const NO_ALIASES: readonly string[] = Object.freeze([]);

/**
 * Builds a ResourceView from an SDK resource (`args` of validateResource, or an element of
 * `args.resources` of validateStack, whose property dependencies hold resource objects).
 */
export function viewOf(
    r: Pick<PolicyResource, "urn" | "type" | "name" | "props"> & {
        propertyDependencies?: Record<string, unknown>;
        opts?: { aliases?: unknown };
        provider?: { urn?: unknown; props?: unknown };
    },
): ResourceView {
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
    const aliases =
        Array.isArray(r.opts?.aliases) && r.opts.aliases.length > 0
            ? r.opts.aliases.filter((a): a is string => typeof a === "string" && a.startsWith("urn:pulumi:"))
            : NO_ALIASES;
    const view = new ResourceView(String(r.urn ?? ""), String(r.type ?? ""), String(r.name ?? ""), unwrapProps(r.props), deps ?? NO_DEPENDENCIES, aliases);
    const provider = r.provider;
    if (provider && typeof provider === "object") {
        view.provider = { urn: String(provider.urn ?? ""), props: unwrapProps(provider.props) };
    }
    return view;
}

/**
 * The last StackView built, for the next stack policy of the same AnalyzeStack. The SDK decodes
 * the stack again for every stack policy (new props objects each time), and building the views
 * and parsing the facts again per policy showed in the profile; so the views, their parsed facts
 * and whatever a room memoizes per StackView are shared by the stack policies of one call.
 *
 * Which call a resource comes from: @pulumi/policy 1.21 (server.js getResourceOptions) hands
 * `opts.ignoreChanges` as the protobuf message's own list (google-protobuf getRepeatedField
 * returns the stored array), the same array for every policy of one request and a new one for
 * each request. A view is reused only when every resource's list is that same array; anything
 * else (another request, a test's own arguments, an SDK that copies the list) builds new views.
 * Dropped on the next turn of the event loop: the SDK runs a call's stack policies in one turn,
 * and the views must not outlive the call.
 */
interface SharedStack {
    readonly stack: StackView;
    /** Per resource, the identity token of its protobuf message (see above). */
    readonly tokens: readonly object[];
}

let lastStack: SharedStack | undefined;
let dropScheduled = false;

function dropLastStack(): void {
    lastStack = undefined;
    dropScheduled = false;
}

/** The identity token of the request message `r` was decoded from, when the SDK exposes one. */
function messageToken(r: PolicyResource): object | undefined {
    const list = (r as { opts?: { ignoreChanges?: unknown } }).opts?.ignoreChanges;
    return list !== null && typeof list === "object" ? list : undefined;
}

/**
 * Builds the StackView of a validateStack call, or hands back the previous stack policy's when
 * both come from the same request (see SharedStack).
 */
export function stackOf(resources: readonly PolicyResource[]): StackView {
    const last = lastStack;
    if (
        last &&
        last.tokens.length === resources.length &&
        resources.every((r, i) => messageToken(r) === last.tokens[i] && last.stack.resources[i].urn === String(r.urn ?? ""))
    ) {
        return last.stack;
    }
    // Other stacks' deployed resources (PERFGUARD_INVENTORY) join the view as foreign ones.
    const stack = new StackView(withInventory(resources.map(viewOf)));
    const tokens: object[] = [];
    for (const r of resources) {
        const token = messageToken(r);
        if (!token) {
            return stack; // nothing to recognise the request by: not shared
        }
        tokens.push(token);
    }
    lastStack = { stack, tokens };
    if (!dropScheduled) {
        dropScheduled = true;
        setImmediate(dropLastStack);
    }
    return stack;
}

/**
 * What a remediation returns: the resource's props exactly as the SDK handed them, with only the
 * `changes` replaced. Every other value keeps its secret marker (the engine stores the result as
 * the resource's new inputs: a secret spread into a plain copy would be stored unencrypted), and
 * a changed field that was secret stays secret. The result is wrapped as the SDK wraps
 * Remediate's inputs (unknownCheckingProxy over secretsPreservingProxy), because the SDK hands it
 * as it is to the next remediating policy, which must read plain values; serializeProperties
 * unwraps both layers and sends each `Secret` as a secret.
 * @param resource - the resource given to `remediate` (its props as the SDK handed them).
 * @param changes - field -> new value, in the provider's form (Avi numbers as strings).
 * @returns the new props, or undefined when the props are not an object (nothing to change).
 */
export function remediatedProps(resource: ResourceView, changes: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
    const raw = rawTarget(resource.props);
    if (!isRecord(raw)) {
        return undefined;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(raw)) {
        out[key] = raw[key];
    }
    for (const key of Object.keys(changes)) {
        out[key] = raw[key] instanceof Secret ? new Secret(changes[key]) : changes[key];
    }
    return unknownCheckingProxy(secretsPreservingProxy(out)) as Record<string, unknown>;
}
