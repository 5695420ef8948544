/**
 * xen-guest-network-share: every guest that declares the network bandwidth it needs must get at
 * least that share of its host's link under the dom0/domU share model, given dom0's declared
 * traffic and the other guests on the host.
 */
import { isolate, Report, stackPolicy } from "../pack/definePolicy";
import { num } from "../pack/format";
import { GuestEntry, HostModel, modelHost } from "./hostModel";
import { shortGuestMessage } from "./shareMessages";
import { hostConfigLookup, VM_TYPE, XEN_SHARE_SCHEMA, XenShareConfig, xenLayout } from "./hosts";

const POLICY = "xen-guest-network-share";

// Shares within this much of the need count as met (float noise of the model's sums).
const EPSILON_MBPS = 1e-9;

const NO_HOST = {
    reason: "it declares perfguard:networkMBps but has no Xen host (no perfguard:xenHost fact, no affinityHost)",
    remedy: "declare perfguard:xenHost=<host UUID or name> on it (or set affinityHost), spelt as in the hosts policy config",
};

function checkHost(model: HostModel, config: XenShareConfig, elsewhere: boolean, report: Report): void {
    const declaring = model.entries.filter((e) => e.state === "judged");
    for (const e of model.entries) {
        if (e.state === "idle") {
            report.notApplicable("declares no perfguard:networkMBps: assumed idle, not judged", e.guest.resource);
        } else if (e.state === "unknown") {
            report.notChecked({ reason: "its perfguard:networkMBps or perfguard:vifCapMBps is unknown in this preview or invalid", remedy: "known after apply: run `pulumi policy analyze` after the update, or set the fact literally" }, e.guest.resource);
        }
    }
    if (declaring.length === 0) {
        return;
    }
    if (!model.link) {
        const remedy = `add "${model.host.name}": { "linkMBps": <usable MB/s> } under hosts in the policy config (1 Gb/s carries about 111 MB/s), or set defaultLinkMBps`;
        for (const e of declaring) {
            report.notChecked({ reason: "its host has no link figure (hosts entry linkMBps or defaultLinkMBps)", remedy }, e.guest.resource);
        }
        return;
    }
    // Unknown co-tenant traffic could only lower the shares: a guest that fits is then not certain.
    // So could a guest whose host is unknown (it may run on this one).
    const uncertain = elsewhere || model.entries.some((e) => e.state === "unknown") || model.dom0Unknown.length > 0;
    const short: GuestEntry[] = [];
    for (const e of declaring) {
        const predicted = model.shares?.get(e) ?? 0;
        if (predicted < (e.needMBps ?? 0) - EPSILON_MBPS) {
            short.push(e);
        } else if (uncertain) {
            report.notChecked({ reason: "another sender on its host has an unknown or invalid figure, so its share may be lower", remedy: "known after apply: run `pulumi policy analyze` after the update, or declare the figures literally" }, e.guest.resource);
        } else {
            report.applied(`predicted ${num(predicted, 2)} of the ${num(e.needMBps ?? 0, 2)} MB/s it needs on the ${num(model.link.mbps, 2)} MB/s link of host "${model.host.name}"`, e.guest.resource);
        }
    }
    // The host's context and fix go on its first short guest (by URN); the others point to it.
    for (const e of short) {
        isolate(e.guest.resource, report, () => report(shortGuestMessage(model, e, short[0], config, POLICY), e.guest.resource));
    }
}

export const xenGuestNetworkShare = stackPolicy<XenShareConfig>({
    name: POLICY,
    description: "Each Xen guest should get the network bandwidth it declares.",
    enforcementLevel: "advisory",
    configSchema: { properties: XEN_SHARE_SCHEMA },
    types: [VM_TYPE],
    check(stack, config, report) {
        const lookup = hostConfigLookup(config.hosts);
        const layout = xenLayout(stack);
        const hidden = (g: { need: { state: string }; resource: { facts: { incomplete: boolean } } }) => g.need.state !== "absent" || g.resource.facts.incomplete;
        const elsewhere = layout.hostUnknown.some(hidden);
        // Sorted, so that no grouped report depends on the engine's resource order.
        const byUrn = <T extends { resource: { urn: string } }>(list: readonly T[]) => [...list].sort((a, b) => (a.resource.urn < b.resource.urn ? -1 : a.resource.urn > b.resource.urn ? 1 : 0));
        const hosts = [...layout.hosts].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
        for (const host of hosts) {
            const anchor = host.guests[0]?.resource ?? host.dom0[0]?.resource;
            if (anchor) {
                isolate(anchor, report, () => checkHost(modelHost(host, config, lookup(host.name)), config, elsewhere, report));
            }
            for (const service of host.dom0) {
                report.notApplicable(`a dom0 resource of host "${host.name}": counted as dom0 traffic in its guests' shares, not judged itself`, service.resource);
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
            if (hidden(guest)) {
                report.notChecked({ reason: "its host (perfguard:xenHost or affinityHost) is unknown in this preview or invalid", remedy: "known after apply: run `pulumi policy analyze` after the update, or declare perfguard:xenHost literally" }, guest.resource);
            } else {
                report.notApplicable("declares no perfguard:networkMBps: assumed idle, not judged", guest.resource);
            }
        }
    },
});
