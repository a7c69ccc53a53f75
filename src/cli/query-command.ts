import { join } from "node:path";
import { LookupKnowledgeError } from "../errors.js";
import { KnowledgeBase } from "../knowledge-base/knowledge-base.js";
import { createLookupKnowledgeTool } from "../tool/lookup-knowledge-tool.js";
import type { LookupResult } from "../types.js";
import { integerValue, stringValue, type CommandSpec } from "./command-spec.js";
import { DEFAULT_TRACE_PATH } from "../graph/options.js";
import { DEFAULT_LIMIT, DEFAULT_MAX_LIMIT } from "../tool/schema.js";
import { DEFAULT_CORPUS_DIR, DEFAULT_INDEX_DIR } from "./defaults.js";
import { buildAndSave } from "./index-command.js";
import { renderResult } from "./print-result.js";
import { corpusChangedSince } from "./stale-index.js";
import { openCliVectorStore, PGVECTOR_FLAGS } from "./pgvector-flags.js";
import type { VectorStoreL1Option } from "../knowledge-base/vector-store-option.js";

/** Loads the saved index, or builds and saves it first when there is none yet. */
async function loadOrBuild(indexDir: string, corpusDir: string, vectorStore: VectorStoreL1Option | undefined): Promise<KnowledgeBase> {
  try {
    const kb = await KnowledgeBase.load(indexDir, vectorStore ? { vectorStore } : {});
    if (await corpusChangedSince(corpusDir, join(indexDir, "manifest.json"))) {
      process.stderr.write(`Warning: files in ${corpusDir} changed after the index in ${indexDir} was built; run \`lookup-knowledge index --corpus ${corpusDir} --out ${indexDir}\` to include the changes.\n`);
    }
    return kb;
  } catch (error) {
    if (!(error instanceof LookupKnowledgeError) || error.code !== "INDEX_NOT_FOUND") throw error;
    process.stderr.write(`No index in ${indexDir} yet: building it from ${corpusDir} (once).\n`);
    return buildAndSave(corpusDir, indexDir, (line) => process.stderr.write(`${line}\n`), vectorStore);
  }
}

/** `lookup-knowledge query "<question>"`: one lookup through the tool, printed for a person or as JSON. */
export const QUERY_COMMAND: CommandSpec = {
  name: "query",
  summary: "Answer one question from the saved index (building it first when there is none).",
  details: "Prints the layer, the L1 status, the relevance, the hints and every evidence block; --json prints the lookup's full artifact and nothing else on stdout.",
  positionals: [{ name: "question", description: "The question, quoted (several words are joined with spaces).", required: true }],
  options: {
    domain: { type: "string", value: "D", description: "Search only this domain (one of the index's domains)." },
    limit: { type: "string", value: "N", default: String(DEFAULT_LIMIT), description: `Evidence blocks to return, 1 to ${DEFAULT_MAX_LIMIT}.` },
    json: { type: "boolean", default: false, description: "Print the lookup result as JSON on stdout (messages go to stderr)." },
    index: { type: "string", value: "DIR", default: DEFAULT_INDEX_DIR, description: "The saved index to answer from." },
    corpus: { type: "string", value: "DIR", default: DEFAULT_CORPUS_DIR, description: "The corpus to build the index from when there is none." },
    trace: { type: "string", value: "FILE", description: `Append the JSONL trace line to FILE (default: ${DEFAULT_TRACE_PATH}).` },
    "no-trace": { type: "boolean", default: false, description: "Write no trace line." },
    ...PGVECTOR_FLAGS,
  },
  examples: ['lookup-knowledge query "How do I roll back a canary release?"', 'lookup-knowledge query "refund approval limits" --domain billing --json'],
  async run(parsed, io) {
    const { values } = parsed;
    const query = parsed.positionals.join(" ").trim();
    const limit = integerValue("query", "limit", String(values.limit), 1, DEFAULT_MAX_LIMIT);
    const store = await openCliVectorStore(values);
    let result: LookupResult;
    try {
      const kb = await loadOrBuild(String(values.index), String(values.corpus), store.vectorStore);
      const tracePath = values["no-trace"] === true ? null : stringValue(parsed, "trace");
      const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, ...(tracePath !== undefined ? { tracePath } : {}) });
      const domain = stringValue(parsed, "domain");
      const args = { query, limit, ...(domain ? { domain } : {}) };
      const message = await lookup.invoke({ type: "tool_call", id: "cli", name: lookup.name, args });
      result = message.artifact as LookupResult;
      await lookup.close();
    } finally {
      await store.close();
    }
    io.out(values.json === true ? `${JSON.stringify(result, null, 2)}\n` : `${renderResult(result)}\n`);
    return 0;
  },
};
