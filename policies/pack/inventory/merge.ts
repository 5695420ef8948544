/**
 * Other stacks' deployed resources in the previewed stack's view: the inventory's entries of
 * other stacks join as foreign resources (tagged with their origin); the previewed stack's own
 * entry (same project and stack, from the URNs) is replaced by the preview, never counted twice,
 * and only lends its deployed identity (uuid, URL, id) to the resources the preview cannot know yet.
 */
import { ResourceView, VSPHERE_VM_TYPE } from "../resourceView";
import type { ResourceOrigin } from "../resourceView";
import { isUnknown } from "../values";
import { candidateEntries } from "./candidates";
import { currentInventory } from "./current";
import { urnStack } from "./read";
import { joinKeys, stackIndex, StackIndex, touchedStacks } from "./touched";
import type { Inventory, InventoryEntry, InventoryResource } from "./types";

/** Output keys that name a deployed object (Avi `uuid` and `url`, any resource's `id`): nothing else is lent. */
const IDENTITY_KEYS = ["id", "uuid", "url"] as const;

/** The Pulumi name in a URN (its last `::` segment). */
function nameOf(urn: string): string {
    const at = urn.lastIndexOf("::");
    return at < 0 ? urn : urn.slice(at + 2);
}

/** A resource of the inventory as a view: its outputs (with its id, as the engine's state holds it). */
export function foreignView(r: InventoryResource, origin: ResourceOrigin): ResourceView {
    const props = r.id !== undefined && r.outputs.id === undefined ? { ...r.outputs, id: r.id } : r.outputs;
    return new ResourceView(r.urn, r.type, nameOf(r.urn), props, r.propertyDependencies ?? {}, [], origin);
}

/** The project and stack being previewed: those of the first resource URN that names them. */
export function previewedStack(views: readonly ResourceView[]): { project: string; stack: string } | undefined {
    for (const v of views) {
        const s = urnStack(v.urn);
        if (s) {
            return s;
        }
    }
    return undefined;
}

/** A stack as the caches key it: project and stack ("" for none). */
export function stackId(s: { project: string; stack: string } | undefined): string {
    return s ? `${s.project}\u0000${s.stack}` : "";
}

const foreignCache = new WeakMap<Inventory, Map<string, readonly ResourceView[]>>();
/**
 * Each touched entry's views, built once for the stack being previewed (readAhead builds them
 * while Analyze calls arrive; AnalyzeStack's merge reuses them and their parsed facts). Dropped
 * when another stack is previewed: `perfguard check` of a fleet previews each stack in turn.
 */
let entryViewCache: { previewed: string; views: Map<InventoryEntry, ResourceView[]> } = { previewed: "", views: new Map() };

function cachedEntryViews(previewed: { project: string; stack: string } | undefined): (e: InventoryEntry) => ResourceView[] {
    const id = stackId(previewed);
    if (entryViewCache.previewed !== id) {
        entryViewCache = { previewed: id, views: new Map() };
    }
    const views = entryViewCache.views;
    return (e) => {
        let built = views.get(e);
        if (!built) {
            built = entryViews(e);
            views.set(e, built);
        }
        return built;
    };
}
const indexCache = new WeakMap<InventoryEntry, StackIndex>();

/** An entry's index: the digest's, else computed from its resources once. */
function indexOf(e: InventoryEntry): StackIndex {
    let index = e.index ?? indexCache.get(e);
    if (!index) {
        index = stackIndex(e.resources);
        indexCache.set(e, index);
    }
    return index;
}

/** The views of one entry's resources, each with its provider (`<provider urn>::<provider id>` of the same deployment). */
function entryViews(e: InventoryEntry): ResourceView[] {
    const origin: ResourceOrigin = { project: e.project, stack: e.stack, ...(e.time ? { time: e.time } : {}) };
    const providers = new Map(e.resources.filter((r) => r.type.startsWith("pulumi:providers:")).map((r) => [`${r.urn}::${r.id ?? ""}`, r]));
    return e.resources.map((r) => {
        const view = foreignView(r, origin);
        const provider = r.provider !== undefined ? providers.get(r.provider) : undefined;
        if (provider) {
            view.provider = { urn: provider.urn, props: provider.outputs };
        }
        return view;
    });
}

/**
 * The entries but the previewed stack's that touch a shared object of `ownKeys` (sorted join
 * keys), in inventory order; every other entry when `ownKeys` is undefined. A digest's stacks that
 * no key can reach are left out unread (candidates.ts); the selection is touchedStacks'.
 */
function touchedEntries(
    inventory: Inventory,
    previewed: { project: string; stack: string } | undefined,
    ownKeys: readonly string[] | undefined,
): InventoryEntry[] {
    const others = inventory.entries.filter((e) => !isPreviewed(e, previewed));
    if (!ownKeys) {
        return others;
    }
    const candidates = candidateEntries(others, ownKeys, indexOf);
    return touchedStacks(ownKeys, candidates.map(indexOf)).map((i) => candidates[i]);
}

