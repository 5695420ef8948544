/**
 * The engine sends AnalyzeStack's resources in an arbitrary order (it ranges over a Go sync.Map):
 * every bundled example, as its program registers it, gives the same violations, message text
 * included, in forward, reversed and rotated order.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { policies } from "../../policies";
import { runProgram } from "../../preview/forkProgram";
import type { RecordedResource } from "../../preview/types";
import { runPolicies, TestResource } from "../support/policyHarness";

const EXAMPLES = path.resolve(__dirname, "..", "..", "examples");
const examples = fs
    .readdirSync(EXAMPLES)
    .filter((d) => fs.existsSync(path.join(EXAMPLES, d, "expected-violations.json")))
    .sort();

function asTestResources(recorded: RecordedResource[]): TestResource[] {
    const nameOf = new Map(recorded.map((r) => [r.urn, r.name]));
    return recorded.map((r) => ({
        type: r.type,
        name: r.name,
        urn: r.urn,
        props: r.outputs,
        propertyDependencies: Object.fromEntries(Object.entries(r.propertyDependencies).map(([k, urns]) => [k, urns.map((u) => nameOf.get(u) ?? u)])),
    }));
}

describe.each(examples)("%s: verdicts and messages do not depend on resource order", (name) => {
    it("forward, reversed and rotated give the same violations", async () => {
        const dir = path.join(EXAMPLES, name);
        const configFile = path.join(dir, "policy-config.json");
        const config = fs.existsSync(configFile) ? (JSON.parse(fs.readFileSync(configFile, "utf8")) as Record<string, Record<string, unknown>>) : {};
        const recorded = await runProgram(dir, { project: name, stack: "dev", config: {}, onOutput: () => undefined });
        const stack = asTestResources(recorded);
        const key = (vs: Awaited<ReturnType<typeof runPolicies>>) => vs.map((v) => `${v.policyName} ${v.urn ?? ""} ${v.enforcementLevel}\n${v.message}`).sort();
        const forward = key(await runPolicies(policies, stack, config));
        expect(forward.length).toBeGreaterThan(0);
        expect(key(await runPolicies(policies, [...stack].reverse(), config))).toEqual(forward);
        const half = Math.floor(stack.length / 2);
        expect(key(await runPolicies(policies, [...stack.slice(half), ...stack.slice(0, half)], config))).toEqual(forward);
    });
});
