/**
 * xen-guest-network-share: every guest that declares the network bandwidth it needs must get at
 * least that share of its host's link under the dom0/domU share model, given dom0's declared
 * traffic and the other guests on the host.
 */
import { predictXenShares, XenShareGuest } from "../model/xenShares";
import { isolate, Report, stackPolicy } from "./support/definePolicy";
import { Applicability, applied, notApplicable, StackApplicability } from "./support/explain";
import type { StackView } from "./support/resources";
import { describeValue } from "./support/values";
import { listLabels, num, plural } from "./support/format";
import {
    Dom0Service,
    HostConfigEntry,
    hostConfigLookup,
    hostConfigPath,
    modelText,
    VM_TYPE,
    XEN_SHARE_SCHEMA,
    XenGuest,
    XenHost,
    xenLayout,
    XenShareConfig,
} from "./support/xenHosts";

// Shares within this much of the need count as met (float noise of the model's sums).
const EPSILON_MBPS = 1e-9;
// Co-tenants named per message; the rest are counted (keeps each message O(1) in host size).
const SHOWN = 8;

interface Link {
    readonly mbps: number;
    readonly where: string;
}

function linkOf(entry: HostConfigEntry | undefined, config: XenShareConfig): Link | undefined {
    if (entry?.entry.linkMBps !== undefined) {
        return { mbps: entry.entry.linkMBps, where: hostConfigPath(entry.key, "linkMBps") };
    }
    if (config.defaultLinkMBps !== undefined && config.defaultLinkMBps !== null) {
        return { mbps: config.defaultLinkMBps, where: "defaultLinkMBps" };
    }
    return undefined;
}

/** How one guest enters the model, and whether it can be judged. */
interface GuestEntry {
    readonly guest: XenGuest;
    readonly model: XenShareGuest;
    /** Its need (MB/s) when it can be judged: need known and no unknown/invalid fact. */
    readonly judgedNeed: number | undefined;
    /** "40 MB/s needed", "as much as it can (no perfguard:networkMBps, no VIF cap)", ... */
    readonly demandText: string;
    /** Sends as much as it can with no VIF cap: a candidate for a rate limit. */
    readonly greedy: boolean;
}

function guestEntry(guest: XenGuest, index: number): GuestEntry {
    const { need, cap } = guest;
    const name = `guest ${index}`;
    // A fact unknown in a preview (or invalid: perfguard-facts reports it) makes the guest take
    // nothing in the model and not be judged, so only verdicts that hold whatever it is are made.
    if (need.state === "unknown" || need.state === "invalid" || cap.state === "unknown" || cap.state === "invalid") {
        return { guest, model: { name, domain: "domU", demandMBps: 0 }, judgedNeed: undefined, demandText: "not counted: a fact is unknown or invalid", greedy: false };
    }
    const capMBps = cap.state === "ok" ? cap.value : undefined;
    const capText = capMBps === undefined ? "" : `, VIF cap ${num(capMBps, 2)} MB/s`;
    if (need.state === "ok") {
        return { guest, model: { name, domain: "domU", demandMBps: need.value, capMBps }, judgedNeed: need.value, demandText: `${num(need.value, 2)} MB/s needed${capText}`, greedy: false };
    }
    return {
        guest,
        model: { name, domain: "domU", capMBps },
        judgedNeed: undefined,
        demandText: capMBps === undefined ? "as much as it can: no perfguard:networkMBps, no perfguard:vifCapMBps" : `as much as it can up to its VIF cap of ${num(capMBps, 2)} MB/s`,
        greedy: capMBps === undefined,
    };
}

/** dom0's declared traffic on one host: the config figure plus every dom0 service's networkMBps. */
interface Dom0Traffic {
    readonly entries: XenShareGuest[];
    readonly totalMBps: number;
    /** "25 MB/s hosts["x"].dom0NetworkMBps + 40 MB/s perfguard:networkMBps in tags list on Dom0Service "backup"" */
    readonly parts: string[];
    readonly services: Dom0Service[];
}

function dom0Traffic(host: XenHost, entry: HostConfigEntry | undefined): Dom0Traffic {
    const entries: XenShareGuest[] = [];
    const parts: string[] = [];
    const services: Dom0Service[] = [];
    let total = 0;
    const configured = entry?.entry.dom0NetworkMBps ?? 0;
    if (configured > 0) {
        entries.push({ name: "dom0 config", domain: "dom0", demandMBps: configured });
        parts.push(`${num(configured, 2)} MB/s ${hostConfigPath(entry?.key ?? host.name, "dom0NetworkMBps")}`);
        total += configured;
    }
    let counted = configured > 0 ? 1 : 0;
    host.dom0.forEach((service, i) => {
        // Undeclared, unknown (preview) or invalid traffic is not counted: the verdict stays one
        // that holds whatever the service sends (more dom0 traffic never raises a guest's share).
        if (service.traffic.state === "ok" && service.traffic.value > 0) {
            entries.push({ name: `dom0 service ${i}`, domain: "dom0", demandMBps: service.traffic.value });
            if (parts.length < SHOWN) {
                parts.push(`${num(service.traffic.value, 2)} MB/s ${service.traffic.where} on ${service.resource.label}`);
            }
            services.push(service);
            total += service.traffic.value;
            counted++;
        }
    });
    if (counted > parts.length) {
        parts.push(`${counted - parts.length} more`);
    }
    return { entries, totalMBps: total, parts, services };
}

