/**
 * A virtual service's (VS) demand as its perfguard facts and fields declare it: SSL on or off,
 * the demand facts (with what is unknown in a preview), and the profile's L4 or L7 throughput
 * row. Importing this module registers the VS's typed-field reader perfguard-facts uses.
 */
import { VsDemand } from "../../model/seCapacity";
import type { ResourceView } from "../pack/resources";
import { foldName, parseAviRef } from "./refs";
import { registerTypedFields } from "../pack/typedFields";
import { describeValue, field, isUnknown, parseGoBool, UNKNOWN } from "../pack/values";
import { FieldRead, GO_BOOLS } from "./seGroupFields";

export const VS_TYPE = "avi:index/virtualservice:Virtualservice";
/**
 * Whether SSL is on for a VS: any `services[].enableSsl` true (Go strconv.ParseBool) or a
 * non-empty `sslKeyAndCertificateRefs`.
 * @returns ok true/false with the field that decided, unknown (preview), or invalid with the
 *   problem sentence; never throws.
 */
export function vsSsl(vs: ResourceView): FieldRead<boolean> {
    const certs = field(vs.props, "sslKeyAndCertificateRefs");
    // A list with unknown elements (certificates created in this stack) is still non-empty.
    if (Array.isArray(certs) && certs.length > 0) {
        return { state: "ok", value: true, where: "sslKeyAndCertificateRefs" };
    }
    const services = field(vs.props, "services");
    if (services === UNKNOWN || certs === UNKNOWN) {
        return { state: "unknown", where: "services" };
    }
    let unknown = false;
    let invalid: string | undefined;
    if (Array.isArray(services)) {
        for (const [i, service] of services.entries()) {
            const raw = field(service, "enableSsl");
            if (raw === UNKNOWN) {
                unknown = true;
                continue;
            }
            if (raw === undefined || raw === null) {
                continue;
            }
            const on = parseGoBool(raw);
            if (on === true) {
                return { state: "ok", value: true, where: `services[${i}].enableSsl` };
            }
            if (on === undefined) {
                invalid ??= `services[${i}].enableSsl ${describeValue(raw)} is not a boolean (Go strconv.ParseBool accepts ${GO_BOOLS})`;
            }
        }
    }
    if (invalid) {
        return { state: "invalid", where: "services", problem: invalid };
    }
    return unknown
        ? { state: "unknown", where: "services" }
        : { state: "ok", value: false, where: "no services[].enableSsl true and no sslKeyAndCertificateRefs" };
}

registerTypedFields(VS_TYPE, (resource) => {
    const ssl = vsSsl(resource);
    return ssl.state === "invalid" ? [ssl.problem] : [];
});

/**
 * The demand a VS's known facts give when some others are unknown in a preview. Demand only
 * adds, so a verdict that this demand does not fit holds whatever the unknown facts turn out to be.
 */
export interface KnownDemand {
    readonly demand: VsDemand;
    readonly where: Readonly<Partial<Record<keyof VsDemand, string>>>;
    /** perfguard:ingressPct is unknown in this preview or invalid (counted as all ingress; judged both ways). */
    readonly ingressPctUnread?: "unknown" | "invalid";
    /** applicationProfileRef is unknown in this preview and picks the throughput row (judged on the L4 and the L7 row). */
    readonly profileUnread?: true;
    /** What is unknown in this preview and not counted, e.g. "perfguard:l7Rps". */
    readonly unknown: readonly string[];
}

/**
 * The demand facts of a VS: none, not usable (unknown or invalid), or read. An "unusable" VS
 * whose only problem is facts unknown in a preview carries `known`: the demand of its known
 * facts (a lower bound of the real demand).
 */
export type VsDemandRead =
    | { readonly state: "none" }
    | { readonly state: "unusable"; readonly known?: KnownDemand }
    | {
          readonly state: "ok";
          readonly demand: VsDemand;
          readonly where: Readonly<Partial<Record<keyof VsDemand, string>>>;
          readonly ingressPctUnread?: "unknown" | "invalid";
          readonly profileUnread?: true;
      };

const DEMAND_KEYS = ["sslTps", "l7Rps", "l4Cps", "l4OpenConnections", "throughputGbps"] as const;

/**
 * Reads the demand facts of a VS (perfguard:sslTps, sslKeyType, l7Rps, l4Cps, l4OpenConnections,
 * throughputGbps). A VS with no demand fact is not applicable ("none"); an invalid demand fact
 * or SSL setting makes it "unusable" (perfguard-facts reports it). A fact unknown in a preview
 * also makes it "unusable", with `known` set to the demand of the facts that are known (the
 * lower bound: an unknown sslKeyType counts the SSL TPS as ECC, the cheaper handshake, and a
 * throughput whose row depends on an unknown SSL setting is left out).
 */
