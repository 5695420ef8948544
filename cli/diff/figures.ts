/**
 * The one place `perfguard diff` gets its figures: every system's entities as EntityFigures
 * (policies/pack/figures.ts), from the stack as AnalyzeStack sees it and the reconciled policy
 * config of that side.
 *
 * Each system's figures come from its evaluation (citrixFigures, nsxAlbFigures, xenFigures): the
 * same computation the policies judge, so a diff figure is the verdict's figure.
 */
import { citrixFigures } from "../../policies/citrix/evaluation";
import type { EntityFigures } from "../../policies/pack/figures";
import type { StackView } from "../../policies/pack/resources";
import { nsxAlbFigures } from "../../policies/nsx-alb/evaluation";
import { xenFigures } from "../../policies/xen/evaluation";
import type { PolicyConfigEntry } from "../../preview/packClient";

/** The reconciled policy config of one side (what the pack was given). */
export type SideConfig = Readonly<Record<string, PolicyConfigEntry>>;

export function propsOf(config: SideConfig, policy: string): Record<string, unknown> {
    return (config[policy]?.properties ?? {});
}

/**
 * Every entity's figures, in a fixed order (Citrix, NSX ALB, Xen; each system's own order).
 * Never throws on odd props: a system whose evaluation throws gives one entity saying so.
 */
export function stackFigures(stack: StackView, config: SideConfig): EntityFigures[] {
    return [
        ...guarded("citrix", () => citrixFigures(stack, config)),
        ...guarded("nsx-alb", () => nsxAlbFigures(stack, propsOf(config, "nsx-alb-se-capacity"))),
        ...guarded("xen", () => xenFigures(stack, propsOf(config, "xen-guest-network-share"))),
    ];
}

function guarded(system: EntityFigures["system"], run: () => EntityFigures[]): EntityFigures[] {
    try {
        return run();
    } catch (err) {
        // A figure perfguard cannot compute is "not checked", never a silent gap.
        return [{ system, kind: "system", id: "(evaluation)", label: `${system} evaluation`, figures: [], notChecked: `the evaluation failed: ${(err as Error).message ?? String(err)}` }];
    }
}
