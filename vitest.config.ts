import { configDefaults, defineConfig } from "vitest/config";

/**
 * The integration tests of the default tier (`npm test`): each real engine and surface once.
 * Every other `*.int.test.ts` runs in the `integration` project (`npm run test:slow`, `npm run test:all`).
 */
export const ENGINE_TESTS = [
  // hnswlib (L1) and FlexSearch + BM25 (L0): build, save, load and look up a KnowledgeBase.
  "test/integration/knowledge-base.int.test.ts",
  // The tool inside a LangChain createAgent (a LangGraph graph) with a fake chat model.
  "test/integration/agent.int.test.ts",
  // `lookup-knowledge query` in a child process, building the index on first use.
  "test/cli/cli-first-query.int.test.ts",
  // Access control, the product's core promise: the leak scenarios with the default L1 (the
  // vector-store L1s are in leak-suite-stores.int.test.ts).
  "test/access/leak-suite.int.test.ts",
  // `lookup-knowledge serve` over stdio with the MCP SDK's client.
  "test/cli/serve-stdio.int.test.ts",
  // Postgres with pgvector over the wire protocol (CI's server, else PGlite started in the file).
  "test/l1/vector-store/pgvector-store.int.test.ts",
  // The promptfoo provider over the real tool, in process (the promptfoo CLI runs in `integration`
  // and in CI's eval gate).
  "test/eval/lookup-provider.int.test.ts",
];

const RELIABILITY_TESTS = ["test/reliability/**/*.test.ts"];

/**
 * Four projects, picked by the npm scripts with `--project`:
 * - `unit`: every `*.test.ts` that is not `*.int.test.ts`; no native engine, no child process of
 *   its own, so the files share their worker's module cache (`isolate: false`);
 * - `engines`: {@link ENGINE_TESTS};
 * - `integration`: the other integration tests;
 * - `reliability`: hostile corpora, faulty embeddings, kills and full disks, ending with the
 *   figures table (docs/reliability.md).
 *
 * `npm test` runs `unit` and `engines`, `npm run test:slow` the other two, `npm run test:all`
 * (plain `vitest run`) all four: each test file belongs to exactly one project.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // vitest's default on a 2-core machine is one worker; most integration files wait on child
    // processes, files or sockets as much as they compute.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "**/*.int.test.ts"],
          isolate: false,
        },
      },
      { extends: true, test: { name: "engines", include: ENGINE_TESTS } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.int.test.ts"],
          exclude: [...configDefaults.exclude, ...ENGINE_TESTS, ...RELIABILITY_TESTS],
        },
      },
      {
        extends: true,
        test: {
          name: "reliability",
          include: RELIABILITY_TESTS,
          testTimeout: 120_000,
          globalSetup: ["test/reliability/global-setup.ts"],
        },
      },
    ],
  },
});
