/**
 * One Xen host's link as the share model sees it: the link figure, dom0's declared traffic
 * (config dom0NetworkMBps plus each dom0 service's perfguard:networkMBps), the guests that declare
 * a need, and the predicted share of each. xen-guest-network-share and xen-dom0-workload both
 * read their figures from here, so one preview never gives two numbers for one host.
 */
import { predictXenShares, XenShareGuest } from "../../model/xenShares";
import { bondCapMBps, bondedLinkMBps, declaredBond, HostBond, XenBondMode } from "./bonds";
import { bondModeOf, xenDefaults } from "./settings";
import { predictSlbShares } from "./slbPlacement";
import { Dom0Service, HostConfigEntry, hostConfigPath, XenGuest, XenHost, XenShareConfig } from "./hosts";

export interface Link {
    readonly mbps: number;
    readonly where: string;
}

/** How one guest enters the model. */
export interface GuestEntry {
    readonly guest: XenGuest;
    /** "judged": need known; "idle": no need declared (assumed idle); "unknown": a fact unknown or invalid. */
    readonly state: "judged" | "idle" | "unknown";
    readonly needMBps: number | undefined;
    readonly capMBps: number | undefined;
    /** Its VIFs on the host's bond (undefined: no bond, not on it, or unknown). */
    readonly bondVifs: number | undefined;
    /** What the bond lets it reach (bondCapMBps in bonds.ts), or undefined when the bond does not bound it. */
    readonly bondCapMBps: number | undefined;
    /** Its VIFs are on the program's bonded network whose bondMode or pifIds is unknown (and no hosts entry's bond). */
    readonly bondUnknown: boolean;
}

/** A dom0 sender counted in the model. */
export interface Dom0Sender {
    readonly label: string;
    readonly mbps: number;
    readonly where: string;
    /** The dom0 service, or undefined for the config's dom0NetworkMBps. */
    readonly service: Dom0Service | undefined;
}

/** The host's model: undefined shares when the host has no link figure. */
export interface HostModel {
    readonly host: XenHost;
    /** The link the guests share: the aggregate, or one member of an active-backup bond. */
    readonly link: Link | undefined;
    /** The host's bond (program's bonded network, else the hosts entry's bond), when it has a link figure. */
    readonly bond: HostBond | undefined;
    readonly configEntry: HostConfigEntry | undefined;
    /** Guests sorted by URN. */
    readonly entries: readonly GuestEntry[];
    readonly dom0: readonly Dom0Sender[];
    readonly dom0TotalMBps: number;
    /** dom0 services whose traffic is unknown in this preview or invalid (not counted). */
    readonly dom0Unknown: readonly Dom0Service[];
    /** Predicted MB/s of each judged guest. */
    readonly shares: ReadonlyMap<GuestEntry, number> | undefined;
}

export function linkOf(entry: HostConfigEntry | undefined, config: XenShareConfig): Link | undefined {
    if (entry?.entry.linkMBps !== undefined) {
        return { mbps: entry.entry.linkMBps, where: hostConfigPath(entry.key, "linkMBps") };
    }
    if (config.defaultLinkMBps !== undefined && config.defaultLinkMBps !== null) {
        return { mbps: config.defaultLinkMBps, where: "defaultLinkMBps" };
    }
    return undefined;
}

/** The guest's VIFs on the host's bond: those on the program's bonded network, or all its VIFs on a configured bond. */
function vifsOnBond(guest: XenGuest, bond: HostBond | undefined, bondResource: XenGuest["networks"]["bond"]): number | undefined {
    if (!bond) {
        return undefined;
    }
    if (bondResource) {
        return guest.networks.bond?.resource === bondResource.resource ? guest.networks.bond.vifs : undefined;
    }
    return guest.networks.vifs;
}

