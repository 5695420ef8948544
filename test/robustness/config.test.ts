/**
 * Policy config robustness, for every policy in the registry, cases generated from each schema
 * (a new policy or property is covered without editing this file):
 *   invalid values (wrong type, below minimum / at an exclusive minimum, above maximum, fraction
 *   for an integer, negative, unknown nested keys) are rejected
 *     (1) by ajv compiling {type: "object", properties, required} (draft-07), as the CLI does,
 *     (2) by the preview path's reconciliation (preview/policyConfig.ts), naming policy and field,
 *     (3) by the pack itself when such a config reaches it anyway (Configure over gRPC, as an old
 *         CLI or another caller might): a mandatory violation naming policy and field;
 *   valid edge values (bounds exactly, 0 where allowed, null where allowed) pass all three;
 *   unknown top-level keys (typos) pass the schema check, like the CLI, and the pack reports them
 *   once per preview as a violation of that policy naming the key and the accepted keys.
 * Needs the compiled pack (npm run build; npm test builds first).
 */
import * as path from "path";
import Ajv, { ValidateFunction } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Policy } from "@pulumi/policy";
import { policies } from "../../policies";
import { PreviewError } from "../../preview/errors";
import { AnalyzerInfo, AnalyzeStackResourceInput, PackClient, PolicyConfigEntry, startPack } from "../../preview/packClient";
import { reconcilePolicyConfig } from "../../preview/policyConfig";
import type { Diagnostic, PropertyBag } from "../../preview/types";

const ROOT = path.resolve(__dirname, "..", "..");

/** The subset of JSON Schema the policies' config schemas use. */
interface Schema {
    type?: string | string[];
    minimum?: number;
    maximum?: number;
    exclusiveMinimum?: number;
    enum?: unknown[];
    properties?: Record<string, Schema>;
    additionalProperties?: boolean | Schema;
    items?: Schema;
    required?: string[];
    default?: unknown;
}

/** An object with only its required keys, each set to its first valid value. */
function requiredBase(s: Schema): Record<string, unknown> {
    return Object.fromEntries((s.required ?? []).map((k) => [k, validValues(s.properties?.[k] ?? {})[0]?.[1]]));
}

/** A list item with only its required keys (set to "x"): the base of the list-entry cases. */
function baseItem(items: Schema): Record<string, unknown> {
    return Object.fromEntries((items.required ?? []).map((k) => [k, "x"]));
}

interface ConfigCase {
    readonly policy: string;
    /** The field as messages name it: `maxRttMs`, `hosts.h1.linkMBps`. */
    readonly field: string;
    readonly why: string;
    /** The policy's properties to send (others take their defaults). */
    readonly config: Record<string, unknown>;
}

function typesOf(s: Schema): string[] {
    return s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
}

