/**
 * The shape of a system's descriptor: what a room tells every reader of its figures (`perfguard
 * check --report`, `perfguard diff`) about itself, so that those readers loop over a registry
 * (cli/systems/index.ts) instead of naming systems. Each room exports one, in
 * `policies/<room>/system.ts`; this module only names the shape (it knows no system).
 */
import type { EntityFigures } from "./figures";
import type { StackView } from "./resources";

/** The reconciled pack config, per policy name (levels and properties with their schema defaults). */
export type PackConfig = Readonly<Record<string, { readonly properties?: Readonly<Record<string, unknown>> } | undefined>>;

/** One policy's properties in the reconciled config ({} when the policy has none). */
export function policyProps(config: PackConfig, policy: string): Record<string, unknown> {
    return config[policy]?.properties ?? {};
}

/**
 * How some of a system's figures follow one shared scale of the whole side (the Citrix Site
 * database's response scale: a capped Delivery Group's response grows with it, its brokered/s
 * shrinks). `perfguard diff` marks a figure that moved only through that scale, and counts it apart
 * from worse and better.
 */
export interface FigureScaling {
    /** The entity kinds whose figures follow the scale. */
    readonly kinds: readonly string[];
    /** Figure key → the power of the scale it is multiplied by (1: × scale, -1: ÷ scale). */
    readonly powers: Readonly<Record<string, number>>;
    /** What `perfguard diff` calls such a move: the figure change's `cause` ("site-database-share"). */
    readonly cause: string;
    /** How the diff's text and Markdown mark it ("Site database share"). */
    readonly label: string;
    /** How the diff's summary line counts such moves: "<n> figure(s) <moved>" ("moved only by the shared Site database"). */
    readonly moved: string;
    /** The side's scale (1 when nothing shares it). May throw: the reader then marks nothing. */
    scaleOf(stack: StackView, config: PackConfig): number;
}

/** One system, as the readers of its figures see it. */
export interface SystemDescriptor {
    /** The `system` of its EntityFigures (the room's folder name); also names its diff plots (`<id>-<entity>.svg`). */
    readonly id: string;
    /** What a reader sees as its heading ("NSX ALB"). */
    readonly title: string;
    /** Its place among the systems in every output (lower first). */
    readonly order: number;
    /**
     * Every judged entity's figures (each with its unit, direction and text), from the room's
     * evaluation: the same computation the policies judge. May throw; the reader says so.
     */
    figures(stack: StackView, config: PackConfig): EntityFigures[];
    /** Where some figures follow a shared scale of the side. */
    readonly scaling?: FigureScaling;
}
