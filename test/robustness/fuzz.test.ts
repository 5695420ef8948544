/**
 * Property-based robustness of every policy in the registry, through the functions the SDK's
 * gRPC server runs for Analyze and AnalyzeStack (test/support/sdkServerPath.ts): bad input never
 * crashes a preview and never passes silently.
 *
 * Runs are bounded (FUZZ_RUNS, default below) so the file takes seconds; fast-check prints the
 * seed and the shrunk counterexample on failure (replay with { seed, path } in fc.assert).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Policy } from "@pulumi/policy";
import { policies } from "../../policies";
import { FACT_KEYS, NumberFactKind } from "../../policies/pack/factKeys";
import { citrixStack } from "../policies/citrix/citrixFixtures";
import { nsxStack } from "../policies/nsx-alb/nsxFixtures";
import { dom0Service, XCP01_UUID, xenStack } from "../policies/xen/xenFixtures";
import {
    bigListResourceArb,
    FACT_PLACES,
    factEntryArb,
    invalidFactValueArb,
    junkResourcesArb,
    junkValueArb,
    placeFacts,
    propsArb,
    scalarJunkArb,
    stackArb,
    TYPES,
    unknownArb,
} from "../support/arbitraries";
import type { TestResource } from "../support/policyHarness";
import { SdkDiagnostic, SdkPreview, sdkServer } from "../support/sdkServerPath";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
// A 10,000-element list costs about a second on the wire path (protobuf), so few of those.
const BIG_RUNS = Number(process.env.FUZZ_BIG_RUNS ?? 4);

/** The part of a message perfguard wrote (the SDK prefixes the policy description). */
function body(d: SdkDiagnostic): string {
    return d.message.startsWith(`${d.description}\n`) ? d.message.slice(d.description.length + 1) : d.message;
}

const byName = new Map<string, Policy>(policies.map((p) => [p.name, p]));

/** The checks every diagnostic of every preview must pass. */
function checkDiagnostics(preview: SdkPreview): void {
    for (const d of preview.diagnostics) {
        expect(byName.has(d.policyName), `diagnostic of a policy not in the registry: ${d.policyName}`).toBe(true);
        // The SDK's verdict when an unknown value escaped: the whole policy "can't run".
        expect(d.message).not.toMatch(/can't run policy/);
        // isolate() turns an exception into a violation: still a bug the fuzz must surface.
        expect(d.message).not.toMatch(/internal error/);
        expect(body(d).trim().length).toBeGreaterThan(0);
        if (d.urn !== undefined) {
            const name = preview.names.get(d.urn);
            expect(name, `violation on a URN not in the stack: ${d.urn}`).toBeDefined();
            // As its label writes it (`Zone "emea-zone"`): quoted, so a short name cannot match by chance.
            expect(d.message).toContain(`"${name as string}"`);
        }
    }
}

// One server over the whole registry, as the pack serves it: every policy (a new one included)
// runs on every generated stack, and the checks above apply to each diagnostic.
const server = sdkServer(policies);

describe("every policy on arbitrary stacks", () => {
    it('never throws, never says "can\'t run", and every message is non-empty and names its resource', async () => {
        // An exception that escapes a policy reaches the server's callback: preview() rejects.
        await fc.assert(
            fc.asyncProperty(stackArb({ maxResources: 6 }), async (stack) => {
                checkDiagnostics(await server.preview(stack));
            }),
            { numRuns: RUNS },
        );
    });

    it("survives a 10,000-element list in any list field perfguard reads, next to a clean stack", async () => {
        await fc.assert(
            fc.asyncProperty(bigListResourceArb, async (big) => {
                const before = await server.preview(citrixStack({ rttMs: "260" }));
                const preview = await server.preview([...citrixStack({ rttMs: "260" }), big]);
                checkDiagnostics(preview);
                const found = new Set(pairs(preview));
                expect(pairs(before).filter((v) => !found.has(v))).toEqual([]);
            }),
            { numRuns: BIG_RUNS },
        );
    });
});

/** Every leaf path of `value` (object keys and list indexes), lists of more than 50 cut short. */
function leafPaths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
    if (Array.isArray(value)) {
        return value.slice(0, 50).flatMap((v, i) => leafPaths(v, [...prefix, i]));
    }
    if (value !== null && typeof value === "object") {
        return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
    }
    return [prefix];
}

function withLeaf(root: unknown, at: ReadonlyArray<string | number>, leaf: unknown): unknown {
    if (at.length === 0) {
        return leaf;
    }
    const [head, ...rest] = at;
    if (Array.isArray(root)) {
        return root.map((v, i) => (i === head ? withLeaf(v, rest, leaf) : v));
    }
    const obj = root as Record<string, unknown>;
    return { ...obj, [head]: withLeaf(obj[head as string], rest, leaf) };
}