function entryOf(
    guest: XenGuest,
    bond: HostBond | undefined,
    bondResource: XenGuest["networks"]["bond"],
    unknownBond: XenGuest["networks"]["bond"],
): GuestEntry {
    const { need, cap } = guest;
    const none = { needMBps: undefined, capMBps: undefined, bondVifs: undefined, bondCapMBps: undefined, bondUnknown: false };
    // A fact container unknown as a whole may hold a need: not "idle".
    const hidden = guest.resource.facts.incomplete && (need.state === "absent" || cap.state === "absent");
    if (hidden || need.state === "unknown" || need.state === "invalid" || cap.state === "unknown" || cap.state === "invalid") {
        return { guest, state: "unknown", ...none };
    }
    if (need.state !== "ok") {
        return { guest, state: "idle", ...none };
    }
    const bondVifs = vifsOnBond(guest, bond, bondResource);
    const bondUnknown = unknownBond !== undefined && guest.networks.bond?.resource === unknownBond.resource;
    return {
        guest,
        state: "judged",
        needMBps: need.value,
        capMBps: cap.state === "ok" ? cap.value : undefined,
        bondVifs,
        bondCapMBps: bondCapMBps(bond, bondVifs),
        bondUnknown,
    };
}

/** The tighter of a VIF rate limit and the bond's bound (undefined = none). */
function modelCap(capMBps: number | undefined, bondCap: number | undefined): number | undefined {
    return capMBps === undefined ? bondCap : bondCap === undefined ? capMBps : Math.min(capMBps, bondCap);
}

/**
 * The host's bond: the program's bonded network that its guests' VIFs are on (the first by guest
 * URN) when its mode and members are known, else the hosts entry's bond. The program states what
 * is deployed, so it wins over the config; a disagreement is named.
 */
type BondRead = { bond: HostBond | undefined; resource: XenGuest["networks"]["bond"]; unknown: XenGuest["networks"]["bond"] };

function bondOf(host: XenHost, sorted: readonly XenGuest[], entry: HostConfigEntry | undefined, aggregate: Link | undefined): BondRead {
    if (!aggregate) {
        return { bond: undefined, resource: undefined, unknown: undefined };
    }
    const configured = entry?.entry.bond;
    const path = hostConfigPath(entry?.key ?? host.name, "bond");
    const resource = sorted.find((g) => g.networks.bond)?.networks.bond;
    const declared = resource ? declaredBond(resource.resource) : undefined;
    if (resource && declared?.mode !== undefined && declared.members !== undefined) {
        const configMode = bondModeOf(configured);
        const conflict =
            configured && (configured.members !== declared.members || configMode !== declared.mode)
                ? `${path} says ${configured.members} x ${configMode}, the program's ${resource.resource.label} ${declared.members} x ${declared.mode}: the program's is used`
                : undefined;
        return {
            bond: {
                members: declared.members,
                mode: declared.mode,
                memberMBps: aggregate.mbps / declared.members,
                linkWhere: aggregate.where,
                where: `${resource.resource.label} (bondMode, pifIds)`,
                conflict,
            },
            resource,
            unknown: undefined,
        };
    }
    if (configured) {
        const mode = bondModeOf(configured);
        return {
            bond: {
                members: configured.members,
                mode,
                memberMBps: aggregate.mbps / configured.members,
                linkWhere: aggregate.where,
                where: path,
                conflict: undefined,
            },
            resource: undefined,
            unknown: undefined,
        };
    }
    // A bonded network whose mode or members are unknown (in a preview) may bound its guests: said, not assumed.
    return { bond: undefined, resource: undefined, unknown: resource };
}

function compare(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
}

// Shares within this much of the need count as met (float noise of the model's sums).
export const EPSILON_MBPS = 1e-9;

/** Whether a predicted share meets a need, with the tolerance every Xen verdict and table uses. */
export function needMet(predictedMBps: number, needMBps: number): boolean {
    return predictedMBps >= needMBps - EPSILON_MBPS;
}

/** One host's senders as the share model takes them: dom0's demands first, then the guests'. */
export interface HostSenders {
    readonly linkMBps: number;
    readonly dom0Share: number;
    /** Each dom0 sender's MB/s. */
    readonly dom0: readonly number[];
    /** Each guest's need (undefined = as much as it can) and VIF cap. */
    readonly guests: ReadonlyArray<{ readonly needMBps?: number; readonly capMBps?: number }>;
}

/**
 * The model call of one host: what the policies, `check --report` and `size xen` all run.
 * @returns each dom0 sender's and each guest's predicted MB/s, in input order.
 * Throws RangeError from the model for out-of-range input (a policy's config schema prevents it).
 */
