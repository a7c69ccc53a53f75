import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** Root of the repository: the examples are run from here, as their README says. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** Generous: each example builds the sample corpus's index (and pgvector starts PGlite) in a fresh process. */
const EXAMPLE_TIMEOUT = 180_000;

interface ExampleRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `examples/<name>.ts` with tsx, offline: neither OPENAI_API_KEY nor DATABASE_URL reaches it. */
function runExample(name: string): Promise<ExampleRun> {
  const { OPENAI_API_KEY: _key, DATABASE_URL: _db, ...env } = process.env;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", `examples/${name}.ts`], {
      cwd: REPO_ROOT,
      env: { ...env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => (stdout += data));
    child.stderr.setEncoding("utf8").on("data", (data: string) => (stderr += data));
    child.on("error", reject);
    child.on("close", (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}

/** Exit 0 and an empty stderr: no error, no stack trace, and no warning either (none is expected). */
function expectCleanRun(run: ExampleRun): void {
  expect(run.stderr).toBe("");
  expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null });
}

describe("the runnable examples", () => {
  it(
    "agent.ts calls lookup_knowledge once with the fake model and answers from the refund thresholds",
    async () => {
      const run = await runExample("agent");
      expectCleanRun(run);
      expect(run.stdout).toContain("model: offline fake model");
      expect(run.stdout).toContain('tool call: lookup_knowledge({"query":"Who can approve a $6,000 refund?"})');
      expect(run.stdout).toMatch(/^evidence: layer L0\+L1, L1 ok, relevance high$/m);
      expect(run.stdout).toMatch(/^ {2}billing\/refunds-and-credit-notes\.md#approval-thresholds /m);
      expect(run.stdout).toContain("answer: According to billing/refunds-and-credit-notes.md#approval-thresholds");
      expect(run.stdout).toContain("The Finance controller approves anything from $5,000 to $25,000.");
    },
    EXAMPLE_TIMEOUT,
  );

  it(
    "parent-graph.ts routes a well-supported question to compose_answer and an unrelated one to escalate",
    async () => {
      const run = await runExample("parent-graph");
      expectCleanRun(run);
      expect(run.stdout).toMatch(/relevance (high|medium) -> compose_answer/);
      expect(run.stdout).toMatch(/sources: deployment\/rollback-procedure\.md#/);
      expect(run.stdout).toContain("relevance none -> escalate");
      expect(run.stdout).toContain("sources: (none)");
    },
    EXAMPLE_TIMEOUT,
  );

  it(
    "two-knowledge-bases.ts answers each tool from its own base and traces each line under its tool's name",
    async () => {
      const run = await runExample("two-knowledge-bases");
      expectCleanRun(run);
      expect(run.stdout).toMatch(/^lookup_billing: top source billing\/invoice-batch-rollback\.md#/m);
      expect(run.stdout).toMatch(/^lookup_deployment: top source deployment\/canary-releases\.md#/m);
      expect(run.stdout).toMatch(/^trace: tool_name=lookup_billing status=success /m);
      expect(run.stdout).toMatch(/^trace: tool_name=lookup_deployment status=success /m);
    },
    EXAMPLE_TIMEOUT,
  );

  it(
    "langchain-documents.ts syncs an edited, an added and a deleted file and answers from the edited JSON line",
    async () => {
      const run = await runExample("langchain-documents");
      expectCleanRun(run);
      expect(run.stdout).toMatch(/^built: 7 chunks in domains finance, it, people; saved as gen-[0-9a-f]{16}$/m);
      expect(run.stdout).toMatch(/^sync: added 1, updated 1, skipped 5, deleted 1 \(documents\)$/m);
      expect(run.stdout).toMatch(/^chunks: 2 embedded, 2 removed, 5 kept$/m);
      const [, next, previous] =
        /^reloaded: (gen-[0-9a-f]{16}) replaces (gen-[0-9a-f]{16}); 7 chunks$/m.exec(run.stdout) ?? [];
      expect(next).toBeDefined();
      expect(next).not.toBe(previous);
      expect(run.stdout).toContain('tool call: lookup_knowledge({"query":"When is payday?"})');
      expect(run.stdout).toContain(
        "answer: When is payday? Salaries are paid on the last working day of each month. (source: people/faq.jsonl#line-2, Staff FAQ > line 2)",
      );
    },
    EXAMPLE_TIMEOUT,
  );

  it(
    "custom-embeddings.ts saves and loads with its own embeddings and retrieves the API key rotation section",
    async () => {
      const run = await runExample("custom-embeddings");
      expectCleanRun(run);
      expect(run.stdout).toContain('embedder {"kind":"custom","name":"TrigramEmbeddings","dimensions":256}');
      expect(run.stdout).toContain("load without embeddings: EMBEDDINGS_REQUIRED");
      expect(run.stdout).toMatch(/^calibration: (measured|defaults), l0Weight \d\.\d\d/m);
      expect(run.stdout).toMatch(/^ {2}#1 accounts-access\/api-keys\.md#rotation-without-downtime \[/m);
    },
    EXAMPLE_TIMEOUT,
  );

  it(
    "pgvector.ts looks up from pgvector and writes only the changed row on an update",
    async () => {
      const run = await runExample("pgvector");
      expectCleanRun(run);
      expect(run.stdout).toContain("(in-process PGlite + pgvector on port");
      expect(run.stdout).toMatch(/^lookup: l1Status ok, /m);
      expect(run.stdout).toMatch(/^ {2}sources: billing\/refunds-and-credit-notes\.md#approval-thresholds/m);
      expect(run.stdout).toContain('storeRows {"written":1,"deleted":0}');
    },
    EXAMPLE_TIMEOUT,
  );
});
