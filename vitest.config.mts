import { defineConfig } from "vitest/config";

export default defineConfig({
    test: {
        include: ["test/**/*.test.ts"],
        testTimeout: 60000,
        hookTimeout: 60000,
        // e2e tests spawn the pack and programs; two cores: keep file parallelism modest.
        maxWorkers: 2,
    },
});
