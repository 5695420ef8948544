/**
 * Remediation keeps every secret marker: the engine sends Remediate the resource's inputs with
 * their secrets marked, and stores the result as the new inputs, so a marker lost here is a
 * secret stored in plain text. Secrets are injected into any subset of the fields of every
 * remediable resource (nested ones too), the request goes through the SDK server's own Remediate
 * function (@pulumi/policy 1.21 makeRemediateRpcFun, with a binary round trip as on the wire),
 * and every marker must come back at its path: with the same value, or with the remediated value
 * for a field the policy changed (still a secret).
 */
import * as path from "path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EnforcementLevel, Policies, Policy } from "@pulumi/policy";
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import type { Struct as StructType } from "google-protobuf/google/protobuf/struct_pb";
import { policies } from "../../policies";
import { asWireSecret, SIG_KEY, SE_GROUP_TYPE } from "../support/arbitraries";
import { urnOf } from "../support/policyHarness";

const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

type RpcFun = (call: { request: unknown }, callback: (err: unknown, response?: analyzerproto.RemediateResponse) => void) => Promise<void>;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDK's own server module, untyped
const server = require("@pulumi/policy/server") as { makeRemediateRpcFun(pack: string, version: string, level: EnforcementLevel, policies: Policies): RpcFun };
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the protobuf copy the SDK resolves
const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] })) as { Struct: typeof StructType };

// Every policy that remediates, at level remediate (as --policy-pack-config would set it).
const remediable = policies.filter((p) => "remediateResource" in p && typeof (p as { remediateResource?: unknown }).remediateResource === "function");
const remediate = server.makeRemediateRpcFun(
    "perfguard",
    "0.0.0-test",
    "advisory",
    remediable.map((p): Policy => ({ ...p, enforcementLevel: "remediate" })),
);

/** The remediated properties of each remediation, in order, as the engine decodes them. */
async function remediateWire(
    type: string,
    name: string,
    properties: Record<string, unknown>,
): Promise<Array<{ policy: string; props: Record<string, unknown> }>> {
    const request = new analyzerproto.AnalyzeRequest();
    request.setUrn(urnOf(type, name));
    request.setType(type);
    request.setName(name);
    request.setProperties(Struct.fromJavaScript(properties as Parameters<typeof Struct.fromJavaScript>[0]));
    const options = new analyzerproto.AnalyzerResourceOptions();
    options.setCustomtimeouts(new analyzerproto.AnalyzerResourceOptions.CustomTimeouts());
    request.setOptions(options);
    const wire = analyzerproto.AnalyzeRequest.deserializeBinary(request.serializeBinary());
    const response = await new Promise<analyzerproto.RemediateResponse>((resolve, reject) => {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the SDK's callback error, unchanged
        remediate({ request: wire }, (err, r) => (err || !r ? reject(err ?? new Error("no response")) : resolve(r))).catch(reject);
    });
    const decoded = analyzerproto.RemediateResponse.deserializeBinary(response.serializeBinary());
    return decoded.getRemediationsList().map((r) => ({ policy: r.getPolicyname(), props: r.getProperties()?.toJavaScript() ?? {} }));
}

type Path = ReadonlyArray<string | number>;

function isWireSecret(v: unknown): v is Record<string, unknown> {
    return v !== null && typeof v === "object" && !Array.isArray(v) && SIG_KEY in v;
}

/** Every path (object keys, list indexes) of `value`, the root excluded. */
function paths(value: unknown, prefix: Path = []): Path[] {
    if (Array.isArray(value)) {
        return value.flatMap((v, i) => [[...prefix, i], ...paths(v, [...prefix, i])]);
    }
    if (value !== null && typeof value === "object") {
        return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
    }
    return [];
}

function at(value: unknown, p: Path): unknown {
    return p.reduce<unknown>((v, k) => (v !== null && typeof v === "object" ? (v as Record<string | number, unknown>)[k] : undefined), value);
}

/** `value` with the values at `chosen` wrapped as wire secrets (outermost first, so nesting works). */
function withSecrets(value: unknown, chosen: ReadonlySet<string>, prefix: Path = []): unknown {
    let out: unknown = value;
    if (Array.isArray(value)) {
        out = value.map((v, i) => withSecrets(v, chosen, [...prefix, i]));
    } else if (value !== null && typeof value === "object") {
        out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSecrets(v, chosen, [...prefix, k])]));
    }
    return prefix.length > 0 && chosen.has(JSON.stringify(prefix)) ? asWireSecret(out) : out;
}

