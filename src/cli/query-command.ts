import { DEFAULT_TRACE_PATH } from "../graph/options.js";
import { DEFAULT_LIMIT, DEFAULT_MAX_LIMIT } from "../graph/lookup-schema.js";
import { integerValue, type CommandSpec } from "./command-spec.js";
import { DEFAULT_CORPUS_DIR, DEFAULT_INDEX_DIR } from "./defaults.js";
import { PGVECTOR_FLAGS } from "./pgvector-flags.js";

/** `lookup-knowledge query "<question>"`: one lookup through the tool, printed for a person or as JSON. */
export const QUERY_COMMAND: CommandSpec = {
  name: "query",
  summary: "Answer one question from the saved index (building it first when there is none).",
  details: [
    "Prints the layer, the L1 status, the relevance, the hints and every evidence block; --json prints the lookup's full artifact and nothing else on stdout (messages go to stderr).",
    "Before answering, it warns on stderr when the index was built from another folder than --corpus (or than ./corpus when that exists and --corpus is absent), or when Markdown files of its corpus were added, removed or changed in content since it was built (a touch is not a change).",
  ].join("\n"),
  positionals: [
    { name: "question", description: "The question, quoted (several words are joined with spaces).", required: true },
  ],
  options: {
    domain: {
      type: "string",
      value: "D",
      description: "Search only this domain, one of the index's domains (case and spaces around it do not matter).",
    },
    limit: {
      type: "string",
      value: "N",
      default: String(DEFAULT_LIMIT),
      description: `Evidence blocks to return, 1 to ${DEFAULT_MAX_LIMIT}.`,
    },
    group: {
      type: "string",
      value: "NAME",
      multiple: true,
      description:
        "Answer as a member of group NAME (repeat for several): only files whose frontmatter `access` names one of the groups, and unlabelled ones, are read. Without it, every file is read.",
    },
    json: {
      type: "boolean",
      default: false,
      description: "Print the lookup result as JSON on stdout, and nothing else.",
    },
    index: { type: "string", value: "DIR", default: DEFAULT_INDEX_DIR, description: "The saved index to answer from." },
    corpus: {
      type: "string",
      value: "DIR",
      description: `The corpus the index should come from: built from when there is no index (default: ${DEFAULT_CORPUS_DIR}), checked against otherwise (default: the folder the index was built from).`,
    },
    trace: {
      type: "string",
      value: "FILE",
      description: `Append the JSONL trace line to FILE (default: ${DEFAULT_TRACE_PATH}).`,
    },
    "no-trace": { type: "boolean", default: false, description: "Write no trace line." },
    ...PGVECTOR_FLAGS,
  },
  examples: [
    'lookup-knowledge query "How do I roll back a canary release?"',
    'lookup-knowledge query "refund approval limits" --domain billing --json',
    'lookup-knowledge query "salary bands" --group hr --group managers',
  ],
  async run(parsed, io) {
    // Checked before the lookup machinery loads, so that a bad --limit fails at once.
    const limit = integerValue("query", "limit", String(parsed.values.limit), 1, DEFAULT_MAX_LIMIT);
    const { runQuery } = await import("./query-run.js");
    return runQuery(parsed, limit, io);
  },
};