export function predictHostShares(input: HostSenders): { dom0: number[]; guests: number[] } {
    const guests: XenShareGuest[] = [
        ...input.dom0.map((mbps, i): XenShareGuest => ({ name: `dom0 ${i}`, domain: "dom0", demandMBps: mbps })),
        ...input.guests.map((g, i): XenShareGuest => ({ name: `guest ${i}`, domain: "domU", demandMBps: g.needMBps, capMBps: g.capMBps })),
    ];
    const shares = predictXenShares({ linkMBps: input.linkMBps, dom0Share: input.dom0Share, guests });
    return { dom0: shares.slice(0, input.dom0.length).map((s) => s.MBps), guests: shares.slice(input.dom0.length).map((s) => s.MBps) };
}

/** A bond as the share model needs it: members and mode (the link given is the aggregate). */
export interface BondShape {
    readonly members: number;
    readonly mode: XenBondMode;
}

/**
 * The model call of one host with its bond: balance-slb places each VIF whole on one member and
 * splits each member (slbPlacement.ts); active-backup shares one member; otherwise (no bond, lacp)
 * the link as given. `input.linkMBps` is the aggregate. What the policies, `check --report` and
 * `size xen` all run.
 * @param vifs - each guest's VIFs on the bond (undefined: 1), in the order of input.guests.
 */
export function predictBondedShares(
    input: HostSenders,
    bond: BondShape | undefined,
    vifs: ReadonlyArray<number | undefined>,
): { dom0: number[]; guests: number[] } {
    if (bond?.mode === "balance-slb") {
        const senders = [
            ...input.dom0.map((mbps) => ({ domain: "dom0" as const, demandMBps: mbps, capMBps: undefined, vifs: 1 })),
            ...input.guests.map((g, i) => ({ domain: "domU" as const, demandMBps: g.needMBps, capMBps: g.capMBps, vifs: vifs[i] ?? 1 })),
        ];
        const shares = predictSlbShares(senders, bond.members, input.linkMBps / bond.members, input.dom0Share);
        return { dom0: shares.slice(0, input.dom0.length), guests: shares.slice(input.dom0.length) };
    }
    const link = bond?.mode === "active-backup" ? input.linkMBps / bond.members : input.linkMBps;
    return predictHostShares({ ...input, linkMBps: link });
}

/** The aggregate link of a model (its link is one member under active-backup). */
function aggregateMBps(model: Pick<HostModel, "link" | "bond">): number {
    const link = model.link?.mbps ?? 0;
    return model.bond?.mode === "active-backup" ? model.bond.memberMBps * model.bond.members : link;
}

/** Runs the model of a host's judged guests with the given dom0 MB/s and guest caps, under its bond (or `bond` instead). */
export function runHost(
    model: Pick<HostModel, "link" | "bond">,
    judged: readonly GuestEntry[],
    dom0: readonly number[],
    caps: ReadonlyArray<number | undefined>,
    dom0Share: number,
    bond?: BondShape,
): number[] {
    const shape = bond ?? model.bond;
    const guests = judged.map((e, i) => ({ needMBps: e.needMBps, capMBps: caps[i] }));
    return predictBondedShares(
        { linkMBps: aggregateMBps(model), dom0Share, dom0, guests },
        shape,
        judged.map((e) => e.bondVifs),
    ).guests;
}

/** The guests' predicted shares with the given dom0 senders (judged guests only). */
function predict(model: Pick<HostModel, "entries" | "link" | "bond">, senders: readonly Dom0Sender[], dom0Share: number): Map<GuestEntry, number> | undefined {
    if (!model.link) {
        return undefined;
    }
    const judged = model.entries.filter((e) => e.state === "judged");
    const shares = runHost(
        model,
        judged,
        senders.map((s) => s.mbps),
        judged.map((e) => modelCap(e.capMBps, e.bondCapMBps)),
        dom0Share,
    );
    return new Map(judged.map((e, i) => [e, shares[i]]));
}

/**
 * Builds the model of one host (O(guests log guests)).
 * @param host - the host's guests and dom0 services (xenLayout).
 * @param config - link figures and dom0Share.
 * @param configEntry - the host's `hosts` entry, if any.
 */
