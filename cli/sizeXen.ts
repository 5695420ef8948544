/**
 * `perfguard size xen`: each guest's predicted share (as measured: receive) of one Xen host's link, with dom0's
 * traffic, from the same functions the Xen evaluation (policies/xen/evaluation.ts) runs per host.
 */
import { XEN_SHARE_SOURCE } from "../model/xenShares";
import {
    BOND_MODES,
    bondCapMBps,
    bondModeOf,
    HostBond,
    needMet,
    predictBondedShares,
    xenDefaults,
    xenExtrapolation,
    XenBondMode,
} from "../policies/xen/evaluation";
import { num, pct, plural } from "../policies/pack/format";
import { UsageError } from "./errors";
import { table } from "./table";

/** Input of {@link sizeXen} (MB/s: megabytes per second of usable throughput). */
export interface XenSizingInput {
    /** The host link's usable throughput, MB/s (> 0). */
    readonly linkMBps: number;
    /** Guests (domUs) on the host, >= 1. */
    readonly guests: number;
    /** What dom0 transfers (receives, as measured), MB/s; undefined = dom0 idle (not counted, as the policy does). */
    readonly dom0MBps?: number;
    /** What each guest needs, MB/s; undefined = each receives as much as it can (the direction measured). */
    readonly guestMBps?: number;
    /** dom0's guaranteed fraction of the link while it transfers, 0..1 (default 0.5). */
    readonly dom0Share: number;
    /** The link is a bond of these members (linkMBps is their aggregate), as hosts.<host>.bond states it. */
    readonly bond?: { readonly members: number; readonly mode: XenBondMode };
    /** Each guest's VIFs on the bond (default 1). */
    readonly guestVifs?: number;
}

/**
 * The bond options of `size xen` as sizeXen takes them: the mode defaults as the config schema's
 * does (bondModeOf: the schema's default); a mode or VIF count without members is a usage error.
 */
export function xenBondOf(members: number | undefined, mode: string | undefined, vifs: number | undefined): Pick<XenSizingInput, "bond" | "guestVifs"> {
    if (members === undefined) {
        if (mode !== undefined || vifs !== undefined) {
            throw new UsageError("--bond-mode and --guest-vifs describe a bond: give --bond-members too");
        }
        return {};
    }
    const known = BOND_MODES.find((m) => m === mode);
    if (mode !== undefined && !known) {
        throw new UsageError(`--bond-mode must be one of ${BOND_MODES.join(", ")}, got "${mode}"`);
    }
    return { bond: { members, mode: bondModeOf({ mode: known }) }, ...(vifs !== undefined ? { guestVifs: vifs } : {}) };
}

/** One traffic source's predicted share. */
export interface XenShareLine {
    readonly name: string;
    readonly domain: "dom0" | "domU";
    /** Its demand, MB/s, or null = as much as it can. */
    readonly demandMBps: number | null;
    readonly predictedMBps: number;
    /** predicted / link. */
    readonly linkFraction: number;
    /** For a guest with a need: the need is met (as xen-guest-network-share judges it). */
    readonly meetsNeed: boolean | null;
}

export interface XenSizing {
    readonly input: XenSizingInput;
    readonly lines: XenShareLine[];
    readonly model: string;
    /** Set when the link is beyond the measured one: every predicted figure is extrapolated. */
    readonly extrapolated: string | null;
    /** The bond's bound on each guest, or null without a bond. */
    readonly bond: { readonly memberMBps: number; readonly guestReachMBps: number | null; readonly text: string } | null;
}

function bondText(bond: HostBond, vifs: number, reach: number | undefined): string {
    const head = `${bond.members} x ${num(bond.memberMBps, 2)} MB/s ${bond.mode} bond`;
    switch (bond.mode) {
        case "balance-slb":
            return `${head}: each guest's ${plural(vifs, "VIF")} ${vifs === 1 ? "reaches" : "reach"} at most ${num(reach ?? 0, 2)} MB/s (one member per VIF)`;
        case "active-backup":
            return `${head}: every guest shares one member, ${num(bond.memberMBps, 2)} MB/s`;
        default:
            return `${head}: one flow reaches at most one member's ${num(bond.memberMBps, 2)} MB/s; several flows may spread over every member`;
    }
}

/**
 * Runs the share model for one host.
 * Input: XenSizingInput. Output: XenSizing, dom0 first when it transfers, then guest 1..n.
 * Throws RangeError from the model for out-of-range input.
 */
