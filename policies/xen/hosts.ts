/**
 * The Xen hosts as a stack declares them: guests (`xenorchestra:index/vm:Vm`) grouped by host,
 * the dom0 services each host runs (any resource with perfguard:xenDomain=dom0), and the host
 * link figures of the policy config. Nothing in @vates/pulumi-xenorchestra models a host's dom0
 * or its link, so both come from facts and config.
 *
 * Host of a guest: the perfguard:xenHost fact when present, else the VM's `affinityHost` input.
 * The fact wins when both are set and differ: `affinityHost` is only a preference (Xen
 * Orchestra may start the VM elsewhere), so the fact is the platform engineer's declared truth.
 * Host keys (a UUID or a name) are compared trimmed and case-insensitively.
 */
import type { FactRead } from "../pack/facts";
import { GuestNetworks, guestNetworks } from "./bonds";
import type { XenHostConfig } from "./settings";
import type { ResourceView, StackView } from "../pack/resources";
import { field, isUnknown, UNKNOWN } from "../pack/values";

export const VM_TYPE = "xenorchestra:index/vm:Vm";

/** Where a resource's host came from. */
export interface HostRef {
    /** The host key as written (UUID or name). */
    readonly name: string;
    /** `affinityHost` or `perfguard:xenHost in tags list`. */
    readonly where: string;
}

/** A guest (domU) and the facts the share check reads. */
export interface XenGuest {
    readonly resource: ResourceView;
    readonly host: HostRef;
    /** perfguard:networkMBps: the bandwidth it needs (modelled as measured: receive; transmit where a VIF cap bounds it). */
    readonly need: FactRead<number>;
    /** perfguard:vifCapMBps: its VIF rate limit. */
    readonly cap: FactRead<number>;
    /** Its VIFs (`networks`) and the program's bonded network they are on. */
    readonly networks: GuestNetworks;
}

/** A resource that declares it runs in a host's dom0. */
export interface Dom0Service {
    readonly resource: ResourceView;
    /** Its host, or undefined when perfguard:xenHost is absent, unknown or invalid. */
    readonly host: HostRef | undefined;
    /** True for perfguard:xenDom0Role=management (the only role the source allows in dom0). */
    readonly management: boolean;
    /** perfguard:xenDom0Role as read (for messages). */
    readonly role: FactRead<string>;
    /** perfguard:networkMBps: what it transfers (modelled as measured: receive). */
    readonly traffic: FactRead<number>;
}

/** One host: its guests and dom0 services, in engine order. */
export interface XenHost {
    /** The host key as first written. */
    readonly name: string;
    readonly guests: XenGuest[];
    readonly dom0: Dom0Service[];
    /** Other stacks' guests naming this host whose Xen Orchestra cannot be told from this stack's: not counted, and the host not judged as passing. */
    readonly unclear: ResourceView[];
}

/** A guest with no host at all: neither a perfguard:xenHost fact nor an affinityHost input. */
export interface UnplacedGuest {
    readonly resource: ResourceView;
    /** perfguard:networkMBps: the bandwidth it needs (modelled as measured: receive; transmit where a VIF cap bounds it). */
    readonly need: FactRead<number>;
}

/** The stack's Xen layout. */
export interface XenLayout {
    /** Hosts in order of first appearance. */
    readonly hosts: readonly XenHost[];
    /** Every dom0 service, with or without a host, in engine order. */
    readonly dom0Services: readonly Dom0Service[];
    /** Guests with no host (not those whose host is unknown in a preview), in engine order. */
    readonly unplaced: readonly UnplacedGuest[];
    /** Guests whose host is unknown in a preview or whose perfguard:xenHost is invalid, in engine order. */
    readonly hostUnknown: readonly UnplacedGuest[];
}

export { XEN_SHARE_SCHEMA } from "./settings";
export type { XenHostConfig, XenShareConfig } from "./settings";

/**
 * The share rule as messages state it: one short clause and the page that describes the model
 * and its source in full (the source is XEN_SHARE_SOURCE; docs/policies/<policyId>.md quotes it).
 */