export function modelHost(host: XenHost, config: XenShareConfig, configEntry: HostConfigEntry | undefined): HostModel {
    const sorted = [...host.guests].sort((a, b) => compare(a.resource.urn, b.resource.urn));
    const aggregate = linkOf(configEntry, config);
    const { bond, resource, unknown } = bondOf(host, sorted, configEntry, aggregate);
    const entries = sorted.map((g) => entryOf(g, bond, resource, unknown));
    const dom0: Dom0Sender[] = [];
    const configured = configEntry?.entry.dom0NetworkMBps ?? xenDefaults.dom0NetworkMBps;
    if (configured > 0) {
        dom0.push({
            label: "dom0's other traffic",
            mbps: configured,
            where: hostConfigPath(configEntry?.key ?? host.name, "dom0NetworkMBps"),
            service: undefined,
        });
    }
    const dom0Unknown: Dom0Service[] = [];
    for (const service of [...host.dom0].sort((a, b) => compare(a.resource.urn, b.resource.urn))) {
        // Undeclared traffic is assumed idle (as for guests); unknown or invalid is not counted and said.
        if (service.traffic.state === "ok" && service.traffic.value > 0) {
            dom0.push({ label: service.resource.label, mbps: service.traffic.value, where: service.traffic.where, service });
        } else if (
            service.traffic.state === "unknown" ||
            service.traffic.state === "invalid" ||
            (service.traffic.state === "absent" && service.resource.facts.incomplete)
        ) {
            dom0Unknown.push(service);
        }
    }
    // Under active-backup one member carries every VIF: that member is the link the guests share.
    const link =
        aggregate && bond?.mode === "active-backup"
            ? { mbps: bondedLinkMBps(aggregate.mbps, bond), where: `${aggregate.where} / ${bond.members} members: active-backup carries all on one member` }
            : aggregate;
    const base = { host, link, bond, configEntry, entries, dom0, dom0TotalMBps: dom0.reduce((t, s) => t + s.mbps, 0), dom0Unknown };
    return { ...base, shares: predict(base, dom0, config.dom0Share) };
}

/**
 * A guest's predicted MB/s with its own VIF rate limit lifted (everything else as declared): when
 * that meets its need, its cap is the only thing that binds.
 */
export function shareWithCapLifted(model: HostModel, entry: GuestEntry, dom0Share: number): number | undefined {
    return sharesWithCapsLifted(model, [entry], dom0Share)?.get(entry);
}

/**
 * The predicted shares of the judged guests with the VIF caps of all of `lifted` removed at once:
 * whether raising several guests' caps fits is decided together, never one guest at a time.
 */
export function sharesWithCapsLifted(model: HostModel, lifted: readonly GuestEntry[], dom0Share: number): Map<GuestEntry, number> | undefined {
    if (!model.link || lifted.some((e) => e.state !== "judged")) {
        return undefined;
    }
    const judged = model.entries.filter((e) => e.state === "judged");
    const raised = new Set(lifted);
    const caps = judged.map((e) => (raised.has(e) ? e.bondCapMBps : modelCap(e.capMBps, e.bondCapMBps)));
    const shares = runHost(
        model,
        judged,
        model.dom0.map((s) => s.mbps),
        caps,
        dom0Share,
    );
    return new Map(judged.map((e, i) => [e, shares[i] ?? 0]));
}

/** What a judged guest can use at most: its need, bounded by its VIF rate limit (transmit) and its bond's bound. */
export function usableNeedMBps(entry: GuestEntry): number {
    return Math.min(entry.needMBps ?? 0, entry.capMBps ?? Infinity, entry.bondCapMBps ?? Infinity);
}

/**
 * The judged guests' total predicted MB/s with every dom0 sender, and without `service` (the
 * same model call, one sender fewer): what the service costs them.
 */
export function guestsTotalWithout(model: HostModel, service: Dom0Service, dom0Share: number): { withIt: number; without: number } | undefined {
    const without = predict(
        model,
        model.dom0.filter((s) => s.service !== service),
        dom0Share,
    );
    if (!model.shares || !without) {
        return undefined;
    }
    const sum = (m: ReadonlyMap<GuestEntry, number>) => [...m.values()].reduce((t, x) => t + x, 0);
    return { withIt: sum(model.shares), without: sum(without) };
}
