/**
 * Fail closed, as a property: for every policy and every generated stack, each resource of a kind
 * the policy judges (its spec's `types` and `roles`, definePolicy.ts judgedKinds) ends in exactly
 * one outcome: a verdict, a pass (applied, no violation), not applicable, or not checked. Never
 * none ("no decision recorded"), never two at once (applied and not checked), never "not read".
 *
 * The outcomes are the decisions the framework records for --explain, read through its test
 * hook (explain.ts observeExplain) while the policies run through the SDK server functions.
 * Stacks: arbitrary ones, and clean ones with unknowns at every depth, Avi SE group refs in
 * every form, and facts only in the outputs. Runs are bounded (FUZZ_RUNS).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { policies } from "../../policies";
import { judgedKinds } from "../../policies/pack/definePolicy";
import { ExplainRecord, observeExplain } from "../../policies/pack/decisionLog";
import { citrixStack } from "../policies/citrix/citrixFixtures";
import { nsxStack } from "../policies/nsx-alb/nsxFixtures";
import { dom0Service, XCP01_UUID, xenStack } from "../policies/xen/xenFixtures";
import { asWireSecret, SE_GROUP_REF_FORMS, stackArb, unknownArb, VS_TYPE } from "../support/arbitraries";
import { TestResource, urnOf } from "../support/policyHarness";
import { SdkDiagnostic, sdkServer } from "../support/sdkServerPath";
import { plantedAtEveryDepth } from "../support/paths";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

type Verdict = Extract<ExplainRecord, { kind: "verdict" }>;
type Facts = Extract<ExplainRecord, { kind: "facts" }>;

let records: ExplainRecord[] = [];
beforeAll(() => observeExplain((r) => records.push(r)));
afterAll(() => observeExplain(undefined));

const server = sdkServer(policies);

/**
 * The one outcome a record says, or what is wrong with it. A resource policy's "not checked" is
 * one violation on the resource (`unverifiedOnResource`); a stack policy's is on the stack. A
 * verdict next to "not checked" is one outcome (what was known already proves the violation);
 * a pass next to "not checked" is two.
 */
function outcomeOf(r: Verdict, unverifiedOnResource: boolean): "verdict" | "pass" | "notApplicable" | "notChecked" | `gap: ${string}` {
    const notChecked = (r.notChecked?.length ?? 0) > 0;
    const verdicts = r.violations - (notChecked && unverifiedOnResource ? 1 : 0);
    if (r.applies) {
        if (verdicts > 0) {
            return "verdict";
        }
        return notChecked ? `gap: applied and not checked (${r.detail} / ${r.notChecked?.join("; ")})` : "pass";
    }
    if (r.typeNotRead) {
        return `gap: a judged kind listed as not read (${r.reason})`;
    }
    if (r.reason.startsWith("no decision recorded")) {
        return "gap: no decision recorded";
    }
    return notChecked ? "notChecked" : "notApplicable";
}

const ROLE_FACTS: Record<string, (facts: Facts) => boolean> = {
    deliveryController: (f) => f.facts.some((x) => x.key === "perfguard:citrixRole" && x.state === "ok"),
    dom0: (f) => f.facts.some((x) => x.key === "perfguard:xenDomain" && x.state === "ok" && x.shown === "dom0"),
};

/** Each (policy, resource) of a judged kind whose outcome is not exactly one, with the reason. */
async function gaps(resources: readonly TestResource[], outputs?: readonly TestResource[]): Promise<string[]> {
    return (await previewGaps(resources, outputs)).gaps;
}

async function previewGaps(resources: readonly TestResource[], outputs?: readonly TestResource[]): Promise<{ gaps: string[]; diagnostics: SdkDiagnostic[] }> {
    records = [];
    observeExplain((r) => records.push(r)); // also forgets which resources' facts were recorded
    const { diagnostics } = await server.preview(resources, outputs);
    const found: string[] = [];
    for (const policy of policies) {
        const kinds = judgedKinds(policy.name);
        if (!kinds) {
            found.push(`${policy.name}: no judged kinds declared`);
            continue;
        }
        // perfguard-facts is a resource policy that also reads the outputs (its decisions are Analyze's).
        const phase = "validateResource" in policy ? "analyze" : "analyzeStack";
        for (const r of outputs ?? resources) {
            const urn = r.urn ?? urnOf(r.type, r.name);
            const facts = records.find((x): x is Facts => x.kind === "facts" && x.phase === phase && x.urn === urn);
            const ofRole = facts !== undefined && kinds.roles.some((role) => ROLE_FACTS[role](facts));
            const judged = kinds.types === undefined || kinds.types.includes(r.type) || ofRole;
            const mine = records.filter((x): x is Verdict => x.kind === "verdict" && x.phase === phase && x.policy === policy.name && x.urn === urn);
            if (!judged) {
                continue;
            }
            if (mine.length !== 1) {
                found.push(`${policy.name} -> ${r.name}: ${mine.length} records`);
                continue;
            }
            const outcome = outcomeOf(mine[0], phase === "analyze");
            if (outcome.startsWith("gap")) {
                found.push(`${policy.name} -> ${r.name} (${r.type}): ${outcome}`);
            }
        }
    }
    return { gaps: found, diagnostics };
}

