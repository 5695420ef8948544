/**
 * Reads a program's Pulumi.yaml (project name) and Pulumi.<stack>.yaml (stack config) the way
 * the CLI uses them: the project name names the stack's URNs, the config becomes PULUMI_CONFIG.
 */
import * as fs from "fs";
import * as yaml from "js-yaml";
import * as path from "path";
import { PreviewError } from "./errors";

/** Parses YAML, naming the file on error. */
function loadYaml(text: string, file: string): unknown {
    try {
        return yaml.load(text);
    } catch (err) {
        throw new PreviewError(`cannot parse ${file}: ${(err as Error).message}`);
    }
}

/**
 * Returns the project name from `<programDir>/Pulumi.yaml`.
 * Throws PreviewError when the file is missing, unparsable or has no string `name`.
 */
export function readProjectName(programDir: string): string {
    const file = path.join(programDir, "Pulumi.yaml");
    if (!fs.existsSync(file)) {
        throw new PreviewError(`no Pulumi.yaml in program directory ${programDir}`);
    }
    const doc = loadYaml(fs.readFileSync(file, "utf8"), file) as { name?: unknown } | null;
    if (!doc || typeof doc.name !== "string" || doc.name === "") {
        throw new PreviewError(`${file} has no project name`);
    }
    return doc.name;
}

/**
 * Returns the stack's config as the CLI passes it in PULUMI_CONFIG: keys `<namespace>:<key>`
 * (bare keys get the project namespace), values as strings (objects JSON-encoded).
 * Reads `<programDir>/Pulumi.<stack>.yaml`; a missing file gives {}. Secure (encrypted) values
 * cannot be decrypted without the CLI and are left out. Throws PreviewError on unparsable YAML.
 */
export function readStackConfig(programDir: string, project: string, stack: string): Record<string, string> {
    const file = path.join(programDir, `Pulumi.${stack}.yaml`);
    if (!fs.existsSync(file)) {
        return {};
    }
    const doc = loadYaml(fs.readFileSync(file, "utf8"), file) as { config?: Record<string, unknown> } | null;
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(doc?.config ?? {})) {
        if (value !== null && typeof value === "object" && "secure" in value) {
            continue;
        }
        const fullKey = key.includes(":") ? key : `${project}:${key}`;
        out[fullKey] = typeof value === "string" ? value : JSON.stringify(value);
    }
    return out;
}
