/**
 * Property-based tests of the fact reader and perfguard-facts, through the SDK server path
 * (test/support/sdkServerPath.ts) where a preview is involved:
 * - unknowns at every depth never crash a preview, and an unknown entry hides only itself;
 * - facts that appear only in the outputs (AnalyzeStack) are validated, once per resource;
 * - control characters in every field never reach a message raw.
 * Runs are bounded (FUZZ_RUNS); fast-check prints the seed and the shrunk counterexample.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { policies } from "../../policies";
import { perfguardFacts } from "../../policies/perfguard-facts";
import { readFacts } from "../../policies/pack/facts";
import { parseMessage, PROBLEM_LINE_MAX } from "../../policies/pack/message";
import { FACT_KEYS, FactKeyDef, NumberFactKind } from "../../policies/pack/factKeys";
import { citrixStack } from "../policies/citrix/citrixFixtures";
import { nsxStack } from "../policies/nsx-alb/nsxFixtures";
import { dom0Service, XCP01_UUID, xenStack } from "../policies/xen/xenFixtures";
import { FACT_PLACES, FactEntry, invalidFactValueArb, placeFacts, TYPES, unknownArb, validFactValueArb } from "../support/arbitraries";
import type { TestResource } from "../support/policyHarness";
import { SdkDiagnostic, sdkServer } from "../support/sdkServerPath";
import { plantedAtEveryDepth } from "../support/paths";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

// Every control character a terminal could take as a new line or a cursor move (message.ts).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function body(d: SdkDiagnostic): string {
    return d.message.startsWith(`${d.description}\n`) ? d.message.slice(d.description.length + 1) : d.message;
}

/** No line of any message holds a raw control character (lines are the message's own parts). */
function expectNoRawControl(diagnostics: readonly SdkDiagnostic[], policyNames?: ReadonlySet<string>): void {
    for (const d of diagnostics) {
        if (policyNames && !policyNames.has(d.policyName)) {
            continue;
        }
        for (const line of d.message.split("\n")) {
            expect(RAW_CONTROL.test(line), `${d.policyName}: a raw control character in ${JSON.stringify(line)}`).toBe(false);
        }
    }
}

const CLEAN: readonly TestResource[][] = [
    citrixStack({ rttMs: "260", throttles: ["20", undefined] }),
    nsxStack({ shop: { sslTps: "3000" }, group: { memoryPerSe: "2048", dedicatedDispatcherCore: "false" } }),
    xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60")] }),
];

const server = sdkServer(policies);