export function modelText(dom0Share: number, dom0ShareWhere: string, _policyId: string): string {
    // The model's derivation is on the policy's page (docs/policies/<policy>.md), named in the header.
    return `model (measured on downloads): dom0 keeps >= ${Math.round(dom0Share * 1000) / 10}% of the link while it receives (${dom0ShareWhere}), guests split the rest`;
}

function normalise(key: string): string {
    return key.trim().toLowerCase();
}

function hostOfGuest(vm: ResourceView): HostRef | "unknown" | undefined {
    const fact = vm.facts.text("xenHost");
    if (fact.state === "ok") {
        return { name: fact.value, where: fact.where };
    }
    if (fact.state !== "absent" || vm.facts.incomplete) {
        return "unknown"; // unknown in a preview (also a fact container unknown as a whole), or invalid
    }
    const affinity = field(vm.props, "affinityHost");
    if (affinity === UNKNOWN || isUnknown(affinity)) {
        return "unknown";
    }
    return typeof affinity === "string" && affinity.trim() !== "" ? { name: affinity.trim(), where: "affinityHost" } : undefined;
}

/** The Xen Orchestra a resource's provider connects to (`url`, folded), when it is a literal. */
function xoEndpoint(resource: ResourceView): string | undefined {
    const url = resource.provider ? field(resource.provider.props, "url") : undefined;
    return typeof url === "string" && url.trim() !== "" && !isUnknown(url) ? url.trim().toLowerCase() : undefined;
}

const HOST_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How another stack's guest joins a host this stack uses (issue 32): a host is its Xen
 * Orchestra and its uuid or name. Another Xen Orchestra (both endpoints known and different) is
 * another pool's host: not joined. A host uuid is what stacks share: joined. A host name with an
 * endpoint that cannot be compared (either side unknown): the guest cannot be placed (not checked).
 */
function foreignJoin(guest: ResourceView, own: ReadonlySet<string | undefined> | undefined, key: string): "join" | "skip" | "unclear" {
    if (!own) {
        return "join"; // a host of other stacks only: nothing of this preview is judged on it
    }
    // A host uuid is unique whatever Xen Orchestra manages the pool (one pool can be seen through
    // two): it joins across endpoints. Only a name needs the endpoints to agree.
    if (HOST_UUID.test(key)) {
        return "join";
    }
    const endpoint = xoEndpoint(guest);
    const known = [...own].filter((e): e is string => e !== undefined);
    if (endpoint !== undefined && known.length > 0 && !known.includes(endpoint)) {
        return "skip";
    }
    if (endpoint !== undefined && known.includes(endpoint) && !own.has(undefined)) {
        return "join";
    }
    return "unclear";
}

function isDom0(resource: ResourceView): boolean {
    const domain = resource.facts.text("xenDomain");
    return domain.state === "ok" && domain.value === "dom0";
}

/**
 * Builds the layout in one pass over the stack (O(resources)).
 * @param stack - the stack's resources (AnalyzeStack outputs).
 * @returns hosts with their guests and dom0 services, the guests with no host (`unplaced`) and
 *   those whose host is unknown in a preview or invalid (`hostUnknown`). Never throws on odd props.
 */
