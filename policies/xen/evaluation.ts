/**
 * The Xen evaluation: per host, the link, dom0's declared traffic and its share of the link, each
 * guest's predicted share against its need, what each dom0 workload costs the guests, and why a
 * figure is not computed. It is the one place these figures are computed (through hostModel.ts
 * and model/xenShares.ts): xen-guest-network-share, xen-dom0-workload, `perfguard check --report`,
 * `perfguard size xen` (predictHostShares) and `perfguard diff` (xenFigures) read it.
 *
 * Memoized per stack object and config, so the policies of one AnalyzeStack call (and a report on
 * the same StackView) share one layout and one model run per host.
 */
import { stackMemo } from "../pack/stackMemo";
import { MEASURED_LINK_MAX_MBPS, xenExtrapolation } from "../../model/xenShares";
import type { EntityFigures, Figure } from "../pack/figures";
import { num } from "../pack/format";
import type { StackView } from "../pack/resources";
import { stackParts } from "../pack/stackParts";
import { bondCapMBps } from "./bonds";
import { GuestEntry, guestsTotalWithout, HostModel, modelHost, needMet, runHost, shareWithCapLifted, sharesWithCapsLifted, usableNeedMBps } from "./hostModel";
import { Dom0Service, hostConfigLookup, UnplacedGuest, XenHost, XenLayout, xenLayout } from "./hosts";
import { xenDefaults, xenSettings, XenShareConfig } from "./settings";
import { currentInventory } from "../pack/inventory/current";
import { holdsStacks } from "../pack/inventory/empty";

export { EPSILON_MBPS, needMet, predictBondedShares, predictHostShares } from "./hostModel";
// `perfguard config check` reads the host-key rule here (cli/ reads a room through its evaluation).
export { hostKeyProblems, XEN_HOSTS_POLICIES } from "./hosts";
export { hostDifferences, settingDifferences } from "./hostsAgreement";
// The one label of figures computed beyond the measured link: policies, report and `size xen` read it here.
export { MEASURED_LINK_MAX_MBPS, xenExtrapolation } from "../../model/xenShares";
export type { HostSenders } from "./hostModel";
// `perfguard size xen` applies the same bond bounds as the host model.
export { bondCapMBps, bondedLinkMBps, BOND_MODES } from "./bonds";
// `perfguard size xen` reads the settings' defaults from the schema, as the policies do.
export { bondModeOf, xenDefaults } from "./settings";
export type { HostBond, XenBondMode } from "./bonds";

/** "Not checked" wordings the policies and the figures share. */
export const NOT_CHECKED = {
    unknownFact: "its perfguard:networkMBps or perfguard:vifCapMBps is unknown in this preview or invalid",
    noLink: "its host has no link figure (hosts entry linkMBps or defaultLinkMBps)",
    uncertain: "another traffic source on its host has an unknown or invalid figure, so its share may be lower",
    hostUnknown: "its host (perfguard:xenHost or affinityHost) is unknown in this preview or invalid",
    noHost: "it declares perfguard:networkMBps but has no Xen host (no perfguard:xenHost fact, no affinityHost)",
    bondUnknown: "its VIFs are on a bonded network whose bondMode or pifIds is unknown in this preview, so one member may bound it",
    hostUnclear: "other stacks' guests name its host, but their Xen Orchestra cannot be told from this stack's, so its share may be lower",
    othersUncounted: "its host is shared and other stacks' guests on it are not counted (no PERFGUARD_INVENTORY)",
} as const;

/** One guest of a host, as the share check sees it. */
export interface GuestFigures {
    readonly entry: GuestEntry;
    /** Predicted MB/s; undefined when not computed (then notChecked says why). */
    readonly predictedMBps: number | undefined;
    /** True when the prediction is below the need (a verdict of xen-guest-network-share). */
    readonly short: boolean;
    /** Why this guest's share is not judged (idle guests are neither judged nor "not checked"). */
    readonly notChecked: string | undefined;
    /** Short only because of its own VIF rate limit: with the limit lifted it gets its need. */
    readonly capOnly: boolean;
    /** Its need is above what its VIFs can reach through the host's bond (one member per VIF; active-backup: one member). */
    readonly bondBound: boolean;
    /** Under LACP its need is above one member's rate: met only if its traffic is several flows. */
    readonly severalFlows: boolean;
}

