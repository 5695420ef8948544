/**
 * The messages of xen-guest-network-share and xen-dom0-workload: the host's context and the fix
 * are stated once per host (on its first short guest by URN); the other guests of that host give
 * their own numbers and point to it.
 */
import { listLabels, num, plural } from "../pack/format";
import { escapeControl, isShortened, Message, PROBLEM_LINE_MAX, shortName } from "../pack/message";
import type { ResourceView } from "../pack/resources";
import type { XenHostEvaluation } from "./evaluation";
import { GuestEntry, guestsTotalWithout, HostModel, usableNeedMBps } from "./hostModel";
import { BOND_SOURCE, HostBond } from "./bonds";
import { Dom0Service, modelText, XenShareConfig } from "./hosts";

// Names listed per basis line; the rest are counted (keeps each message O(1) in host size).
const SHOWN = 8;

/** `Vm "jellyfin"` with the name shortened for a problem line. */
export function labelOf(resource: ResourceView): string {
    const colon = resource.type.lastIndexOf(":");
    return `${resource.type.slice(colon + 1) || "resource"} "${shortName(resource.name)}"`;
}

function hostName(model: HostModel): string {
    return `Xen host "${shortName(model.host.name)}"`;
}

function fullNames(names: ReadonlyArray<string | undefined>): string[] {
    const long = names.filter((n): n is string => n !== undefined && isShortened(n));
    return long.length > 0 ? [`full names: ${long.map((n) => `"${n}"`).join(", ")}`] : [];
}

function few(labels: readonly string[], total: number): string {
    return total > labels.length ? `${labels.join(", ")} and ${total - labels.length} more` : listLabels(labels);
}

/** The fix of a guest short only by its own VIF rate limit (the link has room for its need). */
function capFix(entry: GuestEntry): string {
    const cap = entry.guest.cap;
    const where = cap.state === "ok" ? cap.where : "perfguard:vifCapMBps";
    return `raise its own VIF rate limit (${where}: ${num(entry.capMBps ?? 0, 2)} MB/s) to at least its need of ${num(entry.needMBps ?? 0, 2)} MB/s: the host's link has room for it.`;
}

/**
 * A XenServer VIF rate limit caps what the VM transmits, not what it receives (netback's transmit
 * to it): where one bounds a need, say which direction is assumed.
 */
function capNote(entry: GuestEntry): string {
    const cap = entry.guest.cap;
    return cap.state === "ok" && entry.capMBps !== undefined
        ? `; VIF cap ${num(entry.capMBps, 2)} MB/s (${cap.where}) limits transmit only: its need is assumed to be transmit`
        : "";
}

/**
 * The host's fix: cheapest first, every option named once. The guests' total need counts each
 * need only up to its VIF cap (what the cap never allows is no load on the link); when `first`'s
 * own cap is below its need, raising it comes first and the total with it raised is stated too.
 */
