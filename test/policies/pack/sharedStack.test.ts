/**
 * What the stack policies of one AnalyzeStack share (policies/pack/resources.ts stackOf), what
 * --explain costs when it is off (definePolicy.ts), and the config memo (config.ts). The SDK hands
 * every stack policy its own decode of the request: new props objects, but the protobuf message's
 * own `opts.ignoreChanges` arrays, which is how stackOf tells one request from another.
 */
import type { PolicyResource, StackValidationArgs } from "@pulumi/policy";
import { unknownCheckingProxy } from "@pulumi/policy";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readPolicyConfig, validated } from "../../../policies/pack/config";
import { observeExplain } from "../../../policies/pack/decisionLog";
import { stackPolicy } from "../../../policies/pack/definePolicy";
import { stackOf } from "../../../policies/pack/resources";

const ZONE = "citrix:index/zone:Zone";

interface Declared {
    name: string;
    rttMs: string;
}

/** One decode of a request, as the SDK builds it for one policy: fresh props, the message's own option lists. */
function decode(declared: readonly Declared[], lists: readonly string[][]): PolicyResource[] {
    return declared.map((d, i) => ({
        type: ZONE,
        name: d.name,
        urn: `urn:pulumi:test::p::${ZONE}::${d.name}`,
        props: unknownCheckingProxy({ name: d.name, metadatas: [{ name: "perfguard:rttMs", value: d.rttMs }] }),
        opts: {
            protect: false,
            ignoreChanges: lists[i],
            aliases: [],
            customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
            additionalSecretOutputs: [],
        },
        dependencies: [],
        propertyDependencies: {},
        isType: () => false,
        asType: () => undefined,
    }));
}

const STACK: Declared[] = [
    { name: "hq", rttMs: "5" },
    { name: "latam", rttMs: "160" },
];

