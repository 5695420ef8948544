// Benchmark floor: what the SDK alone costs. @pulumi/policy resolves from the repository's
// node_modules, so this pack runs on exactly the SDK perfguard runs on.
"use strict";
const { PolicyPack } = require("@pulumi/policy");

// As perfguard's index.ts: PolicyPack reads package.json from the working directory, which older
// Node.js language hosts (the one built for the real-CLI check) set to the program's directory.
process.chdir(__dirname);
new PolicyPack("perfguard-bench-empty", { policies: [] });
