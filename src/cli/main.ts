import { LookupKnowledgeError } from "../errors.js";
import { evalCommand } from "./eval-command.js";
import { indexCommand } from "./index-command.js";
import { queryCommand } from "./query-command.js";

const USAGE = `Usage:
  lookup-knowledge index [--corpus DIR] [--out DIR] [--full] [--pgvector URL [--pgvector-table NAME]]
  lookup-knowledge query "<question>" [--domain D] [--limit N] [--json] [--index DIR] [--corpus DIR] [--pgvector URL [--pgvector-table NAME]]

  --pgvector URL keeps L1 in Postgres/pgvector (also read from LOOKUP_KNOWLEDGE_PGVECTOR_URL); it needs
  the optional packages @langchain/community and pg.
  lookup-knowledge eval --dataset DIR [--split NAME] [--variants L0,L1,L0+L1] [--out DIR] [--l0-weight W]
`;

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = { index: indexCommand, query: queryCommand, eval: evalCommand };

/** Runs one CLI command and returns its exit code; errors become one readable line, never a stack trace. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command === undefined) {
    process.stderr.write(name === undefined || name === "--help" || name === "help" ? USAGE : `Unknown command "${name}".\n${USAGE}`);
    return name === undefined || name === "--help" || name === "help" ? 0 : 2;
  }
  try {
    return await command(rest);
  } catch (error) {
    const message = error instanceof LookupKnowledgeError ? error.message : `lookup-knowledge: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`${message}\n`);
    return 1;
  }
}
