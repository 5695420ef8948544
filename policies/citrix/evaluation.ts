/**
 * The Citrix evaluation, as the rest of the project reads it (cli/ imports this file only):
 * every figure a Citrix verdict, `perfguard check --report`, `perfguard size citrix` or
 * `perfguard diff` shows, computed once per stack and config, and citrix-broker-throttle's
 * decisions on it. The work is done in
 * - compute.ts: the evaluation (per lock, per zone, per Site database: siteDatabase.ts; lock
 *   limits and the throttle that keeps a lock there: lockLimits.ts), shapes in evaluationTypes.ts;
 * - throttleDecisions.ts: citrix-broker-throttle's decisions and the throttles they propose;
 * - settings.ts, roomSettings.ts and schemas.ts: the one evaluation per stack and config, its
 *   settings each read from its one home policy, each default written once in its schema;
 * - names.ts: how messages and figures name zones, groups and storms;
 * - figures.ts: the figures `check --report` and `diff` print.
 * The model's rules are in docs/models.md (Citrix) and compute.ts.
 */
export { citrixEvaluation } from "./compute";
export type { CitrixEvaluation, CitrixEvaluationConfig, GroupEvaluation, LockFeed, SiteEvaluation, SitePart, ZoneEvaluation } from "./evaluationTypes";
export { lockSafeConcurrency, perControllerThrottle, worstMix } from "./lockLimits";
export { siteCap } from "./siteDatabase";
export { EVALUATION_DEFAULTS } from "./compute";
export { citrixRoom, packEvaluation, throttleSettings } from "./settings";
export type { CitrixRoom, PackConfig } from "./settings";
export { throttleDecisions } from "./throttleDecisions";
export type { ThrottleDecision, ThrottleDecisions, ThrottleSettings } from "./throttleDecisions";
export { citrixFigures, NO_CAP } from "./figures";
export { fitted, groupRef, groupShort, ONE_GROUP_TESTED, rttNotes, SITE_WORK_NOT_MEASURED, stormsText, zoneCoverage, zoneRef, zoneShort } from "./names";
export { adviceLimit, MODEL_SOURCE } from "./targets";
/** The room settings' homes and deprecated copies (`perfguard config check` names the home). */
export { appliedFrom, MOVED_SETTINGS, ROOM_SETTINGS } from "./roomSettings";
/** The type tokens a Site is read from (`size citrix` builds a synthetic Site of them). */
export { CATALOG_TYPE, GROUP_TYPE, ZONE_TYPE } from "./site";
