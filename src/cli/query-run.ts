import { LookupKnowledgeError } from "../errors.js";
import { KnowledgeBase } from "../knowledge-base/knowledge-base.js";
import type { VectorStoreL1Option } from "../knowledge-base/vector-store-option.js";
import { createLookupKnowledgeTool } from "../tool/lookup-knowledge-tool.js";
import type { LookupResult } from "../types.js";
import { applyScope, type AppliedScope } from "../access/access-scope.js";
import { groupScope } from "./group-scope.js";
import { stringValue, type CliIO, type ParsedCommand } from "./command-spec.js";
import { corpusWarnings } from "./corpus-check.js";
import { DEFAULT_CORPUS_DIR } from "./defaults.js";
import { buildAndSave } from "./index-build.js";
import { lookupArgs } from "./lookup-args.js";
import { openCliVectorStore } from "./pgvector-flags.js";
import { renderResult } from "./print-result.js";
import { stderrLine } from "./terminal-text.js";

/**
 * Loads the saved index and warns (stderr) when it comes from another folder or is out of date
 * with its corpus; builds and saves it first when there is none yet.
 */
async function loadOrBuild(
  indexDir: string,
  corpus: string | undefined,
  vectorStore: VectorStoreL1Option | undefined,
  io: CliIO,
): Promise<KnowledgeBase> {
  // Warnings quote paths, some read from the manifest: shown inert.
  const log = (line: string) => io.err(`${stderrLine(line)}\n`);
  let kb: KnowledgeBase;
  try {
    kb = await KnowledgeBase.load(indexDir, vectorStore ? { vectorStore } : {});
  } catch (error) {
    if (!(error instanceof LookupKnowledgeError) || error.code !== "INDEX_NOT_FOUND") throw error;
    const from = corpus ?? DEFAULT_CORPUS_DIR;
    log(`No index in ${indexDir} yet: building it from ${from} (once).`);
    return buildAndSave(from, indexDir, log, vectorStore);
  }
  for (const warning of await corpusWarnings(kb, { indexDir, corpus, defaultCorpus: DEFAULT_CORPUS_DIR })) log(warning);
  return kb;
}

/** Runs `lookup-knowledge query` once its command line is parsed: one lookup (of at most `limit` blocks) through the tool, printed for a person or as JSON. */
export async function runQuery(parsed: ParsedCommand, limit: number, io: CliIO): Promise<number> {
  const { values } = parsed;
  const query = parsed.positionals.join(" ").trim();
  const tracePath = values["no-trace"] === true ? null : stringValue(parsed, "trace");
  const store = await openCliVectorStore(values);
  let result: LookupResult;
  try {
    const kb = await loadOrBuild(String(values.index), stringValue(parsed, "corpus"), store.vectorStore, io);
    // The operator's own lookup reads everything unless --group narrows it; `*` says so explicitly.
    const access = groupScope("query", parsed.lists.group) ?? undefined;
    // An unknown --domain lists only the domains the groups may read.
    const args = lookupArgs(
      query,
      limit,
      stringValue(parsed, "domain"),
      access === undefined ? kb.domains : kb.access.domainsFor(applyScope(access) as AppliedScope),
    );
    const lookup = createLookupKnowledgeTool({
      knowledgeBase: kb,
      ...(tracePath !== undefined ? { tracePath } : {}),
      ...(access !== undefined ? { access } : {}),
    });
    try {
      const message = await lookup.invoke({ type: "tool_call", id: "cli", name: lookup.name, args });
      result = message.artifact as LookupResult;
    } finally {
      await lookup.close();
    }
  } finally {
    await store.close();
  }
  io.out(values.json === true ? `${JSON.stringify(result, null, 2)}\n` : `${renderResult(result)}\n`);
  return 0;
}
