/**
 * What the CLI adds to a room's descriptor (policies/pack/system.ts): its section of `perfguard
 * check --report` and its chart of `perfguard diff --plot`. These print and draw, so they live in
 * cli/ (a room never imports cli/); cli/systems/<system>.ts joins them to the room's descriptor and
 * cli/systems/index.ts lists the result.
 */
import type { PackConfig, SystemDescriptor } from "../../policies/pack/system";
import type { StackView } from "../../policies/pack/resources";
import type { PolicyConfigEntry } from "../../preview/packClient";
import type { StatePanel } from "../plots/states";

/** The reconciled policy config of one side (what the pack was given). */
export type SideConfig = Readonly<Record<string, PolicyConfigEntry>>;

export function propsOf(config: SideConfig, policy: string): Record<string, unknown> {
    return config[policy]?.properties ?? {};
}

/** One state of a stack as a chart reads it: the stack and the config its pack was given. */
export interface SystemSide {
    readonly stack: StackView;
    readonly config: SideConfig;
}

/** One state's chart of an entity, or why there is none. */
export type Panel = StatePanel | { readonly absent: string };

/** A system's chart in `perfguard diff --plot`: one kind of entity, drawn per state. */
export interface SystemPlot {
    /** The entity kind drawn ("zone", "seGroup", "host"). */
    readonly kind: string;
    /** The entity `id` at state `side`; `other` is the other state (to share a range with it). */
    panel(side: SystemSide, id: string, other: SystemSide): Promise<Panel>;
}

/** A system as the CLI loops over it. */
export interface CliSystem extends SystemDescriptor {
    /** Its section of `check --report` (Markdown ending with a blank line), "" when the stack has none of it. */
    report(stack: StackView, config: PackConfig): string;
    /** Its chart in `diff --plot`, where it draws one. */
    readonly plot?: SystemPlot;
}
