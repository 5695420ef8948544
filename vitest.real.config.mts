import { defineConfig } from "vitest/config";

// `npm run test:real`: the real Pulumi CLI (built by `npm run real-cli:setup`) as the arbiter.
// Every case starts the CLI, a language host, the pack and provider plugins: one file at a time.
export default defineConfig({
    test: {
        include: ["test/real/**/*.test.ts"],
        testTimeout: 300000,
        hookTimeout: 300000,
        maxWorkers: 1,
        fileParallelism: false,
    },
});
