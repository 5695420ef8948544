/**
 * Where a program declares a resource. The Node.js SDK sends each registration's source position
 * (RegisterResourceRequest.sourcePosition: a file:// URI, 1-based line and column); the engine
 * keeps it in the state as `project:///<path relative to the project folder>#<line>,<column>`
 * (apitype ResourceV3.SourcePosition), which `pulumi stack export` shows. The emulated preview
 * records the same form, so an export, a --record file and a preview carry one shape.
 */
import * as path from "path";
import { fileURLToPath } from "url";

/** A parsed position: the file relative to the project folder (forward slashes) and its line. */
export interface SourcePosition {
    readonly file: string;
    readonly line: number;
    readonly column?: number;
}

/**
 * The state's form of an SDK position, or undefined when it is missing or outside `projectDir`
 * (a position inside a library's code says nothing about the program).
 */
export function toProjectPosition(uri: string, line: number, column: number, projectDir: string): string | undefined {
    if (!uri.startsWith("file://") || !(line > 0)) {
        return undefined;
    }
    let file: string;
    try {
        file = fileURLToPath(uri);
    } catch {
        return undefined;
    }
    const rel = path.relative(path.resolve(projectDir), file);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel) || rel.split(path.sep).includes("node_modules")) {
        return undefined;
    }
    return `project:///${rel.split(path.sep).join("/")}#${line}${column > 0 ? `,${column}` : ""}`;
}

/** Parses `project:///<path>#<line>[,<column>]`; anything else (or no line) is undefined. */
export function parseProjectPosition(text: unknown): SourcePosition | undefined {
    if (typeof text !== "string") {
        return undefined;
    }
    const match = /^project:\/\/\/([^#]+)#(\d+)(?:,(\d+))?$/.exec(text);
    if (!match || Number(match[2]) < 1) {
        return undefined;
    }
    const file = path.posix.normalize(match[1]);
    if (file.startsWith("..") || file.startsWith("/")) {
        return undefined;
    }
    return { file, line: Number(match[2]), ...(match[3] !== undefined ? { column: Number(match[3]) } : {}) };
}
