/**
 * The one place `perfguard diff` gets its figures: every system's entities as EntityFigures
 * (policies/pack/figures.ts), from the stack as AnalyzeStack sees it and the reconciled policy
 * config of that side.
 *
 * Xen: xenFigures from policies/xen/evaluation.ts (the evaluation the Xen policies judge).
 *
 * TODO(lead): INTERIM ADAPTER for Citrix and NSX ALB. Until policies/citrix/evaluation.ts
 * (`citrixFigures`) and policies/nsx-alb/evaluation.ts (`nsxAlbFigures`) land, `interimCitrix`
 * and `interimNsxAlb` below build the same shape from the readers and models `check --report`
 * and the policies use today (citrixSite/groupLoads/siteBudget/predictLoad; evaluateSeGroups'
 * placement, the busiest SE). At merge, replace the two functions' bodies by
 *     citrixFigures(stack, citrixConfigOf(config))  and  nsxAlbFigures(stack, seConfigOf(config))
 * and delete everything below the marker "interim only"; nothing else in cli/diff/ changes
 * (it reads EntityFigures and the keys are compared as opaque strings).
 */
import type { EntityFigures, Figure } from "../../policies/pack/figures";
import { duration, num, pct } from "../../policies/pack/format";
import type { StackView } from "../../policies/pack/resources";
import { nsxAlbFigures } from "../../policies/nsx-alb/evaluation";
import { xenFigures } from "../../policies/xen/evaluation";
import type { PolicyConfigEntry } from "../../preview/packClient";
// interim only (see the TODO above): the readers the evaluations will wrap.
import { siteBudget } from "../../policies/citrix/budget";
import { predictLoad } from "../../policies/citrix/capacityMessages";
import { effectiveConcurrency, groupLoads, zoneThrottle } from "../../policies/citrix/load";
import { citrixSite } from "../../policies/citrix/site";

/** The reconciled policy config of one side (what the pack was given). */
export type SideConfig = Readonly<Record<string, PolicyConfigEntry>>;

export function propsOf(config: SideConfig, policy: string): Record<string, unknown> {
    return (config[policy]?.properties ?? {}) as Record<string, unknown>;
}

/**
 * Every entity's figures, in a fixed order (Citrix, NSX ALB, Xen; each system's own order).
 * Never throws on odd props: a system whose evaluation throws gives one entity saying so.
 */
export function stackFigures(stack: StackView, config: SideConfig): EntityFigures[] {
    return [
        ...guarded("citrix", () => interimCitrix(stack, config)),
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

// ---- interim only (TODO(lead): replace by citrixFigures / nsxAlbFigures) ------------------------

function numberOr(value: unknown, fallback: number): number {
    return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function fig(key: string, label: string, value: number | undefined, unit: string, better: Figure["better"], text: (v: number) => string, notChecked?: string): Figure {
    return value === undefined || !Number.isFinite(value)
        ? { key, label, unit, better, text: "not checked", notChecked: notChecked ?? "not computed" }
        : { key, label, value, unit, better, text: text(value) };
}

function interimCitrix(stack: StackView, config: SideConfig): EntityFigures[] {
    const site = citrixSite(stack);
    if (site.zones.length === 0) {
        return [];
    }
    const cap = propsOf(config, "citrix-brokering-capacity");
    const targets = { targetResponseS: numberOr(cap.targetResponseS, 12), errorBudgetPct: numberOr(cap.errorBudgetPct, 0.1) };
    const loads = groupLoads(site);
    const budget = siteBudget(loads, targets);
    const out: EntityFigures[] = [];
    for (const zone of site.zones) {
        const rtt = zone.rttMs;
        const why = zone.daas ? "a Citrix DaaS resource location: no Site database over the WAN, not judged"
            : rtt.state === "absent" ? "it declares no perfguard:rttMs" : rtt.state !== "ok" ? "its perfguard:rttMs is unknown in this preview or invalid" : undefined;
        const concurrency = why === undefined ? effectiveConcurrency(zone, loads)?.value : undefined;
        const throttle = zoneThrottle(zone);
        const zoneBudget = budget.zoneBudget.get(zone);
        out.push({
            system: "citrix", kind: "zone", id: `zone:${zone.zoneName}`, label: `zone ${zone.zoneName}`, urn: zone.resource.urn,
            ...(zone.daas ? { notChecked: why } : {}),
            figures: [
                fig("rttMs", "RTT to the Site database", rtt.state === "ok" ? rtt.value : undefined, "ms", "lower", (v) => `${num(v)} ms`, why),
                fig("concurrency", "concurrency into its groups' locks", concurrency, "requests", "lower", (v) => `${num(v)} requests`, why ?? "no peak declared"),
                fig("throttleSum", "sum of its controllers' throttles", throttle.sum, "requests", "none", (v) => `${num(v)} requests`,
                    zone.controllers.length === 0 ? "no Delivery Controller of the zone in the stack" : throttle.unknown > 0 ? "a throttle is unknown in this preview or invalid" : "a controller has no throttle"),
                fig("zoneBudget", "safe concurrency of its groups' locks", zoneBudget, "requests", "higher", (v) => `${num(v)} requests`, why ?? "no judged Delivery Group"),
            ],
        });
    }
    for (const load of loads) {
        const name = load.group.resource.name;
        const id = load.group.implicit ? `zone-lock:${name}` : `group:${name}`;
        const label = load.group.implicit ? `lock of zone ${name}` : `Delivery Group ${name}`;
        if (load.notChecked) {
            out.push({ system: "citrix", kind: "deliveryGroup", id, label, urn: load.group.resource.urn, figures: [], notChecked: load.notChecked.reason });
            continue;
        }
        const p = predictLoad(load);
        const none = "no zone of the lock has a known RTT and peak";
        const safe = budget.byGroup.get(load.group)?.safe;
        out.push({
            system: "citrix", kind: "deliveryGroup", id, label, urn: load.group.resource.urn,
            figures: [
                fig("concurrency", "concurrency at peak", p?.concurrency, "requests", "lower", (v) => `${num(v)} requests`, none),
                fig("meanResponseS", "mean brokering response", p?.worstMeanResponseS, "s", "lower", (v) => `${num(v)} s`, none),
                fig("timedOutPct", "timed-out requests", p ? p.worstErrorRate * 100 : undefined, "%", "lower", (v) => pct(v / 100), none),
                fig("launchMin", `launch of ${load.users ?? "its"} users`, p?.launchTimeS !== undefined ? p.launchTimeS / 60 : undefined, "min", "lower", (v) => duration(v * 60), p ? "it declares no perfguard:users" : none),
                fig("safeConcurrency", "safe concurrency", safe, "requests", "higher", (v) => `${num(v)} requests`, "not judged"),
            ],
        });
    }
    return out;
}