/** One dom0 service of a host with what it costs the host's judged guests. */
export interface Dom0Figures {
    readonly service: Dom0Service;
    /** The guests' total predicted MB/s with it and without it, when computable. */
    readonly guestsTotal: { withIt: number; without: number } | undefined;
}

/** One host's evaluation. */
export interface XenHostEvaluation {
    readonly host: XenHost;
    /** The host key normalised (trimmed, lower case): stable across two states of a stack. */
    readonly key: string;
    readonly model: HostModel;
    /** Guests by URN, as the model orders them. */
    readonly guests: readonly GuestFigures[];
    /** Guests short of their need, by URN. */
    readonly short: readonly GuestEntry[];
    /** The first short guest (by URN) short neither only by its own VIF cap nor by the bond: it carries the host's fix. */
    readonly fixOn: GuestEntry | undefined;
    /** The judged guests' needs, each bounded by its VIF rate limit (what the cap never allows is not counted). */
    readonly totalNeedMBps: number;
    /** Set when the link is beyond the measured one: every figure of the host is extrapolated. */
    readonly extrapolated: string | undefined;
    /** An unknown co-tenant figure (on this host or a guest that may be on it) could lower the shares. */
    readonly uncertain: boolean;
    /** dom0 services by URN. */
    readonly dom0: readonly Dom0Figures[];
    /** An active-backup bond with short guests where balance-slb (same members, same placement model) meets every judged need. */
    readonly slbFits: boolean;
    /** dom0's predicted MB/s with every sender (undefined without a link). */
    readonly dom0PredictedMBps: number | undefined;
    /**
     * No inventory is set and the host's config does not say it is dedicated to this stack: a
     * guest that fits is judged with this stack's guests only, so it is "not checked", never a pass
     * (a host is shared across stacks; other stacks' guests could only lower its share).
     */
    readonly othersUncounted: boolean;
}

/** The stack's Xen evaluation. */
export interface XenEvaluation {
    readonly config: XenShareConfig;
    readonly layout: XenLayout;
    /** Hosts sorted by name, case-insensitively (the order the verdicts are reported in). */
    readonly hosts: readonly XenHostEvaluation[];
    /** A guest whose host is unknown may declare a need: every host's fit is then uncertain. */
    readonly elsewhere: boolean;
    /** The host of a name (as in a guest's or dom0 service's host ref), or undefined. */
    hostOf(name: string): XenHostEvaluation | undefined;
}

function normalise(name: string): string {
    return name.trim().toLowerCase();
}

/** A guest whose host is unknown and that may declare a need (its facts are not all known). */
function hidden(g: UnplacedGuest): boolean {
    return g.need.state !== "absent" || g.resource.facts.incomplete;
}

