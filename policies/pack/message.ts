/**
 * The shape of every perfguard violation message: one problem line a platform engineer reads at a
 * glance, then the fix, then where the numbers came from. The CLI prints the policy description
 * above it and indents the continuation lines itself.
 */

/** At most this many characters on the problem line (resource, value against limit, consequence). */
export const PROBLEM_LINE_MAX = 160;

/** Names longer than this are shortened on the problem line (and given whole in a basis line). */
export const NAME_MAX = 40;

/** One violation, structured. */
export interface Message {
    /** One sentence: the resource, the value against the limit, the consequence. */
    readonly problem: string;
    /** What to change: exact fields and values (printed after `Fix: `). */
    readonly fix: string;
    /** Where each number came from: fact and carrier, config key, model or table row. */
    readonly basis?: readonly string[];
}

// C0 controls, DEL and C1 controls, plus the Unicode line and paragraph separators: anything a
// terminal or the CLI could take as a new line or a cursor move.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Escapes control characters so that a quoted name or value can never start a line of its own
 * (a zone named "emea\n    perfguard@v0.1.0 [advisory] ..." would otherwise forge a violation).
 */
export function escapeControl(text: string): string {
    return text.replace(CONTROL, (c) => {
        switch (c) {
            case "\n":
                return "\\n";
            case "\r":
                return "\\r";
            case "\t":
                return "\\t";
            default:
                return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
        }
    });
}

/** A name for the problem line: control characters escaped, at most `max` (NAME_MAX) characters. */
export function shortName(name: string, max = NAME_MAX): string {
    const escaped = escapeControl(name);
    return escaped.length <= max ? escaped : `${escaped.slice(0, max - 1)}…`;
}

/** True when shortName(name) differs from the name, so a basis line should give it whole. */
export function isShortened(name: string): boolean {
    return escapeControl(name).length > NAME_MAX;
}

/**
 * The text sent as the violation's message (after the description line the SDK puts first):
 * every part on its own line, control characters inside a part escaped.
 */
export function renderMessage(message: Message): string {
    const lines = [escapeControl(message.problem), `Fix: ${escapeControl(message.fix)}`];
    for (const basis of message.basis ?? []) {
        lines.push(`Basis: ${escapeControl(basis)}`);
    }
    return lines.join("\n");
}

/** The parts of a rendered message (for tests and tools that read violations back). */
export function parseMessage(text: string): { description?: string; problem: string; fix?: string; basis: string[] } {
    const lines = text.split("\n").map((l) => l.trim());
    const fixAt = lines.findIndex((l) => l.startsWith("Fix: "));
    const problemAt = fixAt > 0 ? fixAt - 1 : lines.length > 1 ? 1 : 0;
    return {
        description: problemAt > 0 ? lines.slice(0, problemAt).join(" ") : undefined,
        problem: lines[problemAt] ?? "",
        fix: fixAt >= 0 ? lines[fixAt].slice(5) : undefined,
        basis: lines.filter((l) => l.startsWith("Basis: ")).map((l) => l.slice(7)),
    };
}

/** What shortLabel needs of a resource (a ResourceView, or anything with a type token and a name). */
export interface Named {
    readonly type: string;
    readonly name: string;
}

/** `Serviceenginegroup "web-seg"`: the type token's last segment and the name, shortened by shortName. */
export function shortLabel(resource: Named): string {
    const colon = resource.type.lastIndexOf(":");
    const kind = colon >= 0 ? resource.type.slice(colon + 1) : resource.type;
    return `${kind || "resource"} "${shortName(resource.name)}"`;
}

/** The basis line that gives a name shortened on the problem line whole (none when it was not). */
export function wholeNameBasis(resource: Named): string[] {
    return isShortened(resource.name) ? [`${shortLabel(resource)} is "${escapeControl(resource.name)}"`] : [];
}