/** "VM "a", VM "b" and 3 more": the first SHOWN labels, the rest counted. */
function namedFew(labels: readonly string[], total: number): string {
    return total > labels.length ? `${labels.join(", ")} and ${total - labels.length} more` : listLabels(labels);
}

function fixText(self: GuestEntry, needMBps: number, greedyText: string, dom0: Dom0Traffic, sumOfNeeds: number, link: Link): string {
    const fixes: string[] = [];
    const ownCap = self.guest.cap;
    if (ownCap.state === "ok" && ownCap.value < needMBps) {
        fixes.push(`raise ${self.guest.resource.label}'s own VIF rate limit (${ownCap.where}: ${num(ownCap.value, 2)} MB/s, below its need)`);
    }
    if (dom0.totalMBps > 0) {
        const who = dom0.services.length > 0 ? ` (${namedFew(dom0.services.slice(0, SHOWN).map((s) => s.resource.label), dom0.services.length)})` : "";
        fixes.push(`move the services that send from dom0${who} into a domU`);
    }
    if (greedyText !== "") {
        fixes.push(`set a VIF rate limit (XenServer qos_algorithm_params:kbps, declared with perfguard:vifCapMBps) on the noisy guests that send as much as they can (${greedyText})`);
    }
    fixes.push(`move a guest to another host, or give host "${self.guest.host.name}" a faster link ` +
        `(its guests declare ${num(sumOfNeeds, 2)} MB/s and dom0 ${num(dom0.totalMBps, 2)} MB/s on a ${num(link.mbps, 2)} MB/s link)`);
    return fixes.length > 1 ? `${fixes.slice(0, -1).join("; ")}; or ${fixes[fixes.length - 1]}` : fixes[0];
}

function checkHost(host: XenHost, config: XenShareConfig, lookup: (name: string) => HostConfigEntry | undefined, report: Report): void {
    const entries = host.guests.map(guestEntry);
    const judged = entries.filter((e) => e.judgedNeed !== undefined);
    const declaring = host.guests.filter((g) => g.need.state === "ok");
    if (declaring.length === 0) {
        return;
    }
    const configEntry = lookup(host.name);
    const link = linkOf(configEntry, config);
    if (link === undefined) {
        const first = declaring[0];
        const needs = declaring.slice(0, SHOWN).map((g) => `${g.resource.label}: ${num(g.need.state === "ok" ? g.need.value : NaN, 2)} MB/s`);
        report(
            `${first.resource.label} is on Xen host "${host.name}" (${first.host.where}), where ${plural(declaring.length, "guest")} declare the network bandwidth they need ` +
            `(${namedFew(needs, declaring.length)}; perfguard:networkMBps), ` +
            `but the host has no link figure: ${configEntry ? `${hostConfigPath(configEntry.key, "linkMBps")} is not set` : `no hosts entry matches "${host.name}"`} and defaultLinkMBps is not set. ` +
            `So their predicted shares were not checked (this is reported once per host, on its first guest that declares a need). ` +
            `Fix: add ${JSON.stringify(host.name)}: { "linkMBps": <usable MB/s> } under hosts in xen-guest-network-share's policy config (1 Gb/s carries about 111 MB/s, ` +
            `scaling the source's 11.1 MB/s on ~100 Mb/s), or set defaultLinkMBps.`,
            first.resource,
        );
        return;
    }
    if (judged.length === 0) {
        return;
    }
    const dom0 = dom0Traffic(host, configEntry);
    const shares = predictXenShares({ linkMBps: link.mbps, dom0Share: config.dom0Share, guests: [...dom0.entries, ...entries.map((e) => e.model)] });
    const guestShares = shares.slice(dom0.entries.length);
    const greedy = entries.filter((e) => e.greedy);
    const greedyText = greedy.length > 0 ? namedFew(greedy.slice(0, SHOWN).map((e) => e.guest.resource.label), greedy.length) : "";
    const sumOfNeeds = judged.reduce((t, e) => t + (e.judgedNeed ?? 0), 0);
    // The first SHOWN + 1 guests, so that each message can name SHOWN co-tenants other than itself in O(1).
    const head = entries.slice(0, SHOWN + 1);
    const dom0Text = dom0.totalMBps > 0 ? `dom0 (${num(dom0.totalMBps, 2)} MB/s declared: ${dom0.parts.join(" + ")})` : "dom0 (no declared traffic)";
    entries.forEach((self, i) => {
        isolate(self.guest.resource, report, () => {
            const need = self.judgedNeed;
            const predicted = guestShares[i].MBps;
            if (need === undefined || predicted >= need - EPSILON_MBPS) {
                return;
            }
            const others = head.filter((e) => e !== self).slice(0, SHOWN).map((e) => `${e.guest.resource.label} (${e.demandText})`);
            const more = entries.length - 1 - others.length;
            const coTenants = others.length > 0 ? `${others.join(", ")}${more > 0 ? `, ${more} more guests` : ""} and ${dom0Text}` : dom0Text;
            report(
                `${self.guest.resource.label} on Xen host "${host.name}" (${self.guest.host.where}) needs ${num(need, 2)} MB/s (${self.guest.need.state === "ok" ? self.guest.need.where : "perfguard:networkMBps"}), ` +
                `but is predicted ${num(predicted, 2)} MB/s of the host's ${num(link.mbps, 2)} MB/s link (${link.where}), ${num(need - predicted, 2)} MB/s short of its need. ` +
                `It shares the link with ${coTenants}. ` +
                `Prediction by the ${modelText(config.dom0Share, "dom0Share")}. ` +
                `Fix: ${fixText(self, need, greedyText, dom0, sumOfNeeds, link)}.`,
                self.guest.resource,
            );
        });
    });
}

