/**
 * The digest `perfguard inventory` writes: the inventory's stacks with only the resources the
 * policies can read (the systems' types and their providers, and any resource carrying a
 * perfguard: fact), each with its URN, type, id, outputs (secrets already opaque), provider
 * and property dependencies.
 *
 * Version 3 is laid out so that a preview reads only what it touches (digestFile.ts): a first
 * line (the header: each stack's project, stack, time, shared objects and byte range), a table of
 * join-key hashes (which stacks hold a key), then one line per stack (its index and resources).
 * The whole file is still one JSON document, so an older perfguard names its version instead of
 * failing to parse it.
 */
import { hashKey } from "./candidates";
import { stackIndex, StackIndex } from "./touched";
import { DIGEST_BODY, DIGEST_KIND, Inventory, InventoryResource } from "./types";

/** The provider packages whose resources the rooms read (policies/citrix, nsx-alb, xen; vSphere VMs carry facts). */
export const DIGEST_PACKAGES: readonly string[] = ["avi", "citrix", "vsphere", "xenorchestra"];

/** The digest version perfguard writes; digestFile.ts and read.ts read 1 to 3. */
export const DIGEST_VERSION = 3;

/** True for a resource a policy can read: a system's type or provider, or anything with a perfguard: fact. */
export function readByPolicies(r: InventoryResource): boolean {
    const pkg = r.type.startsWith("pulumi:providers:") ? r.type.slice("pulumi:providers:".length) : r.type.slice(0, r.type.indexOf(":"));
    return DIGEST_PACKAGES.includes(pkg) || /perfguard[:_.]/i.test(JSON.stringify(r.outputs));
}

export interface DigestStack {
    readonly project: string;
    readonly stack: string;
    readonly time?: string;
    readonly index: StackIndex;
    readonly resources: readonly InventoryResource[];
}

export interface Digest {
    readonly kind: typeof DIGEST_KIND;
    readonly version: typeof DIGEST_VERSION;
    /** When the digest was built (ISO 8601). */
    readonly built: string;
    readonly stacks: readonly DigestStack[];
}

/** The digest of an inventory (entries sorted, resources by URN), built at `now`. */
export function digestOf(inventory: Inventory, now: Date): Digest {
    return {
        kind: DIGEST_KIND,
        version: DIGEST_VERSION,
        built: now.toISOString(),
        stacks: inventory.entries.map((e) => {
            const resources = e.resources.filter(readByPolicies).sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
            return { project: e.project, stack: e.stack, ...(e.time ? { time: e.time } : {}), index: stackIndex(resources), resources };
        }),
    };
}

/**
 * The key table: for every join key (and shared-object identity) of every stack, the pair
 * (FNV-1a hash of the key, the stack's ordinal) as 16 hex digits, sorted, once each: a reader
 * finds a key's stacks by a binary search of the file. A hash may collide: a lookup then
 * over-matches, which costs time, never a verdict.
 */
function keyTable(stacks: readonly DigestStack[]): string {
    const pairs: Array<[number, number]> = [];
    stacks.forEach((s, ordinal) => {
        const hashes = new Set<number>();
        for (const k of s.index.keys) {
            hashes.add(hashKey(k));
        }
        for (const object of s.index.objects) {
            object.forEach((k) => hashes.add(hashKey(k)));
        }
        hashes.forEach((h) => pairs.push([h, ordinal]));
    });
    pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const hex = (n: number) => n.toString(16).padStart(8, "0");
    return pairs.map(([h, o]) => hex(h) + hex(o)).join("");
}

/**
 * The digest's file bytes (version 3). Offsets (`at`, `tableAt`: [offset, length]; the table's range is its hex digits, inside a JSON string) count from the
 * byte after the header line; `bytes` is the length of everything after it, so that a cut file
 * is found before any of it is used.
 */
export function encodeDigest(digest: Digest): Buffer {
    const parts: Buffer[] = [];
    let offset = 0;
    const push = (text: string): [number, number] => {
        const bytes = Buffer.from(text, "utf8");
        parts.push(bytes);
        offset += bytes.length;
        return [offset - bytes.length, bytes.length];
    };
    push(DIGEST_BODY.open);
    const tableAt = push(keyTable(digest.stacks));
    push(DIGEST_BODY.slices);
    const at = digest.stacks.map((s, i) => {
        const range = push(JSON.stringify({ index: s.index, resources: s.resources }));
        push(i < digest.stacks.length - 1 ? DIGEST_BODY.between : DIGEST_BODY.lastEnd);
        return range;
    });
    push(DIGEST_BODY.close);
    const header = {
        kind: digest.kind,
        version: digest.version,
        built: digest.built,
        stacks: digest.stacks.map((s, i) => ({ project: s.project, stack: s.stack, ...(s.time ? { time: s.time } : {}), objects: s.index.objects, at: at[i] })),
        tableAt,
        bytes: offset,
    };
    // The header without its closing brace: the body's members follow it, so the file is one JSON object.
    const line = Buffer.from(`${JSON.stringify(header).slice(0, -1)},\n`, "utf8");
    return Buffer.concat([line, ...parts]);
}
