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
        // Every process a test starts carries a marker and is ended when the test fails or times
        // out, when it is orphaned, when its file ends, and at the end of the run.
        globalSetup: ["test/support/processRun.ts"],
        setupFiles: ["test/support/processCleanup.ts"],
    },
});
