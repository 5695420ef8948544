/**
 * The key type of the certificates a virtual service (VS) presents, read from the stack before any
 * perfguard:sslKeyType fact or assumption: the per-SE table measured SSL TPS with an EC P-256 key
 * (sslTpsEcc) and an RSA-2048 key (sslTpsRsa), and an ECDSA handshake costs about a third of an
 * RSA-2048 one, so which key a VS presents decides its SSL TPS capacity.
 *
 * Sources: vmware/terraform-provider-avi dded6fb, avi/resource_avi_sslkeyandcertificate.go
 * (`key_params`, a set of one) and avi/resource_avi_rest_dependants.go ResourceSSLKeyParamsSchema
 * (`algorithm` SSL_KEY_ALGORITHM_RSA / SSL_KEY_ALGORITHM_EC, `rsa_params { key_size }` default
 * SSL_KEY_2048_BITS, `ec_params { curve }` default SSL_KEY_EC_CURVE_SECP256R1). Through the
 * Terraform bridge: keyParams[0].algorithm, keyParams[0].rsaParams[0].keySize,
 * keyParams[0].ecParams[0].curve (a set of one is a list; an object is read too).
 *
 * A VS names its certificates in `sslKeyAndCertificateRefs`: by name (`/api/sslkeyandcertificate?name=x`),
 * by uuid or URL (`.../api/sslkeyandcertificate/sslkeyandcertificate-<uuid>`), or, in a preview, by
 * a value unknown until apply: then joined through the VS's property dependencies on that field.
 * Kept apart from seGroups.ts / refs.ts (SE group resolution) on purpose: one job per module.
 */
import type { SslKeyBasis, VsDemand } from "../../model/seCapacity";
import type { ResourceView, StackView } from "../pack/resources";
import { field, isUnknown } from "../pack/values";
import { canonicalUuid, foldName, parseAviRef } from "./refs";
import type { VsDemandRead } from "./vsDemand";

export const CERT_TYPE = "avi:index/sslkeyandcertificate:Sslkeyandcertificate";
const OBJECT = "sslkeyandcertificate";

/** The measured keys: RSA 2048 bits and EC secp256r1 (P-256), the source's test notes. */
const MEASURED_RSA_BITS = 2048;
const MEASURED_CURVE = "SSL_KEY_EC_CURVE_SECP256R1";

/** The key of one certificate, as read from its keyParams. */
export interface CertificateKey {
    /** The table row it is judged on: ECC (EC P-256) or RSA (RSA-2048). */
    readonly row: "ecc" | "rsa";
    /** RSA-2048 or EC P-256: the keys the source measured. */
    readonly measured: boolean;
    /** "RSA-2048", "RSA-4096", "EC P-256", "EC SECP384R1". */
    readonly name: string;
    /** The certificate, as messages name it: `Sslkeyandcertificate "shop-cert"`. */
    readonly certificate: string;
}

/** A one-element list (a Terraform set of one, as the bridge gives it) or an object: the object. */
function single(value: unknown): unknown {
    return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
}

/** The key of a certificate resource, or undefined when its keyParams are absent, unknown or not understood. */
export function certificateKey(cert: ResourceView): CertificateKey | undefined {
    // The top-level keyParams (set when the key is generated or declared); else the certificate
    // block's own keyParams (certificate { key_params }, which the Controller fills from the certificate).
    const own = single(field(cert.props, "keyParams"));
    const params = own !== undefined ? own : single(field(single(field(cert.props, "certificates")), "keyParams"));
    const algorithm = field(params, "algorithm");
    const certificate = `Sslkeyandcertificate "${cert.name}"`;
    if (algorithm === "SSL_KEY_ALGORITHM_RSA") {
        const size = field(single(field(params, "rsaParams")), "keySize");
        if (isUnknown(size) || (size !== undefined && typeof size !== "string")) {
            return undefined;
        }
        const bits = size === undefined ? MEASURED_RSA_BITS : Number(/^SSL_KEY_(\d+)_BITS$/.exec(size)?.[1]);
        if (!Number.isInteger(bits)) {
            return undefined;
        }
        // A smaller key than the measured one is cheaper: the RSA-2048 row is its conservative figure.
        return { row: "rsa", measured: bits <= MEASURED_RSA_BITS, name: `RSA-${bits}`, certificate };
    }
    if (algorithm === "SSL_KEY_ALGORITHM_EC") {
        const curve = field(single(field(params, "ecParams")), "curve");
        if (isUnknown(curve) || (curve !== undefined && typeof curve !== "string")) {
            return undefined;
        }
        const measured = curve === undefined || curve === MEASURED_CURVE;
        return { row: "ecc", measured, name: measured ? "EC P-256" : `EC ${curve.replace(/^SSL_KEY_EC_CURVE_/, "")}`, certificate };
    }
    return undefined;
}

/** The certificates of the stack a ref names (by name, uuid or URL); empty when none. */
function certificatesNamed(ref: string, certs: readonly ResourceView[]): ResourceView[] {
    const parsed = parseAviRef(ref, OBJECT);
    const text = (r: ResourceView, key: string) => {
        const v = field(r.props, key);
        return typeof v === "string" && !isUnknown(v) ? v : undefined;
    };
    if (parsed?.by === "name") {
        return certs.filter((c) => foldName(text(c, "name") ?? c.name) === foldName(parsed.name));
    }
    const uuid = parsed?.by === "uuid" ? parsed.uuid : canonicalUuid(ref, OBJECT);
    return certs.filter((c) => {
        const own = text(c, "uuid");
        const url = text(c, "url") ?? text(c, "sslkeyandcertificateId");
        return (
            (own !== undefined && canonicalUuid(own, OBJECT) === uuid) ||
            url === ref ||
            (url !== undefined && parseAviRef(url, OBJECT)?.by === "uuid" && (parseAviRef(url, OBJECT) as { uuid: string }).uuid === uuid)
        );
    });
}

