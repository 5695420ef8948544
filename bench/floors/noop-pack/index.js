// Benchmark floor: the SDK's cost for perfguard's number of policies. The SDK deserializes a
// resource's props once per resource policy (Analyze) and every resource once per stack policy
// (AnalyzeStack), so the policy count alone costs time; these policies do nothing else.
// scripts/bench.ts passes the counts it reads from perfguard's compiled registry, so this floor
// always has perfguard's shape.
"use strict";
const { PolicyPack } = require("@pulumi/policy");

// As the empty pack: PolicyPack reads package.json from the working directory, which the real
// CLI's Node.js language host sets to the program's directory.
process.chdir(__dirname);

function count(name) {
    const value = Number(process.env[name]);
    if (!Number.isInteger(value) || value < 0) {
        throw new Error(`${name} must be a whole number (set by scripts/bench.ts), got ${JSON.stringify(process.env[name])}`);
    }
    return value;
}

const policies = [];
for (let i = 1; i <= count("PERFGUARD_BENCH_RESOURCE_POLICIES"); i++) {
    policies.push({
        name: `noop-resource-${i}`,
        description: "Does nothing (benchmark floor).",
        enforcementLevel: "advisory",
        validateResource: () => undefined,
    });
}
for (let i = 1; i <= count("PERFGUARD_BENCH_STACK_POLICIES"); i++) {
    policies.push({
        name: `noop-stack-${i}`,
        description: "Does nothing (benchmark floor).",
        enforcementLevel: "advisory",
        validateStack: () => undefined,
    });
}

new PolicyPack("perfguard-bench-noop", { policies });