function hostFix(model: HostModel, first: GuestEntry, totalNeedMBps: number, slbFits: boolean): string {
    const fixes: string[] = [];
    // Switching an active-backup bond to balance-slb costs no hardware: offered first when it fits.
    if (slbFits && model.bond) {
        fixes.push(
            `switch the bond (${model.bond.where}) from active-backup to balance-slb: each VIF then goes whole on one of its ${model.bond.members} members of ${num(model.bond.memberMBps, 2)} MB/s and every guest's need fits`,
        );
    }
    const cap = first.guest.cap;
    const capped = cap.state === "ok" && first.needMBps !== undefined && cap.value < first.needMBps;
    // Only workloads move out of dom0; management tools belong there (xen-dom0-workload).
    const services = model.dom0.filter((s) => s.service).map((s) => s.service as Dom0Service);
    const workloads = services.filter((s) => !s.management && s.role.state !== "unknown" && s.role.state !== "invalid");
    const others = services.filter((s) => !workloads.includes(s));
    if (workloads.length > 0) {
        fixes.push(
            `move the dom0 workloads (${few(
                workloads.slice(0, SHOWN).map((s) => labelOf(s.resource)),
                workloads.length,
            )}) into a domU`,
        );
    }
    if (others.length > 0) {
        fixes.push(
            `cap the dom0 ${others.every((s) => s.management) ? "management traffic" : "traffic"} of ${few(
                others.slice(0, SHOWN).map((s) => labelOf(s.resource)),
                others.length,
            )} or schedule it outside the guests' peak`,
        );
    }
    const configured = model.dom0.find((s) => !s.service);
    if (configured) {
        fixes.push(`lower or reschedule dom0's other traffic (${configured.where}: ${num(configured.mbps, 2)} MB/s)`);
    }
    const link = model.link ? num(model.link.mbps, 2) : "?";
    const judged = model.entries.filter((e) => e.state === "judged");
    const anyCapBinds = judged.some((e) => e.capMBps !== undefined && e.needMBps !== undefined && e.capMBps < e.needMBps);
    // Every guest whose own cap binds is raised together: one raise alone may fit where all do not.
    const bound = capped ? judged.filter((e) => e.capMBps !== undefined && e.needMBps !== undefined && e.capMBps < e.needMBps) : [];
    const raisedTotal = bound.reduce((t, e) => t - usableNeedMBps(e) + (e.needMBps ?? 0), totalNeedMBps);
    const raised = capped ? `, ${num(raisedTotal, 2)} MB/s with ${bound.length > 1 ? "those caps" : "that cap"} raised,` : "";
    fixes.push(
        `move a guest to another host, or give the host a faster link (its guests need ${num(totalNeedMBps, 2)} MB/s${anyCapBinds ? " within their VIF caps" : ""}${raised} and dom0 ${num(model.dom0TotalMBps, 2)} MB/s on ${link} MB/s)`,
    );
    const options = fixes.length > 1 ? `${fixes.slice(0, -1).join("; ")}; or ${fixes[fixes.length - 1]}` : fixes[0];
    if (capped && bound.length > 1) {
        const names = bound.map((e) => labelOf(e.guest.resource)).sort();
        return `raise the VIF rate limits of ${few(names.slice(0, SHOWN), names.length)} (each below its need), then make room for them: ${options}.`;
    }
    return capped
        ? `raise ${labelOf(first.guest.resource)}'s own VIF rate limit (${cap.where}: ${num(cap.value, 2)} MB/s, below its need), then make room for it: ${options}.`
        : `${options}.`;
}

/** ` (stack team-a/prod, deployed <time>)` for another stack's guest (PERFGUARD_INVENTORY); "" for this stack's. */
function originText(resource: ResourceView): string {
    const o = resource.origin;
    return o
        ? ` (stack ${escapeControl(o.project)}/${escapeControl(o.stack)}, ${o.time ? `deployed ${escapeControl(o.time)}` : "deployment time unknown"})`
        : "";
}

/** How a bond mode bounds one guest, for a basis line. */
function bondRule(bond: HostBond): string {
    switch (bond.mode) {
        case "balance-slb":
            return "balance-slb places each VIF (source MAC) on one member at a time";
        case "active-backup":
            return "active-backup carries all traffic on one member";
        default:
            return "LACP places each flow on one member";
    }
}

/** The fix of a guest whose need is above what its VIFs reach through the bond. */
function bondFix(bond: HostBond, need: number): string {
    const members = Math.ceil(need / bond.memberMBps - 1e-9);
    const faster = `faster member NICs (each carrying at least ${num(need, 2)} MB/s; then update ${bond.linkWhere})`;
    if (members > bond.members) {
        return `its need is above the bond's ${bond.members} members of ${num(bond.memberMBps, 2)} MB/s even with one VIF per member: ${faster}, more members, or move part of its traffic to another host.`;
    }
    const spread = `${members} VIFs on the bond with its traffic spread over them`;
    return bond.mode === "active-backup"
        ? `switch the bond to balance-slb and give it ${spread}, or to LACP with several flows (active-backup uses one member); or ${faster}.`
        : `give it ${spread} (each VIF gets one member), or use LACP with several flows; or ${faster}.`;
}

