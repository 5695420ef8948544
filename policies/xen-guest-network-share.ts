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
    UnplacedGuest,
} from "./support/xenHosts";

const POLICY = "xen-guest-network-share";

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
    /** Its traffic in the model; undefined when it is not counted (no declared need, or a fact unknown/invalid). */
    readonly model: XenShareGuest | undefined;
    /** Its need (MB/s) when it can be judged: need known and no unknown/invalid fact. */
    readonly judgedNeed: number | undefined;
    /** "40 MB/s needed", "40 MB/s needed, VIF cap 30 MB/s"; for guests not counted, why. */
    readonly demandText: string;
    /** Declares no perfguard:networkMBps: assumed idle for this check, not counted. */
    readonly idle: boolean;
}

function guestEntry(guest: XenGuest, index: number): GuestEntry {
    const { need, cap } = guest;
    const name = `guest ${index}`;
    // A fact unknown in a preview (or invalid: perfguard-facts reports it) makes the guest take
    // nothing in the model and not be judged, so only verdicts that hold whatever it is are made.
    if (need.state === "unknown" || need.state === "invalid" || cap.state === "unknown" || cap.state === "invalid") {
        return { guest, model: undefined, judgedNeed: undefined, demandText: "not counted: a fact is unknown or invalid", idle: false };
    }
    if (need.state !== "ok") {
        // No declared need: assumed idle for this check (declaring its need counts it).
        return { guest, model: undefined, judgedNeed: undefined, demandText: "not counted: no perfguard:networkMBps, assumed idle", idle: true };
    }
    const capMBps = cap.state === "ok" ? cap.value : undefined;
    const capText = capMBps === undefined ? "" : `, VIF cap ${num(capMBps, 2)} MB/s`;
    return { guest, model: { name, domain: "domU", demandMBps: need.value, capMBps }, judgedNeed: need.value, demandText: `${num(need.value, 2)} MB/s needed${capText}`, idle: false };
}

/** dom0's declared traffic on one host: the config figure plus every dom0 service's networkMBps. */
interface Dom0Traffic {
    readonly entries: XenShareGuest[];
    readonly totalMBps: number;
    /** "25 MB/s hosts["x"].dom0NetworkMBps + Dom0Service "backup" 40 MB/s (perfguard:networkMBps in tags list)" */
    readonly parts: string[];
    /** The dom0 services whose traffic is counted. */
    readonly services: Dom0Service[];
    /** The config's dom0NetworkMBps, when counted. */
    readonly configured: { readonly mbps: number; readonly where: string } | undefined;
}

function dom0Traffic(host: XenHost, entry: HostConfigEntry | undefined): Dom0Traffic {
    const entries: XenShareGuest[] = [];
    const parts: string[] = [];
    const services: Dom0Service[] = [];
    let total = 0;
    const configuredMBps = entry?.entry.dom0NetworkMBps ?? 0;
    let configured: Dom0Traffic["configured"];
    if (configuredMBps > 0) {
        configured = { mbps: configuredMBps, where: hostConfigPath(entry?.key ?? host.name, "dom0NetworkMBps") };
        entries.push({ name: "dom0 config", domain: "dom0", demandMBps: configuredMBps });
        parts.push(`${num(configuredMBps, 2)} MB/s ${configured.where}`);
        total += configuredMBps;
    }
    let counted = configuredMBps > 0 ? 1 : 0;
    const wheres = new Set<string>();
    host.dom0.forEach((service, i) => {
        // Undeclared, unknown (preview) or invalid traffic is not counted, as for guests: a dom0
        // service that declares no perfguard:networkMBps is assumed idle for this check.
        if (service.traffic.state === "ok" && service.traffic.value > 0) {
            entries.push({ name: `dom0 service ${i}`, domain: "dom0", demandMBps: service.traffic.value });
            if (parts.length < SHOWN) {
                parts.push(`${service.resource.label} ${num(service.traffic.value, 2)} MB/s`);
                wheres.add(service.traffic.where);
            }
            services.push(service);
            total += service.traffic.value;
            counted++;
        }
    });
    if (counted > parts.length) {
        parts.push(`${counted - parts.length} more`);
    }
    if (wheres.size > 0) {
        parts[parts.length - 1] += ` (${[...wheres].join(", ")})`;
    }
    return { entries, totalMBps: total, parts, services, configured };
}

/** "VM "a", VM "b" and 3 more": the first SHOWN labels, the rest counted. */
function namedFew(labels: readonly string[], total: number): string {
    return total > labels.length ? `${labels.join(", ")} and ${total - labels.length} more` : listLabels(labels);
}

function servicesText(services: readonly Dom0Service[]): string {
    return namedFew(services.slice(0, SHOWN).map((s) => s.resource.label), services.length);
}

