/**
 * The brokering targets shared by citrix-broker-throttle and citrix-brokering-capacity, and the
 * sentences that explain a concurrency against them.
 */
import { maxSafeConcurrency, predictBrokering } from "../../model/brokering";
import { adviceMaxConcurrent, measuredLimit } from "../../model/citrixGuidance";
import { num, pct } from "../pack/format";
import type { BrokeringTargets } from "./schemas";
import { TARGET_DEFAULTS } from "./schemas";

/** Targets as configured: mean response (s) and error budget (percent, 0.1 = 0.1 %). */
export type { BrokeringTargets } from "./schemas";

/**
 * The largest concurrency that meets the targets at this RTT (0 when none does): the model's, never
 * above a measured cell that missed the targets (measuredLimit), nor above the source's advice for
 * this RTT where it binds (adviceLimit: at most 24 from 160 ms; the model alone gives 25 at 160 ms).
 */
export function safeConcurrency(rttMs: number, targets: BrokeringTargets): number {
    const errorBudget = targets.errorBudgetPct / 100;
    const model = maxSafeConcurrency({ rttMs, targetResponseS: targets.targetResponseS, errorBudget });
    const measured = Math.min(model, measuredLimit(rttMs, targets.targetResponseS, errorBudget) ?? model);
    return Math.min(measured, adviceLimit(rttMs, targets) ?? measured);
}

/**
 * The source's advice for this RTT (at most 24 from 160 ms) where it binds: with the default
 * targets or stricter ones, which are the source's (its 160 ms / 24 cell, 11.4 s, 0 %). Targets
 * relaxed in the policy config are the user's choice: there the model and the measured cells
 * that missed them decide (measuredLimit), not advice given for other targets.
 */
export function adviceLimit(rttMs: number, targets: BrokeringTargets): number | undefined {
    const strict = targets.targetResponseS <= TARGET_DEFAULTS.targetResponseS && targets.errorBudgetPct <= TARGET_DEFAULTS.errorBudgetPct;
    return strict ? adviceMaxConcurrent(rttMs)?.value : undefined;
}

/** "the model predicts a mean response of 19.1 s and 0.52% errors at 40 concurrent requests" */
export function predictionSentence(rttMs: number, concurrency: number): string {
    const p = predictBrokering({ rttMs, concurrency });
    return `the brokering model predicts a mean response of ${num(p.meanResponseS)} s and ${pct(p.errorRate)} timed-out requests at ${concurrency} concurrent requests`;
}

/** "targets: mean response <= 12 s (targetResponseS), errors <= 0.1% (errorBudgetPct)" */
export function targetsText(targets: BrokeringTargets): string {
    return `mean response <= ${num(targets.targetResponseS)} s (targetResponseS) and errors <= ${num(targets.errorBudgetPct, 4)}% (errorBudgetPct)`;
}

/** "12 s / 0.1% (targetResponseS, errorBudgetPct; brokering model)": for basis lines (the model's source is in docs/models.md). */
export function targetsBasis(targets: BrokeringTargets): string {
    const d = TARGET_DEFAULTS;
    const changed = targets.targetResponseS !== d.targetResponseS || targets.errorBudgetPct !== d.errorBudgetPct;
    return `${num(targets.targetResponseS)} s / ${num(targets.errorBudgetPct, 4)}% (${changed ? `targetResponseS, errorBudgetPct, set in the policy config; defaults ${num(d.targetResponseS)} s / ${num(d.errorBudgetPct, 4)}%; ` : ""}brokering model)`;
}

/**
 * A config value for a basis line: "200, set in the policy config; default 250" when it differs
 * from the default, "250 (default)" when it does not.
 */
export function configured(value: number, fallback: number, unit = ""): string {
    return value === fallback ? `${num(value, 4)}${unit} (default)` : `${num(value, 4)}${unit}, set in the policy config; default ${num(fallback, 4)}${unit}`;
}

/** Where the model's numbers come from, for messages. */
export const MODEL_SOURCE = "brokering model calibrated on the XenApp/XenDesktop 7.7 zone tests";