/** The verdict on a guest whose need is above what its VIFs can reach through the host's bond. */
function bondGuestMessage(h: XenHostEvaluation, entry: GuestEntry): Message {
    const model = h.model;
    const bond = model.bond as HostBond;
    const need = entry.needMBps as number;
    const cap = entry.bondCapMBps as number;
    const vifs = entry.bondVifs ?? 1;
    const self = entry.guest.resource;
    const how = bond.mode === "active-backup" ? "one member carries all" : `${plural(vifs, "VIF")}, one member per VIF`;
    const tail = `needs ${num(need, 2)} MB/s on a ${bond.members} x ${num(bond.memberMBps, 2)} MB/s ${bond.mode} bond: it reaches ${num(cap, 2)} MB/s (${how}).`;
    const long = `${labelOf(self)} on ${hostName(model)} ${tail}`;
    const own = `needs ${num(need, 2)} MB/s (${entry.guest.need.state === "ok" ? entry.guest.need.where : "perfguard:networkMBps"}); ${plural(vifs, "VIF")} on the bond (networks)${capNote(entry)}; host: ${entry.guest.host.where}`;
    const aggregate = bond.memberMBps * bond.members;
    return {
        problem: long.length <= PROBLEM_LINE_MAX ? long : `${labelOf(self)} ${tail}`,
        fix: bondFix(bond, need),
        basis: [
            own,
            `bond: ${bond.members} members (${bond.where}), ${bondRule(bond)}; each member ${num(bond.memberMBps, 2)} MB/s: the aggregate ${num(aggregate, 2)} MB/s (${bond.linkWhere}) / ${bond.members}, equal members assumed`,
            `${BOND_SOURCE}: vendor behaviour, not measured by perfguard's source`,
            ...(bond.conflict ? [bond.conflict] : []),
            ...fullNames([self.name, model.host.name]),
        ],
    };
}

/**
 * The problem of one short guest: a guest short only by its own VIF cap gets that fix alone; the
 * host's first other short guest (h.fixOn) carries the host's fix and context, the rest point to it.
 */
export function shortGuestMessage(h: XenHostEvaluation, entry: GuestEntry, config: XenShareConfig, policyId: string): Message {
    const model = h.model;
    const first = h.fixOn;
    const capOnly = h.guests.some((g) => g.entry === entry && g.capOnly);
    if (h.guests.some((g) => g.entry === entry && g.bondBound)) {
        return bondGuestMessage(h, entry);
    }
    const link = model.link as { mbps: number; where: string };
    const predicted = model.shares?.get(entry) ?? 0;
    const need = entry.needMBps as number;
    const self = entry.guest.resource;
    const long = `${labelOf(self)} on ${hostName(model)} is predicted ${num(predicted, 2)} of the ${num(need, 2)} MB/s it needs: ${num(need - predicted, 2)} MB/s short.`;
    // Long names, or a guest that points to the first one on its host (which names the host):
    // the problem line can leave the host out.
    const problem =
        long.length <= PROBLEM_LINE_MAX && (entry === first || capOnly)
            ? long
            : `${labelOf(self)} is predicted ${num(predicted, 2)} of the ${num(need, 2)} MB/s it needs: ${num(need - predicted, 2)} MB/s short.`;
    const own = `needs ${num(need, 2)} MB/s (${entry.guest.need.state === "ok" ? entry.guest.need.where : "perfguard:networkMBps"})${capNote(entry)}; host: ${entry.guest.host.where}`;
    const linkLine = `link ${num(link.mbps, 2)} MB/s (${link.where}); ${modelText(config.dom0Share, "dom0Share", policyId)}`;
    const extrapolated = h.extrapolated ? [h.extrapolated] : [];
    if (capOnly) {
        return { problem, fix: capFix(entry), basis: [own, linkLine, ...extrapolated, ...fullNames([self.name, model.host.name])] };
    }
    if (entry !== first || !first) {
        return {
            problem,
            fix: `see the fix on ${first ? labelOf(first.guest.resource) : "the host's first short guest"} (same host).`,
            basis: [own, ...fullNames([self.name, model.host.name])],
        };
    }
    const judged = model.entries.filter((e) => e.state === "judged");
    const tenants = judged
        .filter((e) => e !== entry)
        .slice(0, SHOWN)
        .map(
            (e) =>
                `${e.guest.resource.label} ${num(e.needMBps ?? 0, 2)} MB/s${e.capMBps !== undefined ? ` (VIF cap ${num(e.capMBps, 2)}, transmit)` : ""}${originText(e.guest.resource)}`,
        );
    const dom0 =
        model.dom0.length > 0
            ? `dom0 ${num(model.dom0TotalMBps, 2)} MB/s (${model.dom0
                  .slice(0, SHOWN)
                  .map((s) => `${s.label} ${num(s.mbps, 2)}, ${s.where}`)
                  .join("; ")})`
            : "dom0: no declared traffic";
    const idle = model.entries.filter((e) => e.state === "idle").length;
    const unknown = model.entries.filter((e) => e.state === "unknown").length + model.dom0Unknown.length;
    return {
        problem,
        fix: hostFix(model, entry, h.totalNeedMBps, h.slbFits),
        basis: [
            own,
            linkLine,
            ...slbLine(model),
            ...extrapolated,
            `on the host: ${few(tenants, judged.length - 1) || "no other guest that declares a need"}; ${dom0}`,
            ...(idle + unknown > 0
                ? [
                      `not counted: ${plural(idle, "guest")} without perfguard:networkMBps (assumed idle), ${plural(unknown, "traffic source")} with an unknown or invalid figure`,
                  ]
                : []),
            ...fullNames([self.name, model.host.name]),
        ],
    };
}

