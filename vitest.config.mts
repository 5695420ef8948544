import { defineConfig } from "vitest/config";

export default defineConfig({
    test: {
        include: ["test/**/*.test.ts"],
        // The real-CLI tests need Go and `npm run real-cli:setup`: they run in `npm run test:real`.
        exclude: ["test/real/**", "**/node_modules/**"],
        testTimeout: 60000,
        hookTimeout: 60000,
        // e2e tests spawn the pack and programs; two cores: keep file parallelism modest.
        maxWorkers: 2,
    },
});
