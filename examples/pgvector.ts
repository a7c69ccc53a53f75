// L1 in Postgres with pgvector instead of the in-process HNSW graph: connect the store, build the
// knowledge base into it, save the index, load it again against the same store, run one lookup,
// then edit a corpus file and update the index incrementally (only the changed rows are written).
//
// With DATABASE_URL set (postgresql://user:password@host:5432/db, a Postgres where
// `CREATE EXTENSION vector` has been run) the example uses that database and leaves its table
// `lookup_knowledge_example` behind (drop it when done). Without it, the example starts PGlite with
// pgvector in this process, served on the Postgres wire protocol at 127.0.0.1, so that the `pg`
// driver talks to it exactly as to a real server. That is for trying things out only: an app uses
// a real Postgres. Needs the optional peer dependencies `@langchain/community` and `pg`.
//
//   npx tsx examples/pgvector.ts
import { appendFile, cp, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
// An app imports these from "lookup-knowledge".
import {
  connectPgVectorStore,
  createLookupKnowledgeTool,
  KnowledgeBase,
  type LookupResult,
  type VectorStoreL1Option,
} from "../src/index.js";

const CORPUS_DIR = fileURLToPath(new URL("../corpus", import.meta.url));
const TABLE = "lookup_knowledge_example";

/** A Postgres to connect to: its URL, and how to stop it (nothing to stop for DATABASE_URL). */
interface Postgres {
  url: string;
  label: string;
  stop(): Promise<void>;
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port")),
      );
    });
  });
}

/** DATABASE_URL when set, else PGlite + pgvector behind a socket server on a free local port. */
async function startPostgres(): Promise<Postgres> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, label: "DATABASE_URL", stop: async () => {} };
  // Imported only here, so that with DATABASE_URL the PGlite packages need not be installed.
  const [{ PGlite }, { vector }, { PGLiteSocketServer }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-pgvector"),
    import("@electric-sql/pglite-socket"),
  ]);
  const db = await PGlite.create({ extensions: { vector } });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: 16 });
  await server.start();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
    label: `in-process PGlite + pgvector on port ${port}`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

async function main(): Promise<void> {
  const postgres = await startPostgres();
  const tempDir = await mkdtemp(join(tmpdir(), "lookup-knowledge-pgvector-"));
  try {
    // connectPgVectorStore creates the table if missing (the vector extension must exist); it
    // returns { store, dialect }, the `vectorStore` option of build and load.
    const pg = await connectPgVectorStore({ connectionString: postgres.url, tableName: TABLE });
    try {
      await run(tempDir, pg, postgres.label);
    } finally {
      await pg.store.end();
    }
  } finally {
    await postgres.stop();
    await rm(tempDir, { recursive: true, force: true });
  }
}

async function run(tempDir: string, vectorStore: VectorStoreL1Option, label: string): Promise<void> {
  // A copy of the corpus, since the example edits a file of it.
  const corpusDir = join(tempDir, "corpus");
  const indexDir = join(tempDir, "index");
  await cp(CORPUS_DIR, corpusDir, { recursive: true });

  // The build writes one row per chunk into the table; the index folder records the store (never the URL).
  const built = await KnowledgeBase.build({ corpusDir, vectorStore });
  await built.save(indexDir);
  console.log(`built ${built.chunks.length} chunks into pgvector table ${TABLE} (${label})`);

  // Another process would connect its own store the same way and load the index against it. A
  // serving instance leaves `localVectors` out (it never reads the local graph); this one updates
  // the index below, so it loads the graph to embed only what changed.
  const kb = await KnowledgeBase.load(indexDir, { vectorStore, localVectors: true });
  const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
  try {
    // Invoked with a tool call, the tool returns a ToolMessage whose artifact is the LookupResult.
    const message = await lookup.invoke({
      type: "tool_call",
      id: "call_1",
      name: lookup.name,
      args: { query: "Who can approve a $6,000 refund?" },
    });
    const result = message.artifact as LookupResult;
    console.log(
      `lookup: l1Status ${result.l1Status}, layer ${result.retrievalLayer}, relevance ${result.relevance.level}`,
    );
    console.log(`  sources: ${result.evidence.map((block) => block.source).join(", ")}`);
  } finally {
    await lookup.close();
  }

  // Edit one file and update: unchanged chunks keep their rows; only the new section is written.
  await appendFile(
    join(corpusDir, "billing/refunds-and-credit-notes.md"),
    "\n## Refunds in Gift Cards\n\nRefunds to gift cards are never allowed; refund the original payment method.\n",
  );
  const { knowledgeBase: updated, changes } = await kb.update({ corpusDir });
  await updated.save(indexDir);
  console.log(
    `update: changed ${changes.changedFiles.join(", ")}; chunks +${changes.chunksAdded} -${changes.chunksRemoved}; storeRows ${JSON.stringify(changes.storeRows)}`,
  );
}

main().catch((error: unknown) => {
  console.error(`pgvector example failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
