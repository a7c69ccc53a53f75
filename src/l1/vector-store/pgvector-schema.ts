import { createHash } from "node:crypto";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { errorDetail, LookupKnowledgeError } from "../../errors.js";
import { ROW_ACCESS_KEY, ROW_GENERATION_KEY, ROW_NAMESPACE_KEY } from "./vector-store-dialect.js";

/** The part of a `pg` pool this file uses. */
interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The fields of `PGVectorStore` the DDL is written from. */
interface PgTableFields {
  pool: Queryable;
  tableName: string;
  schemaName?: string | null;
  vectorColumnName?: string;
  metadataColumnName?: string;
  distanceStrategy?: string;
}

/** A double-quoted SQL identifier, inner quotes doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The table as `PGVectorStore` names it in its own SQL: `"schema"."table"` with a schema, else the
 * bare name (a checked plain identifier, which Postgres folds to lower case as the store's does).
 */
function tableSql(fields: PgTableFields): string {
  return fields.schemaName
    ? `${quoteIdentifier(fields.schemaName)}.${quoteIdentifier(fields.tableName)}`
    : fields.tableName;
}

/** An index name of at most 63 bytes (longer ones Postgres truncates, and two could then collide). */
export function indexName(table: string, kind: string): string {
  const name = `${table}_${kind}`;
  if (name.length <= 63) return name;
  const digest = createHash("sha256").update(table).digest("hex").slice(0, 8);
  return `${table.slice(0, 63 - kind.length - 10)}_${digest}_${kind}`;
}

/** pgvector's operator class for the store's distance. */
function operatorClass(strategy: string | undefined): string {
  if (strategy === "innerProduct") return "vector_ip_ops";
  if (strategy === "euclidean") return "vector_l2_ops";
  return "vector_cosine_ops";
}

/** Runs the DDL steps; a failure names the table, the statement's purpose and the two fixes. */
async function step(fields: PgTableFields, what: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof LookupKnowledgeError) throw error;
    throw new LookupKnowledgeError(
      "VECTOR_STORE_FAILED",
      `cannot ${what} of the pgvector table ${fields.tableName}: ${errorDetail(error)}; grant the role CREATE on the table's schema (or ownership of the table), or create it yourself and connect with createIndexes: false (CLI: --no-pgvector-indexes).`,
      { cause: error },
    );
  }
}

/** What one connection created in the database, so that a build that fails can take it back. */
interface CreatedObjects {
  /** The table as `"schema"."name"`, when this connection created it. */
  table?: string;
  /** Indexes this connection added to a table that existed before, as `"schema"."name"`. */
  indexes: string[];
}

/** Per store: what its connection created and has not been told to keep. */
const created = new WeakMap<object, CreatedObjects>();

function createdBy(store: object): CreatedObjects {
  let objects = created.get(store);
  if (objects === undefined) {
    objects = { indexes: [] };
    created.set(store, objects);
  }
  return objects;
}

/** Records that `store`'s connection created its table, named `"schema"."name"`. */
export function recordCreatedTable(store: object, qualifiedName: string): void {
  createdBy(store).table = qualifiedName;
}

/** The schema `table` (as the store writes it) lives in, or null when it does not exist. */
async function schemaOf(pool: Queryable, table: string): Promise<string | null> {
  const { rows } = await pool.query(
    "SELECT n.nspname AS schema FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass($1)",
    [table],
  );
  return typeof rows[0]?.schema === "string" ? rows[0].schema : null;
}

/** Runs `sql` (a `CREATE INDEX IF NOT EXISTS`) and records the index when it was not there before. */
async function createIndexOnce(store: object, fields: PgTableFields, name: string, sql: string): Promise<void> {
  const schema = fields.schemaName ?? (await schemaOf(fields.pool, tableSql(fields)));
  const qualified = schema === null ? quoteIdentifier(name) : `${quoteIdentifier(schema)}.${quoteIdentifier(name)}`;
  const { rows } = await fields.pool.query("SELECT to_regclass($1) IS NOT NULL AS present", [qualified]);
  await fields.pool.query(sql);
  if (rows[0]?.present !== true) createdBy(store).indexes.push(qualified);
}

/**
 * Drops what `store`'s connection created and was not told to keep ({@link keepCreatedObjects}):
 * the table when the connection created it (its indexes go with it), else the indexes it added
 * to a table that existed before; a table that existed before is never dropped. Every drop is
 * tried; returns the names dropped.
 */
export async function dropCreatedObjects(store: VectorStoreInterface): Promise<string[]> {
  const objects = created.get(store);
  created.delete(store);
  if (objects === undefined) return [];
  const pool = (store as unknown as PgTableFields).pool;
  const statements = objects.table
    ? [[objects.table, `DROP TABLE IF EXISTS ${objects.table}`]]
    : objects.indexes.map((index) => [index, `DROP INDEX IF EXISTS ${index}`]);
  const dropped: string[] = [];
  for (const [name, sql] of statements) {
    if (
      await pool.query(sql).then(
        () => true,
        () => false,
      )
    )
      dropped.push(name);
  }
  return dropped;
}

