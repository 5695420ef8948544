/**
 * The Citrix room's one evaluation per stack and pack config: what every Citrix policy judges,
 * and `check --report`, `size` and `diff` print. Its config is the room's settings, each read from
 * its one home (roomSettings.ts); a setting absent takes its schema's default (schemas.ts, never
 * restated here). citrix-broker-throttle's decisions are taken once on it.
 */
import { settingsOf } from "../pack/policyConfigs";
import type { StackView } from "../pack/resources";
import { citrixEvaluation } from "./compute";
import type { CitrixEvaluation } from "./evaluationTypes";
import { roomConfig, THROTTLE } from "./roomSettings";
import { BROKER_THROTTLE_SCHEMA, schemaNumber } from "./schemas";
import { ThrottleDecisions, throttleDecisions, ThrottleSettings } from "./throttleDecisions";

/** The pack config by policy name, as the engine hands it (properties with defaults). */
export type PackConfig = Readonly<Record<string, { readonly properties?: Readonly<Record<string, unknown>> } | undefined>>;

/** A configured number, or undefined (the schema's default then applies). */
function numberIn(value: unknown): number | undefined {
    return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** citrix-broker-throttle's own settings as the pack config gives them, the schema's defaults for the rest. */
export function throttleSettings(config?: PackConfig): ThrottleSettings {
    const thr = config?.[THROTTLE]?.properties ?? {};
    return {
        requireAtRttMs: numberIn(thr.requireAtRttMs) ?? schemaNumber(BROKER_THROTTLE_SCHEMA, "requireAtRttMs"),
        requireControllersInStack:
            typeof thr.requireControllersInStack === "boolean"
                ? thr.requireControllersInStack
                : BROKER_THROTTLE_SCHEMA.requireControllersInStack.default === true,
    };
}

/** What the Citrix readers of a pack config (`check --report`, `diff`) show of a stack. */
export interface CitrixRoom {
    /** The one evaluation the Citrix policies judge with under this config. */
    readonly evaluation: CitrixEvaluation;
    /** citrix-broker-throttle's decisions on it: what its verdicts propose. */
    readonly decisions: ThrottleDecisions;
}

/** The one evaluation of `stack` under the pack config (`check --report`, `size`, `diff`), and the throttle decisions on it. */
export function citrixRoom(stack: StackView, config?: PackConfig): CitrixRoom {
    const evaluation = citrixEvaluation(
        stack,
        roomConfig((policy) => config?.[policy]?.properties),
    );
    return { evaluation, decisions: throttleDecisions(evaluation, throttleSettings(config)) };
}

/**
 * In a pack run: the one evaluation of `stack`, its settings read from their homes (the policies
 * that have run on this stack, else what the engine's Configure carried: policyConfigs.ts). Every
 * Citrix policy calls this, so all read the same object (memoized per stack and config).
 */
export function packEvaluation(stack: StackView): CitrixEvaluation {
    return citrixEvaluation(
        stack,
        roomConfig((policy) => settingsOf(stack, policy)),
    );
}
