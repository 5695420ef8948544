/**
 * The shape every system's evaluation exposes its figures in, so that `perfguard check --report`,
 * `perfguard diff` and the tests that compare them with the verdicts read one list, whatever the
 * system. The figures themselves are computed once, in `policies/<system>/evaluation.ts`; this
 * module only names their shape (it knows no system).
 */

/** Which way a change of the figure is an improvement (diff counts "worse" and "better" by it). */
export type Better = "lower" | "higher" | "none";

/** One computed figure of one entity: a number with its unit, or why it could not be computed. */
export interface Figure {
    /** Stable key within the entity ("meanResponseS", "busiestSePct"): diff pairs figures by it. */
    readonly key: string;
    /** What a reader sees ("mean brokering response"). */
    readonly label: string;
    /** The value in `unit`; undefined when not computed (then `notChecked` says why). */
    readonly value?: number;
    /** "s", "%", "req/s", "MB/s", "vCPUs", "min", "" for a count. */
    readonly unit: string;
    readonly better: Better;
    /** The value as the verdicts print it ("18.9 s", "115%"); the one place it is formatted. */
    readonly text: string;
    /** Why the figure is not computed, in the "not checked" wording; set exactly when value is undefined. */
    readonly notChecked?: string;
    /**
     * A figure without a value that is no blind spot: the state it stands for, as every reader
     * (`check --report`, `perfguard diff`) prints it instead of "not checked" ("no cap": no throttle
     * is set, so nothing caps it; "never"). Equal to `text`; `notChecked` then says why there is no number.
     */
    readonly state?: string;
    /** What the value rests on where it was not measured ("RTT not measured: the model interpolated between 90 and 160 ms"). */
    readonly note?: string;
}

/**
 * A set of names an entity's figures rest on (a Citrix zone's Delivery Groups, who declares its
 * peak): no number, but a change of it changes the entity even where every figure rounds the same.
 */
export interface Membership {
    /** Stable key within the entity ("deliveryGroups"): diff pairs memberships by it. */
    readonly key: string;
    /** What a reader sees ("Delivery Groups"). */
    readonly label: string;
    /** The members as a reader sees them, sorted. */
    readonly names: readonly string[];
}

/** One judged entity (a Citrix zone or Delivery Group, an SE group, a Xen host) with its figures. */
export interface EntityFigures {
    /** The id of the system whose evaluation computed it (its descriptor's `id`, policies/pack/system.ts). */
    readonly system: string;
    /** "zone", "deliveryGroup", "site", "seGroup", "host". */
    readonly kind: string;
    /** Stable identity across two states of a stack (the resource name or the entity's own name). */
    readonly id: string;
    /** What a reader sees ("zone emea-east", "SE group se-web"). */
    readonly label: string;
    /** The URN of the resource the entity's verdicts are reported on, where there is one. */
    readonly urn?: string;
    readonly figures: readonly Figure[];
    /** What its figures rest on that is a set of names, where the system has one (diff compares them). */
    readonly members?: readonly Membership[];
    /** Why the entity as a whole was not evaluated, in the "not checked" wording. */
    readonly notChecked?: string;
    /**
     * An entity of other stacks alone (PERFGUARD_INVENTORY): another stack's resource that is only
     * load on a shared object (another team's VS on the network team's SE group), or another
     * stack's object that no resource of this stack declares or uses. The shared object's row and
     * its verdicts' Basis name it; `perfguard diff` gives it no row unless the other side uses it.
     */
    readonly othersOnly?: true;
    /**
     * The other stacks (`project/stack`, sorted) whose resources the entity's figures count: a
     * shared object's owner and the stacks whose load is on it. Absent when there are none.
     */
    readonly stacks?: readonly string[];
}
