/**
 * Where a policy's documentation is on the web, for SARIF's helpUri: the repository URL from
 * package.json (`repository`), overridable for a fork by --docs-url or PERFGUARD_DOCS_URL (a URL
 * of the folder holding docs/, e.g. https://github.com/me/perfguard/blob/main).
 */
import * as fs from "fs";
import * as path from "path";

export const DOCS_URL_ENV = "PERFGUARD_DOCS_URL";

/** `git+https://github.com/o/r.git` -> `https://github.com/o/r/blob/main`; undefined when not a URL. */
export function docsBaseFromRepository(repository: unknown): string | undefined {
    const url =
        typeof repository === "string" ? repository : typeof repository === "object" && repository !== null ? (repository as { url?: unknown }).url : undefined;
    if (typeof url !== "string") {
        return undefined;
    }
    const match = /^(?:git\+)?(https:\/\/[^\s]+?)(?:\.git)?\/?$/.exec(url.trim());
    return match ? `${match[1]}/blob/main` : undefined;
}

/** The docs base: the option, else the environment, else package.json's repository (this package's). */
export function docsBase(option?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
    const given = option ?? env[DOCS_URL_ENV];
    if (given !== undefined && given.trim() !== "") {
        return given.trim().replace(/\/+$/, "");
    }
    // dist/policies/pack/results/ or policies/pack/results/: package.json is three or four folders up.
    for (const up of ["../../../..", "../../.."]) {
        const file = path.join(__dirname, up, "package.json");
        if (fs.existsSync(file)) {
            try {
                const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: unknown; repository?: unknown };
                if (pkg.name === "perfguard") {
                    return docsBaseFromRepository(pkg.repository);
                }
            } catch {
                return undefined;
            }
        }
    }
    return undefined;
}

/** The absolute URL of a policy's doc page, or undefined without a base. */
export function policyDocUrl(base: string | undefined, policyId: string): string | undefined {
    return base === undefined ? undefined : `${base}/docs/policies/${encodeURIComponent(policyId)}.md`;
}
