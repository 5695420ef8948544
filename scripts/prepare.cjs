#!/usr/bin/env node
/**
 * npm's `prepare` (run by `npm ci`, `npm install` and `npm pack` in a checkout, and by the Pulumi
 * CLI's `npm install` in an extracted policy pack tarball):
 *   - in a checkout (tsconfig.build.json present) it builds dist/ with `npm run build`;
 *   - in an installed tarball, which ships dist/ but neither the sources nor tsconfig.build.json,
 *     there is nothing to build and it does nothing, so the tarball installs without TypeScript.
 * Plain CommonJS with no dependency: it runs before anything is compiled.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const root = path.resolve(__dirname, "..");
if (!fs.existsSync(path.join(root, "tsconfig.build.json"))) {
    process.exit(0);
}
// npm is npm.cmd on Windows, which spawnSync runs only through a shell.
const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", shell: process.platform === "win32" });
if (build.error) {
    console.error(`prepare: could not run npm run build: ${build.error.message}`);
}
process.exit(build.status ?? 1);
