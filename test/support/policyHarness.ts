/**
 * Runs perfguard policies the way the SDK's gRPC server calls them (props behind the SDK's
 * unknown-checking proxy, property dependencies as resource objects, getConfig from the
 * Configure call), without a process or a socket. End-to-end tests use the real gRPC path.
 */
import type { EnforcementLevel, Policy, PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { unknownCheckingProxy } from "@pulumi/policy";
import { expect } from "vitest";
import { resetReportedOnce } from "../../policies/pack/definePolicy";
import { parseMessage, PROBLEM_LINE_MAX } from "../../policies/pack/message";
import { shapeProblems } from "./messageShape";

/** The engine's wire value for an unknown (preview) value. */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A resource as a test declares it; `urn` defaults to a URN built from type and name. */
export interface TestResource {
    type: string;
    name: string;
    props: Record<string, unknown>;
    urn?: string;
    /** property name -> names of resources (in the same list) it depends on */
    propertyDependencies?: Record<string, string[]>;
    /** The resource's provider, as the engine sends it with AnalyzeStack (its URN and props). */
    provider?: { urn: string; props: Record<string, unknown> };
}

/** A violation as the SDK would send it. */
export interface Violation {
    policyName: string;
    message: string;
    urn?: string;
    enforcementLevel: EnforcementLevel;
}

export function urnOf(type: string, name: string): string {
    return `urn:pulumi:test::perfguard-test::${type}::${name}`;
}

function collector(policyName: string, level: EnforcementLevel, out: Violation[]): (message: unknown, urn?: string) => void {
    return (message, urn) => {
        if (typeof message === "object" && message !== null) {
            const m = message as { message: string; urn?: string; enforcementLevel?: EnforcementLevel };
            out.push({ policyName, message: m.message, urn: m.urn, enforcementLevel: m.enforcementLevel ?? level });
        } else {
            out.push({ policyName, message: String(message), urn, enforcementLevel: level });
        }
    };
}

/** Runs a stack policy on `resources` with `config` (as Configure would deliver it). */
export async function runStackPolicy(policy: StackValidationPolicy, resources: TestResource[], config: Record<string, unknown> = {}): Promise<Violation[]> {
    resetReportedOnce();
    const built = resources.map((r) => ({
        type: r.type,
        name: r.name,
        urn: r.urn ?? urnOf(r.type, r.name),
        props: unknownCheckingProxy(structuredClone(r.props)),
        opts: {
            protect: false,
            ignoreChanges: [],
            aliases: [],
            customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
            additionalSecretOutputs: [],
        },
        dependencies: [] as PolicyResource[],
        propertyDependencies: {},
        ...(r.provider
            ? {
                  provider: {
                      urn: r.provider.urn,
                      type: r.provider.urn.split("::")[2] ?? "",
                      name: r.provider.urn.split("::").pop() ?? "",
                      props: unknownCheckingProxy(structuredClone(r.provider.props)),
                  },
              }
            : {}),
        isType: () => false,
        asType: () => undefined,
    })) as unknown as PolicyResource[];
    const byName = new Map(built.map((r) => [r.name, r]));
    resources.forEach((r, i) => {
        for (const [prop, names] of Object.entries(r.propertyDependencies ?? {})) {
            built[i].propertyDependencies[prop] = names.map((n) => byName.get(n)).filter((x): x is PolicyResource => x !== undefined);
        }
    });
    const out: Violation[] = [];
    await policy.validateStack(
        {
            resources: built,
            getConfig: <T>() => config as T,
            stackTags: new Map(),
            notApplicable: () => {
                throw new Error("notApplicable");
            },
        },
        collector(policy.name, policy.enforcementLevel ?? "advisory", out),
    );
    expectShape(out);
    return out;
}

/**
 * Every violation a policy produces in a test has the Message shape (problem line of at most 160
 * characters, a Fix: line), except for the policies still being converted (messageShape.ts).
 */
function expectShape(violations: readonly Violation[]): void {
    const wrong = shapeProblems(
        violations.map((v) => ({ policyName: v.policyName, message: v.message, resource: v.urn ? (v.urn.split("::").pop() ?? "") : "(stack)" })),
    );
    expect(wrong, "violations without the Message shape").toEqual([]);
}

/** What args.notApplicable throws here (the SDK throws its own NotApplicableError). */
class NotApplicableSignal extends Error {
    constructor(readonly reason: string) {
        super(`not applicable: ${reason}`);
    }
}

/** Not-applicable reasons of the last runResourcePolicy/runPolicies call, as the SDK would send them. */
export const notApplicableLog: Array<{ policyName: string; urn: string; reason: string }> = [];

/** Runs a resource policy's validateResource on each resource in turn (then its validateStack, if any). */
export async function runResourcePolicy(
    policy: ResourceValidationPolicy,
    resources: TestResource[],
    config: Record<string, unknown> = {},
): Promise<Violation[]> {
    resetReportedOnce();
    const out: Violation[] = [];
    const validations = Array.isArray(policy.validateResource) ? policy.validateResource : [policy.validateResource];
    for (const r of resources) {
        const args = {
            type: r.type,
            name: r.name,
            urn: r.urn ?? urnOf(r.type, r.name),
            props: unknownCheckingProxy(structuredClone(r.props)),
            opts: {},
            stackTags: new Map(),
            getConfig: <T>() => config as T,
            isType: () => false,
            asType: () => undefined,
            notApplicable: (reason?: string) => {
                throw new NotApplicableSignal(reason ?? "");
            },
        };
        for (const validate of validations) {
            if (validate) {
                try {
                    await validate(args as never, collector(policy.name, policy.enforcementLevel ?? "advisory", out));
                } catch (e) {
                    // As the SDK: args.notApplicable ends this validation and records the reason.
                    if (!(e instanceof NotApplicableSignal)) {
                        throw e;
                    }
                    notApplicableLog.push({ policyName: policy.name, urn: args.urn, reason: e.reason });
                }
            }
        }
    }
    expectShape(out);
    // As the SDK: AnalyzeStack also runs a resource policy's validateStack when it has one.
    const stackPart = (policy as Partial<StackValidationPolicy>).validateStack;
    if (stackPart) {
        out.push(...(await runStackPolicy({ ...policy, validateStack: stackPart }, resources, config)));
    }
    return out;
}

/** Runs several policies (resource or stack) on one stack; `config` maps policy name -> its config. */
export async function runPolicies(
    list: readonly Policy[],
    resources: TestResource[],
    config: Record<string, Record<string, unknown>> = {},
): Promise<Violation[]> {
    notApplicableLog.length = 0;
    const out: Violation[] = [];
    for (const p of list) {
        const c = config[p.name] ?? {};
        if ("validateResource" in p && p.validateResource) {
            out.push(...(await runResourcePolicy(p as ResourceValidationPolicy, resources, c)));
        } else {
            out.push(...(await runStackPolicy(p as StackValidationPolicy, resources, c)));
        }
    }
    return out;
}

/** "policy -> resource name" pairs (stack-level: "(stack)"), sorted, for exact-set assertions. */
export function verdicts(violations: Violation[]): string[] {
    return violations.map((v) => `${v.policyName} -> ${v.urn ? v.urn.split("::").pop() : "(stack)"}`).sort();
}

/** The resource name a violation is about ("(stack)" for a stack-wide one). */
export function resourceOf(v: Violation): string {
    return v.urn ? (v.urn.split("::").pop() ?? "") : "(stack)";
}

/** What a test expects in one part of a message: texts it contains, numbers it names. */
export type Expected = ReadonlyArray<string | number | RegExp>;

/** Matches `n` as a whole number in text: 4096 is not found in "40960" nor 4 in "4.5". */
function numberPattern(n: number): RegExp {
    const text = String(n).replace(".", "\\.");
    return new RegExp(`(?<![\\d.])${text}(?![\\d]|\\.\\d)`);
}

function expectPart(part: string, expected: Expected, what: string): void {
    for (const e of expected) {
        if (typeof e === "number") {
            expect(part, `${what} names ${e}`).toMatch(numberPattern(e));
        } else if (typeof e === "string") {
            expect(part, what).toContain(e);
        } else {
            expect(part, what).toMatch(e);
        }
    }
}

/**
 * Asserts that a violation has the Message shape (description, a problem line of at most 160
 * characters, a Fix: line) and returns its parts.
 */
export function expectMessageShape(v: Violation): { problem: string; fix: string; basis: string[] } {
    const parsed = parseMessage(v.message);
    const where = `${v.policyName} -> ${resourceOf(v)}`;
    expect(parsed.problem.length, `${where}: problem line "${parsed.problem}"`).toBeLessThanOrEqual(PROBLEM_LINE_MAX);
    expect(parsed.problem.length, `${where}: empty problem line`).toBeGreaterThan(0);
    expect(parsed.fix, `${where}: no "Fix:" line in ${JSON.stringify(v.message)}`).toBeDefined();
    return { problem: parsed.problem, fix: parsed.fix ?? "", basis: parsed.basis };
}

/** One expected violation: its policy and resource, and what its problem and fix must say. */
export interface ExpectedViolation {
    readonly policy: string;
    /** Resource name, or "(stack)". */
    readonly resource: string;
    /** Texts and numbers the problem line must contain. */
    readonly problem?: Expected;
    /** Texts and numbers the fix must contain. */
    readonly fix?: Expected;
    /** The level it is reported at, when the test cares. */
    readonly level?: EnforcementLevel;
}

/**
 * Finds the one violation of `expected.policy` on `expected.resource` and asserts its problem line
 * and its fix separately (basis lines are not asserted, so rewording them breaks no test).
 * @returns the violation and its parts, for further assertions.
 */
export function expectViolation(violations: readonly Violation[], expected: ExpectedViolation): Violation & { problem: string; fix: string; basis: string[] } {
    const matching = violations.filter((v) => v.policyName === expected.policy && resourceOf(v) === expected.resource);
    expect(
        matching.map((v) => v.message),
        `exactly one ${expected.policy} violation on ${expected.resource}; all: ${verdicts([...violations]).join(", ")}`,
    ).toHaveLength(1);
    const v = matching[0];
    const parts = expectMessageShape(v);
    expectPart(parts.problem, expected.problem ?? [], `${expected.policy} -> ${expected.resource}: problem line`);
    expectPart(parts.fix, expected.fix ?? [], `${expected.policy} -> ${expected.resource}: fix`);
    if (expected.level) {
        expect(v.enforcementLevel, `${expected.policy} -> ${expected.resource}: level`).toBe(expected.level);
    }
    return { ...v, ...parts };
}