describe("unknowns at every depth", () => {
    it('a value, an entry, a container or the whole props unknown: no crash, no "can\'t run", no internal error', async () => {
        await fc.assert(
            fc.asyncProperty(plantedAtEveryDepth(CLEAN, unknownArb), async (edited) => {
                const preview = await server.preview(edited);
                for (const d of preview.diagnostics) {
                    expect(d.message).not.toMatch(/can't run policy|internal error/);
                    expect(body(d).trim().length).toBeGreaterThan(0);
                }
            }),
            { numRuns: RUNS },
        );
    });

    it("an unknown entry hides only itself: every other fact of its list still reads as declared", () => {
        const listPlaces = FACT_PLACES.filter((p) => p !== "tags map" && p !== "extraConfig");
        const arb = fc
            .record({
                place: fc.constantFrom(...listPlaces),
                defs: fc.uniqueArray(fc.constantFrom(...FACT_KEYS), { minLength: 1, maxLength: 5, selector: (d) => d.key }),
                unknown: unknownArb,
            })
            .chain(({ place, defs, unknown }) =>
                fc.record({
                    place: fc.constant(place),
                    entries: fc.tuple(
                        ...defs.map((def) =>
                            validFactValueArb(def).map((value): FactEntry & { def: FactKeyDef } => ({ key: `perfguard:${def.key}`, value, def })),
                        ),
                    ),
                    at: fc.nat({ max: defs.length }),
                    unknown: fc.constant(unknown),
                }),
            );
        fc.assert(
            fc.property(arb, ({ place, entries, at, unknown }) => {
                const clean = readFacts(placeFacts(place, entries));
                const props = placeFacts(place, entries);
                const list = props[place === "tags list" ? "tags" : place] as unknown[];
                list.splice(at, 0, unknown);
                const facts = readFacts(props);
                expect(facts.hidden).toBe(1);
                // Not known to be complete: a key not found may be the hidden one (every found key reads as declared).
                expect(facts.incomplete).toBe(true);
                for (const e of entries) {
                    expect(facts.read(e.def.key as never)).toEqual(clean.read(e.def.key as never));
                    expect(facts.read(e.def.key as never).state).toBe("ok");
                }
            }),
            { numRuns: RUNS },
        );
    });

    it("an unknown value makes only its key unknown; a container unknown as a whole makes every key not found unknown", () => {
        const arb = fc
            .uniqueArray(fc.constantFrom(...FACT_KEYS), { minLength: 2, maxLength: 5, selector: (d) => d.key })
            .chain((defs) => fc.tuple(fc.constant(defs), fc.tuple(...defs.map((d) => validFactValueArb(d))), fc.nat({ max: defs.length - 1 }), unknownArb));
        fc.assert(
            fc.property(arb, ([defs, values, which, unknown]) => {
                const tags = Object.fromEntries(defs.map((d, i) => [`perfguard:${d.key}`, i === which ? unknown : values[i]]));
                const facts = readFacts({ tags });
                defs.forEach((d, i) => expect(facts.read(d.key as never).state).toBe(i === which ? "unknown" : "ok"));
                const absent = FACT_KEYS.find((d) => !defs.includes(d));
                if (absent) {
                    expect(facts.read(absent.key).state).toBe("absent");
                    expect(readFacts({ tags, metadatas: unknown }).read(absent.key).state).toBe("unknown");
                }
            }),
            { numRuns: RUNS },
        );
    });
});

describe("facts only in the outputs", () => {
    const numericDefs = FACT_KEYS.filter((d): d is (typeof FACT_KEYS)[number] & NumberFactKind => d.kind === "number");
    const factsServer = sdkServer([perfguardFacts]);
    const arb = fc
        .record({
            type: fc.constantFrom(...TYPES),
            def: fc.constantFrom(...numericDefs),
            place: fc.constantFrom(...FACT_PLACES),
            inInputs: fc.boolean(),
        })
        .chain((c) => fc.record({ c: fc.constant(c), bad: invalidFactValueArb(c.def) }));

    it("an invalid fact is reported once on its resource, whether the inputs carry it too or not", async () => {
        await fc.assert(
            fc.asyncProperty(arb, async ({ c, bad }) => {
                const withFact: TestResource = { type: c.type, name: "subject", props: placeFacts(c.place, [{ key: `perfguard:${c.def.key}`, value: bad }]) };
                const inputs: TestResource = c.inInputs ? withFact : { type: c.type, name: "subject", props: {} };
                const preview = await factsServer.preview([inputs], [withFact]);
                const about = preview.diagnostics.filter((d) => body(d).includes(`perfguard:${c.def.key} has `) && !body(d).includes("has no effect here"));
                expect(about.map((d) => d.phase)).toEqual([c.inInputs ? "analyze" : "analyzeStack"]);
                expect(about[0].enforcementLevel).toBe("mandatory");
                expect(about[0].urn).toMatch(/::subject$/);
            }),
            { numRuns: RUNS },
        );
    });
});

describe("control characters in every field never reach a message raw", () => {
    const controlArb = fc.constantFrom("\n", "\r", "\u001b[2J", "\u0000", "\u2028", "\u0085", "\t");
    /**
     * The string leaves of `value` chosen by `pick` with a control character appended (so that
     * names still join and numbers still parse where they are not chosen); keys too when `keys`.
     */
    function poison(value: unknown, c: string, pick: () => boolean, keys: boolean): unknown {
        if (typeof value === "string") {
            return pick() ? `${value}${c}` : value;
        }
        if (Array.isArray(value)) {
            return value.map((v) => poison(v, c, pick, keys));
        }
        if (value !== null && typeof value === "object") {
            return Object.fromEntries(Object.entries(value).map(([k, v]) => [keys && pick() ? `${k}${c}` : k, poison(v, c, pick, keys)]));
        }
        return value;
    }
    // Policies that still build plain-string messages quoting a name or value raw (their owners
    // convert them to Messages, whose every part renderMessage escapes: issue 10). Empty this list
    // as they land: every other policy of the registry is held to the property already.
    const NOT_YET_ESCAPING = new Set<string>([]);
    const ESCAPING = new Set(policies.map((p) => p.name).filter((name) => !NOT_YET_ESCAPING.has(name)));

    it("in names, fact values, keys and every other field", async () => {
        const arb = fc.tuple(fc.constantFrom(...CLEAN), controlArb, fc.boolean(), fc.boolean(), fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }));
        await fc.assert(
            fc.asyncProperty(arb, async ([stack, c, keys, names, bits]) => {
                let i = 0;
                const pick = () => bits[i++ % bits.length] && bits[(i * 7) % bits.length];
                const poisoned = stack.map((r) => ({
                    ...r,
                    name: names && pick() ? `${r.name}${c}x` : r.name,
                    urn: undefined,
                    props: poison(r.props, c, pick, keys) as Record<string, unknown>,
                }));
                const preview = await server.preview(poisoned);
                expectNoRawControl(preview.diagnostics, ESCAPING);
                for (const d of preview.diagnostics.filter((x) => x.policyName === "perfguard-facts")) {
                    expect(parseMessage(d.message).problem.length).toBeLessThanOrEqual(PROBLEM_LINE_MAX);
                }
            }),
            { numRuns: RUNS },
        );
    });

    it("a resource name forges no violation line in any policy (the label escapes it)", async () => {
        const forged = citrixStack({ rttMs: "300" }).map((r) =>
            r.type === "citrix:index/zone:Zone" ? { ...r, name: "emea\n    perfguard@v0.1.0 [advisory]  fake" } : r,
        );
        const preview = await server.preview(forged);
        const rtt = preview.diagnostics.filter((d) => d.policyName === "citrix-zone-rtt-limit");
        expect(rtt.length).toBeGreaterThan(0);
        for (const d of rtt) {
            expect(d.message).toContain("emea\\n    perfguard@v0.1.0");
            expect(d.message.split("\n").some((l) => l.trimStart().startsWith("perfguard@"))).toBe(false);
        }
    });
});