const CLEAN: Array<[string, TestResource[]]> = [
    ["Citrix 260 ms, throttles above the total", citrixStack({ rttMs: "260", throttles: ["20", "20", undefined] })],
    ["Citrix 40 ms", citrixStack({ rttMs: "40" })],
    ["Citrix 160 ms, no controllers", citrixStack({ rttMs: "160", throttles: [] })],
    ["Citrix 240 ms", citrixStack({ rttMs: "240", throttles: ["4", "4"] })],
    // Found by "on arbitrary stacks": a zone with users and a peak of 0 got two outcomes.
    ["Citrix peak 0 with users", citrixStack({ rttMs: "120", peak: "0", users: "500" })],
    ["NSX ALB", nsxStack({ shop: { sslTps: "3000" }, group: { memoryPerSe: "2048", dedicatedDispatcherCore: "false" } })],
    ["NSX ALB maxSe 2", nsxStack({ group: { maxSe: "2" } })],
    ["Xen", xenStack({ add: [dom0Service("backup", XCP01_UUID, undefined, "60")] })],
];

describe("every resource of a judged kind ends in exactly one outcome", () => {
    it("every policy declares the kinds it judges", () => {
        expect(policies.filter((p) => judgedKinds(p.name) === undefined).map((p) => p.name)).toEqual([]);
    });

    it.each(CLEAN)("%s", async (_label, stack) => {
        expect(await gaps(stack)).toEqual([]);
    });

    it("on arbitrary stacks", async () => {
        await fc.assert(
            fc.asyncProperty(stackArb({ maxResources: 6 }), async (stack) => {
                expect(await gaps(stack)).toEqual([]);
            }),
            { numRuns: RUNS },
        );
    });

    it("with unknowns at every depth of clean stacks (whole props, a container, one tag or metadata entry, one value)", async () => {
        await fc.assert(
            fc.asyncProperty(
                plantedAtEveryDepth(
                    CLEAN.map(([, s]) => s),
                    unknownArb,
                ),
                async (edited) => {
                    expect(await gaps(edited)).toEqual([]);
                },
            ),
            { numRuns: RUNS },
        );
    });

    it("with the VS's seGroupRef in every form the provider and controller produce", async () => {
        const arb = fc.tuple(fc.constantFrom(...SE_GROUP_REF_FORMS), fc.boolean());
        await fc.assert(
            fc.asyncProperty(arb, async ([ref, keepDependency]) => {
                const stack = nsxStack({ shop: { sslTps: "3000" } }).map((r) =>
                    r.type === VS_TYPE
                        ? { ...r, props: { ...r.props, seGroupRef: ref }, propertyDependencies: keepDependency ? r.propertyDependencies : {} }
                        : r,
                );
                expect(await gaps(stack)).toEqual([]);
            }),
            { numRuns: Math.min(RUNS, 40) },
        );
    });

    it("with facts only in the outputs (AnalyzeStack sees them, Analyze does not)", async () => {
        const arb = fc.constantFrom(...CLEAN.map(([, s]) => s)).chain((stack) =>
            fc.tuple(
                fc.constant(stack),
                fc.subarray(
                    stack.map((r) => r.name),
                    { minLength: 1 },
                ),
            ),
        );
        await fc.assert(
            fc.asyncProperty(arb, async ([stack, bare]) => {
                const inputs = stack.map((r) => (bare.includes(r.name) ? { ...r, props: {} } : r));
                expect(await gaps(inputs, stack)).toEqual([]);
            }),
            { numRuns: Math.min(RUNS, 40) },
        );
    });
});

/** U+0000-U+001F but the message's own newlines, and U+007F-U+009F: what a terminal could act on. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe("control characters and secrets in every name and field", () => {
    const controlArb = fc.constantFrom("\n", "\r", "\u001b[2J", "\u0000", "\u0085", "\t", "\u007f", "\u009b31m");

    /** `value` with each chosen string leaf (and key) carrying `c`, and each chosen value wrapped as a wire secret. */
    function mangle(value: unknown, c: string, pick: () => boolean): unknown {
        let out: unknown = value;
        if (typeof value === "string") {
            out = pick() ? `${value}${c}` : value;
        } else if (Array.isArray(value)) {
            out = value.map((v) => mangle(v, c, pick));
        } else if (value !== null && typeof value === "object") {
            out = Object.fromEntries(Object.entries(value).map(([k, v]) => [pick() ? `${k}${c}` : k, mangle(v, c, pick)]));
        }
        return pick() ? asWireSecret(out) : out;
    }

    it("every resource still ends in exactly one outcome, and no message carries a raw control character", async () => {
        const arb = fc.tuple(fc.constantFrom(...CLEAN.map(([, s]) => s)), controlArb, fc.array(fc.boolean(), { minLength: 61, maxLength: 61 }));
        await fc.assert(
            fc.asyncProperty(arb, async ([stack, c, bits]) => {
                let i = 0;
                // Sparse: about one value in eight changed, so that joins and figures mostly survive.
                const pick = () => bits[i++ % bits.length] && bits[(i * 7) % bits.length] && bits[(i * 13) % bits.length];
                const mangled = stack.map((r) => ({
                    ...r,
                    name: pick() ? `${r.name}${c}x` : r.name,
                    urn: undefined,
                    props: mangle(r.props, c, pick) as Record<string, unknown>,
                }));
                const renamed = new Map(stack.map((r, k) => [r.name, mangled[k].name]));
                const withDeps = mangled.map((r) => ({
                    ...r,
                    propertyDependencies: Object.fromEntries(
                        Object.entries(r.propertyDependencies ?? {}).map(([k, v]) => [k, v.map((n) => renamed.get(n) ?? n)]),
                    ),
                }));
                const { gaps: found, diagnostics } = await previewGaps(withDeps);
                expect(found).toEqual([]);
                for (const d of diagnostics) {
                    for (const line of d.message.split("\n")) {
                        expect(RAW_CONTROL.test(line), `${d.policyName}: ${JSON.stringify(line)}`).toBe(false);
                    }
                }
            }),
            { numRuns: RUNS },
        );
    });
});