function rttOf(resources: readonly PolicyResource[]): Array<number | undefined> {
    return stackOf(resources).resources.map((r) => {
        const read = r.facts.number("rttMs");
        return read.state === "ok" ? read.value : undefined;
    });
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("stackOf: one StackView per request", () => {
    it("baseline: two policies' decodes of one request share the view and its parsed facts", () => {
        const lists = STACK.map(() => []);
        const first = stackOf(decode(STACK, lists));
        const facts = first.resources[1].facts;
        const second = stackOf(decode(STACK, lists));
        expect(second).toBe(first);
        expect(second.resources[1].facts).toBe(facts);
        expect(facts.number("rttMs")).toMatchObject({ state: "ok", value: 160 });
    });

    const cases: Array<[string, (lists: string[][]) => { declared: Declared[]; lists: string[][] }, Array<number | undefined>]> = [
        ["another request (new lists), same content", (lists) => ({ declared: STACK, lists: lists.map(() => []) }), [5, 160]],
        ["another request with a changed value", (lists) => ({ declared: [STACK[0], { name: "latam", rttMs: "200" }], lists: lists.map(() => []) }), [5, 200]],
        ["one resource's list differs", (lists) => ({ declared: [STACK[0], { name: "latam", rttMs: "210" }], lists: [lists[0], []] }), [5, 210]],
        ["a resource more", (lists) => ({ declared: [...STACK, { name: "emea", rttMs: "40" }], lists: [...lists, []] }), [5, 160, 40]],
    ];
    it.each(cases)("%s: new views with that request's facts", (_name, change, expected) => {
        const lists = STACK.map(() => []);
        const first = stackOf(decode(STACK, lists));
        const next = change(lists);
        const resources = decode(next.declared, next.lists);
        expect(stackOf(resources)).not.toBe(first);
        expect(rttOf(resources)).toEqual(expected);
    });

    it("a resource without option lists (not from the SDK's decode) is never shared", () => {
        const resources = decode(
            STACK,
            STACK.map(() => []),
        ).map((r) => ({ ...r, opts: undefined })) as unknown as PolicyResource[];
        expect(stackOf(resources)).not.toBe(stackOf(resources));
    });

    it("the shared view is dropped on the next turn of the event loop", async () => {
        const lists = STACK.map(() => []);
        const first = stackOf(decode(STACK, lists));
        await nextTurn();
        expect(stackOf(decode(STACK, lists))).not.toBe(first);
    });
});

describe("--explain off: a stack policy builds no decision texts", () => {
    afterEach(() => observeExplain(undefined));

    function run(): { details: number; violations: string[] } {
        let details = 0;
        const policy = stackPolicy<Record<string, never>>({
            name: "test-shared-stack-explain",
            description: "test policy",
            enforcementLevel: "advisory",
            types: [ZONE],
            check(stack, _config, report) {
                for (const zone of stack.resources) {
                    report.applied(() => {
                        details += 1;
                        return `judged ${zone.name}`;
                    }, zone);
                    report.notApplicable(() => {
                        details += 1;
                        return "never shown after applied";
                    }, zone);
                }
            },
        });
        const violations: string[] = [];
        const args = {
            resources: decode(
                STACK,
                STACK.map(() => []),
            ),
            getConfig: () => ({}),
            stackTags: new Map(),
            notApplicable: () => undefined,
        };
        void policy.validateStack(args as unknown as StackValidationArgs, (m: unknown) => violations.push(String(m)));
        return { details, violations };
    }

    it("off: the detail functions are never called", () => {
        expect(run()).toEqual({ details: 0, violations: [] });
    });

    it("on: each judged resource's detail is built and recorded", () => {
        const verdicts: string[] = [];
        observeExplain((r) => {
            if (r.kind === "verdict" && r.applies) {
                verdicts.push(r.detail);
            }
        });
        // applied on both zones (2), and the first not-applicable reason of each (2): --explain keeps both, shows applied.
        expect(run()).toEqual({ details: 4, violations: [] });
        expect(verdicts.sort()).toEqual(["judged hq", "judged latam"]);
    });
});

describe("readPolicyConfig: read once per config text", () => {
    const schema = { properties: { maxRttMs: { type: "number", default: 250, description: "d" } } };

    it("baseline: the same text gives the same result, one frozen object shared by every read", () => {
        const first = readPolicyConfig<{ maxRttMs: number }>("test-config-memo", schema as never, { maxRttMs: 100 });
        expect(() => {
            first.config.maxRttMs = 1;
        }).toThrow(TypeError);
        const second = readPolicyConfig<{ maxRttMs: number }>("test-config-memo", schema as never, { maxRttMs: 100 });
        expect(second).toEqual({ config: { maxRttMs: 100 }, errors: [], fields: [], unknownKeys: [] });
        expect(second).toBe(first);
        // A new object with the same values (as the SDK's getConfig hands on every call) is the same read.
        expect(readPolicyConfig("test-config-memo", schema as never, { ...{ maxRttMs: 100 } })).toBe(first);
    });

    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
        // [case, first config, second config]: the second must be read on its own
        ["a value changed", { maxRttMs: 100 }, { maxRttMs: 120 }],
        ["a value's type changed", { maxRttMs: 1 }, { maxRttMs: "1" }],
        ["a key added", { maxRttMs: 100 }, { maxRttMs: 100, extra: 1 }],
        ["a key renamed", { maxRttMs: 100 }, { maxRtt: 100 }],
        ["the same values in another key order", { maxRttMs: 100, extra: 1 }, { extra: 1, maxRttMs: 100 }],
    ])("the flat-config shortcut does not hand back the last read when %s", (name, before, after) => {
        readPolicyConfig(`test-config-flat-${name}`, schema as never, before);
        const read = readPolicyConfig(`test-config-flat-${name}`, schema as never, after);
        // What ajv makes of the second config alone, unknown keys removed as readPolicyConfig does.
        const known = Object.fromEntries(Object.entries(after).filter(([k]) => k === "maxRttMs"));
        const alone = validated(`test-config-flat-${name}`, schema as never, structuredClone(known));
        expect({ config: read.config, errors: read.errors, unknownKeys: read.unknownKeys }).toEqual({
            config: alone.config,
            errors: alone.errors,
            unknownKeys: Object.keys(after).filter((k) => k !== "maxRttMs"),
        });
    });

    it("the flat-config shortcut is taken: the same values again are not written as JSON text", () => {
        const first = readPolicyConfig("test-config-flat-taken", schema as never, { maxRttMs: 100 });
        const stringify = vi.spyOn(JSON, "stringify");
        try {
            expect(readPolicyConfig("test-config-flat-taken", schema as never, { maxRttMs: 100 })).toBe(first);
            expect(stringify).not.toHaveBeenCalled();
        } finally {
            stringify.mockRestore();
        }
    });

    it("a nested config changed in place is read again (the shortcut is for flat configs only)", () => {
        const nested = { properties: { hosts: { type: "object", default: {}, description: "d", additionalProperties: { type: "number" } } } };
        const raw: { hosts: Record<string, unknown> } = { hosts: { a: 1 } };
        expect(readPolicyConfig("test-config-nested-in-place", nested as never, raw).errors).toEqual([]);
        raw.hosts.a = "fast";
        expect(readPolicyConfig("test-config-nested-in-place", nested as never, raw).errors).toHaveLength(1);
    });

    it("config values that are not JSON (an in-process caller's Buffer) are left unfrozen, and the read does not throw", () => {
        const loose = { properties: { blob: { type: "object", description: "d" } } };
        const read = readPolicyConfig<{ blob: Buffer }>("test-config-buffer", loose as never, { blob: Buffer.from("ab") });
        expect(Object.isFrozen(read)).toBe(true);
        expect(Object.isFrozen(read.config.blob)).toBe(false);
    });

    it("a changed config object is read again", () => {
        const raw: Record<string, unknown> = { maxRttMs: 100 };
        expect(readPolicyConfig("test-config-memo", schema as never, raw).errors).toEqual([]);
        raw.maxRttMs = "fast";
        expect(readPolicyConfig("test-config-memo", schema as never, raw).errors).toEqual([
            'invalid config for policy test-config-memo: field maxRttMs must be number (got "fast")',
        ]);
    });

    it("defaults are applied on a read from the memo too", () => {
        readPolicyConfig("test-config-memo", schema as never, {});
        expect(readPolicyConfig("test-config-memo", schema as never, {}).config).toEqual({ maxRttMs: 250 });
    });
});
