import { defineConfig } from "vitest/config";

/** `npm run test:reliability`: the reliability suite alone, ending with its figures table. */
export default defineConfig({
  test: {
    include: ["test/reliability/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["test/reliability/global-setup.ts"],
  },
});