/** Invalid values for one property, each with why it is invalid. */
function invalidValues(s: Schema): Array<[string, unknown, string]> {
    const types = typesOf(s);
    const out: Array<[string, unknown, string]> = [];
    const numeric = types.includes("number") || types.includes("integer");
    // A value of every JSON type the schema does not allow ("12": a string that looks like a number).
    const wrong: Array<[string, unknown, (t: string[]) => boolean]> = [
        ["a string", "12", (t) => t.includes("string")],
        ["a boolean", true, (t) => t.includes("boolean")],
        ["a number", 1, (t) => t.includes("number") || t.includes("integer")],
        ["a list", [1], (t) => t.includes("array")],
        ["an object", { a: 1 }, (t) => t.includes("object")],
        ["null", null, (t) => t.includes("null")],
    ];
    for (const [what, value, allowed] of wrong) {
        if (types.length > 0 && !allowed(types)) {
            out.push([`${what} for ${types.join(" or ")}`, value, ""]);
        }
    }
    if (s.enum !== undefined) {
        out.push(["a word not in the enum", "blocking", ""]);
    }
    if (numeric) {
        if (s.minimum !== undefined) {
            out.push(["below minimum", s.minimum - 1, ""]);
            if (s.minimum >= 0) {
                out.push(["negative", -5, ""]);
            }
        }
        if (s.exclusiveMinimum !== undefined) {
            out.push(["at the exclusive minimum", s.exclusiveMinimum, ""], ["below the exclusive minimum", s.exclusiveMinimum - 1, ""]);
        }
        if (s.maximum !== undefined) {
            out.push(["above maximum", s.maximum + 1, ""]);
            if (s.maximum === 100 || s.maximum === 1) {
                out.push(["out-of-range percentage/fraction", s.maximum * 2 + 0.5, ""]);
            }
        }
        if (types.includes("integer") && !types.includes("number")) {
            out.push(["a fraction for an integer", (s.minimum ?? 0) + 1.5, ""]);
        }
    }
    if (types.includes("object")) {
        const entry = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
        if (entry && typesOf(entry).includes("array") && entry.items) {
            // Entries that are lists of objects (citrix-broker-throttle externalControllers).
            const items = entry.items;
            out.push(["an entry that is not a list", { h1: "x" }, "h1"]);
            for (const key of items.required ?? []) {
                out.push([`a list item without ${key}`, { h1: [{}] }, `h1.0.${key}`]);
            }
            if (items.additionalProperties === false) {
                out.push(["an unknown nested key", { h1: [{ ...baseItem(items), bogusKey: 1 }] }, "h1.0"]);
            }
            for (const [key, sub] of Object.entries(items.properties ?? {})) {
                for (const [why, value] of invalidValues(sub)) {
                    out.push([`${key}: ${why}`, { h1: [{ ...baseItem(items), [key]: value }] }, `h1.0.${key}`]);
                }
            }
        } else if (entry) {
            out.push(["an entry that is not an object", { h1: "x" }, "h1"]);
            if (entry.additionalProperties === false) {
                out.push(["an unknown nested key", { h1: { bogusKey: 1 } }, "h1"]);
            }
            for (const [key, sub] of Object.entries(entry.properties ?? {})) {
                for (const [why, value, nested] of invalidValues(sub)) {
                    out.push([`${key}: ${why}`, { h1: { [key]: value } }, `h1.${key}${nested ? `.${nested}` : ""}`]);
                }
            }
        }
        // An object with its own properties (a Xen host's bond): each property's invalid values on
        // the base of its required keys.
        if (s.properties) {
            const base = requiredBase(s);
            for (const [key, sub] of Object.entries(s.properties)) {
                for (const [why, value] of invalidValues(sub)) {
                    out.push([`${key}: ${why}`, { ...base, [key]: value }, key]);
                }
            }
        }
    }
    return out;
}

/** Valid edge values for one property. */
function validValues(s: Schema): Array<[string, unknown]> {
    const types = typesOf(s);
    const out: Array<[string, unknown]> = [];
    if (types.includes("number") || types.includes("integer")) {
        if (s.minimum !== undefined) {
            out.push(["the minimum exactly", s.minimum]);
        }
        if (s.exclusiveMinimum !== undefined) {
            out.push(["just above the exclusive minimum", s.exclusiveMinimum + (types.includes("integer") && !types.includes("number") ? 1 : 0.001)]);
        }
        if (s.maximum !== undefined) {
            out.push(["the maximum exactly", s.maximum]);
        }
        if (s.minimum !== undefined && s.minimum <= 0 && (s.maximum ?? 1) >= 0) {
            out.push(["0", 0]);
        }
    }
    if (types.includes("null")) {
        out.push(["null", null]);
    }
    for (const value of s.enum ?? []) {
        out.push([`the enum value ${JSON.stringify(value)}`, value]);
    }
    // Only a plain boolean: seGroups entries take "string, number or boolean" per the schema and
    // are then checked by the pack against the Avi provider's rules (vcpusPerSe true is a pack
    // error, deliberately: the schema mirrors the provider's loose string fields).
    if (types.length === 1 && types[0] === "boolean") {
        out.push(["true", true], ["false", false]);
    }
    if (types.includes("object")) {
        // An object with required keys (a Xen host's bond) is valid with those keys only; each of its
        // properties' valid values is tried on that base.
        const base = requiredBase(s);
        out.push(s.required?.length ? ["an object with its required keys only", base] : ["an empty object", {}]);
        for (const [key, sub] of Object.entries(s.properties ?? {})) {
            for (const [why, value] of validValues(sub)) {
                out.push([`${key}: ${why}`, { ...base, [key]: value }]);
            }
        }
        const entry = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
        if (entry && typesOf(entry).includes("array") && entry.items) {
            const items = entry.items;
            // Keyed by a zone of the stack (externalControllers: a key that names no zone is reported,
            // test/policies/citrix/citrix-broker-throttle.test.ts).
            out.push(["an empty list entry", { z1: [] }], ["a list item with its required keys only", { z1: [baseItem(items)] }]);
            for (const [key, sub] of Object.entries(items.properties ?? {})) {
                for (const [why, value] of validValues(sub)) {
                    out.push([`${key}: ${why}`, { z1: [{ ...baseItem(items), [key]: value }] }]);
                }
            }
        } else if (entry) {
            out.push(["an empty entry", { h1: {} }]);
            for (const [key, sub] of Object.entries(entry.properties ?? {})) {
                for (const [why, value] of validValues(sub)) {
                    out.push([`${key}: ${why}`, { h1: { [key]: value } }]);
                }
            }
        }
    }
    return out;
}

