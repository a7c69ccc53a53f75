import { Embeddings } from "@langchain/core/embeddings";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { errorDetail, LookupKnowledgeError } from "../../errors.js";
import { withDeadline } from "../../deadline.js";
import { pinnedSslMode } from "./pg-ssl-mode.js";
import { tablePlace } from "./pgvector-table-place.js";
import { pgvectorDialect } from "./pgvector-dialect.js";
import {
  dropCreatedObjects,
  ensurePgVectorIndexes,
  ITERATIVE_SCAN_SQL,
  keepCreatedObjects,
  manageIndexes,
  recordCreatedTable,
} from "./pgvector-schema.js";
import type { VectorStoreDialect } from "./vector-store-dialect.js";

/** Options of {@link connectPgVectorStore}. */
export interface PgVectorConnectOptions {
  /**
   * `postgresql://user:password@host:5432/db`; never saved in the index. `sslmode=prefer`,
   * `require` and `verify-ca` are passed to `pg` as `sslmode=verify-full`, their meaning in pg 8
   * (TLS, the certificate and host name verified; trust a private CA with `sslrootcert=ca.pem`),
   * so that pg does not print its warning that it aliases them; `uselibpqcompat=true` keeps libpq's
   * weaker meanings, as pg has them.
   */
  connectionString: string;
  /** Table of the rows, one per knowledge base (or per collection). @default "lookup_knowledge_chunks" */
  tableName?: string;
  /** Postgres schema of the table. @default the connection's search path */
  schemaName?: string;
  /** Connections in the pool: enough for the lookups one app instance runs at once. @default 4 */
  maxConnections?: number;
  /** Milliseconds to wait for a connection before a lookup's L1 fails (and it falls back to L0). @default 2000 */
  connectionTimeoutMs?: number;
  /**
   * Vector length, when known (custom embeddings): the table gets its `vector(n)` column and HNSW
   * index at once. Without it, the first build or update that writes rows makes them, once the
   * length is final: a custom embedder's, or the default embedder's 256 (on a corpus of 768+
   * chunks; below, its length follows the corpus and the table is scanned exactly). @default none
   */
  dimensions?: number;
  /**
   * Create what lookups need when missing: the `vector(n)` column, the HNSW index on it (of the
   * cosine distance) and a btree index on the scope keys the searches and deletes filter on
   * (`metadata->>'lk_kb'`, `'lk_gen'`, `'domain'`, `'lk_acl'`). False leaves the schema to your
   * DBAs (CLI: `--no-pgvector-indexes`); the table itself is still created if missing.
   * @default true
   */
  createIndexes?: boolean;
}

/** What {@link connectPgVectorStore} returns: the `vectorStore` option of a build or load, and `store.end()` to release the pool. */
export interface PgVectorConnection {
  /** LangChain's `PGVectorStore` on the opened table (cosine distance); `end()` closes its pool. */
  store: VectorStoreInterface & { end(): Promise<void> };
  /** Always {@link pgvectorDialect}. */
  dialect: VectorStoreDialect;
  /**
   * Drops what this connection created since it opened (or since {@link keepCreated}): the table,
   * when it did not exist before, else the indexes it added; a table that existed before is
   * never dropped. For a first build that failed, so that it leaves no empty table behind.
   * Resolves to the names dropped; a drop that fails is skipped.
   */
  dropCreated(): Promise<string[]>;
  /** Keeps what this connection created so far (call once a build succeeded): a later {@link dropCreated} leaves it. */
  keepCreated(): void;
}

/** The store's own embeddings: never called, since lookup-knowledge embeds and writes vectors itself. */
class VectorsWrittenByLookupKnowledge extends Embeddings {
  constructor() {
    super({});
  }
  async embedDocuments(): Promise<number[][]> {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "this PGVectorStore's rows are written by lookup-knowledge, which embeds them itself; add documents through KnowledgeBase.build or update.",
    );
  }
  async embedQuery(): Promise<number[]> {
    return this.embedDocuments().then(() => []);
  }
}

/** Imports an optional peer dependency, with the install command when it is missing. */
async function importOptional<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `L1 on pgvector needs the optional packages @langchain/community and pg (${name}: ${errorDetail(error)}); run \`npm install @langchain/community pg\`.`,
      { cause: error },
    );
  }
}

interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<unknown>;
}
interface PgModule {
  default: {
    Pool: new (config: object) => { on(event: "error", listener: () => void): unknown; end(): Promise<void> };
  };
}
type PgVectorStoreLike = VectorStoreInterface & {
  end(): Promise<void>;
  _initializeClient(): Promise<void>;
  ensureTableInDatabase(dimensions?: number): Promise<void>;
  client?: Partial<PgClientLike>;
  pool?: Partial<PgClientLike>;
};
interface PgVectorModule {
  PGVectorStore: new (embeddings: Embeddings, config: object) => PgVectorStoreLike;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Milliseconds a failed connect waits for its pool to close before giving up on it. */
const CLOSE_WAIT_MS = 2000;

/** The error of a table that cannot be opened or created. */
function cannotOpen(tableName: string, error: unknown): LookupKnowledgeError {
  return new LookupKnowledgeError(
    "VECTOR_STORE_FAILED",
    `cannot open the pgvector table ${tableName}: ${errorDetail(error)}; check the connection string and that the vector extension is installed (CREATE EXTENSION vector).`,
    { cause: error },
  );
}

/**
 * Connects LangChain's `PGVectorStore` to Postgres with pgvector, ready to be the `vectorStore` of
 * `KnowledgeBase.build` or `load`: a bounded pool, cosine distance, the table created if
 * missing, its indexes too (unless `createIndexes: false`), and `hnsw.iterative_scan =
 * relaxed_order` in each session on pgvector 0.8+. `@langchain/community` and `pg` are optional peer dependencies, imported only here.
 * Call `store.end()` when done.
 * @throws LookupKnowledgeError `INVALID_OPTION` when the packages are missing; `VECTOR_STORE_FAILED` when Postgres cannot be reached, lacks pgvector, or refuses the indexes.
 * @example
 * const vectorStore = await connectPgVectorStore({ connectionString: process.env.DATABASE_URL! });
 * const kb = await KnowledgeBase.build({ corpusDir: "corpus", vectorStore });
 */
export async function connectPgVectorStore(options: PgVectorConnectOptions): Promise<PgVectorConnection> {
  if (typeof options?.connectionString !== "string" || options.connectionString.length === 0) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      "connectPgVectorStore needs a connectionString, e.g. postgresql://user:password@host:5432/db.",
    );
  }
  const tableName = options.tableName ?? "lookup_knowledge_chunks";
  // PGVectorStore writes both names into its SQL as they are: only plain identifiers get through.
  for (const [name, value] of [
    ["tableName", tableName],
    ["schemaName", options.schemaName],
  ] as const) {
    if (value !== undefined && (typeof value !== "string" || !IDENTIFIER.test(value))) {
      throw new LookupKnowledgeError(
        "INVALID_OPTION",
        `${name} must be a plain SQL identifier (letters, digits, _; at most 63), got ${JSON.stringify(String(value).slice(0, 80))}.`,
      );
    }
  }
  const { dimensions } = options;
  if (dimensions !== undefined && (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16000)) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `dimensions must be an integer from 1 to 16000 (the embeddings' vector length), got ${String(dimensions)}.`,
    );
  }
  const max = options.maxConnections ?? 4;
  const connectionTimeoutMs = options.connectionTimeoutMs ?? 2000;
  if (!Number.isInteger(max) || max < 1)
    throw new LookupKnowledgeError("INVALID_OPTION", `maxConnections must be an integer from 1, got ${String(max)}.`);
  if (typeof connectionTimeoutMs !== "number" || !Number.isFinite(connectionTimeoutMs) || connectionTimeoutMs < 0) {
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `connectionTimeoutMs must be a number of milliseconds from 0 (0 waits forever), got ${String(connectionTimeoutMs)}.`,
    );
  }
  const createIndexes = options.createIndexes ?? true;
  if (typeof createIndexes !== "boolean")
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `createIndexes must be true or false, got ${String(createIndexes)}.`,
    );
  const pg = await importOptional<PgModule>("pg");
  const { PGVectorStore } = await importOptional<PgVectorModule>("@langchain/community/vectorstores/pgvector");
  // Each new session, before the pool hands it out: the setting is per session, and only pgvector 0.8+ has it.
  const onConnect = async (client: PgClientLike) => void (await client.query(ITERATIVE_SCAN_SQL).catch(() => {}));
  const pool = new pg.default.Pool({
    connectionString: pinnedSslMode(options.connectionString),
    max,
    connectionTimeoutMillis: connectionTimeoutMs,
    onConnect,
  });
  pool.on("error", () => {});
  // `PGVectorStore.initialize`'s steps, with the store in hand: when creating the table fails, its
  // checked-out client must be released, or ending the pool would wait forever.
  const store = new PGVectorStore(new VectorsWrittenByLookupKnowledge(), {
    pool,
    tableName,
    ...(options.schemaName ? { schemaName: options.schemaName } : {}),
    distanceStrategy: "cosine",
  });
  pgvectorDialect.attach?.(store);
  let place: Awaited<ReturnType<typeof tablePlace>>;
  try {
    await store._initializeClient();
    pgvectorDialect.attach?.(store); // now also on the client the store keeps checked out
    place = await tablePlace(store, tableName, options.schemaName);
  } catch (error) {
    await closeQuietly(store);
    throw cannotOpen(tableName, error);
  }
  if (place.resolved !== null && place.creation !== null && place.resolved !== place.creation) {
    await closeQuietly(store);
    // Created in one schema, found in another by every later statement: PGVectorStore would make an empty table and write elsewhere.
    throw new LookupKnowledgeError(
      "INVALID_OPTION",
      `the pgvector table name ${tableName} resolves to ${place.resolved}.${tableName}, not to a table in ${place.creation}, where lookup-knowledge would create it; choose another table name (CLI --pgvector-table), or name the schema (schemaName).`,
    );
  }
  try {
    await store.ensureTableInDatabase(dimensions);
  } catch (error) {
    await closeQuietly(store);
    throw cannotOpen(tableName, error);
  }
  if (place.resolved === null && place.creation !== null) recordCreatedTable(store, place.qualified);
  try {
    // The sessions opened before the extension existed (creating it) get the setting now.
    for (const session of [store.client, store.pool])
      if (typeof session?.query === "function") await session.query(ITERATIVE_SCAN_SQL).catch(() => {});
    if (createIndexes) {
      await ensurePgVectorIndexes(store, dimensions);
      manageIndexes(store, dimensions);
    }
    return {
      store,
      dialect: pgvectorDialect,
      dropCreated: () => dropCreatedObjects(store),
      keepCreated: () => keepCreatedObjects(store),
    };
  } catch (error) {
    await dropCreatedObjects(store).catch(() => []);
    await closeQuietly(store);
    throw error;
  }
}

/** Ends the store's pool, waiting at most {@link CLOSE_WAIT_MS}. */
async function closeQuietly(store: PgVectorStoreLike): Promise<void> {
  await withDeadline(() => store.end(), {
    timeoutMs: CLOSE_WAIT_MS,
    onTimeout: () => new Error("pool close timed out"),
  }).catch(() => {});
}