describe("every policy on clean stacks with a few values turned into junk", () => {
    // Random stacks rarely form the joins the capacity and throttle checks need (a VS on a
    // described SE group, a controller of a zone at high RTT); these start from stacks that do.
    it('never throws, never says "can\'t run", and every message is non-empty and names its resource', async () => {
        const arb = fc.constantFrom(...CLEAN_STACKS.map(([, stack]) => stack)).chain((stack) => {
            const paths = stack.flatMap((r, i) => leafPaths(r.props).map((p) => [i, p] as const));
            return fc.tuple(
                fc.constant(stack),
                fc.array(fc.tuple(fc.constantFrom(...paths), fc.oneof(scalarJunkArb, junkValueArb)), { minLength: 1, maxLength: 4 }),
            );
        });
        await fc.assert(
            fc.asyncProperty(arb, async ([stack, edits]) => {
                let edited = stack;
                for (const [[index, at], leaf] of edits) {
                    edited = edited.map((r, i) => (i === index ? { ...r, props: withLeaf(r.props, at, leaf) as Record<string, unknown> } : r));
                }
                checkDiagnostics(await server.preview(edited));
            }),
            { numRuns: RUNS },
        );
    });
});

describe("perfguard-facts: a fact that cannot be parsed is reported, never treated as absent", () => {
    const numericDefs = FACT_KEYS.filter((d): d is (typeof FACT_KEYS)[number] & NumberFactKind => d.kind === "number");

    it("names the key of one invalid numeric fact in any place, on any resource type, among other facts and junk", async () => {
        const arb = fc
            .record({
                type: fc.constantFrom(...TYPES),
                def: fc.constantFrom(...numericDefs),
                place: fc.constantFrom(...FACT_PLACES),
            })
            .chain(({ type, def, place }) =>
                fc.record({
                    type: fc.constant(type),
                    def: fc.constant(def),
                    place: fc.constant(place),
                    base: propsArb(type),
                    bad: fc.record({
                        key: fc.constantFrom(`perfguard:${def.key}`, `perfguard_${def.key.toLowerCase()}`, `PERFGUARD:${def.key}`),
                        value: invalidFactValueArb(def),
                    }),
                    // Other facts (of other keys) and other entries, unknowns included, next to it.
                    others: fc.array(factEntryArb(FACT_KEYS.filter((d) => d.key !== def.key)), { maxLength: 3 }),
                    plain: fc.array(fc.oneof(unknownArb, scalarJunkArb), { maxLength: 2 }),
                }),
            );
        await fc.assert(
            fc.asyncProperty(arb, async ({ type, def, place, base, bad, others, plain }) => {
                const props: Record<string, unknown> = { ...base };
                for (const container of ["tags", "metadata", "metadatas", "markers", "extraConfig"]) {
                    delete props[container];
                }
                Object.assign(props, placeFacts(place, [...others, bad], plain));
                const preview = await server.preview([{ type, name: "subject", props }]);
                checkDiagnostics(preview);
                const onSubject = preview.diagnostics.filter(
                    (d) => d.policyName === "perfguard-facts" && d.phase === "analyze" && d.urn !== undefined && preview.names.get(d.urn) === "subject",
                );
                expect(onSubject.map(body).join("\n")).toContain(`perfguard:${def.key} in ${place === "tags map" ? "tags" : place}`);
                // Mandatory, unless the resource waives perfguard-facts itself (a valid waive fact among
                // `others`): then it is still reported, at advisory, prefixed "waived" (README, Waivers).
                for (const d of onSubject) {
                    expect(d.enforcementLevel === "mandatory" || (d.enforcementLevel === "advisory" && body(d).startsWith("waived ("))).toBe(true);
                }
            }),
            { numRuns: RUNS * 2 },
        );
    });
});

/**
 * "Junk never removes a violation": the clean stacks below produce violations; appending junk
 * resources must keep every (policy, URN) verdict of the clean part.
 *
 * What junk may be, for the property to be a fair one: resources with fresh names, appended after
 * the clean part (engine order decides which guest a once-per-host verdict lands on), whose props
 * are malformed values and unknowns of the types perfguard reads, with perfguard facts that are
 * only invalid or unknown (never a valid one: a valid throttle or controller fact legitimately
 * fixes a verdict). Junk may depend on clean resources (a catalog on a zone, a VS on an SE group):
 * unknown or invalid figures can only add to a total, never hide one. Provider fields may hold
 * well-formed values (a VM's affinityHost, an SE group's vcpusPerSe): an extra guest or group only
 * adds load or verdicts of its own.
 */