/**
 * The keys of the certificates a VS names that are declared in the stack: each ref resolved by
 * name, uuid or URL, and refs unknown in a preview through the VS's property dependencies on
 * sslKeyAndCertificateRefs. `unread` counts refs whose key cannot be read here (a certificate not
 * in the stack, or its keyParams unknown or absent).
 * @returns undefined when the VS names no certificate; never throws.
 */
export function certificateKeys(stack: StackView, vs: ResourceView): { keys: CertificateKey[]; unread: number } | undefined {
    const refs = field(vs.props, "sslKeyAndCertificateRefs");
    if (!Array.isArray(refs) || refs.length === 0) {
        return undefined;
    }
    const certs = stack.ofType(CERT_TYPE);
    const depended = (vs.propertyDependencies.sslKeyAndCertificateRefs ?? [])
        .map((urn) => stack.byUrn.get(urn))
        .filter((r): r is ResourceView => r !== undefined && r.type === CERT_TYPE);
    const found = new Set<ResourceView>();
    let unread = 0;
    let unknownRefs = 0;
    for (const ref of refs) {
        if (typeof ref !== "string" || isUnknown(ref)) {
            unknownRefs++;
            continue;
        }
        const named = certificatesNamed(ref, certs);
        if (named.length !== 1) {
            unread++; // not in the stack, or a name that matches several (another tenant's)
        } else {
            found.add(named[0]);
        }
    }
    // Unknown refs join through the property dependencies: the certificates not named literally.
    const joined = depended.filter((c) => !found.has(c));
    if (unknownRefs > 0 && joined.length === unknownRefs) {
        joined.forEach((c) => found.add(c));
    } else {
        unread += unknownRefs;
    }
    const keys: CertificateKey[] = [];
    for (const cert of [...found].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0))) {
        const key = certificateKey(cert);
        if (key) {
            keys.push(key);
        } else {
            unread++;
        }
    }
    return { keys, unread };
}

/** The perfguard:sslKeyType fact, when declared and valid. */
function declaredFact(vs: ResourceView): { value: "ecc" | "rsa"; where: string } | undefined {
    const fact = vs.facts.text("sslKeyType");
    return fact.state === "ok" && (fact.value === "ecc" || fact.value === "rsa") ? { value: fact.value, where: fact.where } : undefined;
}

/** How a row is named in a where text. */
const ROW_NAME = { ecc: "ECC", rsa: "RSA-2048" } as const;

/**
 * The demand with its SSL key type as the stack declares it. With no certificate key read, the
 * demand is left as read (perfguard:sslKeyType, or RSA-2048 assumed and marked so). Otherwise:
 * - one measured key type on every certificate: that row, declared (a conflicting
 *   perfguard:sslKeyType is named and the certificate wins);
 * - a key the source did not measure, both an RSA and an EC certificate, or a certificate whose
 *   key cannot be read beside one that can: the favourable row (ECC when an EC key may be
 *   presented; else RSA-2048), marked so that the verdict on it is advisory.
 */
export function withCertificateKey(stack: StackView, vs: ResourceView, read: VsDemandRead): VsDemandRead {
    const demand = read.state === "ok" ? read : read.state === "unusable" ? read.known : undefined;
    if (!demand || demand.demand.sslTps === undefined) {
        return read;
    }
    const fact = declaredFact(vs);
    const certs = certificateKeys(stack, vs);
    if (!certs || certs.keys.length === 0) {
        if (vs.facts.text("sslKeyType").state !== "absent" || demand.demand.sslKeyType !== "rsa") {
            return read;
        }
        // RSA-2048 assumed: nothing says which key the VS presents.
        return replace(read, { ...demand.demand, sslKeyBasis: { source: "assumed" } }, "assumed: no certificate key or perfguard:sslKeyType declared");
    }
    // A certificate whose key cannot be read takes the fact's type, or either.
    const rows = new Set<"ecc" | "rsa">(certs.keys.map((k) => k.row));
    if (certs.unread > 0) {
        if (fact) {
            rows.add(fact.value);
        } else {
            rows.add("ecc").add("rsa");
        }
    }
    const unmeasured = certs.keys.filter((k) => !k.measured).map((k) => k.name);
    const named = certs.keys.map((k) => `${k.name} key of ${k.certificate}`).sort();
    const others = certs.unread > 0 ? `; ${certs.unread} more not readable here${fact ? ` (${fact.where}: ${ROW_NAME[fact.value]})` : ""}` : "";
    const conflict =
        fact && certs.unread === 0 && rows.size === 1 && !rows.has(fact.value)
            ? `; ${fact.where} says ${fact.value}: the certificate is what the VS presents`
            : "";
    const favourable: "ecc" | "rsa" = rows.has("ecc") ? "ecc" : "rsa";
    const basis: SslKeyBasis = {
        source: "certificate",
        ...(rows.size > 1 ? { conservative: "rsa" as const } : {}),
        ...(unmeasured.length > 0 ? { unmeasured: [...new Set(unmeasured)].sort() } : {}),
    };
    const where = `${named.join(", ")}${others}${conflict}`;
    return replace(read, { ...demand.demand, sslKeyType: favourable, sslKeyBasis: basis }, where);
}

function replace(read: VsDemandRead, demand: VsDemand, where: string): VsDemandRead {
    if (read.state === "ok") {
        return { ...read, demand, where: { ...read.where, sslKeyType: where } };
    }
    if (read.state === "unusable" && read.known) {
        return { ...read, known: { ...read.known, demand, where: { ...read.known.where, sslKeyType: where } } };
    }
    return read;
}