/** Under balance-slb the guests split members, not the aggregate: the Basis says how they are placed. */
function slbLine(model: HostModel): string[] {
    const bond = model.bond;
    return bond?.mode === "balance-slb"
        ? [
              `bond: ${bond.members} x ${num(bond.memberMBps, 2)} MB/s balance-slb (${bond.where}): each VIF whole on one member, heaviest first on the least loaded (SLB rebalances by load)`,
          ]
        : [];
}

/** The verdict on a dom0 service that is a workload, with the model's cost to the host's guests. */
export function dom0WorkloadMessage(service: Dom0Service, h: XenHostEvaluation | undefined, config: XenShareConfig, policyId: string): Message {
    const model = h?.model;
    // The role's text is never quoted (tags may be secrets): that it is not "management" is the verdict's whole need.
    const role = service.role.state === "ok" ? `${service.role.where} is not "management"` : "perfguard:xenDom0Role is absent";
    const where = service.host ? `dom0 of Xen host "${shortName(service.host.name)}"` : "a Xen host's dom0";
    const basis: string[] = [`${role} (only "management" belongs in dom0)`];
    let cost = "";
    if (!service.host || !model) {
        basis.push("no valid perfguard:xenHost on it: the cost to a host's guests is not computed");
    } else if (service.traffic.state !== "ok" || service.traffic.value === 0) {
        basis.push(
            `${service.traffic.state === "ok" ? `it declares 0 MB/s (${service.traffic.where})` : "it declares no perfguard:networkMBps"}: both Xen policies count it idle; declare its peak MB/s to see what it costs the guests`,
        );
    } else if (!model.link) {
        basis.push(`host "${model.host.name}" has no link figure (hosts entry linkMBps or defaultLinkMBps): the cost is not computed`);
    } else {
        const totals = guestsTotalWithout(model, service, config.dom0Share);
        const judged = model.entries.filter((e) => e.state === "judged").length;
        if (totals && judged > 0) {
            cost = `: at ${num(service.traffic.value, 2)} MB/s it cuts its ${plural(judged, "guest")} from ${num(totals.without, 2)} to ${num(totals.withIt, 2)} MB/s`;
        }
        basis.push(
            `${num(service.traffic.value, 2)} MB/s (${service.traffic.where}) on a ${num(model.link.mbps, 2)} MB/s link (${model.link.where}); ${modelText(config.dom0Share, "dom0Share", policyId)}`,
        );
        if (h?.extrapolated) {
            basis.push(h.extrapolated);
        }
        if (judged === 0) {
            basis.push("no guest on the host declares perfguard:networkMBps: the model has no guest to compare");
        }
    }
    const long = `${labelOf(service.resource)} runs a workload in ${where}${cost}.`;
    return {
        problem: long.length <= PROBLEM_LINE_MAX ? long : `${labelOf(service.resource)} runs a workload in dom0${cost}.`,
        fix: "move it into a domU, or declare perfguard:xenDom0Role=management if it is a management tool.",
        basis: [...basis, ...fullNames([service.resource.name, service.host?.name])],
    };
}