function propertiesOf(p: Policy): Record<string, Schema> {
    return (p.configSchema?.properties ?? {}) as Record<string, Schema>;
}

function invalidCases(): ConfigCase[] {
    return policies.flatMap((p) =>
        Object.entries(propertiesOf(p)).flatMap(([key, s]) =>
            invalidValues(s).map(([why, value, sub]) => ({ policy: p.name, field: sub ? `${key}.${sub}` : key, why, config: { [key]: value } })),
        ),
    );
}

function validCases(): ConfigCase[] {
    return policies.flatMap((p) =>
        Object.entries(propertiesOf(p)).flatMap(([key, s]) =>
            validValues(s).map(([why, value]) => ({ policy: p.name, field: key, why, config: { [key]: value } })),
        ),
    );
}

const INVALID = invalidCases();
const VALID = validCases();
const label = (c: ConfigCase) => `${c.policy}: ${c.field} ${c.why} (${JSON.stringify(c.config)})`;

/** Validates as the CLI does: only `properties` and `required`, draft-07 (ajv 8's default). */
const compiled = new Map<string, ValidateFunction>();

function cliSchemaAccepts(p: Policy, config: Record<string, unknown>): boolean {
    let validate = compiled.get(p.name);
    if (!validate) {
        validate = new Ajv({ allErrors: true, strict: false }).compile({
            type: "object",
            properties: propertiesOf(p),
            required: p.configSchema?.required ?? [],
        });
        compiled.set(p.name, validate);
    }
    return validate(config);
}

function policyNamed(name: string): Policy {
    return policies.find((p) => p.name === name) as Policy;
}

describe("the generated cases cover every policy with config", () => {
    it("has invalid and valid cases for every configurable property", () => {
        for (const p of policies) {
            for (const key of Object.keys(propertiesOf(p))) {
                expect(
                    INVALID.some((c) => c.policy === p.name && c.field.split(".")[0] === key),
                    `${p.name}.${key}`,
                ).toBe(true);
                expect(
                    VALID.some((c) => c.policy === p.name && c.field === key),
                    `${p.name}.${key}`,
                ).toBe(true);
            }
        }
    });
});

describe("(1) the schema, compiled by ajv as the CLI does", () => {
    it.each(INVALID.map((c) => [label(c), c] as const))("rejects %s", (_l, c) => {
        expect(cliSchemaAccepts(policyNamed(c.policy), c.config)).toBe(false);
    });
    it.each(VALID.map((c) => [label(c), c] as const))("accepts %s", (_l, c) => {
        expect(cliSchemaAccepts(policyNamed(c.policy), c.config)).toBe(true);
    });
    it.each(policies.map((p) => [p.name, p] as const))("accepts an unknown top-level key for %s (the CLI does not reject typos)", (_n, p) => {
        expect(cliSchemaAccepts(p, { maxRtt: 200, typoKey: "x" })).toBe(true);
    });
});

// Resources that make every policy read its config: resource policies read it on a resource of
// their type (a zone, an SE group; perfguard-facts on any), stack policies on AnalyzeStack.
const URN = (type: string, name: string) => `urn:pulumi:dev::cfg::${type}::${name}`;
const ZONE = "citrix:index/zone:Zone";
const SE_GROUP = "avi:index/serviceenginegroup:Serviceenginegroup";
const STACK: AnalyzeStackResourceInput[] = [
    { urn: URN(ZONE, "z1"), type: ZONE, name: "z1", properties: { name: "z1" } },
    { urn: URN(ZONE, "z2"), type: ZONE, name: "z2", properties: { name: "z2" } },
    { urn: URN(SE_GROUP, "g1"), type: SE_GROUP, name: "g1", properties: { name: "g1" } },
    { urn: URN(SE_GROUP, "g2"), type: SE_GROUP, name: "g2", properties: { name: "g2" } },
];
// One resource of each type a resource policy reads config on: enough for the per-case checks.
const SMALL_STACK = [STACK[0], STACK[2]];

