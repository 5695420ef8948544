import { defineConfig } from "vitest/config";

// `npm run test:real`: the real Pulumi CLI (built by `npm run real-cli:setup`) as the arbiter.
// Every case starts the CLI, a language host, the pack and provider plugins: one file at a time.
export default defineConfig({
    test: {
        include: ["test/real/**/*.test.ts"],
        testTimeout: 600_000,
        hookTimeout: 900_000,
        maxWorkers: 1,
        fileParallelism: false,
        // As in vitest.config.mts: every CLI, plugin and pack process ends with its test.
        globalSetup: ["test/support/processRun.ts"],
        setupFiles: ["test/support/processCleanup.ts"],
    },
});