export function sizeXen(input: XenSizingInput): XenSizing {
    const dom0 = input.dom0MBps !== undefined && input.dom0MBps > 0 ? [input.dom0MBps] : [];
    const vifs = input.guestVifs ?? 1;
    const bond: HostBond | undefined = input.bond
        ? { ...input.bond, memberMBps: input.linkMBps / input.bond.members, linkWhere: "--link-mb-per-s", where: "--bond-members", conflict: undefined }
        : undefined;
    const reach = bondCapMBps(bond, vifs);
    const guests = Array.from({ length: input.guests }, () => ({ needMBps: input.guestMBps, capMBps: reach }));
    // The policy's call: balance-slb places each VIF whole on one member (policies/xen/slbPlacement.ts).
    const shares = predictBondedShares(
        { linkMBps: input.linkMBps, dom0Share: input.dom0Share, dom0, guests },
        bond,
        guests.map(() => vifs),
    );
    const line = (name: string, domain: "dom0" | "domU", demand: number | undefined, predicted: number): XenShareLine => ({
        name,
        domain,
        demandMBps: demand ?? null,
        predictedMBps: predicted,
        linkFraction: predicted / input.linkMBps,
        meetsNeed: domain === "domU" && demand !== undefined ? needMet(predicted, demand) : null,
    });
    return {
        input,
        lines: [
            ...dom0.map((mbps, i) => line("dom0", "dom0", mbps, shares.dom0[i])),
            ...guests.map((g, i) => line(`guest ${i + 1}`, "domU", g.needMBps, shares.guests[i])),
        ],
        extrapolated: xenExtrapolation(input.linkMBps) ?? null,
        bond: bond ? { memberMBps: bond.memberMBps, guestReachMBps: reach ?? null, text: bondText(bond, vifs, reach) } : null,
        model: `dom0 keeps >= ${pct(input.dom0Share)} of the link while it receives, domUs split the rest evenly, unused share is redistributed; ${XEN_SHARE_SOURCE}`,
    };
}

/** Renders the human output. Output: text ending with "\n". */
export function formatXenSizing(s: XenSizing): string {
    const i = s.input;
    let out =
        `Xen host: ${num(i.linkMBps, 2)} MB/s usable link, ${i.guests} guest${i.guests === 1 ? "" : "s"}` +
        `${i.guestMBps !== undefined ? ` needing ${num(i.guestMBps, 2)} MB/s each` : " receiving as much as they can"}, ` +
        `dom0 ${i.dom0MBps !== undefined && i.dom0MBps > 0 ? `receiving ${num(i.dom0MBps, 2)} MB/s` : "idle"}` +
        `${i.dom0Share !== xenDefaults.dom0Share ? ` (dom0Share ${num(i.dom0Share, 3)})` : ""}\n`;
    out += `Model: ${s.model}.\n`;
    out += s.bond ? `Bond: ${s.bond.text}; XenServer bonds are Open vSwitch bonds.\n` : "";
    out += s.extrapolated ? `Every predicted figure is ${s.extrapolated}.\n\n` : "\n";
    out += table(
        ["receiver", "wants", "predicted", "of the link", "need met"],
        s.lines.map((l) => [
            l.name,
            l.demandMBps === null ? "as much as it can" : `${num(l.demandMBps, 2)} MB/s`,
            `${num(l.predictedMBps, 2)} MB/s${s.extrapolated ? " (extrapolated)" : ""}`,
            pct(l.linkFraction),
            l.meetsNeed === null ? "" : l.meetsNeed ? "yes" : "no",
        ]),
        ["left", "right", "right", "right", "left"],
    );
    const short = s.lines.filter((l) => l.meetsNeed === false);
    if (short.length > 0) {
        out += `\n${short.length} of ${i.guests} guests get less than they need: xen-guest-network-share would report each of them.\n`;
    }
    return out;
}

/** The JSON document of `size xen --json`. */
export function xenSizingJson(s: XenSizing, plot?: string): Record<string, unknown> {
    return {
        command: "size xen",
        input: s.input,
        model: s.model,
        extrapolated: s.extrapolated,
        ...(s.bond ? { bond: s.bond } : {}),
        shares: s.lines,
        ...(plot ? { plot } : {}),
    };
}

/** Draws `--plot`: each traffic source's predicted share of the link. Loads the renderer only here. */
export async function xenPlotSvg(s: XenSizing): Promise<string> {
    const { xenSharePlotSvg } = await import("./plots/xenSharePlot");
    const i = s.input;
    return xenSharePlotSvg({
        title: `Xen host: ${num(i.linkMBps, 2)} MB/s link, ${i.guests} guest${i.guests === 1 ? "" : "s"}, dom0 ${i.dom0MBps !== undefined && i.dom0MBps > 0 ? `${num(i.dom0MBps, 2)} MB/s` : "idle"} (dom0Share ${num(i.dom0Share, 3)})`,
        linkMBps: i.linkMBps,
        senders: s.lines.map((l) => ({
            name: l.name,
            predictedMBps: l.predictedMBps,
            needMBps: l.domain === "domU" && l.demandMBps !== null ? l.demandMBps : undefined,
        })),
    });
}