const CLEAN_STACKS: Array<[string, TestResource[]]> = [
    ["Citrix: 260 ms, one unthrottled controller, throttles above the safe total", citrixStack({ rttMs: "260", throttles: ["20", "20", undefined] })],
    ["Citrix: logon storm too large, too many machines", citrixStack({ users: "20000", machines: "10001" })],
    ["Citrix: unparseable RTT", citrixStack({ rttMs: "160ms" })],
    ["Citrix: 240 ms, in the warning band below the limit", citrixStack({ rttMs: "240", throttles: ["4", "4"] })],
    ["Citrix: no controller in the stack", citrixStack({ throttles: [] })],
    [
        "Citrix: five 160 ms satellite zones of 24 against one Site database",
        [1, 2, 3, 4, 5].map((i): TestResource => ({
            type: "citrix:index/zone:Zone",
            name: `sat${i}-zone`,
            props: {
                name: `sat${i}`,
                metadatas: [
                    { name: "perfguard:rttMs", value: "160" },
                    { name: "perfguard:peakConcurrentLaunches", value: "24" },
                ],
            },
        })),
    ],
    [
        "NSX ALB: 3000 RSA TPS, small memory, no dispatcher",
        nsxStack({ shop: { sslTps: "3000" }, group: { memoryPerSe: "2048", dedicatedDispatcherCore: "false" } }),
    ],
    ["NSX ALB: maxSe 1 = bufferSe 1 (no buffer can be kept)", nsxStack({ group: { maxSe: "1" } })],
    ["NSX ALB: maxSe 2", nsxStack({ group: { maxSe: "2" } })],
    ["Xen: a backup service in dom0, hosts without link figures", xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60")] })],
];

/** Every leaf of `value` replaced by `unknown` (a list longer than 100 by one unknown). */
function replaceLeaves(value: unknown, unknown: string): unknown {
    if (Array.isArray(value)) {
        return value.length > 100 ? unknown : value.map((v) => replaceLeaves(v, unknown));
    }
    if (value !== null && typeof value === "object") {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceLeaves(v, unknown)]));
    }
    return unknown;
}

function unknownTwin(r: TestResource, unknown: string): TestResource {
    return { ...r, name: `${r.name}-unknown-twin`, urn: undefined, props: replaceLeaves(r.props, unknown) as Record<string, unknown> };
}

const ZONE = "citrix:index/zone:Zone";

/**
 * A zone named as a clean zone (trimmed, any case) is no junk: a Site's zone names are unique, so two zones of that
 * name make the controllers' perfguard:citrixZone ambiguous, and their verdicts rightly become
 * "not checked" naming both zones (policies/citrix/zoneJoin.ts; fail closed, tested there).
 */
function namesCleanZone(r: TestResource, clean: readonly TestResource[]): boolean {
    // As the join reads a zone's name: trimmed, case folded ("EMEA " names zone "emea").
    const named = (z: TestResource) => (typeof z.props.name === "string" ? z.props.name.trim().toLowerCase() : undefined);
    return r.type === ZONE && clean.some((z) => z.type === ZONE && named(z) !== undefined && named(z) === named(r));
}

function pairs(preview: SdkPreview): string[] {
    return [...new Set(preview.diagnostics.map((d) => `${d.policyName} -> ${d.urn ?? "(stack)"}`))].sort();
}

describe("junk resources never remove a verdict of the clean part", () => {
    let cleanRuns: Promise<Array<{ label: string; stack: TestResource[]; verdicts: string[] }>> | undefined;
    const cleanVerdicts = () =>
        (cleanRuns ??= Promise.all(CLEAN_STACKS.map(async ([label, stack]) => ({ label, stack, verdicts: pairs(await server.preview(stack)) }))));

    it.each(policies.map((p) => p.name))("%s has a clean stack with a verdict (non-vacuity; add one to CLEAN_STACKS for a new policy)", async (name) => {
        const all = (await cleanVerdicts()).flatMap((c) => c.verdicts);
        expect(all.filter((v) => v.startsWith(`${name} -> `))).not.toEqual([]);
    });

    it("keeps every (policy, URN) verdict of the clean part", async () => {
        const clean = await cleanVerdicts();
        const arb = fc.constantFrom(...clean).chain((c) =>
            fc.tuple(
                fc.constant(c),
                junkResourcesArb(c.stack.map((r) => r.name)).map((junk) => junk.filter((r) => !namesCleanZone(r, c.stack))),
                fc.option(fc.tuple(fc.nat({ max: c.stack.length - 1 }), unknownArb)),
            ),
        );
        await fc.assert(
            fc.asyncProperty(arb, async ([c, junk, twinOf]) => {
                // Sometimes also an "unknown twin": a copy of a clean resource, same type, shape and
                // dependencies, with every value unknown (a resource whose inputs all come from
                // resources not created yet).
                const twin = twinOf === null ? [] : [unknownTwin(c.stack[twinOf[0]], twinOf[1])];
                const preview = await server.preview([...c.stack, ...junk, ...twin]);
                checkDiagnostics(preview);
                const found = new Set(pairs(preview));
                expect(
                    c.verdicts.filter((v) => !found.has(v)),
                    c.label,
                ).toEqual([]);
            }),
            { numRuns: RUNS },
        );
    });
});
