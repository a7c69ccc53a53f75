import type { CommandSpec } from "./command-spec.js";
import { DEFAULT_INDEX_DIR } from "./defaults.js";
import { PGVECTOR_FLAGS } from "./pgvector-flags.js";

/** `lookup-knowledge verify`: every byte of a saved index checked, every part decoded. */
export const VERIFY_COMMAND: CommandSpec = {
  name: "verify",
  summary: "Check every byte of a saved index against its SHA-256 and CRC-32, and decode every part.",
  details:
    "A load checks each data file's CRC-32, which catches a truncated, damaged or swapped file; verify also checks each file's SHA-256 and inflates every chunk's text, as Lucene's CheckIndex reads a whole index. It prints one line and exits 0 when the index is whole, and names the first damaged part and exits 1 otherwise. An index whose L1 is in pgvector is checked with its local graph; the rows in the database are not read.",
  options: {
    index: { type: "string", value: "DIR", default: DEFAULT_INDEX_DIR, description: "The saved index to check." },
    ...PGVECTOR_FLAGS,
  },
  examples: ["lookup-knowledge verify --index .lookup-knowledge/index"],
  async run(parsed, io) {
    const { runVerify } = await import("./verify-run.js");
    return runVerify(parsed, io);
  },
};