describe("(2) and (3): the preview path and the pack", () => {
    let pack: PackClient;
    let info: AnalyzerInfo;

    beforeAll(async () => {
        pack = await startPack(ROOT, { onOutput: () => undefined });
        info = await pack.getAnalyzerInfo();
    });
    afterAll(async () => {
        await pack?.close();
    });

    /** Configure with `config` for one policy (every policy at its default level) and run one preview. */
    async function previewWith(policy: string, config: PropertyBag, stack: AnalyzeStackResourceInput[] = SMALL_STACK): Promise<Diagnostic[]> {
        const entries: Record<string, PolicyConfigEntry> = {};
        for (const p of info.policies) {
            entries[p.name] = { enforcementLevel: p.enforcementLevel };
        }
        entries[policy] = { ...entries[policy], properties: config };
        await pack.configure(entries);
        const out: Diagnostic[] = [];
        for (const r of stack) {
            out.push(...(await pack.analyze(r)).diagnostics);
        }
        out.push(...(await pack.analyzeStack(stack)).diagnostics);
        return out;
    }

    function reconcile(policy: string, config: PropertyBag): () => unknown {
        return () => reconcilePolicyConfig(info, { [policy]: { properties: config } });
    }

    it("GetAnalyzerInfo sends each policy's schema as declared", () => {
        for (const p of policies) {
            const sent = info.policies.find((x) => x.name === p.name);
            expect(sent?.configSchema?.properties ?? {}).toEqual(JSON.parse(JSON.stringify(propertiesOf(p))));
        }
    });

    describe.each(INVALID.map((c) => [label(c), c] as const))("rejects %s", (_l, c) => {
        it("(2) the preview path: exit 1 (as the CLI), naming policy and field", () => {
            const run = reconcile(c.policy, c.config as PropertyBag);
            expect(run).toThrow(PreviewError);
            const err = (() => {
                try {
                    run();
                } catch (e) {
                    return e as PreviewError;
                }
                return undefined;
            })();
            expect(err?.exitCode).toBe(1);
            // The CLI's form: "<pack> <version>  <policy>: <field>: <problem>" (gojsonschema's words);
            // an unknown nested key is named in the problem of the object holding it.
            // A missing required key is named in the problem of the object holding it, likewise.
            const missing = c.why.startsWith("a list item without ") ? c.field.split(".") : undefined;
            const expected =
                c.why === "an unknown nested key"
                    ? `${c.policy}: ${c.field}: Additional property bogusKey is not allowed`
                    : missing
                      ? `${c.policy}: ${missing.slice(0, -1).join(".")}: ${missing[missing.length - 1]} is required`
                      : `${c.policy}: ${c.field}: `;
            expect(err?.message).toContain(expected);
        });

        it("(3) the pack: a mandatory violation of that policy naming the field", async () => {
            const found = (await previewWith(c.policy, c.config as PropertyBag)).filter(
                (d) => d.policyName === c.policy && d.message.includes(`invalid config for policy ${c.policy}`),
            );
            expect(found.length).toBeGreaterThan(0);
            for (const d of found) {
                expect(d.enforcementLevel).toBe("mandatory");
                const leaf = c.why === "an unknown nested key" ? `${c.field}.bogusKey` : c.field;
                expect(d.message).toContain(`field ${leaf}`);
            }
        });
    });

    describe.each(VALID.map((c) => [label(c), c] as const))("accepts %s", (_l, c) => {
        it("(2) the preview path", () => {
            expect(reconcile(c.policy, c.config as PropertyBag)).not.toThrow();
        });
        it("(3) the pack: no config violation", async () => {
            const found = (await previewWith(c.policy, c.config as PropertyBag)).filter((d) => /invalid config|unknown config key/.test(d.message));
            expect(found.map((d) => d.message)).toEqual([]);
        });
    });

    describe.each(policies.map((p) => [p.name, p] as const))("an unknown key for %s", (name, p) => {
        // A key unique to this test: the pack reports a config problem once per process.
        const typo = name === "citrix-zone-rtt-limit" ? "maxRtt" : `${name.replace(/-/g, "")}Typo`;

        it("passes the preview path's schema check, as in the CLI", () => {
            expect(reconcile(name, { [typo]: 1 })).not.toThrow();
        });

        it("is reported once in the whole preview, naming the key and the accepted keys", async () => {
            // Two resources of each type: Analyze runs per resource, the report must still be one.
            const found = (await previewWith(name, { [typo]: 1 }, STACK)).filter((d) => d.message.includes(`"${typo}"`));
            expect(found).toHaveLength(1);
            expect(found[0].policyName).toBe(name);
            expect(found[0].enforcementLevel).toBe("mandatory");
            const accepted = Object.keys(propertiesOf(p));
            expect(found[0].message).toContain(`accepted keys are ${accepted.length > 0 ? accepted.join(", ") : "none"}`);
        });
    });
});
