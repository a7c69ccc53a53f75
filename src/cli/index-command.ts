import type { CommandSpec } from "./command-spec.js";
import { DEFAULT_CORPUS_DIR, DEFAULT_INDEX_DIR, DEFAULT_LOCK_WAIT_SECONDS } from "./defaults.js";
import { PGVECTOR_FLAGS } from "./pgvector-flags.js";
import { stderrLine } from "./terminal-text.js";

/** `lookup-knowledge index`: updates an existing index incrementally unless `--full`. */
export const INDEX_COMMAND: CommandSpec = {
  name: "index",
  summary: "Build the index of a Markdown corpus or of LangChain documents, or update the one already in --out.",
  details: `Run on a folder that holds an index built from a corpus, it updates that index: only files whose content changed are read again. Progress and the summary go to stderr. One run writes to --out at a time: another waits for its lock (--lock-wait), and leftovers of interrupted runs are removed first. With --documents it reads JSONL instead, one {"pageContent": "...", "metadata": {...}} object a line (a line that is not one is skipped and reported by its number, never quoted; a line over 64 MiB is skipped unread), and syncs an index built from documents as the library's kb.syncDocuments does.`,
  options: {
    corpus: {
      type: "string",
      value: "DIR",
      description: `The Markdown corpus folder (default: ${DEFAULT_CORPUS_DIR}); not with --documents.`,
    },
    documents: {
      type: "string",
      value: "FILE",
      description:
        "Index LangChain documents from a JSONL file (- reads stdin) instead of a corpus folder; not with --corpus or --watch.",
    },
    cleanup: {
      type: "string",
      value: "MODE",
      description:
        "With --documents, what a sync does with indexed sources the file does not hold: incremental keeps them, full removes them (default: incremental).",
    },
    "source-id-key": {
      type: "string",
      value: "KEY",
      description:
        "With --documents, the metadata key of each document's source id; documents with the same one are one source (default: source).",
    },
    out: { type: "string", value: "DIR", default: DEFAULT_INDEX_DIR, description: "Where the index is saved." },
    full: { type: "boolean", default: false, description: "Rebuild from scratch instead of updating." },
    "lock-wait": {
      type: "string",
      value: "SECONDS",
      default: String(DEFAULT_LOCK_WAIT_SECONDS),
      description:
        "How long to wait for another index run writing to --out (its lock) before failing; 0 fails at once.",
    },
    watch: {
      type: "boolean",
      default: false,
      description:
        "After the first run, keep watching the corpus and update the index after each batch of changes (Ctrl-C stops).",
    },
    ...PGVECTOR_FLAGS,
  },
  examples: [
    "lookup-knowledge index --corpus docs --out .lookup-knowledge/index",
    "lookup-knowledge index --full",
    "lookup-knowledge index --watch",
    "lookup-knowledge index --documents docs.jsonl --cleanup full",
    "my-exporter | lookup-knowledge index --documents - --source-id-key url",
  ],
  async run(parsed, io) {
    const { runIndex } = await import("./index-build.js");
    return runIndex(parsed, (line) => io.err(`${stderrLine(line)}\n`));
  },
};
