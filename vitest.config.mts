import { defineConfig } from "vitest/config";

export default defineConfig({
    test: {
        include: ["test/**/*.test.ts"],
        // The real-CLI tests need Go and `npm run real-cli:setup`: they run in `npm run test:real`.
        exclude: ["test/real/**", "**/node_modules/**"],
        // Bounds for a loaded 2-core machine (another build beside this one), not speed claims:
        // a test that spawns the pack and a program takes seconds idle and can take a minute under
        // load. No test asserts a duration.
        testTimeout: 300_000,
        hookTimeout: 600_000,
        // e2e tests spawn the pack and programs; two cores: keep file parallelism modest.
        maxWorkers: 2,
        // The emulated previews transpile programs without type-checking them, as the CLI's Node.js
        // host does with this variable: every preview of the suite would otherwise pay a full type
        // check of @pulumi/pulumi. The type check itself (the host's default, and the emulation's)
        // is tested in test/preview/programFailures.test.ts, and test:real runs every program
        // type-checked under the real CLI.
        env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
        // Every process a test starts carries a marker and is ended when the test fails or times
        // out, when it is orphaned, when its file ends, and at the end of the run.
        globalSetup: ["test/support/processRun.ts"],
        setupFiles: ["test/support/processCleanup.ts"],
    },
});