export function xenLayout(stack: StackView): XenLayout {
    const hosts: XenHost[] = [];
    const byKey = new Map<string, XenHost>();
    const hostFor = (ref: HostRef): XenHost => {
        const key = normalise(ref.name);
        let host = byKey.get(key);
        if (!host) {
            host = { name: ref.name, guests: [], dom0: [], unclear: [] };
            byKey.set(key, host);
            hosts.push(host);
        }
        return host;
    };
    const dom0Services: Dom0Service[] = [];
    const unplaced: UnplacedGuest[] = [];
    const hostUnknown: UnplacedGuest[] = [];
    // The Xen Orchestras this stack's resources reach each host it uses through (undefined: not known).
    const ownHosts = new Map<string, Set<string | undefined>>();
    for (const resource of stack.resources) {
        const host = resource.foreign
            ? undefined
            : resource.type === VM_TYPE && !isDom0(resource)
              ? hostOfGuest(resource)
              : isDom0(resource)
                ? resource.facts.text("xenHost")
                : undefined;
        const name =
            host && typeof host === "object" && "name" in host ? host.name : host && typeof host === "object" && host.state === "ok" ? host.value : undefined;
        if (name !== undefined) {
            const set = ownHosts.get(normalise(name)) ?? new Set<string | undefined>();
            set.add(xoEndpoint(resource));
            ownHosts.set(normalise(name), set);
        }
    }
    for (const resource of stack.resources) {
        if (resource.type === VM_TYPE && !isDom0(resource)) {
            const found = hostOfGuest(resource);
            const join =
                resource.foreign && typeof found === "object" ? foreignJoin(resource, ownHosts.get(normalise(found.name)), normalise(found.name)) : "join";
            if (join === "skip") {
                continue; // another pool's host of the same name
            }
            if (join === "unclear" && typeof found === "object") {
                hostFor(found).unclear.push(resource);
                continue;
            }
            const host = found;
            if (host === undefined) {
                unplaced.push({ resource, need: resource.facts.number("networkMBps") });
            } else if (host === "unknown") {
                hostUnknown.push({ resource, need: resource.facts.number("networkMBps") });
            } else {
                hostFor(host).guests.push({
                    resource,
                    host,
                    need: resource.facts.number("networkMBps"),
                    cap: resource.facts.number("vifCapMBps"),
                    networks: guestNetworks(resource, stack),
                });
            }
            continue;
        }
        if (!isDom0(resource)) {
            continue;
        }
        const hostFact = resource.facts.text("xenHost");
        const role = resource.facts.text("xenDom0Role");
        const service: Dom0Service = {
            resource,
            host: hostFact.state === "ok" ? { name: hostFact.value, where: hostFact.where } : undefined,
            management: role.state === "ok" && role.value.toLowerCase() === "management",
            role,
            traffic: resource.facts.number("networkMBps"),
        };
        dom0Services.push(service);
        if (service.host) {
            hostFor(service.host).dom0.push(service);
        }
    }
    return { hosts, dom0Services, unplaced, hostUnknown };
}

/** A host's config entry and the key it was found under. */
export interface HostConfigEntry {
    readonly key: string;
    readonly entry: XenHostConfig;
}

/**
 * Indexes the `hosts` config by normalised key (O(config entries)).
 * @returns a lookup from a host name to its entry and the key as written, or undefined.
 */
export function hostConfigLookup(hosts: Record<string, XenHostConfig>): (hostName: string) => HostConfigEntry | undefined {
    const index = new Map<string, HostConfigEntry>();
    for (const [key, entry] of Object.entries(hosts ?? {})) {
        const k = normalise(key);
        if (!index.has(k)) {
            index.set(k, { key, entry });
        }
    }
    return (hostName) => index.get(normalise(hostName));
}

/** The policies that take the `hosts` config (XEN_SHARE_SCHEMA): `perfguard config check` checks their host keys. */
export const XEN_HOSTS_POLICIES: readonly string[] = ["xen-dom0-workload", "xen-guest-network-share"];

/**
 * Problems with the host keys of a `hosts` config that its schema cannot state: an empty or
 * blank key names no host (a host is named by its UUID or name, trimmed), so its link and dom0
 * figures apply nowhere and the host meant stays "not checked" (no link) or takes defaultLinkMBps.
 * @param hosts - the `hosts` setting as written (any JSON value; only an object's keys are read).
 * @returns one message per bad key, in key order; never throws.
 */
export function hostKeyProblems(hosts: unknown): string[] {
    if (hosts === null || typeof hosts !== "object" || Array.isArray(hosts)) {
        return [];
    }
    return Object.keys(hosts)
        .filter((k) => k.trim() === "")
        .sort()
        .map(
            (k) =>
                `hosts[${JSON.stringify(k)}]: ${k === "" ? "an empty" : "a blank"} host key names no host (use the host's UUID or name, as in affinityHost or perfguard:xenHost); ` +
                "its linkMBps and dom0NetworkMBps apply nowhere",
        );
}

/** `hosts["xcp-01"].linkMBps`: how messages name a host's config field. */
export function hostConfigPath(key: string, fieldName: keyof XenHostConfig): string {
    return `hosts[${JSON.stringify(key)}].${fieldName}`;
}
