/**
 * The inventory: other stacks' deployed state, as `PERFGUARD_INVENTORY` names it (stack exports,
 * a folder of them, a DIY `file://` backend, or a digest written by `perfguard inventory`).
 * Knows no system: resources are kept as the engine stores them (type, URN, outputs).
 */

/** One resource of a deployed stack, with only what the policies read (no secret value). */
export interface InventoryResource {
    readonly urn: string;
    readonly type: string;
    readonly id?: string;
    /** The outputs (AnalyzeStack reads outputs); every secret is the opaque string SECRET_MARK. */
    readonly outputs: Readonly<Record<string, unknown>>;
    /** The provider reference `<provider urn>::<id>`, when the state has one. */
    readonly provider?: string;
    readonly propertyDependencies?: Readonly<Record<string, readonly string[]>>;
}

/** One deployed stack. */
export interface InventoryEntry {
    readonly project: string;
    readonly stack: string;
    /** The deployment's `manifest.time` (ISO 8601), when the state has one. */
    readonly time?: string;
    /** Where the entry was read from (a file path or URL, for messages). */
    readonly source: string;
    readonly resources: readonly InventoryResource[];
    /**
     * Its join keys and shared objects' identities (touched.ts), as a digest stores them; computed
     * from the resources when the source is an export or a backend.
     */
    readonly index?: { readonly keys: readonly string[]; readonly objects: ReadonlyArray<readonly string[]> };
}

/** A source that could not be read or parsed: a mandatory error naming it. */
export interface InventoryError {
    readonly source: string;
    readonly problem: string;
}

/** Two sources holding the same project and stack: the newer deployment is kept, the other named. */
export interface InventoryDuplicate {
    readonly project: string;
    readonly stack: string;
    readonly kept: string;
    readonly dropped: string;
}

export interface Inventory {
    /** The variable's value, as given. */
    readonly spec: string;
    /** Sorted by project, then stack. */
    readonly entries: readonly InventoryEntry[];
    readonly errors: readonly InventoryError[];
    readonly duplicates: readonly InventoryDuplicate[];
}

/**
 * What a secret output becomes: opaque, never its ciphertext or plaintext. The same string
 * `pulumi policy analyze` shows for a secret it cannot decrypt (the facts reader treats it so).
 */
export const SECRET_MARK = "[secret]";

/** The environment variable naming the inventory's sources (comma-separated). */
export const INVENTORY_ENV = "PERFGUARD_INVENTORY";
/** The environment variable setting the age after which a stack's deployment is stale. */
export const MAX_AGE_ENV = "PERFGUARD_INVENTORY_MAX_AGE_HOURS";
/** The default of MAX_AGE_ENV, in hours: written once, here. */
export const DEFAULT_MAX_AGE_HOURS = 24;
/** The `kind` of a digest file written by `perfguard inventory`. */
export const DIGEST_KIND = "perfguard-inventory";

/**
 * The punctuation of a version 3 digest's body (digest.ts writes it, digestFile.ts checks that
 * the key table and the stacks' lines tile the body with exactly this between them, so a header
 * that lists fewer or other stacks than the body holds is found before any stack is used).
 */
export const DIGEST_BODY = { open: '"table":"', slices: '",\n"slices":[\n', between: ",\n", lastEnd: "\n", close: "]}\n" } as const;
