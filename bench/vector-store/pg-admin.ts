import pg from "pg";

/** The SQL `PGVectorStore.similaritySearchVectorWithScore` sends (cosine, no collection, no filter). */
export function storeSearchSql(table: string, column = "embedding"): string {
  return `SELECT *, "${column}" <=> $1 as "_distance" FROM ${table} ORDER BY "_distance" ASC LIMIT $2`;
}

/** A vector as pgvector's text literal. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(",")}]`;
}

/** A plain client on the bench's Postgres for DDL, settings and EXPLAIN. */
export async function adminClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

/** `format_type` of a column, e.g. `vector` or `vector(256)`. */
export async function columnType(client: pg.Client, table: string, column = "embedding"): Promise<string> {
  const { rows } = await client.query<{ type: string }>(
    "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2",
    [table, column],
  );
  return rows[0]?.type ?? "missing";
}

/** The plan of the store's query for `vector`, one line per node, the vector literal elided. */
export async function explainStoreSearch(
  client: pg.Client,
  table: string,
  vector: readonly number[],
  k: number,
): Promise<string> {
  const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${storeSearchSql(table)}`, [
    vectorLiteral(vector),
    k,
  ]);
  return rows.map((row) => row["QUERY PLAN"].replace(/'\[[^\]]*\]'/g, "'[...]'").trim()).join(" | ");
}

/** Milliseconds one statement takes. */
export async function timedQuery(client: pg.Client, sql: string): Promise<number> {
  const start = performance.now();
  await client.query(sql);
  return performance.now() - start;
}

/** The error message of a statement, or "ok". */
export async function outcomeOf(client: pg.Client, sql: string): Promise<string> {
  try {
    await client.query(sql);
    return "ok";
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Table heap, all its indexes, and the whole relation, in bytes. */
export async function relationBytes(
  client: pg.Client,
  table: string,
): Promise<{ tableBytes: number; indexBytes: number; totalRelationBytes: number }> {
  const { rows } = await client.query<{ t: string; i: string; all: string }>(
    "SELECT pg_table_size($1::regclass) AS t, pg_indexes_size($1::regclass) AS i, pg_total_relation_size($1::regclass) AS all",
    [table],
  );
  return { tableBytes: Number(rows[0].t), indexBytes: Number(rows[0].i), totalRelationBytes: Number(rows[0].all) };
}
