/**
 * A library user's program, run as a child process by `quiet-stderr.int.test.ts`: everything a
 * normal app does with the package (build, save, load, a tool query, an incremental update, L1 in
 * pgvector, and a pgvector write that fails), reporting on stdout as one JSON object. Whatever
 * reaches its stderr came from the package or its dependencies.
 *
 * Environment: `LK_CORPUS` (a corpus folder, copied), `LK_WORK` (a scratch folder), and
 * `LK_STEPS`, a JSON object of the steps to run: `local: true` (L1 in the index folder), and
 * connection strings for `pgvector` (the same on pgvector), `fail` (a build whose inserts fail) and
 * `untrusted` (a connection that must be refused).
 */
import { appendFile, cp } from "node:fs/promises";
import { join } from "node:path";
import {
  connectPgVectorStore,
  createLookupKnowledgeTool,
  KnowledgeBase,
  LookupKnowledgeError,
  type LookupResult,
  type VectorStoreL1Option,
} from "../../../src/index.js";

const work = process.env.LK_WORK!;
const corpusDir = join(work, "corpus");
const steps = JSON.parse(process.env.LK_STEPS ?? "{}") as {
  local?: boolean;
  pgvector?: string;
  fail?: string;
  untrusted?: string;
};
const report: { steps: string[]; warnings: string[]; errors: Record<string, string> } = {
  steps: [],
  warnings: [],
  errors: {},
};
const onWarning = (message: string) => void report.warnings.push(message);

function failure(error: unknown): string {
  return error instanceof LookupKnowledgeError
    ? `${error.code}: ${error.message}`
    : `not a LookupKnowledgeError: ${String(error)}`;
}

/** Build, save, load, a tool query and an update with a save, on `vectorStore` when given. */
async function lifecycle(name: string, vectorStore?: VectorStoreL1Option): Promise<void> {
  const indexDir = join(work, `index-${name}`);
  const built = await KnowledgeBase.build({ corpusDir, onWarning, ...(vectorStore ? { vectorStore } : {}) });
  await built.save(indexDir, { onWarning });
  const kb = await KnowledgeBase.load(indexDir, vectorStore ? { vectorStore, localVectors: true } : {});
  const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: join(work, `trace-${name}.jsonl`) });
  try {
    const message = await lookup.invoke({
      type: "tool_call",
      id: "call_1",
      name: lookup.name,
      args: { query: "how do I rotate an API key" },
    });
    const result = message.artifact as LookupResult;
    report.steps.push(`${name}: query l1Status ${result.l1Status}, ${result.evidence.length} blocks`);
  } finally {
    await lookup.close();
  }
  await appendFile(
    join(corpusDir, "access/api-key-rotation.md"),
    `\n## Rotation in ${name}\n\nRotate the ${name} keys every ninety days.\n`,
  );
  const { knowledgeBase, changes } = await kb.update({ corpusDir, onWarning });
  await knowledgeBase.save(indexDir, { onWarning });
  report.steps.push(`${name}: update ${changes.chunksAdded} added, store rows ${changes.storeRows?.written ?? "none"}`);
}

await cp(process.env.LK_CORPUS!, corpusDir, { recursive: true });
if (steps.local) await lifecycle("local");

if (steps.pgvector) {
  const pg = await connectPgVectorStore({ connectionString: steps.pgvector, tableName: `lk_quiet_${process.pid}` });
  try {
    await lifecycle("pgvector", pg);
  } finally {
    await pg.dropCreated();
    await pg.store.end();
  }
}

if (steps.fail) {
  // A table made for vectors of 3 dimensions: the build's inserts fail in Postgres.
  const pg = await connectPgVectorStore({
    connectionString: steps.fail,
    tableName: `lk_fail_${process.pid}`,
    dimensions: 3,
  });
  try {
    await KnowledgeBase.build({ corpusDir, vectorStore: pg, onWarning });
    report.steps.push("fail: the build with failing inserts succeeded");
  } catch (error) {
    report.errors.fail = failure(error);
  } finally {
    await pg.dropCreated();
    await pg.store.end();
  }
}

if (steps.untrusted) {
  try {
    const pg = await connectPgVectorStore({ connectionString: steps.untrusted, connectionTimeoutMs: 5000 });
    await pg.store.end();
    report.steps.push("untrusted: connected to a server whose certificate is not trusted");
  } catch (error) {
    report.errors.untrusted = failure(error);
  }
}

process.stdout.write(`${JSON.stringify(report)}\n`);
