// ESLint (flat config): typescript-eslint's strict, type-checked rules on every source file of the
// repository (`npm run lint`; prettier checks the formatting after it). A rule turned off or given
// options below says why in one line; everything else is the preset as published.
import eslint from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

/** The rules about values typed `any`, off together where a file reads untyped values on purpose (below). */
const UNSAFE_ANY_OFF = {
    "@typescript-eslint/no-unsafe-argument": "off",
    "@typescript-eslint/no-unsafe-assignment": "off",
    "@typescript-eslint/no-unsafe-call": "off",
    "@typescript-eslint/no-unsafe-member-access": "off",
    "@typescript-eslint/no-unsafe-return": "off",
};

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
        rules: {
            // Messages print counts and figures in templates (800 hits): numbers, booleans and a
            // value that may be absent are printed as JavaScript prints them; objects stay errors.
            "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowBoolean: true, allowNullish: true }],
            // `x!` follows a check the compiler cannot carry (Map.get after has, an index in bounds): 129 hits.
            "@typescript-eslint/no-non-null-assertion": "off",
            // Fail closed: policies re-check at run time what the types promise but stack input need not keep.
            "@typescript-eslint/no-unnecessary-condition": "off",
            // `(t) => stream.write(t)` callbacks are the house style; a void used as a value elsewhere still errs.
            "@typescript-eslint/no-confusing-void-expression": ["error", { ignoreArrowShorthand: true }],
            // Methods are taken to call with an explicit receiver (gRPC stubs, prototype patches, ts.sys).
            "@typescript-eslint/unbound-method": "off",
            // Provider and handler interfaces are async by contract; a body with no await still returns a promise.
            "@typescript-eslint/require-await": "off",
            // Env and JSON records are dictionaries: deleting a computed key is the operation meant.
            "@typescript-eslint/no-dynamic-delete": "off",
            // A type parameter used once still names the caller's type (a policy's config C, a test's fixture T).
            "@typescript-eslint/no-unnecessary-type-parameters": "off",
            // String() of a value typed string, or of an unknown wire value, is deliberate: fail closed on odd input.
            "@typescript-eslint/no-unnecessary-type-conversion": "off",
            "@typescript-eslint/no-base-to-string": "off",
            // As tsc's noUnusedParameters: a parameter named _x is kept for its signature.
            "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
            // `import x = require("m")` is a typed import; a bare require() still needs its reason.
            "@typescript-eslint/no-require-imports": ["error", { allowAsImport: true }],
        },
    },
    {
        // Tests read parsed documents and SDK internals as `any` to assert on them; the assertions check the shapes.
        files: ["test/**/*.ts"],
        rules: {
            ...UNSAFE_ANY_OFF,
            "@typescript-eslint/no-explicit-any": "off",
            "@typescript-eslint/restrict-plus-operands": "off",
        },
    },
    {
        // These read untyped values on purpose and check them: echarts' callback parameters, input
        // validated field by field, the SDK's generated gRPC JavaScript, a program's own modules.
        files: [
            "cli/plots/*.ts",
            "model/xenShares.ts",
            "preview/providers/plugin.ts",
            "preview/mockedProgram.ts",
            "policies/pack/config.ts",
            "policies/pack/resources.ts",
            "scripts/calibrate-brokering.ts",
            "scripts/bench/stack.ts",
        ],
        rules: {
            ...UNSAFE_ANY_OFF,
        },
    },
    {
        // echarts 6's types mark series-level itemStyle and label deprecated; the plots' golden SVGs are drawn with them.
        files: ["cli/plots/*.ts"],
        rules: { "@typescript-eslint/no-deprecated": "off" },
    },
    {
        // Plain JavaScript and the vitest configs are in no tsconfig: the rules without types only.
        files: ["**/*.js", "**/*.mjs", "**/*.cjs", "**/*.mts"],
        extends: [tseslint.configs.disableTypeChecked],
        // CommonJS files: require() is their import.
        rules: { "@typescript-eslint/no-require-imports": "off" },
        languageOptions: {
            globals: { require: "readonly", module: "writable", process: "readonly", console: "readonly", __dirname: "readonly", Buffer: "readonly" },
        },
    },
);
