/**
 * Reads the real CLI's output: its `Policies:` section and the violations it lists.
 */

/** One violation as the CLI's `Policies:` section lists it. */
export interface ListedViolation {
    readonly level: string;
    readonly policy: string;
    /** `citrix:index:Zone`, or undefined for a stack-wide violation. */
    readonly type?: string;
    readonly name?: string;
}

/**
 * The `Policies:` section of the CLI's output, from its heading to the blank line that ends it
 * ("" when there is none).
 */
export function policiesSection(output: string): string {
    const lines = output.split("\n");
    const start = lines.findIndex((l) => l === "Policies:");
    if (start < 0) {
        return "";
    }
    let end = start + 1;
    while (end < lines.length && lines[end] !== "") {
        end += 1;
    }
    return lines.slice(start, end).join("\n") + "\n";
}

const VIOLATION_LINE = /^ {8}- \[(advisory|mandatory|remediate)\] {2}([a-z0-9-]+)(?: {2}\((.+?): (.+)\))?$/;

/** The violations listed in a `Policies:` section, in the order printed. */
export function listedViolations(section: string): ListedViolation[] {
    const out: ListedViolation[] = [];
    for (const line of section.split("\n")) {
        const m = VIOLATION_LINE.exec(line);
        if (m && m[1] !== "remediate") {
            out.push({ level: m[1], policy: m[2], type: m[3], name: m[4] });
        }
    }
    return out;
}
