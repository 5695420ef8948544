/**
 * The one place `perfguard diff` gets its figures: every registered system's entities as
 * EntityFigures (policies/pack/figures.ts), from the stack as AnalyzeStack sees it and the
 * reconciled policy config of that side.
 *
 * Each system's figures come from its descriptor (cli/systems, `figures`: its room's evaluation):
 * the same computation the policies judge, so a diff figure is the verdict's figure.
 */
import type { EntityFigures } from "../../policies/pack/figures";
import type { StackView } from "../../policies/pack/resources";
import { SYSTEMS } from "../systems";
import type { SideConfig } from "../systems/types";

export { propsOf } from "../systems/types";
export type { SideConfig } from "../systems/types";

/**
 * Every entity's figures, in a fixed order (the registry's, then each system's own order).
 * Never throws on odd props: a system whose evaluation throws gives one entity saying so.
 */
export function stackFigures(stack: StackView, config: SideConfig): EntityFigures[] {
    return SYSTEMS.flatMap((s) => guarded(s.id, () => s.figures(stack, config)));
}

function guarded(system: string, run: () => EntityFigures[]): EntityFigures[] {
    try {
        return run();
    } catch (err) {
        // A figure perfguard cannot compute is "not checked", never a silent gap.
        return [
            {
                system,
                kind: "system",
                id: "(evaluation)",
                label: `${system} evaluation`,
                figures: [],
                notChecked: `the evaluation failed: ${(err as Error).message ?? String(err)}`,
            },
        ];
    }
}
