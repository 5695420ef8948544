/**
 * The Citrix room's settings, read from the pack's config (`check --report`, `diff`): each
 * policy's properties, a setting absent there taking its schema's default (schemas.ts, never
 * restated here), and the evaluations and throttle decisions the policies judge with on them.
 */
import type { StackView } from "../pack/resources";
import { citrixEvaluation } from "./compute";
import type { CitrixEvaluation } from "./evaluationTypes";
import { BROKER_THROTTLE_SCHEMA, schemaNumber } from "./schemas";
import type { ExternalControllers } from "./site";
import { siteRateOf } from "./siteSetting";
import { ThrottleDecisions, throttleDecisions, ThrottleSettings } from "./throttleDecisions";

/** The pack config by policy name, as the engine hands it (properties with defaults). */
export type PackConfig = Readonly<Record<string, { readonly properties?: Readonly<Record<string, unknown>> } | undefined>>;

/** A configured number, or undefined (the evaluation then takes the schema's default). */
function numberIn(value: unknown): number | undefined {
    return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function propsOf(config: PackConfig | undefined, policy: string): Readonly<Record<string, unknown>> {
    return config?.[policy]?.properties ?? {};
}

/** citrix-broker-throttle's own settings as the pack config gives them, the schema's defaults for the rest. */
export function throttleSettings(config?: PackConfig): ThrottleSettings {
    const thr = propsOf(config, "citrix-broker-throttle");
    return {
        requireAtRttMs: numberIn(thr.requireAtRttMs) ?? schemaNumber(BROKER_THROTTLE_SCHEMA, "requireAtRttMs"),
        requireControllersInStack:
            typeof thr.requireControllersInStack === "boolean"
                ? thr.requireControllersInStack
                : BROKER_THROTTLE_SCHEMA.requireControllersInStack.default === true,
    };
}

/** What the Citrix policies judge a stack with under one pack config. */
export interface CitrixEvaluations {
    /** citrix-brokering-capacity's (predictions, launch times). */
    readonly capacity: CitrixEvaluation;
    /** citrix-broker-throttle's (first-come exposure, proposed throttle; with its externalControllers). */
    readonly throttle: CitrixEvaluation;
    /** citrix-site-database-load's (satellites, the measured Site rate). */
    readonly database: CitrixEvaluation;
    /** citrix-broker-throttle's decisions on its evaluation: what its verdicts propose. */
    readonly decisions: ThrottleDecisions;
}

/** The evaluations each Citrix policy judges with, from the pack's config. */
export function citrixEvaluations(stack: StackView, config?: PackConfig): CitrixEvaluations {
    const cap = propsOf(config, "citrix-brokering-capacity");
    const thr = propsOf(config, "citrix-broker-throttle");
    const db = propsOf(config, "citrix-site-database-load");
    const externals =
        thr.externalControllers !== null && typeof thr.externalControllers === "object" ? (thr.externalControllers as ExternalControllers) : undefined;
    const throttle = citrixEvaluation(stack, {
        targetResponseS: numberIn(thr.targetResponseS),
        errorBudgetPct: numberIn(thr.errorBudgetPct),
        externalControllers: externals,
    });
    return {
        capacity: citrixEvaluation(stack, { targetResponseS: numberIn(cap.targetResponseS), errorBudgetPct: numberIn(cap.errorBudgetPct) }),
        throttle,
        // measuredSiteBrokeredPerS: its one home, else the deprecated copy (siteSetting.ts).
        database: citrixEvaluation(stack, {
            satelliteAtRttMs: numberIn(db.satelliteAtRttMs),
            measuredSiteBrokeredPerS: siteRateOf(db.measuredSiteBrokeredPerS, cap.measuredSiteBrokeredPerS),
        }),
        decisions: throttleDecisions(throttle, throttleSettings(config)),
    };
}
