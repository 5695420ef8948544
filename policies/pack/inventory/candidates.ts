/**
 * Which stacks of a version 3 digest a preview must read at all: those whose join keys may meet
 * the previewed stack's, found through the digest's key table (hashes of every stack's keys) and
 * the shared objects its header lists, without reading any stack's resources.
 *
 * The result is a superset of what touchedStacks (touched.ts) can select: a hash may collide, and
 * every candidate's shared object holding a wanted key widens the search whatever the order. So
 * touchedStacks run on the candidates alone selects exactly what it selects on every stack: a
 * stack left out shares no key with anything the search can reach. The join rules stay in
 * touched.ts; this only spares reading the stacks they cannot select.
 */
import type { InventoryEntry } from "./types";

/** FNV-1a (32 bits) of a key's UTF-16 code units: the key table's hash (digest.ts writes it). */
export function hashKey(key: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) {
        h ^= key.charCodeAt(i);
        h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
}

/** Reads `count` pairs from pair `first` of a key table (16 hex digits each), or undefined when it cannot. */
export type PairReader = (first: number, count: number) => string | undefined;
/** Pairs read at once: 4 KB. */
const BLOCK = 256;

/**
 * One digest's key table: sorted (hash, ordinal) pairs, each 16 hex digits (two uint32), read a
 * few pairs at a time through `read` (a binary search of the file: the table is never read whole).
 */
export class KeyTable {
    /** Blocks of BLOCK pairs read so far (a search's first probes are the same for every key). */
    private readonly blocks = new Map<number, string>();
    private failed = false;

    /** `onFail` is told once when the table cannot be read (the digest was cut or changed since its header). */
    constructor(
        private readonly read: PairReader,
        private readonly size: number,
        readonly entries: readonly InventoryEntry[],
        private readonly onFail: () => void,
    ) {}

    private pair(i: number): [number, number] | undefined {
        const block = Math.floor(i / BLOCK);
        let text = this.blocks.get(block);
        if (text === undefined && !this.failed) {
            text = this.read(block * BLOCK, Math.min(BLOCK, this.size - block * BLOCK));
            if (text !== undefined) {
                this.blocks.set(block, text);
            }
        }
        const at = (i - block * BLOCK) * 16;
        const h = text === undefined ? NaN : parseInt(text.slice(at, at + 8), 16);
        const o = text === undefined ? NaN : parseInt(text.slice(at + 8, at + 16), 16);
        if (!Number.isFinite(h) || !Number.isFinite(o)) {
            if (!this.failed) {
                this.failed = true;
                this.onFail();
            }
            return undefined;
        }
        return [h, o];
    }

    /** The ordinals of the stacks holding a key of hash `h` (every stack when the table cannot be read: over-matching is safe). */
    ordinalsOf(h: number): number[] {
        let lo = 0;
        let hi = this.size;
        while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            const p = this.pair(mid);
            if (!p) {
                return this.entries.map((_, i) => i);
            }
            if (p[0] < h) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        const out: number[] = [];
        for (let i = lo; i < this.size; i++) {
            const p = this.pair(i);
            if (!p) {
                return this.entries.map((_, k) => k);
            }
            if (p[0] !== h) {
                break;
            }
            out.push(p[1]);
        }
        return out;
    }
}

interface Tabled {
    readonly table: KeyTable;
    /** The stack's shared objects, as the header lists them (the same as its index's). */
    readonly objects: ReadonlyArray<readonly string[]>;
}

const tabled = new WeakMap<InventoryEntry, Tabled>();

/** Marks an entry of a version 3 digest (digestFile.ts): found through `table`, widened by `objects`. */
export function registerTabled(entry: InventoryEntry, table: KeyTable, objects: ReadonlyArray<readonly string[]>): void {
    tabled.set(entry, { table, objects });
}

/**
 * The entries touchedStacks must see, in their order: every entry not in a key table (an export,
 * an older digest: `indexOf` gives its index), and the tabled ones the search can reach from `own`.
 */
export function candidateEntries(
    entries: readonly InventoryEntry[],
    own: Iterable<string>,
    indexOf: (e: InventoryEntry) => { readonly objects: ReadonlyArray<readonly string[]> },
): InventoryEntry[] {
    const tables = new Set<KeyTable>();
    for (const e of entries) {
        const t = tabled.get(e);
        if (t) {
            tables.add(t.table);
        }
    }
    if (tables.size === 0) {
        return [...entries];
    }
    const allowed = new Set(entries);
    const wanted = new Set<string>();
    let frontier: string[] = [];
    const want = (k: string) => {
        if (!wanted.has(k)) {
            wanted.add(k);
            frontier.push(k);
        }
    };
    [...own].forEach(want);
    const chosen = new Set<InventoryEntry>();
    const objects: Array<ReadonlyArray<readonly string[]>> = [];
    for (const e of entries) {
        if (!tabled.has(e)) {
            chosen.add(e);
            objects.push(indexOf(e).objects);
        }
    }
    while (frontier.length > 0) {
        const keys = frontier;
        frontier = [];
        for (const k of keys) {
            const h = hashKey(k);
            for (const table of tables) {
                for (const ordinal of table.ordinalsOf(h)) {
                    const e = table.entries[ordinal];
                    if (e !== undefined && allowed.has(e) && !chosen.has(e)) {
                        chosen.add(e);
                        objects.push(tabled.get(e)?.objects ?? []);
                    }
                }
            }
        }
        // Every chosen stack's object holding a wanted key lends all its identities (checked again as `wanted` grows).
        for (const list of objects) {
            for (const object of list) {
                if (object.some((k) => wanted.has(k))) {
                    object.forEach(want);
                }
            }
        }
    }
    return entries.filter((e) => chosen.has(e));
}
