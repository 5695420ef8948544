/**
 * Avi object references as the provider and the Controller write them, read without a Controller:
 * - by name: `/api/serviceenginegroup/?name=web&cloud=Default-Cloud&tenant=admin` (also without
 *   the slash before `?`, and after a controller URL);
 * - by uuid: `/api/serviceenginegroup/<uuid>` or the object's URL as a state or data source holds
 *   it, `https://<controller>/api/serviceenginegroup/serviceenginegroup-<uuid>`, optionally with
 *   a `#<name>` fragment (the Controller's include_name form).
 */

/** A parsed reference. Names, clouds and tenants are as written (URL-decoded). */
export type AviRef =
    | { readonly by: "name"; readonly name: string; readonly cloud?: string; readonly tenant?: string }
    | { readonly by: "uuid"; readonly uuid: string; readonly name?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function decode(text: string): string | undefined {
    try {
        return decodeURIComponent(text.replace(/\+/g, " "));
    } catch {
        return undefined;
    }
}

/**
 * The canonical form of an object uuid: lower case, without the `<objectType>-` prefix the
 * Controller puts in front ("serviceenginegroup-2d3c..." and "2d3c..." are the same object).
 */
export function canonicalUuid(text: string, objectType: string): string {
    const lower = text.trim().toLowerCase();
    return lower.startsWith(`${objectType}-`) ? lower.slice(objectType.length + 1) : lower;
}

/** True for a uuid with or without the object type prefix. */
export function looksLikeUuid(text: string, objectType: string): boolean {
    return UUID.test(canonicalUuid(text, objectType));
}

/**
 * Parses a reference to an object of `objectType` (e.g. "serviceenginegroup", "virtualservice", "cloud").
 * @returns the reference, or undefined when it is not one of the forms above for that type.
 */
export function parseAviRef(ref: string, objectType: string): AviRef | undefined {
    const at = ref.indexOf(`/api/${objectType}`);
    if (at < 0) {
        return undefined;
    }
    const rest = ref.slice(at + `/api/${objectType}`.length);
    const query = /^\/?\?([^#]*)/.exec(rest);
    if (query) {
        const params = new Map<string, string>();
        for (const pair of query[1].split("&")) {
            const eq = pair.indexOf("=");
            const key = eq < 0 ? pair : pair.slice(0, eq);
            const value = decode(eq < 0 ? "" : pair.slice(eq + 1));
            if (value !== undefined && !params.has(key)) {
                params.set(key, value);
            }
        }
        const name = params.get("name");
        if (!name) {
            return undefined;
        }
        return { by: "name", name, cloud: params.get("cloud") || undefined, tenant: params.get("tenant") || undefined };
    }
    const path = /^\/([^/?#]+)\/?(?:#(.*))?$/.exec(rest);
    if (!path) {
        return undefined;
    }
    const id = decode(path[1]);
    if (!id) {
        return undefined;
    }
    const fragment = path[2] !== undefined ? decode(path[2]) : undefined;
    return { by: "uuid", uuid: canonicalUuid(id, objectType), name: fragment || undefined };
}

/** Locale-independent case folding for Avi names (they compare equal whatever the case). */
export function foldName(name: string): string {
    return name.trim().toLowerCase();
}