/** Keeps what `store`'s connection created so far (a build succeeded): {@link dropCreatedObjects} no longer drops it. */
export function keepCreatedObjects(store: VectorStoreInterface): void {
  created.delete(store);
}

/**
 * Creates what lookups on the store's table need, when missing: a btree index on the scope keys
 * every search and delete filters on (`lk_kb`, `lk_gen`, `domain`, `lk_acl`) and, with
 * `dimensions`, the `vector(n)` type of the embedding column and its HNSW index (of the store's
 * distance). Every statement is `IF NOT EXISTS` or checked first, so running it again is a no-op.
 * @throws LookupKnowledgeError `VECTOR_STORE_FAILED` naming the table and the fix.
 */
export async function ensurePgVectorIndexes(
  store: VectorStoreInterface,
  dimensions: number | undefined,
): Promise<void> {
  const fields = store as unknown as PgTableFields;
  const table = tableSql(fields);
  const metadata = quoteIdentifier(fields.metadataColumnName ?? "metadata");
  const embedding = fields.vectorColumnName ?? "embedding";
  const keys = [ROW_NAMESPACE_KEY, ROW_GENERATION_KEY, "domain", ROW_ACCESS_KEY]
    .map((key) => `(${metadata}->>'${key}')`)
    .join(", ");
  const scope = indexName(fields.tableName, "lk_scope");
  await step(fields, "create the scope index", () =>
    createIndexOnce(store, fields, scope, `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(scope)} ON ${table} (${keys})`),
  );
  if (dimensions === undefined) return;
  await step(fields, `give the ${embedding} column the type vector(${dimensions})`, async () => {
    const { rows } = await fields.pool.query(
      "SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attname = $2 AND NOT a.attisdropped",
      [table, embedding],
    );
    const found: unknown = rows[0]?.type;
    const type = typeof found === "string" ? found : "";
    const length = /\bvector\((\d+)\)$/.exec(type)?.[1];
    if (length !== undefined && Number(length) !== dimensions) {
      throw new LookupKnowledgeError(
        "VECTOR_STORE_FAILED",
        `the pgvector table ${fields.tableName} holds vectors of ${length} dimensions, but the embeddings give ${dimensions}; use another table (tableName, CLI --pgvector-table) for these embeddings, or connect with createIndexes: false to keep the column untyped (no HNSW index).`,
      );
    }
    if (length === undefined)
      await fields.pool.query(
        `ALTER TABLE ${table} ALTER COLUMN ${quoteIdentifier(embedding)} TYPE vector(${dimensions})`,
      );
  });
  const hnsw = indexName(fields.tableName, `${embedding}_hnsw`);
  await step(fields, "create the HNSW index", () =>
    createIndexOnce(
      store,
      fields,
      hnsw,
      `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(hnsw)} ON ${table} USING hnsw (${quoteIdentifier(embedding)} ${operatorClass(fields.distanceStrategy)})`,
    ),
  );
}

/** SQL: whether `extversion` (e.g. `0.8.0`, `0.10.1-dev`) is 0.8 or later, compared as numbers. */
export const AT_LEAST_0_8 = "string_to_array(split_part(extversion, '-', 1), '.')::int[] >= '{0,8}'";

/**
 * Per session, on pgvector 0.8 and later (checked in the server, so earlier versions skip it):
 * filtered HNSW searches keep scanning until they fill `k` (`relaxed_order`), never `ALTER DATABASE`.
 */
export const ITERATIVE_SCAN_SQL = `DO $$ BEGIN
  IF (SELECT ${AT_LEAST_0_8} FROM pg_extension WHERE extname = 'vector') THEN
    PERFORM set_config('hnsw.iterative_scan', 'relaxed_order', false);
  END IF;
END $$`;

/** Stores {@link connectPgVectorStore} opened with `createIndexes`, and the dimensions whose indexes exist. */
const managed = new WeakMap<object, Set<number>>();

/** Marks `store` as one whose indexes lookup-knowledge creates (`createIndexes`), with those of `dimensions` made. */
export function manageIndexes(store: VectorStoreInterface, dimensions: number | undefined): void {
  managed.set(store, new Set(dimensions === undefined ? [] : [dimensions]));
}

/** Before rows of `dimensions` are written: the vector column and HNSW index of a managed store, once. */
export async function prepareManagedStore(store: VectorStoreInterface, dimensions: number): Promise<void> {
  const made = managed.get(store);
  if (made === undefined || made.has(dimensions)) return;
  await ensurePgVectorIndexes(store, dimensions);
  made.add(dimensions);
}
