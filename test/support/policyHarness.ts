/**
 * Runs perfguard policies the way the SDK's gRPC server calls them (props behind the SDK's
 * unknown-checking proxy, property dependencies as resource objects, getConfig from the
 * Configure call), without a process or a socket. End-to-end tests use the real gRPC path.
 */
import type { EnforcementLevel, Policy, PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { unknownCheckingProxy } from "@pulumi/policy";
import { resetReportedOnce } from "../../policies/support/definePolicy";

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
        opts: { protect: false, ignoreChanges: [], aliases: [], customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 }, additionalSecretOutputs: [] },
        dependencies: [] as PolicyResource[],
        propertyDependencies: {} as Record<string, PolicyResource[]>,
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
        { resources: built, getConfig: <T>() => config as T, stackTags: new Map(), notApplicable: () => { throw new Error("notApplicable"); } } as never,
        collector(policy.name, policy.enforcementLevel ?? "advisory", out) as never,
    );
    return out;
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
export async function runResourcePolicy(policy: ResourceValidationPolicy, resources: TestResource[], config: Record<string, unknown> = {}): Promise<Violation[]> {
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
            notApplicable: (reason?: string) => { throw new NotApplicableSignal(reason ?? ""); },
        };
        for (const validate of validations) {
            if (validate) {
                try {
                    await validate(args as never, collector(policy.name, policy.enforcementLevel ?? "advisory", out) as never);
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
    // As the SDK: AnalyzeStack also runs a resource policy's validateStack when it has one.
    const stackPart = (policy as Partial<StackValidationPolicy>).validateStack;
    if (stackPart) {
        out.push(...await runStackPolicy({ ...policy, validateStack: stackPart } as StackValidationPolicy, resources, config));
    }
    return out;
}

/** Runs several policies (resource or stack) on one stack; `config` maps policy name -> its config. */
export async function runPolicies(list: readonly Policy[], resources: TestResource[], config: Record<string, Record<string, unknown>> = {}): Promise<Violation[]> {
    notApplicableLog.length = 0;
    const out: Violation[] = [];
    for (const p of list) {
        const c = config[p.name] ?? {};
        if ("validateResource" in p && p.validateResource) {
            out.push(...await runResourcePolicy(p as ResourceValidationPolicy, resources, c));
        } else {
            out.push(...await runStackPolicy(p as StackValidationPolicy, resources, c));
        }
    }
    return out;
}

/** "policy -> resource name" pairs (stack-level: "(stack)"), sorted, for exact-set assertions. */
export function verdicts(violations: Violation[]): string[] {
    return violations.map((v) => `${v.policyName} -> ${v.urn ? v.urn.split("::").pop() : "(stack)"}`).sort();
}
