/**
 * Finds the keys a JSON text gives twice in one object. JSON.parse, like the Pulumi CLI's Go
 * decoder (encoding/json into a map), keeps the last value of a duplicate without a word, so in a
 * --policy-pack-config a later line can silently turn a gate off. No dependency of this package
 * reports duplicates (js-yaml stops at the first and reads JSON as YAML), so this is a small
 * scanner over text JSON.parse has already accepted.
 */

/** One key given again: where, the object it is in (the keys leading to it), and where it was first. */
export interface DuplicateKey {
    /** The decoded key (`"\u0061"` and `"a"` are one key, as for both decoders). */
    readonly key: string;
    /** The keys of the objects that hold it, outermost first ([] for the top level); array items by index. */
    readonly path: readonly string[];
    /** 1-based line of this occurrence, and of the first. */
    readonly line: number;
    readonly firstLine: number;
}

interface Frame {
    readonly kind: "object" | "array";
    readonly path: readonly string[];
    /** Object: each key seen, with its first line. */
    readonly keys: Map<string, number>;
    /** Object: the next string is a key. */
    expectKey: boolean;
    /** The key (or index) whose value is being read, for the path of a nested value. */
    current: string;
    index: number;
}

/**
 * Input: JSON text that JSON.parse accepts. Output: every duplicate key, in text order.
 * On text that is not JSON the result is whatever was found before the scanner lost its way;
 * it never throws.
 */
export function duplicateKeys(text: string): DuplicateKey[] {
    const found: DuplicateKey[] = [];
    const stack: Frame[] = [];
    let line = 1;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        const top = stack[stack.length - 1];
        if (c === "\n") {
            line++;
        } else if (c === '"') {
            // A string: scan to its closing quote (a backslash escapes the next character).
            let j = i + 1;
            while (j < text.length && text[j] !== '"') {
                j += text[j] === "\\" ? 2 : 1;
            }
            if (top?.kind === "object" && top.expectKey) {
                let key: string;
                try {
                    key = JSON.parse(text.slice(i, j + 1)) as string;
                } catch {
                    return found;
                }
                const first = top.keys.get(key);
                if (first === undefined) {
                    top.keys.set(key, line);
                } else {
                    found.push({ key, path: top.path, line, firstLine: first });
                }
                top.current = key;
                top.expectKey = false;
            }
            i = j; // strings hold no raw newline in JSON
        } else if (c === "{" || c === "[") {
            const path = top === undefined ? [] : [...top.path, top.kind === "object" ? top.current : String(top.index)];
            stack.push({ kind: c === "{" ? "object" : "array", path, keys: new Map(), expectKey: c === "{", current: "", index: 0 });
        } else if (c === "}" || c === "]") {
            stack.pop();
        } else if (c === ",") {
            if (top?.kind === "object") {
                top.expectKey = true;
            } else if (top) {
                top.index++;
            }
        }
    }
    return found;
}
