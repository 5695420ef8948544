/**
 * Which of the inventory's stacks a preview needs: those that put load on, or declare, a shared
 * object this stack refers to (an SE group it references or declares, a Citrix Site or zone it
 * joins, a Xen host its guests use). A stack that touches none of them cannot change a verdict of
 * this stack (foreign resources get no verdict of their own), so it is neither built into views nor
 * judged: a preview costs O(its resources + the touched stacks), not O(fleet).
 *
 * A stack is described by its join keys: the identities of the shared objects its resources
 * declare or refer to. Keys may over-match (a name two Controllers share): that only costs time.
 * They must never under-match, so every way the rooms join is a key here:
 * - NSX ALB (policies/nsx-alb/seGroups.ts): an SE group's uuid, URL (and its last segment) and
 *   name; a VS's seGroupRef (the URL, its last segment, a `?name=` value; none: the default group),
 *   its SNI parent (vhParentVsRef) and a VS's own identity; a perfguard:seGroup fact.
 * - Citrix (policies/citrix/site.ts): the model has one Site per fleet, so every Citrix resource
 *   or perfguard:citrix* fact is the Site's key; zones also by id and name.
 * - Xen (policies/xen/hosts.ts): a guest's affinityHost and perfguard:xenHost; a vSphere VM's tags.
 */

/** The fact names that join a resource to a shared object. */
const JOIN_FACT = /^perfguard[:_.](xenHost|citrixZone|seGroup|citrixRole)$/i;
/** The same fact written as one tag string, `perfguard:xenHost=<host>`. */
const JOIN_TAG = /^perfguard[:_.](xenHost|citrixZone|seGroup|citrixRole)\s*[=:]\s*(.+)$/i;
/** The one Citrix Site of the model (Sites are not told apart yet: every Citrix stack joins). */
export const CITRIX_SITE_KEY = "citrix:site";
/** The SE group a VS without seGroupRef is placed on. */
const DEFAULT_GROUP = "Default-Group";
const MAX_DEPTH = 16;

const SE_GROUP = "avi:index/serviceenginegroup:Serviceenginegroup";
const VIRTUAL_SERVICE = "avi:index/virtualservice:Virtualservice";