function evaluateHost(
    host: XenHost,
    config: XenShareConfig,
    lookup: ReturnType<typeof hostConfigLookup>,
    elsewhere: boolean,
    inventorySet: boolean,
): XenHostEvaluation {
    const entry = lookup(host.name);
    const model = modelHost(host, config, entry);
    // Read as unknown: a direct caller (not the engine, which validates the schema) may give any value, and only true says dedicated.
    const dedicated: unknown = entry?.entry.dedicated ?? xenDefaults.dedicated;
    const othersUncounted = !inventorySet && dedicated !== true;
    // Unknown co-tenant traffic could only lower the shares: a guest that fits is then not certain.
    const uncertain = elsewhere || model.entries.some((e) => e.state === "unknown") || model.dom0Unknown.length > 0;
    const unjudged = { predictedMBps: undefined, short: false, capOnly: false, bondBound: false, severalFlows: false };
    const alone = model.entries.map((entry): GuestFigures => {
        if (entry.state === "unknown") {
            return { entry, ...unjudged, notChecked: NOT_CHECKED.unknownFact };
        }
        if (entry.state === "idle") {
            return { entry, ...unjudged, notChecked: undefined };
        }
        if (!model.link) {
            return { entry, ...unjudged, notChecked: NOT_CHECKED.noLink };
        }
        const predicted = model.shares?.get(entry) ?? 0;
        const need = entry.needMBps ?? 0;
        const short = !needMet(predicted, need);
        // Only the guest's own cap binds when lifting it (nothing else changed) meets the need.
        const capped = short && entry.capMBps !== undefined && entry.capMBps < need;
        const capOnly = capped && needMet(shareWithCapLifted(model, entry, config.dom0Share) ?? 0, need);
        // The bond's bound is vendor-defined behaviour (Open vSwitch places a VIF's MAC on one member),
        // not a measurement of perfguard's source, and the member's rate is the aggregate divided by the
        // members (equal members assumed): it is reported at the policy's level (advisory by default)
        // like every share verdict, never on a level of its own. Under LACP the bound holds only for one
        // flow, which the stack does not declare: that is never a verdict, only a figure (severalFlows).
        const bondBound = entry.bondCapMBps !== undefined && !needMet(entry.bondCapMBps, need);
        const severalFlows = model.bond?.mode === "lacp" && !needMet(model.bond.memberMBps, need);
        const notChecked = short
            ? undefined
            : entry.bondUnknown
              ? NOT_CHECKED.bondUnknown
              : uncertain
                ? NOT_CHECKED.uncertain
                : host.unclear.length > 0
                  ? NOT_CHECKED.hostUnclear
                  : othersUncounted
                    ? NOT_CHECKED.othersUncounted
                    : undefined;
        return { entry, predictedMBps: predicted, short, notChecked, capOnly, bondBound, severalFlows };
    });
    // Each cap-only guest was judged with only its own cap raised: when several are, raising them
    // all must fit together, or none of them is cap-only (the host's fix then says what it takes).
    const candidates = alone.filter((g) => g.capOnly).map((g) => g.entry);
    const together = candidates.length > 1 ? sharesWithCapsLifted(model, candidates, config.dom0Share) : undefined;
    const fits = !together || candidates.every((e) => needMet(together.get(e) ?? 0, e.needMBps ?? 0));
    const guests = fits ? alone : alone.map((g) => (g.capOnly ? { ...g, capOnly: false } : g));
    const byUrn = [...host.dom0].sort((a, b) => (a.resource.urn < b.resource.urn ? -1 : a.resource.urn > b.resource.urn ? 1 : 0));
    const dom0 = byUrn.map((service): Dom0Figures => ({
        service,
        guestsTotal:
            service.traffic.state === "ok" && service.traffic.value > 0 && model.dom0.some((s) => s.service === service)
                ? guestsTotalWithout(model, service, config.dom0Share)
                : undefined,
    }));
    const shortCount = guests.filter((g) => g.short).length;
    const judgedTotal = model.shares ? [...model.shares.values()].reduce((t, x) => t + x, 0) : undefined;
    return {
        host,
        key: normalise(host.name),
        model,
        guests,
        uncertain,
        dom0,
        short: guests.filter((g) => g.short).map((g) => g.entry),
        // This stack's guest first: another stack's (the inventory) gets no verdict here; a guest short
        // by the bond or only by its own VIF cap has its own fix.
        fixOn: (
            guests.find((g) => g.short && !g.capOnly && !g.bondBound && !g.entry.guest.resource.foreign) ??
            guests.find((g) => g.short && !g.capOnly && !g.bondBound)
        )?.entry,
        totalNeedMBps: model.entries.filter((e) => e.state === "judged").reduce((t, e) => t + usableNeedMBps(e), 0),
        extrapolated: model.link ? xenExtrapolation(model.link.mbps) : undefined,
        slbFits: slbWouldFit(model, shortCount, config.dom0Share),
        // dom0 takes what the model gives it: the link less the judged guests, capped at its demand.
        othersUncounted,
        dom0PredictedMBps: model.link && judgedTotal !== undefined ? Math.min(model.dom0TotalMBps, Math.max(0, model.link.mbps - judgedTotal)) : undefined,
    };
}

