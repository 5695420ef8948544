/**
 * The stand-in providers' GetSchema (preview/providers/plugin.ts packageSchema): what the YAML
 * language host types a program's resources with. test/real/yaml.test.ts runs it under the real CLI.
 */
import { describe, expect, it } from "vitest";
import { packageSchema } from "../../preview/providers/plugin";

describe("packageSchema", () => {
    it.each([
        ["citrix", "citrix:index/zone:Zone", "metadatas"],
        ["citrix", "citrix:index/machineCatalog:MachineCatalog", "zone"],
        ["vsphere", "vsphere:index/virtualMachine:VirtualMachine", "extraConfig"],
        ["avi", "avi:index/serviceenginegroup:Serviceenginegroup", "maxVsPerSe"],
    ])("%s serves %s with its input %s, as the plugin (own version, no parameterization)", (pkg, token, input) => {
        const schema = JSON.parse(packageSchema(pkg)) as {
            name: string;
            version: string;
            parameterization?: unknown;
            resources: Record<string, { inputProperties: Record<string, unknown> }>;
        };
        expect(schema.name).toBe(pkg);
        expect(schema.version).toBe("0.0.1");
        expect(schema.parameterization).toBeUndefined();
        expect(Object.keys(schema.resources[token].inputProperties)).toContain(input);
    });

    it("names the package it has no schema for (xenorchestra: not served)", () => {
        expect(() => packageSchema("xenorchestra")).toThrow(/the xenorchestra stand-in has no package schema/);
    });
});