export function readVsDemand(vs: ResourceView): VsDemandRead {
    const demand: { -readonly [K in keyof VsDemand]: VsDemand[K] } = {};
    const where: Partial<Record<keyof VsDemand, string>> = {};
    const unknown: string[] = [];
    let any = false;
    for (const key of DEMAND_KEYS) {
        const read = vs.facts.number(key);
        if (read.state === "invalid") {
            return { state: "unusable" };
        }
        if (read.state === "unknown" || (read.state === "absent" && vs.facts.incomplete)) {
            unknown.push(`perfguard:${key}`); // absent, but an unknown entry of its markers may be it
        } else if (read.state === "ok") {
            any = true;
            demand[key] = read.value;
            where[key] = read.where;
        }
    }
    if (!any) {
        return vs.facts.incomplete || unknown.length > 0 ? { state: "unusable" } : { state: "none" };
    }
    const keyType = vs.facts.text("sslKeyType");
    if (keyType.state === "unknown" && demand.sslTps !== undefined) {
        unknown.push("perfguard:sslKeyType");
        demand.sslKeyType = "ecc";
        where.sslKeyType = "perfguard:sslKeyType unknown in this preview: counted as ECC, the cheaper handshake";
    } else {
        demand.sslKeyType = keyType.state === "ok" && keyType.value === "ecc" ? "ecc" : "rsa";
        where.sslKeyType =
            keyType.state === "ok"
                ? keyType.where
                : keyType.state === "invalid"
                  ? "perfguard:sslKeyType invalid (perfguard-facts reports it): rsa, the conservative one"
                  : "perfguard:sslKeyType not set: default rsa, the conservative one";
    }
    // The direction of the throughput: optional. Unknown or invalid is counted as all ingress (the
    // conservative case) and marked, so the evaluation also judges it as all egress.
    const ingress = vs.facts.number("ingressPct");
    let ingressPctUnread: "unknown" | "invalid" | undefined;
    if (ingress.state === "ok" && demand.throughputGbps !== undefined) {
        demand.ingressPct = ingress.value;
        where.ingressPct = ingress.where;
    } else if ((ingress.state === "unknown" || ingress.state === "invalid") && demand.throughputGbps !== undefined) {
        ingressPctUnread = ingress.state;
    }
    const profile = applicationProfileLayer(vs);
    if (profile) {
        demand.profile = profile.layer;
        where.profile = profile.where;
    }
    const ssl = vsSsl(vs);
    if (ssl.state === "ok") {
        demand.ssl = ssl.value;
        where.ssl = ssl.where;
    } else if (demand.throughputGbps !== undefined && demand.sslTps === undefined) {
        if (ssl.state === "invalid") {
            return { state: "unusable" }; // the throughput row (SSL or not) cannot be chosen
        }
        // The row depends on an SSL setting unknown in this preview: leave the throughput out.
        unknown.push("perfguard:throughputGbps (its row depends on the SSL setting)");
        delete demand.throughputGbps;
        delete where.throughputGbps;
        if (!DEMAND_KEYS.some((k) => demand[k] !== undefined)) {
            return { state: "unusable" };
        }
    }
    // An applicationProfileRef unknown in this preview picks the throughput row of a VS whose SSL
    // and RPS do not: marked, so the evaluation judges it on the L4 and on the L7 row.
    const profileRef = field(vs.props, "applicationProfileRef");
    const profileUnread =
        (profileRef === UNKNOWN || isUnknown(profileRef)) &&
        demand.throughputGbps !== undefined &&
        demand.ssl !== true &&
        demand.sslTps === undefined &&
        demand.l7Rps === undefined;
    const unread = {
        ...(ingressPctUnread && demand.throughputGbps !== undefined ? { ingressPctUnread } : {}),
        ...(profileUnread ? { profileUnread: true as const } : {}),
    };
    if (unknown.length > 0) {
        return { state: "unusable", known: { demand, where, unknown, ...unread } };
    }
    return { state: "ok", demand, where, ...unread };
}

/** The layer of the well-known System application profiles (others are not known without the Controller). */
const PROFILE_LAYERS: Readonly<Record<string, "l4" | "l7">> = {
    "system-l4-application": "l4",
    "system-ssl-application": "l4",
    "system-http": "l7",
    "system-secure-http": "l7",
    "system-http-vdi": "l7",
    "system-secure-http-vdi": "l7",
};

/** The VS's application profile layer when its `applicationProfileRef` names a System profile. */
function applicationProfileLayer(vs: ResourceView): { layer: "l4" | "l7"; where: string } | undefined {
    const ref = field(vs.props, "applicationProfileRef");
    if (typeof ref !== "string" || isUnknown(ref)) {
        return undefined;
    }
    const parsed = parseAviRef(ref, "applicationprofile");
    const name = parsed?.name;
    const layer = name ? PROFILE_LAYERS[foldName(name)] : undefined;
    return layer && name ? { layer, where: `applicationProfileRef ${name}` } : undefined;
}
