import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { createServer } from "node:net";

/** A real Postgres (PGlite with pgvector) on the wire protocol at 127.0.0.1. */
export interface PgServer {
  /** `postgresql://` URL the `pg` driver connects to. */
  url: string;
  /** Stops listening and drops every connection: the database going away. */
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
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Starts PGlite with the pgvector extension behind `@electric-sql/pglite-socket` on a free port. */
export async function startPgServer(): Promise<PgServer> {
  const db = await PGlite.create({ extensions: { vector } });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: 16 });
  await server.start();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

/**
 * The Postgres the tests use: the one CI started (`LOOKUP_KNOWLEDGE_PG_URL`, see `.ci/run`), else
 * one started here for this test file.
 */
export async function testPostgres(): Promise<PgServer> {
  const url = process.env.LOOKUP_KNOWLEDGE_PG_URL;
  if (url) return { url, stop: async () => {} };
  return startPgServer();
}
