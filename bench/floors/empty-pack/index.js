// Benchmark floor: what the SDK alone costs. @pulumi/policy resolves from the repository's
// node_modules, so this pack runs on exactly the SDK perfguard runs on.
"use strict";
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("perfguard-bench-empty", { policies: [] });
