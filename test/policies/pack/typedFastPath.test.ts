// A resource policy that judges one type hands the SDK its `__pulumiType` after its first call, so
// @pulumi/policy's Analyze skips it for other types (policies/pack/definePolicy.ts). Run through
// the SDK's own Analyze function with wire-encoded requests, one call per row.
import * as path from "path";
import { afterEach, describe, expect, it } from "vitest";
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import type { Policies } from "@pulumi/policy";
import type { Struct as StructType } from "google-protobuf/google/protobuf/struct_pb";
import { observeExplain } from "../../../policies/pack/decisionLog";
import { resetReportedOnce, resourcePolicy } from "../../../policies/pack/definePolicy";

type RpcFun = (call: { request: unknown }, callback: (err: unknown, response?: analyzerproto.AnalyzeResponse) => void) => Promise<void>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const server = require("@pulumi/policy/server") as { makeAnalyzeRpcFun(n: string, v: string, l: string, p: Policies): RpcFun };
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] })) as { Struct: typeof StructType };

const ZONE = "citrix:index/zone:Zone";
const STACK = "pulumi:pulumi:Stack";
const BUCKET = "aws:s3/bucket:Bucket";

let checked: string[] = [];
const policy = resourcePolicy<Record<string, never>>({
    name: "test-typed-fast-path",
    description: "Judges zones only.",
    enforcementLevel: "advisory",
    reportsUnverified: false,
    types: [ZONE],
    check(resource) {
        checked.push(resource.name);
    },
});
const analyze = server.makeAnalyzeRpcFun("perfguard", "0.0.0-test", "advisory", [policy]);

/** One Analyze call; the SDK's not-applicable reasons for it. */
async function call(type: string, name: string): Promise<string[]> {
    const req = new analyzerproto.AnalyzeRequest();
    req.setUrn(`urn:pulumi:dev::p::${type}::${name}`);
    req.setType(type);
    req.setName(name);
    req.setProperties(Struct.fromJavaScript({ name }));
    const o = new analyzerproto.AnalyzerResourceOptions();
    o.setCustomtimeouts(new analyzerproto.AnalyzerResourceOptions.CustomTimeouts());
    req.setOptions(o);
    const wire = analyzerproto.AnalyzeRequest.deserializeBinary(req.serializeBinary());
    return new Promise((resolve, reject) => {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the SDK's callback error, unchanged
        void analyze({ request: wire }, (err, response) => (err ? reject(err) : resolve((response?.getNotApplicableList() ?? []).map((n) => n.getReason()))));
    });
}

afterEach(() => observeExplain(undefined));

describe("the SDK's type fast path for a one-type resource policy", () => {
    const skipped = `Policy only applies to resources of type '${ZONE}'`;
    /** What the SDK reads before each Analyze (@pulumi/policy policy.js getPulumiType). */
    const sdkType = (): unknown => (policy.validateResource as { __pulumiType?: unknown }).__pulumiType;
    it.each<[string, boolean, Array<[string, string, string[]]>, string[]]>([
        // [case, --explain on, calls (type, name, the SDK's not-applicable reasons), resources checked]
        [
            "the root stack first: the policy sees it, then the SDK skips other types",
            false,
            [
                [STACK, "dev", [skipped]],
                [BUCKET, "logs", [skipped]],
                [ZONE, "emea", []],
                [BUCKET, "assets", [skipped]],
            ],
            ["emea"],
        ],
        [
            "the first resource is never skipped, whatever its type",
            false,
            [
                [BUCKET, "logs", [skipped]],
                [BUCKET, "assets", [skipped]],
            ],
            [],
        ],
        [
            "under --explain the policy sees every resource",
            true,
            [
                [STACK, "dev", [skipped]],
                [BUCKET, "logs", [skipped]],
                [ZONE, "emea", []],
            ],
            ["emea"],
        ],
    ])("%s", async (_case, explain, calls, expected) => {
        resetReportedOnce();
        observeExplain(explain ? () => undefined : undefined);
        checked = [];
        expect(sdkType(), "before the first call").toBeUndefined();
        for (const [type, name, reasons] of calls) {
            expect(await call(type, name), `${type} ${name}`).toEqual(reasons);
            // The policy's own path and the SDK's fast path give the same reason; which one ran
            // is what the SDK read: the type once the policy was called, never under --explain.
            expect(sdkType(), `after ${type} ${name}`).toBe(explain ? undefined : ZONE);
        }
        expect(checked).toEqual(expected);
    });
});
