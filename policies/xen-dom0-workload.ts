/**
 * xen-dom0-workload: a Xen host's dom0 is for management only (source: dom0 keeps >= 50% of the
 * link whenever it transfers, so any dom0 workload takes bandwidth from every guest on the host).
 *
 * This policy has no config (a stack policy sees only its own config, so it cannot read
 * xen-guest-network-share's host link figures): it states the loss as fractions of the link
 * (with dom0Share at xen-guest-network-share's default), which needs no link figure; the check
 * in MB/s against each guest's declared need is xen-guest-network-share's.
 */
import { DEFAULT_DOM0_SHARE, predictXenShares, XenShareGuest } from "../model/xenShares";
import { isolate, stackPolicy } from "./support/definePolicy";
import { Applicability, applied, notApplicable, StackApplicability } from "./support/explain";
import type { StackView } from "./support/resources";
import { listLabels, num, pct, plural } from "./support/format";
import { describeValue } from "./support/values";
import { Dom0Service, modelText, XenHost, xenLayout } from "./support/xenHosts";

const POLICY = "xen-dom0-workload";

// Guests named per message; the rest are counted.
const SHOWN = 8;

function roleText(service: Dom0Service): string {
    return service.role.state === "ok"
        ? `${service.role.where} is ${describeValue(service.role.value)}`
        : "perfguard:xenDom0Role is absent";
}

/**
 * The model's loss for `guests` guests when one dom0 service starts sending as much as it can,
 * all guests sending as much as they can too (link = 1, so shares are fractions of the link).
 * @returns each guest's fraction of the link with and without the service.
 */
function fractionsFor(guests: number): { withService: number; without: number } {
    const domUs: XenShareGuest[] = Array.from({ length: guests }, (_, i) => ({ name: `guest ${i}`, domain: "domU" }));
    const without = predictXenShares({ linkMBps: 1, dom0Share: DEFAULT_DOM0_SHARE, guests: domUs });
    const withService = predictXenShares({ linkMBps: 1, dom0Share: DEFAULT_DOM0_SHARE, guests: [{ name: "dom0 service", domain: "dom0" }, ...domUs] });
    return { withService: withService[1].MBps, without: without[0].MBps };
}

function lossText(service: Dom0Service, host: XenHost | undefined): string {
    if (!service.host || !host) {
        return "Its host is not declared (no valid perfguard:xenHost on it), so the loss for that host's guests could not be computed.";
    }
    const guests = host.guests;
    if (guests.length === 0) {
        return `No guest of host "${host.name}" is in this stack, so no loss is predicted for them here.`;
    }
    if (service.traffic.state === "ok" && service.traffic.value === 0) {
        return `It declares 0 MB/s (${service.traffic.where}), so the model predicts no loss for the host's ${plural(guests.length, "guest")} today; any transfer it starts takes up to ${pct(DEFAULT_DOM0_SHARE)} of the link from them.`;
    }
    const { withService, without } = fractionsFor(guests.length);
    const labels = guests.slice(0, SHOWN).map((g) => g.resource.label);
    const named = guests.length > SHOWN ? `${labels.join(", ")} and ${guests.length - SHOWN} more` : listLabels(labels);
    // Consistent with xen-guest-network-share: declared traffic is counted there; a service that
    // declares none is assumed idle there, so the loss below is what any transfer of it costs.
    const traffic = service.traffic.state === "ok"
        ? `It declares ${num(service.traffic.value, 2)} MB/s (${service.traffic.where}), counted by xen-guest-network-share against the guests' needs.`
        : "It declares no perfguard:networkMBps, so xen-guest-network-share assumes it idle, as any undeclared sender; declare its peak MB/s to have it counted there.";
    return `While it transfers, the host's ${plural(guests.length, "guest")} (${named}) share ${pct(1 - DEFAULT_DOM0_SHARE)} of the link instead of all of it: ` +
        `when all send at once each gets ${pct(withService)} of the link instead of ${pct(without)} ` +
        `(${modelText(DEFAULT_DOM0_SHARE, "dom0Share: xen-guest-network-share's default", POLICY)}). ${traffic}`;
}

/** --explain: each dom0 resource's role, or why it is not judged. */
function explainDom0(stack: StackView): StackApplicability {
    const out = new Map<string, Applicability>();
    for (const service of xenLayout(stack).dom0Services) {
        const host = service.host ? `host ${describeValue(service.host.name)} (${service.host.where})` : "no valid perfguard:xenHost";
        if (service.management) {
            out.set(service.resource.urn, notApplicable(`runs in dom0 (${host}) as management (${service.role.state === "ok" ? service.role.where : "perfguard:xenDom0Role"}), which dom0 is for`));
        } else if (service.role.state === "unknown" || service.role.state === "invalid") {
            out.set(service.resource.urn, notApplicable(`runs in dom0 (${host}) but perfguard:xenDom0Role is ${service.role.state === "unknown" ? "unknown in this preview" : "invalid (perfguard-facts reports it)"}`));
        } else {
            out.set(service.resource.urn, applied(`runs in dom0 (${host}) as a workload: ${roleText(service)}`));
        }
    }
    return { resources: out, others: "no perfguard:xenDomain=dom0 on this resource" };
}

export const xenDom0Workload = stackPolicy<Record<string, never>>({
    name: POLICY,
    description: "A Xen host's dom0 is for management only: services that run in dom0 take network bandwidth from every guest on the host.",
    enforcementLevel: "advisory",
    explain: explainDom0,
    check(stack, _config, report) {
        const layout = xenLayout(stack);
        const byName = new Map(layout.hosts.map((h) => [h.name.trim().toLowerCase(), h]));
        for (const service of layout.dom0Services) {
            isolate(service.resource, report, () => {
                if (service.management || service.role.state === "unknown" || service.role.state === "invalid") {
                    return; // management is allowed; an unknown (preview) or invalid role is not judged
                }
                const host = service.host ? byName.get(service.host.name.trim().toLowerCase()) : undefined;
                const where = service.host ? `dom0 of Xen host "${service.host.name}" (perfguard:xenDomain=dom0 and ${service.host.where} on it)` : "a Xen host's dom0 (perfguard:xenDomain=dom0 on it)";
                report(
                    `${service.resource.label} runs in ${where} as a workload, not a management tool (${roleText(service)}; only "management" belongs in dom0). ` +
                    `${lossText(service, host)} ` +
                    `Fix: move the service into a domU (the source's conclusion: dom0 for management only), ` +
                    `or, if it is a management tool, declare perfguard:xenDom0Role=management.`,
                    service.resource,
                );
            });
        }
    },
});
