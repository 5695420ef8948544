/** A compliant NSX ALB stack for table-driven policy tests: each failing case changes one thing. */
import { StackView, viewOf } from "../../../policies/pack/resources";
import type { TestResource } from "../../support/policyHarness";
import { UNKNOWN_VALUE, urnOf } from "../../support/policyHarness";

export const SE_GROUP = "avi:index/serviceenginegroup:Serviceenginegroup";
export const VS = "avi:index/virtualservice:Virtualservice";

/** A value that must never reach a message (secrets arrive as plain text). */
export const SECRET = "SECRET-MARKER-42";

export interface NsxStackOptions {
    /** Overrides of SE group "web-seg"'s fields (undefined removes the field). */
    group?: Record<string, unknown>;
    /** Overrides of shop-vs's facts (undefined removes the fact). */
    shop?: Record<string, string | undefined>;
    /** Overrides of api-vs's facts. */
    api?: Record<string, string | undefined>;
    /** shop-vs's seGroupRef property dependency (default: on web-seg). */
    shopJoined?: boolean;
    /** api-vs's literal reference (default /api/serviceenginegroup?name=web). */
    apiRef?: string;
    shopEnableSsl?: string;
    extra?: TestResource[];
}

function markers(facts: Record<string, string | undefined>): Array<{ key: string; values: string[] }> {
    const list = [{ key: "team", values: ["web"] }];
    for (const [key, value] of Object.entries(facts)) {
        if (value !== undefined) {
            list.push({ key: `perfguard:${key}`, values: [value] });
        }
    }
    return list;
}

function merged(base: Record<string, unknown>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const out = { ...base, ...overrides };
    for (const [k, v] of Object.entries(overrides)) {
        if (v === undefined) {
            delete out[k];
        }
    }
    return out;
}

/** The SE group "web" at 4 vCPUs / 4096 MB / 30 GB, dispatcher on, maxSe 4, bufferSe 1, N+M, distributed placement. */
export function seGroupProps(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return merged(
        {
            name: "web",
            tenantRef: "/api/tenant?name=admin",
            cloudRef: "/api/cloud?name=Default-Cloud",
            vcpusPerSe: "4",
            memoryPerSe: "4096",
            diskPerSe: "30",
            maxSe: "4",
            minScaleoutPerVs: "1",
            maxScaleoutPerVs: "2",
            bufferSe: "1",
            haMode: "HA_MODE_SHARED",
            algo: "PLACEMENT_ALGO_DISTRIBUTED",
            dedicatedDispatcherCore: "true",
            description: SECRET,
        },
        overrides,
    );
}

/**
 * web-seg (above); shop-vs (SSL, joined through the seGroupRef property dependency, its ref
 * unknown as in a preview): 1000 RSA TPS, 30000 RPS, 1 Gbps, 50000 connections; api-vs (L4,
 * literal ref): 30000 CPS, 3 Gbps, 40000 connections; intranet-vs (no seGroupRef: Default-Group,
 * not in the stack): 50000 RPS.
 */
export function nsxStack(o: NsxStackOptions = {}): TestResource[] {
    return [
        { type: SE_GROUP, name: "web-seg", props: seGroupProps(o.group) },
        {
            type: VS,
            name: "shop-vs",
            props: {
                name: "shop",
                seGroupRef: UNKNOWN_VALUE,
                services: [{ port: "443", enableSsl: o.shopEnableSsl ?? "true" }],
                sslKeyAndCertificateRefs: [],
                description: SECRET,
                markers: markers(merged({ sslTps: "1000", l7Rps: "30000", throughputGbps: "1", l4OpenConnections: "50000" }, o.shop) as Record<string, string>),
            },
            propertyDependencies: o.shopJoined === false ? {} : { seGroupRef: ["web-seg"] },
        },
        {
            type: VS,
            name: "api-vs",
            props: {
                name: "api",
                seGroupRef: o.apiRef ?? "/api/serviceenginegroup?name=web",
                services: [{ port: "8080", enableSsl: "false" }],
                markers: markers(merged({ l4Cps: "30000", throughputGbps: "3", l4OpenConnections: "40000" }, o.api) as Record<string, string>),
            },
        },
        {
            type: VS,
            name: "intranet-vs",
            props: { name: "intranet", services: [{ port: "80" }], markers: markers({ l7Rps: "50000" }) },
        },
        ...(o.extra ?? []),
    ];
}

/**
 * SE group g-seg ("g") with the given fields and one VS per entry of `vss` (vs-1, vs-2, ...: SSL on,
 * the facts as perfguard markers), each joined to g-seg through the seGroupRef property dependency.
 */
export function groupStack(group: Record<string, unknown>, vss: Array<Record<string, string>>, vsProps: Record<string, unknown> = {}): TestResource[] {
    return [
        { type: SE_GROUP, name: "g-seg", props: { name: "g", cloudRef: "/api/cloud/?name=Default-Cloud", ...group } },
        ...vss.map((facts, i): TestResource => ({
            type: VS,
            name: `vs-${i + 1}`,
            props: {
                name: `vs${i + 1}`,
                seGroupRef: UNKNOWN_VALUE,
                services: [{ port: "443", enableSsl: "true" }],
                markers: Object.entries(facts).map(([key, v]) => ({ key: `perfguard:${key}`, values: [v] })),
                ...vsProps,
            },
            propertyDependencies: { seGroupRef: ["g-seg"] },
        })),
    ];
}

/** The StackView of test resources (property dependencies resolved by resource name), for the evaluation and the report. */
export function stackViewOf(resources: readonly TestResource[]): StackView {
    const urn = (name: string) => {
        const r = resources.find((x) => x.name === name) as TestResource;
        return urnOf(r.type, r.name);
    };
    return new StackView(
        resources.map((r) =>
            viewOf({
                urn: urnOf(r.type, r.name),
                type: r.type,
                name: r.name,
                props: r.props,
                propertyDependencies: Object.fromEntries(
                    Object.entries(r.propertyDependencies ?? {}).map(([p, names]) => [p, names.map((n) => ({ urn: urn(n) }))]),
                ),
            }),
        ),
    );
}