/**
 * Whether switching an active-backup bond to balance-slb meets every judged guest's need: the same
 * model with each VIF placed whole on one member (slbPlacement.ts), each guest bounded by its own
 * VIF cap and what its VIFs reach under balance-slb.
 */
function slbWouldFit(model: HostModel, shortCount: number, dom0Share: number): boolean {
    const bond = model.bond;
    if (!bond || bond.mode !== "active-backup" || shortCount === 0 || !model.link) {
        return false;
    }
    const slb = { ...bond, mode: "balance-slb" as const };
    const judged = model.entries.filter((e) => e.state === "judged");
    const caps = judged.map((e) => {
        const reach = bondCapMBps(slb, e.bondVifs);
        return e.capMBps === undefined ? reach : reach === undefined ? e.capMBps : Math.min(e.capMBps, reach);
    });
    const shares = runHost(
        model,
        judged,
        model.dom0.map((s) => s.mbps),
        caps,
        dom0Share,
        slb,
    );
    return judged.every((e, i) => needMet(shares[i] ?? 0, e.needMBps ?? 0));
}

const memo = stackMemo<XenEvaluation>();

/**
 * Evaluates every Xen host of the stack (O(resources + guests log guests)).
 * @param stack - the stack's resources (AnalyzeStack outputs).
 * @param config - the Xen policies' config (both take the same keys); defaults for what is missing.
 * @returns the evaluation, the same object for the same stack object and config. Never throws on odd props.
 */
export function xenEvaluation(stack: StackView, config?: Partial<XenShareConfig>): XenEvaluation {
    const full = xenSettings(config);
    // Whether other stacks' guests are counted is part of what the figures mean (othersUncounted).
    const inventorySet = holdsStacks(currentInventory());
    return memo.of(stack, `${inventorySet}${JSON.stringify(full)}`, () => evaluate(stack, full, inventorySet));
}

function evaluate(stack: StackView, full: XenShareConfig, inventorySet: boolean): XenEvaluation {
    const layout = xenLayout(stack);
    const lookup = hostConfigLookup(full.hosts);
    const elsewhere = layout.hostUnknown.some(hidden);
    const hosts = [...layout.hosts]
        .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1))
        .map((h) => evaluateHost(h, full, lookup, elsewhere, inventorySet));
    const byKey = new Map(hosts.map((h) => [h.key, h]));
    return { config: full, layout, hosts, elsewhere, hostOf: (name) => byKey.get(normalise(name)) };
}

/** Whether a guest whose host is unknown may declare a need (reported as not checked). */
export function mayDeclareNeed(guest: UnplacedGuest): boolean {
    return hidden(guest);
}

function mbps(key: string, label: string, value: number | undefined, better: Figure["better"], notChecked?: string): Figure {
    return value === undefined
        ? { key, label, unit: "MB/s", better, text: "not checked", notChecked: notChecked ?? "not computed" }
        : { key, label, value, unit: "MB/s", better, text: `${num(value, 2)} MB/s` };
}

/** The mark of a predicted figure on a link beyond the measured one (the host's link figure says why). */
export function extrapolatedMark(h: Pick<XenHostEvaluation, "extrapolated">): string {
    return h.extrapolated ? " (extrapolated)" : "";
}

