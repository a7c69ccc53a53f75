import { quoteIdentifier } from "./pgvector-schema.js";

/** What runs one statement: a pg client or pool. */
interface SqlClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** Where the store's table is: the schema its name resolves to now, the schema a CREATE would put it in, and that name quoted. */
export interface TablePlace {
  /** The schema of the relation the store's SQL names now, or null when there is none. */
  resolved: string | null;
  /** The schema `CREATE TABLE` makes it in: the given one, else the first of the search path; null when there is none. */
  creation: string | null;
  /** `"creation"."table"`, as a drop names it. */
  qualified: string;
}

/**
 * Looks up, on the store's checked-out client, where its table is and where it would be made:
 * an unqualified name such as `pg_class` resolves to `pg_catalog.pg_class` while `CREATE TABLE IF
 * NOT EXISTS` makes a new `public.pg_class`.
 */
export async function tablePlace(
  store: { client?: Partial<SqlClient>; pool?: Partial<SqlClient> },
  tableName: string,
  schemaName: string | undefined,
): Promise<TablePlace> {
  // PGVectorStore names the table bare (folded to lower case) without a schema, quoted with one.
  const relation = schemaName ? `${quoteIdentifier(schemaName)}.${quoteIdentifier(tableName)}` : tableName;
  const client = (typeof store.client?.query === "function" ? store.client : store.pool) as SqlClient;
  const result = (await client.query(
    "SELECT (SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass($1)) AS resolved, COALESCE($2, current_schema()) AS creation",
    [relation, schemaName ?? null],
  )) as { rows: { resolved: string | null; creation: string | null }[] };
  const { resolved = null, creation = null } = result.rows[0] ?? {};
  const name = schemaName ? tableName : tableName.toLowerCase();
  return { resolved, creation, qualified: `${quoteIdentifier(creation ?? "public")}.${quoteIdentifier(name)}` };
}