/**
 * The views of the entries but the previewed stack's that touch a shared object of `own`
 * (touched.ts: the others cannot change a verdict of this stack), built once per inventory,
 * previewed stack and set of keys; every entry when `own` is undefined.
 */
export function foreignViews(
    inventory: Inventory,
    previewed: { project: string; stack: string } | undefined,
    own?: ReadonlySet<string>,
): readonly ResourceView[] {
    const ownKeys = own ? [...own].sort() : undefined;
    const key = `${stackId(previewed)}\u0001${ownKeys ? ownKeys.join("\u0000") : "*"}`;
    let byKey = foreignCache.get(inventory);
    if (!byKey) {
        byKey = new Map();
        foreignCache.set(inventory, byKey);
    }
    let views = byKey.get(key);
    if (!views) {
        views = touchedEntries(inventory, previewed, ownKeys).flatMap(cachedEntryViews(previewed));
        // One preview asks with one key; `perfguard check` of a fleet previews each stack in turn
        // in one process (cli/fleet.ts): keep the last few, not every stack's views.
        if (byKey.size >= 4) {
            byKey.clear();
        }
        byKey.set(key, views);
    }
    return views;
}

function isPreviewed(e: InventoryEntry, previewed: { project: string; stack: string } | undefined): boolean {
    return previewed !== undefined && e.project === previewed.project && e.stack === previewed.stack;
}

function isRecordLike(v: unknown): v is Record<string, unknown> {
    return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * The previewed resource with the deployed identity its inventory entry knows, where the preview
 * has it unknown or unset (an update's computed uuid and URL): other stacks' refs still resolve.
 */
function withDeployedIdentity(view: ResourceView, deployed: InventoryResource | undefined): ResourceView {
    if (!deployed || !isRecordLike(view.props)) {
        return view;
    }
    const props = view.props;
    let fills: Record<string, unknown> | undefined;
    for (const key of IDENTITY_KEYS) {
        const have = props[key];
        const known = key === "id" ? (deployed.id ?? deployed.outputs.id) : deployed.outputs[key];
        if ((have === undefined || isUnknown(have)) && typeof known === "string" && known !== "") {
            fills ??= {};
            fills[key] = known;
        }
    }
    if (!fills) {
        return view;
    }
    const filled = new ResourceView(view.urn, view.type, view.name, { ...props, ...fills }, view.propertyDependencies, view.aliases, view.origin);
    filled.provider = view.provider;
    return filled;
}

/**
 * The previewed stack's views followed by the other stacks' (PERFGUARD_INVENTORY); `own` itself
 * when the variable is not set. The previewed stack's entry in the inventory never joins.
 * @param alsoTouching - other views whose shared objects also select stacks (`perfguard diff`:
 *   the other side's, so that a group head starts to use is judged in base too, with its load then).
 */
export function withInventory(own: readonly ResourceView[], alsoTouching: readonly ResourceView[] = []): readonly ResourceView[] {
    const inventory = currentInventory();
    if (!inventory || inventory.entries.length === 0) {
        return own;
    }
    // An empty side (a stack never deployed) is the stack of the other side.
    const previewed = previewedStack(own) ?? previewedStack(alsoTouching);
    const ownEntry = inventory.entries.find((e) => isPreviewed(e, previewed));
    const deployed = ownEntry ? new Map(ownEntry.resources.map((r) => [r.urn, r])) : undefined;
    const views = deployed ? own.map((v) => withDeployedIdentity(v, deployed.get(v.urn))) : [...own];
    const keys = new Set<string>();
    for (const v of [...views, ...alsoTouching]) {
        joinKeys(v.type, v.props, keys);
    }
    return views.concat(foreignViews(inventory, previewed, keys));
}

/**
 * Reads ahead for the previewed stack (prefetch.ts): the views of the other stacks that `keys`
 * (new join keys of resources Analyze has seen) reach, with their facts parsed, so that
 * AnalyzeStack's merge finds them built. Decides nothing: AnalyzeStack selects with its own keys.
 */
export function readAhead(previewed: { project: string; stack: string }, keys: ReadonlySet<string>): void {
    const inventory = currentInventory();
    if (!inventory || inventory.entries.length === 0 || keys.size === 0) {
        return;
    }
    const views = cachedEntryViews(previewed);
    for (const entry of touchedEntries(inventory, previewed, [...keys].sort())) {
        for (const view of views(entry)) {
            // A vSphere VM's facts join its tag objects, which only a StackView knows: not read ahead.
            if (view.type !== VSPHERE_VM_TYPE) {
                view.parseFacts();
            }
        }
    }
}
