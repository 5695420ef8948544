/**
 * `perfguard check --report` of a fleet: one Markdown report of every stack, whose figures are
 * the shared objects' with every stack's load, each contribution named with its stack (issue
 * 32): an SE group's VSs, a zone's Delivery Groups and controllers, a host's guests, each as
 * `<resource> (<project>/<stack>)`. The verdicts are the fleet's, each cause once (fleetCauses.ts).
 */
import { foreignViews } from "../policies/pack/inventory/merge";
import type { InventoryEntry } from "../policies/pack/inventory/types";
import { ResourceView, StackView } from "../policies/pack/resources";
import type { Violation } from "../preview/types";
import type { AnalyzedCheck } from "./check";
import { stackNamed } from "./judgedView";
import { buildReport } from "./report";

/**
 * Every stack's resources as one view: each of its stack (origin) with its provider, named with its
 * stack; the stacks of a digest given with the exports add their load (cli/fleetSources.ts). The
 * fleet's report and its Xen host causes (fleetXen.ts) read it.
 */
export function fleetStackView(analyzed: readonly AnalyzedCheck[], loadOnly: readonly InventoryEntry[] = []): StackView {
    const extra = loadOnly.length > 0 ? foreignViews({ spec: "", entries: loadOnly, errors: [], duplicates: [] }, undefined).map(stackNamed) : [];
    const views: ResourceView[] = [];
    for (const a of analyzed) {
        const { project, stack } = a.exported;
        const byRef = new Map(
            a.exported.resources.filter((r) => r.type.startsWith("pulumi:providers:")).map((r) => [`${r.urn}::${String(r.outputs.id ?? "")}`, r]),
        );
        for (const r of a.exported.resources) {
            const view = new ResourceView(r.urn, r.type, r.name, r.outputs, r.propertyDependencies, [], { project, stack });
            const provider =
                r.provider !== undefined ? (byRef.get(r.provider) ?? a.exported.resources.find((p) => r.provider?.startsWith(`${p.urn}::`))) : undefined;
            if (provider) {
                view.provider = { urn: provider.urn, props: provider.outputs };
            }
            views.push(stackNamed(view));
        }
    }
    return new StackView([...views, ...extra]);
}

/** The fleet's report (see the header), of the fleet's view (fleetStackView). */
export function buildFleetReport(
    sources: readonly string[],
    analyzed: readonly AnalyzedCheck[],
    kept: ReadonlyArray<readonly Violation[]>,
    view: StackView,
): string {
    const first = analyzed[0];
    return buildReport({
        file: `${sources.join(", ")} (fleet of ${analyzed.length} stacks)`,
        packName: first.info.name,
        packVersion: first.info.version,
        resources: analyzed.flatMap((a) => a.exported.resources),
        violations: kept.flat(),
        config: first.config,
        stack: view,
    });
}