function fixText(self: GuestEntry, needMBps: number, dom0: Dom0Traffic, sumOfNeeds: number, link: Link): string {
    const fixes: string[] = [];
    const ownCap = self.guest.cap;
    if (ownCap.state === "ok" && ownCap.value < needMBps) {
        fixes.push(`raise ${self.guest.resource.label}'s own VIF rate limit (${ownCap.where}: ${num(ownCap.value, 2)} MB/s, below its need)`);
    }
    // Only workloads are moved out of dom0; management tools belong there (xen-dom0-workload),
    // so their traffic, and the rest of dom0's declared traffic, is capped or rescheduled instead.
    const workloads = dom0.services.filter((s) => !s.management && s.role.state !== "unknown" && s.role.state !== "invalid");
    const others = dom0.services.filter((s) => !workloads.includes(s));
    if (workloads.length > 0) {
        fixes.push(`move the dom0 workloads (${servicesText(workloads)}) into a domU`);
    }
    if (others.length > 0) {
        const what = others.every((s) => s.management) ? "management traffic" : "traffic";
        fixes.push(`cap the dom0 ${what} of ${servicesText(others)} or schedule it outside the guests' peak`);
    }
    if (dom0.configured) {
        fixes.push(`lower or reschedule dom0's other traffic (${dom0.configured.where}: ${num(dom0.configured.mbps, 2)} MB/s)`);
    }
    fixes.push("move a guest to another host, or give the host a faster link " +
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
    const counted = entries.filter((e) => e.model !== undefined);
    const shares = predictXenShares({ linkMBps: link.mbps, dom0Share: config.dom0Share, guests: [...dom0.entries, ...counted.map((e) => e.model as XenShareGuest)] });
    const shareOf = new Map(counted.map((e, i) => [e, shares[dom0.entries.length + i].MBps]));
    const sumOfNeeds = judged.reduce((t, e) => t + (e.judgedNeed ?? 0), 0);
    const idle = entries.filter((e) => e.idle).length;
    const unknown = entries.length - counted.length - idle;
    // The first SHOWN + 1 counted guests, so that each message can name SHOWN co-tenants other than itself in O(1).
    const head = counted.slice(0, SHOWN + 1);
    const dom0Text = dom0.totalMBps > 0 ? `dom0 (${num(dom0.totalMBps, 2)} MB/s declared: ${dom0.parts.join(" + ")})` : "dom0 (no declared traffic)";
    const notCounted: string[] = [];
    if (idle > 0) {
        notCounted.push(`${plural(idle, "guest")} on the host declare${idle === 1 ? "s" : ""} no perfguard:networkMBps and ${idle === 1 ? "was" : "were"} not counted (assumed idle for this check)`);
    }
    if (unknown > 0) {
        notCounted.push(`${plural(unknown, "guest")} with an unknown or invalid fact ${unknown === 1 ? "was" : "were"} not counted`);
    }
    const notCountedText = notCounted.length > 0 ? ` ${notCounted.join("; ")}.` : "";
    for (const self of judged) {
        isolate(self.guest.resource, report, () => {
            const need = self.judgedNeed as number;
            const predicted = shareOf.get(self) ?? 0;
            if (predicted >= need - EPSILON_MBPS) {
                return;
            }
            const others = head.filter((e) => e !== self).slice(0, SHOWN).map((e) => `${e.guest.resource.label} (${e.demandText})`);
            const more = counted.length - 1 - others.length;
            const coTenants = others.length > 0 ? `${others.join(", ")}${more > 0 ? `, ${more} more guests` : ""} and ${dom0Text}` : dom0Text;
            report(
                `${self.guest.resource.label} on Xen host "${host.name}" (${self.guest.host.where}) needs ${num(need, 2)} MB/s (${self.guest.need.state === "ok" ? self.guest.need.where : "perfguard:networkMBps"}), ` +
                `but is predicted ${num(predicted, 2)} MB/s of the host's ${num(link.mbps, 2)} MB/s link (${link.where}), ${num(need - predicted, 2)} MB/s short of its need ` +
                `(${modelText(config.dom0Share, "dom0Share", POLICY)}). ` +
                `It shares the link with ${coTenants}.${notCountedText} ` +
                `Fix: ${fixText(self, need, dom0, sumOfNeeds, link)}.`,
                self.guest.resource,
            );
        });
    }
}

/**
 * Guests that declare a need but have no host are reported once per run, on the first of them:
 * perfguard cannot place them on a link, so their need is not checked.
 */
function checkUnplaced(unplaced: readonly UnplacedGuest[], report: Report): void {
    const declaring = unplaced.filter((g) => g.need.state === "ok");
    if (declaring.length === 0) {
        return;
    }
    const first = declaring[0];
    const needs = declaring.slice(0, SHOWN).map((g) => `${g.resource.label}: ${num(g.need.state === "ok" ? g.need.value : NaN, 2)} MB/s`);
    report(
        `${first.resource.label} declares the network bandwidth it needs, but has no Xen host (no perfguard:xenHost fact and no affinityHost), ` +
        `so perfguard cannot place it on a host's link: ${plural(declaring.length, "guest")} that declare${declaring.length === 1 ? "s" : ""} a need could not be placed ` +
        `(${namedFew(needs, declaring.length)}; perfguard:networkMBps), and ${declaring.length === 1 ? "its share was" : "their shares were"} not checked (this is reported once, on the first of them). ` +
        `Fix: declare perfguard:xenHost=<host UUID or name> on each (or set affinityHost), spelt as in the hosts policy config.`,
        first.resource,
    );
}

/** --explain: per guest, its need against its predicted share (as checkHost computes it), or why not judged. */
function explainShares(stack: StackView, config: XenShareConfig): StackApplicability {
    const out = new Map<string, Applicability>();
    const lookup = hostConfigLookup(config.hosts);
    const layout = xenLayout(stack);
    const firstUnplaced = layout.unplaced.find((g) => g.need.state === "ok");
    for (const guest of layout.unplaced) {
        out.set(guest.resource.urn, guest === firstUnplaced
            ? applied("declares perfguard:networkMBps but has no host (no perfguard:xenHost, no affinityHost): reported once, on this guest")
            : guest.need.state === "ok"
                ? notApplicable("declares perfguard:networkMBps but has no host; reported once, on the first such guest")
                : notApplicable("no host (no perfguard:xenHost, no affinityHost) and no usable perfguard:networkMBps"));
    }
    for (const host of layout.hosts) {
        const hostText = `host ${describeValue(host.name)}`;
        const entries = host.guests.map(guestEntry);
        const declaring = host.guests.filter((g) => g.need.state === "ok");
        const configEntry = lookup(host.name);
        const link = linkOf(configEntry, config);
        let shares: Map<GuestEntry, number> | undefined;
        if (link !== undefined && entries.some((e) => e.judgedNeed !== undefined)) {
            const dom0 = dom0Traffic(host, configEntry);
            const counted = entries.filter((e) => e.model !== undefined);
            const predicted = predictXenShares({ linkMBps: link.mbps, dom0Share: config.dom0Share, guests: [...dom0.entries, ...counted.map((e) => e.model as XenShareGuest)] });
            shares = new Map(counted.map((e, i) => [e, predicted[dom0.entries.length + i].MBps]));
        }
        entries.forEach((entry) => {
            const urn = entry.guest.resource.urn;
            if (declaring.length === 0) {
                out.set(urn, notApplicable(`no guest on ${hostText} declares perfguard:networkMBps, so the host is not checked`));
            } else if (link === undefined) {
                out.set(urn, entry.guest === declaring[0]
                    ? applied(`${hostText} has no link figure (hosts entry linkMBps or defaultLinkMBps): reported once, on this guest`)
                    : notApplicable(`${hostText} has no link figure; reported once, on its first guest that declares a need`));
            } else if (entry.idle) {
                out.set(urn, notApplicable(`declares no perfguard:networkMBps: assumed idle on ${hostText}, not judged and not counted in the other guests' shares`));
            } else if (entry.judgedNeed === undefined || shares === undefined) {
                out.set(urn, notApplicable(`not judged on ${hostText}: ${entry.demandText}`));
            } else {
                out.set(urn, applied(`on ${hostText}: needs ${num(entry.judgedNeed, 2)} MB/s, predicted ${num(shares.get(entry) ?? 0, 2)} MB/s of the ${num(link.mbps, 2)} MB/s link (${link.where})`));
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
    name: POLICY,
    description: "Every Xen guest that declares the network bandwidth it needs must get at least that share of its host's link, given dom0's traffic and the other guests.",
    enforcementLevel: "advisory",
    configSchema: { properties: XEN_SHARE_SCHEMA },
    explain: explainShares,
    check(stack, config, report) {
        const lookup = hostConfigLookup(config.hosts);
        const layout = xenLayout(stack);
        for (const host of layout.hosts) {
            const anchor = host.guests[0]?.resource ?? host.dom0[0]?.resource;
            if (!anchor) {
                continue;
            }
            isolate(anchor, report, () => checkHost(host, config, lookup, report));
        }
        const firstUnplaced = layout.unplaced[0];
        if (firstUnplaced) {
            isolate(firstUnplaced.resource, report, () => checkUnplaced(layout.unplaced, report));
        }
    },
});
