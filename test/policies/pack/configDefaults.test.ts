// The defaults-only shortcut of readPolicyConfig (policies/pack/config.ts): a config that holds
// only the schema's defaults (what the CLI sends for a policy nobody configured) skips ajv. These
// tests hold it to ajv's answer for every registered policy, and check that any other config
// still goes to ajv.
import { describe, expect, it } from "vitest";
import type { PolicyConfigSchema } from "@pulumi/policy";
import { compiledValidators, readPolicyConfig, validated } from "../../../policies/pack/config";
import { policies } from "../../../policies";

type Property = { default?: unknown; type?: string };

function schemaOf(policy: { configSchema?: PolicyConfigSchema }): PolicyConfigSchema {
    return policy.configSchema ?? { properties: {} };
}

/** What the CLI sends for an unconfigured policy: every top-level default. */
function cliDefaults(schema: PolicyConfigSchema): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, Property>)) {
        if (property.default !== undefined) {
            out[key] = structuredClone(property.default);
        }
    }
    return out;
}

describe("the defaults-only config shortcut gives ajv's answer", () => {
    for (const policy of policies) {
        const schema = schemaOf(policy);
        it(`${policy.name}: the CLI's defaults, and nothing, read as ajv reads them`, () => {
            for (const sent of [cliDefaults(schema), {}]) {
                const fast = readPolicyConfig<unknown>(policy.name, schema, sent);
                const slow = validated<unknown>(policy.name, schema, structuredClone(sent));
                expect(slow.errors).toEqual([]);
                expect(fast.errors).toEqual([]);
                expect(fast.config).toEqual(slow.config);
            }
        });
    }
});

describe("any other config still goes to ajv", () => {
    const schema: PolicyConfigSchema = {
        properties: {
            maxRttMs: { type: "number", default: 250 },
            hosts: { type: "object", default: {} },
            label: { type: "string" },
        },
    };
    const cases: Array<{ name: string; sent: Record<string, unknown>; errors: number; config?: Record<string, unknown> }> = [
        { name: "the defaults", sent: { maxRttMs: 250, hosts: {} }, errors: 0, config: { maxRttMs: 250, hosts: {} } },
        { name: "a changed value", sent: { maxRttMs: 300, hosts: {} }, errors: 0, config: { maxRttMs: 300, hosts: {} } },
        { name: "a value of the wrong type", sent: { maxRttMs: "250", hosts: {} }, errors: 1 },
        { name: "a key without a default", sent: { maxRttMs: 250, hosts: {}, label: "x" }, errors: 0, config: { maxRttMs: 250, hosts: {}, label: "x" } },
        { name: "a nested value", sent: { maxRttMs: 250, hosts: { a: 1 } }, errors: 0, config: { maxRttMs: 250, hosts: { a: 1 } } },
    ];
    for (const c of cases) {
        it(c.name, () => {
            const result = readPolicyConfig<Record<string, unknown>>("test-config-defaults", schema, c.sent);
            expect(result.errors).toHaveLength(c.errors);
            if (c.config) {
                expect(result.config).toEqual(c.config);
            }
        });
    }

    it.each<[string, Record<string, unknown>, number]>([
        // [case, config sent, validators compiled by reading it]
        ["only the defaults: no ajv", { maxRttMs: 250, hosts: {} }, 0],
        ["nothing: no ajv", {}, 0],
        ["a changed value: ajv", { maxRttMs: 300, hosts: {} }, 1],
    ])("%s", (name, sent, compiles) => {
        const before = compiledValidators();
        readPolicyConfig(`test-config-compiles-${name}`, schema, sent);
        expect(compiledValidators() - before).toBe(compiles);
    });

    it.each<[string, PolicyConfigSchema]>([
        ["a non-empty object default", { properties: { o: { type: "object", default: { x: 1 } } } }],
        [
            "an empty object default whose schema has properties",
            { properties: { o: { type: "object", default: {}, properties: { x: { type: "number", default: 1 } } } } },
        ],
        ["a non-empty list default", { properties: { l: { type: "array", default: [1] } } }],
    ])("%s goes to ajv, which may add to it", (name, withNested) => {
        const before = compiledValidators();
        const sent = cliDefaults(withNested);
        const result = readPolicyConfig<unknown>(`test-config-nested-${name}`, withNested, sent);
        expect(compiledValidators() - before).toBe(1);
        expect(result.config).toEqual(validated<unknown>(`test-config-nested-${name}`, withNested, structuredClone(sent)).config);
    });

    it("a required key that is absent is an error, defaults or not", () => {
        const required: PolicyConfigSchema = { properties: { maxRttMs: { type: "number", default: 250 }, site: { type: "string" } }, required: ["site"] };
        expect(readPolicyConfig("test-config-required", required, { maxRttMs: 250 }).errors).toHaveLength(1);
    });

    it("the config it returns is frozen, nested objects too: changing it throws, and the next read is unchanged", () => {
        const first = readPolicyConfig<{ hosts: Record<string, unknown> }>("test-config-copy", schema, { maxRttMs: 250, hosts: {} });
        expect(() => {
            first.config.hosts.changed = true;
        }).toThrow(TypeError);
        expect(readPolicyConfig("test-config-copy", schema, { maxRttMs: 250, hosts: {} }).config).toEqual({ maxRttMs: 250, hosts: {} });
    });

    it.each<[string, Record<string, unknown>]>([
        // [case, config sent]
        ["the defaults alone (no ajv)", {}],
        ["a config ajv reads", { hosts: { "xcp-01": { linkMBps: 100 } } }],
    ])("freezing the config leaves the caller's object and the schema's defaults alone: %s", (name, sent) => {
        const withObjectDefault: PolicyConfigSchema = { properties: { hosts: { type: "object", default: {} } } };
        const result = readPolicyConfig<{ hosts: object }>(`test-config-no-alias-${name}`, withObjectDefault, sent);
        expect(Object.isFrozen(result.config.hosts)).toBe(true);
        expect(Object.isFrozen((withObjectDefault.properties.hosts as { default: object }).default)).toBe(false);
        expect(Object.isFrozen(sent)).toBe(false);
        expect(Object.values(sent).some((v) => Object.isFrozen(v))).toBe(false);
    });
});
