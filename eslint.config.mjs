// ESLint (flat config): typescript-eslint's strict, type-checked rules on every source file of the
// repository (`npm run lint`; prettier checks the formatting after it). A rule turned off or given
// options below says why in one line; everything else is the preset as published.
import eslint from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
    {
        // Build output, installed packages, the real CLI's cache, and a fixture whose type error is the point.
        ignores: ["dist/", "node_modules/", ".cache/", ".perfguard/", "test/fixtures/programs/type-error/"],
    },
    eslint.configs.recommended,
    tseslint.configs.strictTypeChecked,
    {
        languageOptions: {
            parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
        },
        linterOptions: {
            // An eslint-disable comment must still suppress something.
            reportUnusedDisableDirectives: "error",
        },
        rules: {},
    },
    {
        // Plain JavaScript and the vitest configs are in no tsconfig: the rules without types only.
        files: ["**/*.js", "**/*.mjs", "**/*.cjs", "**/*.mts"],
        extends: [tseslint.configs.disableTypeChecked],
        languageOptions: {
            globals: { require: "readonly", module: "writable", process: "readonly", console: "readonly", __dirname: "readonly", Buffer: "readonly" },
        },
    },
);
