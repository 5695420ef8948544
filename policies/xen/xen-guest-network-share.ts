/**
 * xen-guest-network-share: every guest that declares the network bandwidth it needs must get at
 * least that share of its host's link under the dom0/domU share model, given dom0's declared
 * traffic and the other guests on the host.
 */
import { isolate, Report, stackPolicy } from "../pack/definePolicy";
import { num } from "../pack/format";
import { escapeControl } from "../pack/message";
import { mayDeclareNeed, NOT_CHECKED, xenEvaluation, XenHostEvaluation } from "./evaluation";
import { shortGuestMessage } from "./shareMessages";
import { VM_TYPE, XEN_SHARE_SCHEMA, XenShareConfig } from "./hosts";

const POLICY = "xen-guest-network-share";

const NO_HOST = {
    reason: NOT_CHECKED.noHost,
    remedy: "declare perfguard:xenHost=<host UUID or name> on it (or set affinityHost), spelt as in the hosts policy config",
};

const AFTER_APPLY = "known after apply: run `pulumi policy analyze` after the update, or set the fact literally";

function checkHost(h: XenHostEvaluation, config: XenShareConfig, report: Report): void {
    const model = h.model;
    const declaring = model.entries.filter((e) => e.state === "judged");
    for (const e of model.entries) {
        if (e.state === "idle") {
            report.notApplicable("declares no perfguard:networkMBps: assumed idle, not judged", e.guest.resource);
        } else if (e.state === "unknown") {
            report.notChecked({ reason: NOT_CHECKED.unknownFact, remedy: AFTER_APPLY }, e.guest.resource);
        }
    }
    if (declaring.length === 0) {
        return;
    }
    if (!model.link) {
        const remedy = `add "${model.host.name}": { "linkMBps": <usable MB/s> } under hosts in the policy config (1 Gb/s carries about 111 MB/s), or set defaultLinkMBps`;
        for (const e of declaring) {
            report.notChecked({ reason: NOT_CHECKED.noLink, remedy }, e.guest.resource);
        }
        return;
    }
    for (const g of h.guests) {
        if (g.entry.state !== "judged" || g.short) {
            continue;
        }
        if (g.notChecked === NOT_CHECKED.uncertain) {
            report.notChecked(
                { reason: NOT_CHECKED.uncertain, remedy: "known after apply: run `pulumi policy analyze` after the update, or declare the figures literally" },
                g.entry.guest.resource,
            );
        } else if (g.notChecked === NOT_CHECKED.hostUnclear) {
            const stacks = [...new Set(h.host.unclear.map((r) => escapeControl(`${r.origin?.project}/${r.origin?.stack}`)))].sort().join(", ");
            report.notChecked(
                {
                    reason: `${NOT_CHECKED.hostUnclear} (stacks ${stacks})`,
                    remedy: "declare url on every stack's xenorchestra provider, or name the host by its uuid (affinityHost, perfguard:xenHost)",
                },
                g.entry.guest.resource,
            );
        } else if (g.notChecked === NOT_CHECKED.bondUnknown) {
            report.notChecked(
                {
                    reason: NOT_CHECKED.bondUnknown,
                    remedy: `declare the bonded network's bondMode and pifIds literally, or give hosts["${model.host.name}"].bond { members, mode } in the policy config`,
                },
                g.entry.guest.resource,
            );
        } else if (g.notChecked === NOT_CHECKED.othersUncounted) {
            // One reason per host (the stack's not-checked verdict groups its guests under it).
            report.notChecked(
                {
                    reason: `host "${escapeControl(model.host.name)}": other stacks' guests not counted; this stack's fit (${num(h.totalNeedMBps, 2)} of ${num(model.link.mbps, 2)} MB/s)`,
                    remedy: `set PERFGUARD_INVENTORY to the stacks' state (docs/shared-capacity.md), or hosts["${escapeControl(model.host.name)}"].dedicated: true if only this stack places guests there`,
                },
                g.entry.guest.resource,
            );
        } else {
            const flows =
                g.severalFlows && model.bond ? `; above one LACP member's ${num(model.bond.memberMBps, 2)} MB/s: met only if its traffic is several flows` : "";
            report.applied(
                `predicted ${num(g.predictedMBps ?? 0, 2)} of the ${num(g.entry.needMBps ?? 0, 2)} MB/s it needs on the ${num(model.link.mbps, 2)} MB/s link of host "${model.host.name}"${h.extrapolated ? ` (${h.extrapolated})` : ""}${flows}`,
                g.entry.guest.resource,
            );
        }
    }
    // The host's context and fix go on its first short guest (by URN) not short only by its own cap;
    // the others point to it, a guest short only by its cap gets that fix.
    for (const e of h.short) {
        isolate(e.guest.resource, report, () => report(shortGuestMessage(h, e, config, POLICY), e.guest.resource));
    }
}

export const xenGuestNetworkShare = stackPolicy<XenShareConfig>({
    name: POLICY,
    description: "Each Xen guest should get the network bandwidth it declares.",
    enforcementLevel: "advisory",
    configSchema: { properties: XEN_SHARE_SCHEMA },
    types: [VM_TYPE],
    check(stack, config, report) {
        const evaluation = xenEvaluation(stack, config);
        const { layout } = evaluation;
        // Sorted, so that no grouped report depends on the engine's resource order.
        const byUrn = <T extends { resource: { urn: string } }>(list: readonly T[]) =>
            [...list].sort((a, b) => (a.resource.urn < b.resource.urn ? -1 : a.resource.urn > b.resource.urn ? 1 : 0));
        for (const h of evaluation.hosts) {
            const host = h.host;
            const anchor = host.guests[0]?.resource ?? host.dom0[0]?.resource;
            if (anchor) {
                isolate(anchor, report, () => checkHost(h, evaluation.config, report));
            }
            for (const service of host.dom0) {
                report.notApplicable(
                    `a dom0 resource of host "${host.name}": counted as dom0 traffic in its guests' shares, not judged itself`,
                    service.resource,
                );
            }
        }
        for (const service of layout.dom0Services) {
            if (!service.host) {
                report.notApplicable("a dom0 resource with no Xen host: not judged itself (xen-dom0-workload judges it)", service.resource);
            }
        }
        for (const guest of byUrn(layout.unplaced)) {
            if (guest.need.state === "absent") {
                report.notApplicable("no host and no perfguard:networkMBps", guest.resource);
            } else {
                report.notChecked(NO_HOST, guest.resource);
            }
        }
        for (const guest of byUrn(layout.hostUnknown)) {
            if (mayDeclareNeed(guest)) {
                report.notChecked(
                    {
                        reason: NOT_CHECKED.hostUnknown,
                        remedy: "known after apply: run `pulumi policy analyze` after the update, or declare perfguard:xenHost literally",
                    },
                    guest.resource,
                );
            } else {
                report.notApplicable("declares no perfguard:networkMBps: assumed idle, not judged", guest.resource);
            }
        }
    },
});
