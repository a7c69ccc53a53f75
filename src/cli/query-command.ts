import { join } from "node:path";
import { parseArgs } from "node:util";
import { LookupKnowledgeError } from "../errors.js";
import { KnowledgeBase } from "../knowledge-base/knowledge-base.js";
import { createLookupKnowledgeTool } from "../tool/lookup-knowledge-tool.js";
import type { LookupResult } from "../types.js";
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

/** `lookup-knowledge query "<text>" [--domain D] [--limit N] [--json] [--index DIR] [--corpus DIR] [--trace FILE|--no-trace]` */
export async function queryCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      domain: { type: "string" },
      limit: { type: "string", default: "5" },
      json: { type: "boolean", default: false },
      index: { type: "string", default: DEFAULT_INDEX_DIR },
      corpus: { type: "string", default: DEFAULT_CORPUS_DIR },
      trace: { type: "string" },
      "no-trace": { type: "boolean", default: false },
      ...PGVECTOR_FLAGS,
    },
  });
  const query = positionals.join(" ").trim();
  if (query.length === 0) {
    process.stderr.write('Usage: lookup-knowledge query "<question>" [--domain D] [--limit N] [--json]\n');
    return 2;
  }
  const store = await openCliVectorStore(values);
  let result: LookupResult;
  try {
    const kb = await loadOrBuild(values.index, values.corpus, store.vectorStore);
    const tracePath = values["no-trace"] ? null : values.trace;
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, ...(tracePath !== undefined ? { tracePath } : {}) });
    const args = { query, limit: Number(values.limit), ...(values.domain ? { domain: values.domain } : {}) };
    const message = await lookup.invoke({ type: "tool_call", id: "cli", name: lookup.name, args });
    result = message.artifact as LookupResult;
    await lookup.close();
  } finally {
    await store.close();
  }
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${renderResult(result)}\n`);
  return 0;
}
