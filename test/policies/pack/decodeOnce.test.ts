import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { decodeOnce, DeserializeModule } from "../../../policies/pack/decodeOnce";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require("@pulumi/policy/deserialize") as { deserializeProperties: (s: unknown, proxySecrets: boolean) => unknown };

/** A module whose deserializeProperties is the SDK's, counting its calls. */
function countingModule(): { mod: DeserializeModule; calls: () => number } {
    let calls = 0;
    const mod: DeserializeModule = {
        deserializeProperties: (s: unknown, proxySecrets: boolean) => {
            calls += 1;
            return sdk.deserializeProperties(s, proxySecrets);
        },
    };
    return { mod, calls: () => calls };
}

const PROPS = { name: "emea", metadatas: [{ name: "perfguard:rttMs", value: "160" }], nested: { list: [1, "a", null, true] } };

function call(mod: DeserializeModule, struct: unknown, proxySecrets: boolean): unknown {
    return (mod.deserializeProperties as (s: unknown, p: boolean) => unknown)(struct, proxySecrets);
}

describe("decodeOnce: one decode of a request's Struct, shared by the policies of the call", () => {
    type Call = readonly [struct: 0 | 1, proxySecrets: boolean];
    it.each<[string, readonly Call[], number]>([
        // [case, calls made (struct index, proxySecrets), decodes expected]
        ["one policy", [[0, false]], 1],
        ["nine stack policies, one resource", Array.from({ length: 9 }, (): Call => [0, false]), 1],
        [
            "two resources, three policies each",
            [
                [0, false],
                [1, false],
                [0, false],
                [1, false],
                [0, false],
                [1, false],
            ],
            2,
        ],
        [
            "remediate (proxySecrets) is never shared",
            [
                [0, true],
                [0, true],
            ],
            2,
        ],
        [
            "analyze then remediate of one Struct",
            [
                [0, false],
                [0, true],
                [0, false],
            ],
            2,
        ],
    ])("%s: %i decodes", (_name, calls, decodes) => {
        const { mod, calls: count } = countingModule();
        expect(decodeOnce(mod)).toBe(true);
        const structs = [Struct.fromJavaScript(PROPS), Struct.fromJavaScript({ other: 1 })];
        for (const [i, proxySecrets] of calls) {
            call(mod, structs[i], proxySecrets);
        }
        expect(count()).toBe(decodes);
    });

    it("gives what the SDK gives, the same value on every pass", () => {
        const { mod } = countingModule();
        decodeOnce(mod);
        const struct = Struct.fromJavaScript(PROPS);
        const first = call(mod, struct, false);
        expect(first).toEqual(sdk.deserializeProperties(struct, false));
        expect(first).toEqual(PROPS);
        expect(call(mod, struct, false)).toBe(first);
        // A new request's Struct of equal content is decoded on its own.
        expect(call(mod, Struct.fromJavaScript(PROPS as never), false)).not.toBe(first);
    });

    it("is idempotent and leaves a module of another shape alone", () => {
        const { mod, calls } = countingModule();
        decodeOnce(mod);
        const wrapped = mod.deserializeProperties;
        expect(decodeOnce(mod)).toBe(true);
        expect(mod.deserializeProperties).toBe(wrapped);
        const struct = Struct.fromJavaScript({ a: 1 });
        call(mod, struct, false);
        call(mod, struct, false);
        expect(calls()).toBe(1);
        const other: DeserializeModule = { deserializeProperties: "not a function" };
        expect(decodeOnce(other)).toBe(false);
        expect(other.deserializeProperties).toBe("not a function");
        expect(decodeOnce({})).toBe(false);
    });

    it("passes a non-object through to the SDK (which decides what to do with it)", () => {
        const { mod, calls } = countingModule();
        decodeOnce(mod);
        expect(() => call(mod, undefined, false)).toThrow();
        expect(() => call(mod, undefined, false)).toThrow();
        expect(calls()).toBe(2);
    });
});
