import pg from "pg";

/** Statements against a test Postgres, each on its own short-lived pool (the tests' view of the database). */
export interface PgSql {
  /** Runs one statement and returns its rows. */
  query<T extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** The schemas holding a table of this name. */
  tablesNamed(name: string): Promise<string[]>;
  /** The names of a table's indexes, sorted. */
  indexNames(table: string): Promise<string[]>;
}

/** {@link PgSql} for the database at `url` (a `postgresql://` connection string). */
export function pgSql(url: string | (() => string)): PgSql {
  const query = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> => {
    const pool = new pg.Pool({ connectionString: typeof url === "function" ? url() : url, max: 1 });
    try {
      return (await pool.query<T>(text, values)).rows;
    } finally {
      await pool.end();
    }
  };
  return {
    query,
    tablesNamed: async (name) =>
      (await query<{ schema: string }>("SELECT schemaname AS schema FROM pg_tables WHERE tablename = $1", [name])).map(
        (row) => row.schema,
      ),
    indexNames: async (table) =>
      (
        await query<{ name: string }>("SELECT indexname AS name FROM pg_indexes WHERE tablename = $1 ORDER BY 1", [
          table,
        ])
      ).map((row) => row.name),
  };
}
