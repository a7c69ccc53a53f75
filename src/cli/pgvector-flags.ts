import { connectPgVectorStore } from "../l1/vector-store/connect-pgvector.js";
import type { VectorStoreL1Option } from "../knowledge-base/vector-store-option.js";

/** The flags that put L1 in Postgres/pgvector, for `parseArgs`. */
export const PGVECTOR_FLAGS = {
  pgvector: { type: "string" },
  "pgvector-table": { type: "string", default: "lookup_knowledge_chunks" },
} as const;

/** Environment variable read when `--pgvector` is not given. */
export const PGVECTOR_URL_ENV = "LOOKUP_KNOWLEDGE_PGVECTOR_URL";

/** The store the flags ask for (none without `--pgvector` or its environment variable), and how to release it. */
export interface CliVectorStore {
  vectorStore: VectorStoreL1Option | undefined;
  close(): Promise<void>;
}

/**
 * Connects to pgvector when `--pgvector URL` (or `LOOKUP_KNOWLEDGE_PGVECTOR_URL`) is set; the URL
 * with its password is never written to the index or printed.
 */
export async function openCliVectorStore(values: { pgvector?: string; "pgvector-table"?: string }): Promise<CliVectorStore> {
  const connectionString = values.pgvector ?? process.env[PGVECTOR_URL_ENV];
  if (!connectionString) return { vectorStore: undefined, close: async () => {} };
  const vectorStore = await connectPgVectorStore({ connectionString, tableName: values["pgvector-table"] });
  return { vectorStore, close: () => vectorStore.store.end().catch(() => {}) };
}
