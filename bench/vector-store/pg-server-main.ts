/**
 * A Postgres for the sizing bench in its own process: PGlite with pgvector behind the wire
 * protocol (`startPgServer` of the tests), so that the serving processes measured do not hold the
 * database. Prints `{"url": ...}` on one stdout line once it listens; stops on SIGTERM or when its
 * stdin closes (the parent went away).
 */
import { startPgServer } from "../../test/helpers/pglite-server.js";

const server = await startPgServer();
let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.stop().catch(() => undefined);
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.stdin.on("end", () => void stop());
process.stdin.resume();
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
