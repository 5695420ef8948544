/**
 * The stack as the pack's AnalyzeStack judges it, for the figures computed in the CLI process
 * (`diff`, `check --report`): each resource's outputs and property dependencies, its provider's
 * inputs (what preview/analyzeResources.ts sends), and, with PERFGUARD_INVENTORY set, the other
 * stacks' deployed resources joined exactly as the pack joins them (policies/pack/inventory/merge.ts:
 * the stack's own entry replaced, only the stacks that touch its shared objects). The CLI process
 * and the pack it starts read the same variable, so a figure is the verdict's figure.
 */
import { withInventory } from "../policies/pack/inventory/merge";
import { ResourceView, StackView } from "../policies/pack/resources";
import type { RecordedResource } from "../preview/types";

/** One view per resource, each with its provider (by the reference's URN, as the pack is sent it). */
export function recordedViews(resources: readonly RecordedResource[]): ResourceView[] {
    const byUrn = new Map(resources.filter((r) => r.type.startsWith("pulumi:providers:")).map((r) => [r.urn, r]));
    return resources.map((r) => {
        const view = new ResourceView(r.urn, r.type, r.name, r.outputs, r.propertyDependencies);
        const provider = r.provider !== undefined ? byUrn.get(r.provider.slice(0, r.provider.lastIndexOf("::"))) : undefined;
        if (provider) {
            view.provider = { urn: provider.urn, props: provider.inputs };
        }
        return view;
    });
}

/** Zones are joined by their name (a controller's perfguard:citrixZone): theirs is kept as declared. */
const NAME_KEPT = new Set(["citrix:index/zone:Zone"]);

/**
 * How another stack's resource is named in figures: `<name> (<project>/<stack>)`, so that its
 * contribution is told from this stack's and from a same-named one of a third stack.
 */
export function stackNamed(view: ResourceView): ResourceView {
    const o = view.origin;
    if (!o || NAME_KEPT.has(view.type)) {
        return view;
    }
    const named = new ResourceView(view.urn, view.type, `${view.name} (${o.project}/${o.stack})`, view.props, view.propertyDependencies, view.aliases, o);
    named.provider = view.provider;
    return named;
}

/**
 * The judged view of one stack's resources (see the header); the stack alone when no inventory
 * is set. @param other - `perfguard diff`'s other side: the stacks its shared objects touch join
 * this side too, so a group head starts to use shows its load before the change.
 */
export function judgedStackView(resources: readonly RecordedResource[], other: readonly RecordedResource[] = []): StackView {
    const own = recordedViews(resources);
    return new StackView(withInventory(own, other.length > 0 ? recordedViews(other) : []).map((v) => (v.foreign ? stackNamed(v) : v)));
}
