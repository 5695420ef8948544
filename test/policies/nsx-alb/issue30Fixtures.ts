/** Helpers of the issue 30 tests (nsx-alb-se-capacity and nsx-alb-se-capacity-advisory): groups, VSs, certificates, runs. */
import { expect } from "vitest";
import table from "../../../model/data/nsx-alb-se-20.1.6.json";
import { nsxAlbSeCapacity } from "../../../policies/nsx-alb/nsx-alb-se-capacity";
import { nsxAlbSeCapacityAdvisory } from "../../../policies/nsx-alb/nsx-alb-se-capacity-advisory";
import { parseMessage, PROBLEM_LINE_MAX } from "../../../policies/pack/message";
import { runStackPolicy, TestResource, UNKNOWN_VALUE, Violation } from "../../support/policyHarness";
import { SE_GROUP, VS } from "./nsxFixtures";

export const CAP = "nsx-alb-se-capacity";
export const ADV = "nsx-alb-se-capacity-advisory";
export const CERT = "avi:index/sslkeyandcertificate:Sslkeyandcertificate";

/** A published figure, read from the JSON here. */
export function cell(vcpus: number, column: string): number {
    const row = table.rows.find((r) => r[0] === vcpus) as Array<number | boolean>;
    return row[table.columns.indexOf(column)] as number;
}

/** An SE group with the given fields (the rest take the provider defaults). */
export function group(name: string, fields: Record<string, string>): TestResource {
    return { type: SE_GROUP, name: `${name}-seg`, props: { name, cloudRef: "/api/cloud/?name=Default-Cloud", ...fields } };
}

/** A VS joined to `groupResource` through the seGroupRef property dependency, with perfguard: facts. */
export function vs(
    name: string,
    groupResource: string,
    facts: Record<string, string>,
    props: Record<string, unknown> = {},
    deps: Record<string, string[]> = {},
): TestResource {
    return {
        type: VS,
        name,
        props: { name, seGroupRef: UNKNOWN_VALUE, markers: Object.entries(facts).map(([k, v]) => ({ key: `perfguard:${k}`, values: [v] })), ...props },
        propertyDependencies: { seGroupRef: [groupResource], ...deps },
    };
}

export async function run(resources: TestResource[], config: Record<string, unknown> = {}): Promise<Violation[]> {
    return [...(await runStackPolicy(nsxAlbSeCapacity, resources, config)), ...(await runStackPolicy(nsxAlbSeCapacityAdvisory, resources, config))];
}

/** "policy -> resource [level]", sorted. */
export function levelled(violations: Violation[]): string[] {
    return violations.map((v) => `${v.policyName} -> ${(v.urn ?? "").split("::").pop()} [${v.enforcementLevel}]`).sort();
}

export function on(violations: Violation[], resource: string, policy = CAP): ReturnType<typeof parseMessage> {
    const found = violations.find((v) => v.policyName === policy && (v.urn ?? "").endsWith(`::${resource}`));
    expect(found, `${policy} on ${resource}`).toBeDefined();
    const m = parseMessage((found as Violation).message);
    expect(m.problem.length).toBeLessThanOrEqual(PROBLEM_LINE_MAX);
    return m;
}

/** An Sslkeyandcertificate "<name>-cert" with the given keyParams (as the bridge gives them: a list of one). */
export function cert(name: string, keyParams: unknown, props: Record<string, unknown> = {}): TestResource {
    return { type: CERT, name: `${name}-cert`, props: { name, type: "SSL_CERTIFICATE_TYPE_VIRTUALSERVICE", keyParams, ...props } };
}
