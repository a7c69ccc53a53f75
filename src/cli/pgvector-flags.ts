import type { VectorStoreL1Option } from "../knowledge-base/vector-store-option.js";
import type { OptionSpec } from "./command-spec.js";

/** The flags that put L1 in Postgres/pgvector. */
export const PGVECTOR_FLAGS: Record<"pgvector" | "pgvector-table" | "no-pgvector-indexes", OptionSpec> = {
  pgvector: {
    type: "string",
    value: "URL",
    description:
      "Keep L1 in Postgres/pgvector at this connection string (also read from LOOKUP_KNOWLEDGE_PGVECTOR_URL); needs the optional packages @langchain/community and pg.",
  },
  "pgvector-table": {
    type: "string",
    value: "NAME",
    default: "lookup_knowledge_chunks",
    description: "The pgvector table of the L1 rows.",
  },
  "no-pgvector-indexes": {
    type: "boolean",
    default: false,
    description:
      "Leave the pgvector table's vector(n) column, HNSW index and scope index to your DBAs instead of creating them when missing.",
  },
};

/** Environment variable read when `--pgvector` is not given. */
export const PGVECTOR_URL_ENV = "LOOKUP_KNOWLEDGE_PGVECTOR_URL";

/** The store the flags ask for (none without `--pgvector` or its environment variable), and how to release it. */
export interface CliVectorStore {
  vectorStore: VectorStoreL1Option | undefined;
  close(): Promise<void>;
  /** Drops the table or indexes connecting and writing created, for a first build that failed (see `PgVectorConnection.dropCreated`). */
  dropCreated(): Promise<void>;
  /** Keeps them: the first build succeeded. */
  keepCreated(): void;
}

/**
 * Connects to pgvector when `--pgvector URL` (or `LOOKUP_KNOWLEDGE_PGVECTOR_URL`) is set; the URL
 * with its password is never written to the index or printed.
 */
export async function openCliVectorStore(
  values: Record<string, string | boolean | undefined>,
): Promise<CliVectorStore> {
  const flag = values.pgvector;
  const connectionString = typeof flag === "string" ? flag : process.env[PGVECTOR_URL_ENV];
  if (!connectionString)
    return { vectorStore: undefined, close: async () => {}, dropCreated: async () => {}, keepCreated: () => {} };
  const table = values["pgvector-table"];
  // Loaded only when asked for, so that `--help` and plain queries never load the pgvector adapter.
  const { connectPgVectorStore } = await import("../l1/vector-store/connect-pgvector.js");
  const vectorStore = await connectPgVectorStore({
    connectionString,
    tableName: typeof table === "string" ? table : undefined,
    createIndexes: values["no-pgvector-indexes"] !== true,
  });
  return {
    vectorStore,
    close: () => vectorStore.store.end().catch(() => {}),
    dropCreated: async () => void (await vectorStore.dropCreated().catch(() => [])),
    keepCreated: () => vectorStore.keepCreated(),
  };
}
