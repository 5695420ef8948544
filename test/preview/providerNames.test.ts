/**
 * The stand-in providers' attribute names (preview/providers/schema/<package>.json, derived from the
 * Terraform providers' sources) are the names the real bridge gives them: every top-level attribute
 * of every resource is a property of the real Pulumi schema (scripts/real-sdk/schemas: pulumi-vsphere's
 * published schema, the dynamic bridge's citrix and avi schemas), and every real input is modelled.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..");

interface StandIn {
    resources: Record<string, { attributes: Record<string, { tf: string; pulumi: string }> }>;
}
interface RealSchema {
    resources: Record<string, { inputProperties?: Record<string, unknown>; properties?: Record<string, unknown> }>;
}

const read = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8")) as T;

const cases = ["citrix", "avi", "vsphere"].flatMap((pkg) => {
    const mine = read<StandIn>(`preview/providers/schema/${pkg}.json`);
    const real = read<RealSchema>(`scripts/real-sdk/schemas/${pkg}.json`);
    return Object.keys(mine.resources).map((token) => [token, mine.resources[token], real.resources[token]] as const);
});

describe.each(cases)("%s", (token, mine, real) => {
    it("is in the real schema", () => {
        expect(real, `${token} missing from the real schema subset`).toBeDefined();
    });

    it("names every attribute as the real schema does", () => {
        const realNames = new Set([...Object.keys(real?.inputProperties ?? {}), ...Object.keys(real?.properties ?? {})]);
        // A plugin-framework `id` is the resource's id: the bridge lists it in no property map.
        const unknown = Object.values(mine.attributes)
            .map((a) => a.pulumi)
            .filter((n) => !realNames.has(n) && n !== "id");
        expect(unknown).toEqual([]);
        const modelled = new Set(Object.values(mine.attributes).map((a) => a.pulumi));
        expect(Object.keys(real?.inputProperties ?? {}).filter((n) => !modelled.has(n))).toEqual([]);
    });
});
