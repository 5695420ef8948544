/**
 * The words of fact reading that the reader, the carriers and the spelling checks share: what a
 * read returns, what a problem with a fact says, and the markers a carrier's text is known by.
 */

/**
 * What `pulumi policy analyze` (and `perfguard check`) hands a pack in place of a secret it could
 * not decrypt (the stack's passphrase or secrets provider missing). A fact behind it is not known:
 * a container or value that reads so makes the facts "redacted", and policies report "not checked".
 */
export const REDACTED_SECRET = "[secret]";

/** The prefix of a fact key in every carrier but extraConfig (`perfguard_` is read alike). */
export const FACT_PREFIX = "perfguard:";

/** How extraConfig names a fact: vSphere passes only guestinfo.* settings to the guest. */
export const GUESTINFO_PREFIX = "guestinfo.perfguard.";

/** Where a fact was found, as named in messages: "tags", "metadatas", `vSphere tag "dc-role"`, ... */
export type FactPlace = string;

/** The outcome of reading one fact. `where` reads like `perfguard:rttMs in metadatas`. */
export type FactRead<T> =
    | { readonly state: "absent" }
    | { readonly state: "unknown" }
    | { readonly state: "invalid" }
    | { readonly state: "ok"; readonly value: T; readonly where: string };

/**
 * What is wrong with a fact, as perfguard-facts reports it:
 * - "value": a value that cannot be parsed, or two values in conflict (per resource);
 * - "key": a key that is not a fact key but was surely meant as one (once per key and preview);
 * - "carrier": facts on a carrier the provider rejects at apply (per resource).
 * Every text is escaped (escapeControl) and quotes values only as describeValue does.
 */
export interface FactProblem {
    readonly kind: "value" | "key" | "carrier";
    /** The canonical key (`perfguard:rttMs`), or the key as written for a "key" problem. */
    readonly key: string;
    /** A phrase without the resource name: `perfguard:rttMs is "160ms", not a plain decimal`. */
    readonly problem: string;
    /** A shorter phrase for the problem line when the full one does not fit (the full one then goes to the basis). */
    readonly short?: string;
    /** What to write instead. */
    readonly fix: string;
    /** Where it was found, and the values in conflict. */
    readonly basis: readonly string[];
    /** The problem as one phrase (older form, kept for --explain counts and tests). */
    readonly message: string;
}

/** One fact found outside the resource's props (a vSphere tag object attached to a VM). */
export interface JoinedFact {
    /** The key as written, with its prefix (`perfguard:citrixRole`). */
    readonly rawKey: string;
    readonly value: unknown;
    readonly place: FactPlace;
}
