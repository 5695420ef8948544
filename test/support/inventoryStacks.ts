/**
 * Stack exports of test/fixtures/inventory as the previewed stack (TestResources with the
 * export's URNs and outputs), and the inventory variable set for one test.
 */
import * as fs from "fs";
import * as path from "path";
import { resetInventory } from "../../policies/pack/inventory/current";
import { INVENTORY_ENV, MAX_AGE_ENV } from "../../policies/pack/inventory/types";
import type { TestResource } from "./policyHarness";

export const INVENTORY_FIXTURES = path.resolve(__dirname, "../fixtures/inventory");

export function fixture(name: string): string {
    return path.join(INVENTORY_FIXTURES, name);
}

interface StateResource {
    urn: string;
    type: string;
    outputs?: Record<string, unknown>;
    propertyDependencies?: Record<string, string[]>;
}

/** The resources of an export as a preview of that stack would send them (outputs, own URNs). */
export function previewOf(exportName: string, change: (r: TestResource) => TestResource = (r) => r): TestResource[] {
    const doc = JSON.parse(fs.readFileSync(fixture(exportName), "utf8")) as { deployment: { resources: StateResource[] } };
    return doc.deployment.resources.map((r) =>
        change({
            type: r.type,
            name: r.urn.slice(r.urn.lastIndexOf("::") + 2),
            urn: r.urn,
            props: structuredClone(r.outputs ?? {}),
        }),
    );
}

/** Runs `fn` with PERFGUARD_INVENTORY set to `spec` (undefined: unset), the inventory read afresh. */
export async function withInventoryEnv<T>(spec: string | undefined, fn: () => Promise<T>, maxAgeHours = "100000"): Promise<T> {
    const before = { inv: process.env[INVENTORY_ENV], age: process.env[MAX_AGE_ENV] };
    const set = (k: string, v: string | undefined) => (v === undefined ? delete process.env[k] : (process.env[k] = v));
    set(INVENTORY_ENV, spec);
    set(MAX_AGE_ENV, maxAgeHours);
    resetInventory();
    try {
        return await fn();
    } finally {
        set(INVENTORY_ENV, before.inv);
        set(MAX_AGE_ENV, before.age);
        resetInventory();
    }
}