/** The figures of one host, in a fixed order: host figures, then guests by name, then dom0 services by name. */
function hostFigures(h: XenHostEvaluation): EntityFigures {
    const m = h.model;
    const figures: Figure[] = [];
    const judged = h.guests.filter((g) => g.entry.state === "judged");
    // Beyond the measured link every predicted figure of the host is extrapolated: the host's label
    // says so (diff prints it beside each of its figures) and the link figure says why.
    figures.push(
        mbps(
            "linkMBps",
            h.extrapolated ? `link (beyond the measured ${num(MEASURED_LINK_MAX_MBPS, 2)} MB/s: predictions extrapolated)` : "link",
            m.link?.mbps,
            "higher",
            m.link ? undefined : NOT_CHECKED.noLink,
        ),
    );
    if (m.bond) {
        figures.push(mbps("bondMemberMBps", `bond member (${m.bond.members} x ${m.bond.mode})`, m.bond.memberMBps, "higher"));
    }
    figures.push(mbps("dom0DeclaredMBps", "dom0's declared traffic", m.dom0TotalMBps, "lower"));
    if (judged.length > 0) {
        const blocked = !m.link ? NOT_CHECKED.noLink : undefined;
        figures.push(
            blocked
                ? { key: "shortGuests", label: "guests short of their need", unit: "", better: "lower", text: "not checked", notChecked: blocked }
                : {
                      key: "shortGuests",
                      label: "guests short of their need",
                      value: h.short.length,
                      unit: "",
                      better: "lower",
                      text: `${h.short.length} of ${judged.length}`,
                  },
        );
    }
    const byName = <T>(list: readonly T[], name: (t: T) => string) => [...list].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
    for (const g of byName(
        h.guests.filter((x) => x.entry.state !== "idle"),
        (x) => x.entry.guest.resource.name,
    )) {
        const r = g.entry.guest.resource;
        const need = g.entry.needMBps;
        const label = `guest ${r.name}: predicted share${need !== undefined ? ` (needs ${num(need, 2)} MB/s)` : ""}`;
        figures.push(
            mbps(
                `guest:${r.name}:predictedMBps`,
                label,
                // A figure with this stack's load alone is still a figure (the reason says what it leaves out).
                g.notChecked === undefined ||
                    g.notChecked === NOT_CHECKED.uncertain ||
                    g.notChecked === NOT_CHECKED.hostUnclear ||
                    g.notChecked === NOT_CHECKED.othersUncounted
                    ? g.predictedMBps
                    : undefined,
                "higher",
                g.notChecked,
            ),
        );
        if (need !== undefined) {
            figures.push(mbps(`guest:${r.name}:needMBps`, `guest ${r.name}: need`, need, "none"));
        }
    }
    for (const d of byName(
        h.dom0.filter((x) => !x.service.management),
        (x) => x.service.resource.name,
    )) {
        const r = d.service.resource;
        const cost = d.guestsTotal ? d.guestsTotal.without - d.guestsTotal.withIt : undefined;
        const why =
            d.service.traffic.state === "ok" || d.service.traffic.state === "absent"
                ? !m.link
                    ? NOT_CHECKED.noLink
                    : judged.length === 0
                      ? "no guest on the host declares perfguard:networkMBps"
                      : undefined
                : "its perfguard:networkMBps is unknown in this preview or invalid";
        figures.push(
            mbps(`dom0:${r.name}:costMBps`, `dom0 workload ${r.name}: what it costs the guests`, why === undefined ? (cost ?? 0) : undefined, "lower", why),
        );
    }
    const anchor = h.host.guests[0]?.resource ?? h.host.dom0[0]?.resource;
    return {
        system: "xen",
        kind: "host",
        id: h.key,
        label: `Xen host ${h.host.name}${extrapolatedMark(h)}`,
        ...(anchor ? { urn: anchor.urn } : {}),
        // A host shared across stacks: every guest's and dom0 workload's stack (none of this stack: others only).
        ...stackParts([...h.host.guests.map((g) => g.resource), ...h.host.dom0.map((d) => d.resource)]),
        figures,
    };
}

/**
 * Every Xen host's figures, for `perfguard diff` and the report-equals-verdict tests.
 * @param stack - the stack's resources.
 * @param config - the Xen policies' config (defaults when absent).
 * @returns one entity per host, sorted by host name. Never throws on odd props.
 */
export function xenFigures(stack: StackView, config?: Partial<XenShareConfig>): EntityFigures[] {
    return xenEvaluation(stack, config).hosts.map(hostFigures);
}
