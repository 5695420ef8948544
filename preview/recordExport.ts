/**
 * Writes the resources a preview sent to the pack in the shape of `pulumi stack export`
 * (apitype.UntypedDeployment with a DeploymentV3; field names and omissions as in apitype/core.go).
 */
import { createHash } from "crypto";
import * as fs from "fs";
import { PropertyBag, RecordedResource } from "./types";
import { toExportValue } from "./wireValues";

export interface ExportedResource {
    urn: string;
    custom: boolean;
    type: string;
    inputs: PropertyBag;
    outputs: PropertyBag;
    parent?: string;
    protect?: boolean;
    dependencies: string[];
    provider?: string;
    propertyDependencies: Record<string, string[]>;
    additionalSecretOutputs?: string[];
    aliases?: string[];
    ignoreChanges?: string[];
    sourcePosition?: string;
}

export interface StackExport {
    version: 3;
    deployment: {
        manifest: { time: string; magic: string; version: string };
        resources: ExportedResource[];
    };
}

/**
 * Builds the export (secrets redacted unless `showSecrets`, see toExportValue). `engineVersion` stands in for the CLI version in the manifest (the magic is
 * its SHA-256, as the CLI computes it). A preview creates nothing, so resources carry no `id`.
 */
export function toStackExport(resources: RecordedResource[], engineVersion: string, now = new Date(), showSecrets = false): StackExport {
    return {
        version: 3,
        deployment: {
            manifest: {
                time: now.toISOString(),
                magic: createHash("sha256").update(engineVersion).digest("hex"),
                version: engineVersion,
            },
            resources: resources.map((r) => {
                const out: ExportedResource = {
                    urn: r.urn,
                    custom: r.custom,
                    type: r.type,
                    inputs: toExportValue(r.inputs, showSecrets) as PropertyBag,
                    outputs: toExportValue(r.outputs, showSecrets) as PropertyBag,
                    dependencies: r.dependencies,
                    propertyDependencies: r.propertyDependencies,
                };
                if (r.parent) out.parent = r.parent;
                if (r.options.protect) out.protect = true;
                if (r.provider) out.provider = r.provider;
                if (r.options.additionalSecretOutputs.length) out.additionalSecretOutputs = r.options.additionalSecretOutputs;
                if (r.options.aliases.length) out.aliases = r.options.aliases;
                if (r.options.ignoreChanges.length) out.ignoreChanges = r.options.ignoreChanges;
                if (r.sourcePosition) out.sourcePosition = r.sourcePosition;
                return out;
            }),
        },
    };
}

/** Writes toStackExport(...) as indented JSON to `file` (secrets redacted unless showSecrets). Throws on I/O errors. */
export function writeStackExport(file: string, resources: RecordedResource[], engineVersion: string, showSecrets = false): void {
    fs.writeFileSync(file, JSON.stringify(toStackExport(resources, engineVersion, new Date(), showSecrets), null, 4) + "\n");
}
