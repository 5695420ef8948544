#!/usr/bin/env node
// Cuts a Pulumi package schema down to the resources perfguard reads and every type they refer to,
// so that the real CLI's code generator (`pulumi package gen-sdk`) can build the SDK a real program
// types against without committing the whole 2 MB schema.
//
//   node scripts/real-sdk/subset-schema.mjs <schema.json> <source note> <token>... > out.json
//
// Documentation and examples are dropped (they do not affect the types); names, types, required
// lists, secrets and defaults are kept exactly.
import * as fs from "fs";

const [file, source, ...tokens] = process.argv.slice(2);
if (!file || !source || tokens.length === 0) {
    console.error("usage: subset-schema.mjs <schema.json> <source note> <resource token>...");
    process.exit(2);
}
const schema = JSON.parse(fs.readFileSync(file, "utf8"));
const types = {};
const pending = [];

/** Collects every `#/types/<token>` reference below `value`. */
function refs(value) {
    if (Array.isArray(value)) {
        value.forEach(refs);
    } else if (value && typeof value === "object") {
        for (const [key, v] of Object.entries(value)) {
            if (key === "$ref" && typeof v === "string" && v.startsWith("#/types/")) {
                pending.push(decodeURIComponent(v.slice("#/types/".length)));
            } else {
                refs(v);
            }
        }
    }
}

/** `value` without documentation (description, deprecation texts stay: they change no type). */
function strip(value) {
    if (Array.isArray(value)) {
        return value.map(strip);
    }
    if (value && typeof value === "object") {
        const out = {};
        for (const [key, v] of Object.entries(value)) {
            // Documentation is a string; a property that is called "description" is an object.
            if (key !== "description" || typeof v !== "string") {
                out[key] = strip(v);
            }
        }
        return out;
    }
    return value;
}

const resources = {};
for (const token of tokens) {
    const res = schema.resources[token];
    if (!res) {
        console.error(`no resource ${token} in ${file}`);
        process.exit(1);
    }
    resources[token] = strip(res);
    refs(res);
}
refs(schema.provider);
refs(schema.config);
while (pending.length > 0) {
    const token = pending.pop();
    if (types[token] || !schema.types[token]) {
        continue;
    }
    types[token] = strip(schema.types[token]);
    refs(schema.types[token]);
}
const out = {
    name: schema.name,
    version: schema.version,
    license: schema.license,
    repository: schema.repository,
    meta: schema.meta,
    // A dynamically bridged package is a parameterization of the terraform-provider plugin.
    parameterization: schema.parameterization,
    "x-perfguard-source": source,
    language: { nodejs: { ...schema.language?.nodejs, readme: undefined } },
    config: strip(schema.config),
    // The provider's methods (terraformConfig) name functions this subset leaves out.
    provider: strip({ ...schema.provider, methods: undefined }),
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b))),
    resources,
};
process.stdout.write(JSON.stringify(out, null, 2) + "\n");