/** Every wire secret of `value`, by path (a secret's own `value` path included in its children). */
function secretPaths(value: unknown, prefix: Path = []): Path[] {
    if (isWireSecret(value)) {
        return [prefix, ...secretPaths(value.value, [...prefix, "value"])];
    }
    if (Array.isArray(value)) {
        return value.flatMap((v, i) => secretPaths(v, [...prefix, i]));
    }
    if (value !== null && typeof value === "object") {
        return Object.entries(value).flatMap(([k, v]) => secretPaths(v, [...prefix, k]));
    }
    return [];
}

/** SE group inputs that the two NSX ALB remediations change (or leave alone), with nested fields. */
const seGroupArb = fc
    .record({
        vcpusPerSe: fc.constantFrom("1", "2", "4", "6", "8"),
        memoryPerSe: fc.constantFrom("2048", "4096", "8192"),
        diskPerSe: fc.constantFrom("15", "20", "40"),
        dedicatedDispatcherCore: fc.constantFrom("true", "false"),
    })
    .map((f) => ({
        name: "web",
        tenantRef: "/api/tenant?name=admin",
        ...f,
        maxSe: "4",
        haMode: "HA_MODE_SHARED",
        description: "S3CR3T-description",
        markers: [{ key: "team", values: ["web", "S3CR3T-marker"] }],
        vcenters: [{ vcenterRef: "/api/vimgrvcenterruntime/x", nsxtClusters: { clusterIds: ["c1", "c2"] } }],
    }));

describe("remediation keeps every secret marker of the inputs", () => {
    it("has remediable policies (non-vacuity)", () => {
        expect(remediable.map((p) => p.name).sort()).toEqual(["nsx-alb-se-dedicated-dispatcher", "nsx-alb-se-minimum-resources"]);
    });

    it("secrets in any fields, at any depth, come back at their paths", async () => {
        const arb = seGroupArb.chain((props) =>
            fc.tuple(
                fc.constant(props),
                fc.subarray(
                    paths(props).map((p) => JSON.stringify(p)),
                    { minLength: 1 },
                ),
            ),
        );
        let remediated = 0;
        await fc.assert(
            fc.asyncProperty(arb, async ([props, chosen]) => {
                const sent = withSecrets(props, new Set(chosen)) as Record<string, unknown>;
                const results = await remediateWire(SE_GROUP_TYPE, "web-seg", sent);
                remediated += results.length;
                for (const { policy, props: out } of results) {
                    for (const p of secretPaths(sent)) {
                        const before = at(sent, p);
                        const after = at(out, p);
                        if (isWireSecret(before)) {
                            expect(isWireSecret(after), `${policy}: the secret at ${JSON.stringify(p)} lost its marker`).toBe(true);
                        }
                    }
                    // Nothing that was not a secret became one, and no plain copy of a secret value appears elsewhere.
                    expect(secretPaths(out).length).toBeGreaterThanOrEqual(secretPaths(sent).length);
                }
            }),
            { numRuns: RUNS },
        );
        expect(remediated).toBeGreaterThan(0);
    });

    it("every field secret at once: the changed fields stay secret with their new value", async () => {
        const props = { name: "web", vcpusPerSe: "6", memoryPerSe: "2048", diskPerSe: "15", dedicatedDispatcherCore: "false", description: "S3CR3T" };
        const sent = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, asWireSecret(v)]));
        const results = await remediateWire(SE_GROUP_TYPE, "web-seg", sent);
        expect(results.map((r) => r.policy)).toEqual(["nsx-alb-se-minimum-resources", "nsx-alb-se-dedicated-dispatcher"]);
        const last = results[1].props;
        expect(last).toEqual({
            name: asWireSecret("web"),
            vcpusPerSe: asWireSecret("6"),
            memoryPerSe: asWireSecret("6144"),
            diskPerSe: asWireSecret("40"),
            dedicatedDispatcherCore: asWireSecret("true"),
            description: asWireSecret("S3CR3T"),
        });
    });
});