function isRecord(v: unknown): v is Record<string, unknown> {
    return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A ref's keys: the whole string, its last path segment, its `?name=` value. */
function refKeys(ref: unknown, out: Set<string>): void {
    if (typeof ref !== "string" || ref.trim() === "") {
        return;
    }
    const s = ref.trim();
    out.add(s);
    const [pathPart, query] = s.split("?", 2);
    const segment = pathPart.replace(/\/+$/, "").split("/").pop();
    if (segment) {
        out.add(segment);
    }
    const name = query ? new URLSearchParams(query).get("name") : null;
    if (name) {
        out.add(name);
    }
}

/** Collects the values of join facts anywhere in `value` (markers, metadata, tag strings, maps). */
function factKeys(value: unknown, out: Set<string>, citrix: { seen: boolean }, depth = 0): void {
    if (depth > MAX_DEPTH) {
        return;
    }
    if (typeof value === "string") {
        const m = JOIN_TAG.exec(value.trim());
        if (m) {
            out.add(m[2].trim());
            citrix.seen ||= m[1].toLowerCase().startsWith("citrix");
        }
        return;
    }
    if (Array.isArray(value)) {
        value.forEach((v) => factKeys(v, out, citrix, depth + 1));
        return;
    }
    if (!isRecord(value)) {
        return;
    }
    // `{ key: "perfguard:xenHost", values: [...] }` and `{ name: ..., value: ... }`: every other string in it.
    const named = Object.values(value).find((v): v is string => typeof v === "string" && JOIN_FACT.test(v.trim()));
    for (const [k, v] of Object.entries(value)) {
        const m = JOIN_FACT.exec(k.trim());
        if (m || named) {
            citrix.seen ||= (m?.[1] ?? JOIN_FACT.exec(named!.trim())?.[1] ?? "").toLowerCase().startsWith("citrix");
            strings(v, out, depth + 1);
        } else {
            factKeys(v, out, citrix, depth + 1);
        }
    }
}

function strings(value: unknown, out: Set<string>, depth: number): void {
    if (depth > MAX_DEPTH) {
        return;
    }
    if (typeof value === "string" && value.trim() !== "" && !JOIN_FACT.test(value.trim())) {
        out.add(value.trim());
    } else if (Array.isArray(value)) {
        value.forEach((v) => strings(v, out, depth + 1));
    }
}

function packageOf(type: string): string {
    return type.startsWith("pulumi:providers:") ? type.slice("pulumi:providers:".length) : type.slice(0, type.indexOf(":"));
}

/**
 * Adds `keys` to `out`, each also case folded: the rooms match host, zone and group names in any
 * case (`7C1F…` and `7c1f…` are one Xen host), and an over-match only costs time. The key as
 * written stays too, so that a digest written before keys were folded still matches.
 */
function addFolded(keys: Iterable<string>, out: Set<string>): void {
    for (const k of keys) {
        out.add(k);
        const folded = k.toLowerCase();
        if (folded !== k) {
            out.add(folded);
        }
    }
}

/** The join keys of one resource (its type and outputs or preview props). */
export function joinKeys(type: string, props: unknown, into: Set<string> = new Set()): Set<string> {
    const out = new Set<string>();
    collectJoinKeys(type, props, out);
    addFolded(out, into);
    return into;
}

function collectJoinKeys(type: string, props: unknown, out: Set<string>): void {
    const p = isRecord(props) ? props : {};
    const citrix = { seen: packageOf(type) === "citrix" };
    factKeys(p, out, citrix);
    identities(type, p)?.forEach((k) => out.add(k));
    if (type === VIRTUAL_SERVICE) {
        if (p.seGroupRef === undefined || p.seGroupRef === null || p.seGroupRef === "") {
            out.add(DEFAULT_GROUP);
        }
        refKeys(p.seGroupRef, out);
        refKeys(p.vhParentVsRef, out);
    }
    if (packageOf(type) === "citrix") {
        refKeys(p.zone, out);
    }
    if (packageOf(type) === "xenorchestra") {
        refKeys(p.affinityHost, out);
    }
    if (packageOf(type) === "vsphere") {
        strings(p.tags, out, 0);
        if (type === "vsphere:index/tag:Tag") {
            refKeys(p.id, out);
        }
    }
    if (citrix.seen) {
        out.add(CITRIX_SITE_KEY);
    }
}

/** The identities of a shared object a resource declares (an SE group, a VS, a zone), or undefined. */
function identities(type: string, props: unknown): Set<string> | undefined {
    if (type !== SE_GROUP && type !== VIRTUAL_SERVICE && type !== "citrix:index/zone:Zone") {
        return undefined;
    }
    const p = isRecord(props) ? props : {};
    const out = new Set<string>();
    for (const k of ["uuid", "url", "name", "id"]) {
        refKeys(p[k], out);
    }
    return out;
}

/** The identities of a shared object a resource declares (an SE group, a zone), when it has more than one (they join each other). */
export function objectKeys(type: string, props: unknown): string[] | undefined {
    const found = type === VIRTUAL_SERVICE ? undefined : identities(type, props);
    if (!found || found.size < 2) {
        return undefined;
    }
    const out = new Set<string>();
    addFolded(found, out);
    return [...out].sort();
}

/** What a digest stores per stack: its join keys and the identities of its shared objects, sorted. */
export interface StackIndex {
    readonly keys: readonly string[];
    readonly objects: ReadonlyArray<readonly string[]>;
}

function withId(r: { outputs: unknown; id?: string }): unknown {
    return r.id !== undefined && isRecord(r.outputs) && r.outputs.id === undefined ? { ...r.outputs, id: r.id } : r.outputs;
}

/** The index of a stack's resources. */
export function stackIndex(resources: ReadonlyArray<{ type: string; outputs: unknown; id?: string }>): StackIndex {
    const keys = new Set<string>();
    const objects: string[][] = [];
    for (const r of resources) {
        const props = withId(r);
        joinKeys(r.type, props, keys);
        const object = objectKeys(r.type, props);
        if (object) {
            objects.push(object);
        }
    }
    return { keys: [...keys].sort(), objects: objects.sort((a, b) => (a.join("\u0000") < b.join("\u0000") ? -1 : 1)) };
}

/**
 * The indexes of the stacks that touch `own`'s keys, directly or through a shared object another
 * touched stack declares: a stack referring to a group by name joins when the group's stack is
 * touched by its uuid. Only the identities of an object carrying a wanted key widen the search,
 * never all of a touched stack's keys: a network stack owning every group would otherwise pull in
 * the whole fleet.
 */
export function touchedStacks(own: Iterable<string>, stacks: readonly StackIndex[]): number[] {
    const wanted = new Set(own);
    const touched = new Set<number>();
    // Each pass is one Set lookup per key of an untouched stack; a pass adds keys only through a
    // shared object's other identities, so passes are few (uuid -> name -> the stacks using it).
    for (let grew = true; grew;) {
        grew = false;
        stacks.forEach((s, i) => {
            if (touched.has(i) || !s.keys.some((k) => wanted.has(k))) {
                return;
            }
            touched.add(i);
            grew = true;
            for (const object of s.objects) {
                if (object.some((k) => wanted.has(k))) {
                    object.forEach((k) => wanted.add(k));
                }
            }
        });
    }
    return [...touched].sort((a, b) => a - b);
}
