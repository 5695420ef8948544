// Config keys are typed: a policy's schema must declare exactly the keys of its config type. The
// `@ts-expect-error` lines are the test: `npm test` type-checks this file, and fails if one of them
// stops being a compile error.
import { describe, expect, it } from "vitest";
import { resourcePolicy } from "../../../policies/pack/definePolicy";

interface LimitConfig {
    maxRttMs: number;
}

const property = { type: "number", default: 250, description: "Zones at or above this RTT (ms) are reported." } as const;

function build(): unknown[] {
    return [
        resourcePolicy<LimitConfig>({
            name: "test-typed-config-ok",
            description: "A policy with one typed key.",
            enforcementLevel: "advisory",
            configSchema: { properties: { maxRttMs: property } },
            check: () => undefined,
        }),
        resourcePolicy<LimitConfig>({
            name: "test-typed-config-missing",
            description: "A schema without the config's key.",
            enforcementLevel: "advisory",
            // @ts-expect-error maxRttMs is in LimitConfig but missing from the schema
            configSchema: { properties: {} },
            check: () => undefined,
        }),
        resourcePolicy<LimitConfig>({
            name: "test-typed-config-extra",
            description: "A schema with a key the config lacks.",
            enforcementLevel: "advisory",
            // @ts-expect-error maxRtt is not a key of LimitConfig (a typo)
            configSchema: { properties: { maxRttMs: property, maxRtt: property } },
            check: () => undefined,
        }),
        resourcePolicy<LimitConfig>({
            name: "test-typed-config-read",
            description: "A check reading a key the config lacks.",
            enforcementLevel: "advisory",
            configSchema: { properties: { maxRttMs: property } },
            // @ts-expect-error maxRtt is not a key of LimitConfig
            check: (_resource, config) => void String(config.maxRtt),
        }),
    ];
}

describe("typed config keys", () => {
    it("builds the policies (the compile errors above are what is tested)", () => {
        expect(build()).toHaveLength(4);
    });
});