/** --explain: per guest, its need against its predicted share (as checkHost computes it), or why not judged. */
function explainShares(stack: StackView, config: XenShareConfig): StackApplicability {
    const out = new Map<string, Applicability>();
    const lookup = hostConfigLookup(config.hosts);
    for (const host of xenLayout(stack).hosts) {
        const hostText = `host ${describeValue(host.name)}`;
        const entries = host.guests.map(guestEntry);
        const declaring = host.guests.filter((g) => g.need.state === "ok");
        const configEntry = lookup(host.name);
        const link = linkOf(configEntry, config);
        let shares: number[] | undefined;
        if (link !== undefined && entries.some((e) => e.judgedNeed !== undefined)) {
            const dom0 = dom0Traffic(host, configEntry);
            shares = predictXenShares({ linkMBps: link.mbps, dom0Share: config.dom0Share, guests: [...dom0.entries, ...entries.map((e) => e.model)] })
                .slice(dom0.entries.length).map((s) => s.MBps);
        }
        entries.forEach((entry, i) => {
            const urn = entry.guest.resource.urn;
            if (declaring.length === 0) {
                out.set(urn, notApplicable(`no guest on ${hostText} declares perfguard:networkMBps, so the host is not checked`));
            } else if (link === undefined) {
                out.set(urn, entry.guest === declaring[0]
                    ? applied(`${hostText} has no link figure (hosts entry linkMBps or defaultLinkMBps): reported once, on this guest`)
                    : notApplicable(`${hostText} has no link figure; reported once, on its first guest that declares a need`));
            } else if (entry.judgedNeed === undefined || shares === undefined) {
                out.set(urn, notApplicable(`not judged on ${hostText}: ${entry.demandText} (it still counts in the other guests' shares)`));
            } else {
                out.set(urn, applied(`on ${hostText}: needs ${num(entry.judgedNeed, 2)} MB/s, predicted ${num(shares[i], 2)} MB/s of the ${num(link.mbps, 2)} MB/s link (${link.where})`));
            }
        });
        for (const service of host.dom0) {
            out.set(service.resource.urn, notApplicable(`a dom0 resource of ${hostText}: counted as dom0 traffic in its guests' shares (${service.traffic.state === "ok" ? `${num(service.traffic.value, 2)} MB/s` : "no declared traffic"}), not judged itself`));
        }
    }
    for (const vm of stack.ofType(VM_TYPE)) {
        if (!out.has(vm.urn)) {
            out.set(vm.urn, notApplicable("its host is not known: no usable perfguard:xenHost fact and no affinityHost (or one is unknown in this preview)"));
        }
    }
    return { resources: out, others: "not a Xen guest (xenorchestra:index/vm:Vm) or dom0 resource" };
}

export const xenGuestNetworkShare = stackPolicy<XenShareConfig>({
    name: "xen-guest-network-share",
    description: "Every Xen guest that declares the network bandwidth it needs must get at least that share of its host's link, given dom0's traffic and the other guests.",
    enforcementLevel: "advisory",
    configSchema: { properties: XEN_SHARE_SCHEMA },
    explain: explainShares,
    check(stack, config, report) {
        const lookup = hostConfigLookup(config.hosts);
        for (const host of xenLayout(stack).hosts) {
            const anchor = host.guests[0]?.resource ?? host.dom0[0]?.resource;
            if (!anchor) {
                continue;
            }
            isolate(anchor, report, () => checkHost(host, config, lookup, report));
        }
    },
});
