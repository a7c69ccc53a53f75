import { join } from "node:path";
import { createRetrievalGraph, KnowledgeBase, readTraceFile, TOOL_NAME, type Chunk } from "../../src/index.js";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { BenchError } from "../bench-error.js";
import { loadSciFact } from "../dataset/load-scifact.js";
import { measureSystems, type SystemMeasurement } from "../measure/measure-systems.js";
import { summarize, type LatencySummary } from "../measure/percentile.js";
import type { BenchQuery, PreparedSystem } from "../systems/bench-system.js";
import { timed } from "../systems/bench-system.js";
import { createLangGraphFloor, graphNodeIds } from "../systems/langgraph-floor.js";
import { createLangChainEnsemble } from "../systems/langchain-ensemble.js";
import { createToolSystem } from "../systems/lookup-tool.js";
import { createRawFlexSearch } from "../systems/raw-flexsearch.js";
import { createRawHnswlib } from "../systems/raw-hnswlib.js";
import {
  createEmbedQuerySystem,
  createL0System,
  createL1System,
  createTraceAppendSystem,
} from "../systems/stage-systems.js";
import type { KeepPartial, QuerySpec } from "./task-spec.js";

/** What the query child measured. */
export interface QueryResult {
  size: number;
  queryCount: number;
  /** Nodes of our compiled retrieval graph, and so of the floor graph. */
  graphNodes: string[];
  /** `KnowledgeBase.load` in this process (the load child's figure is the fresh-process one). */
  loadMs: number;
  /** Set-up the bench did for the other systems, ms: document vectors, raw indexes, LangChain stores. */
  setupMs: Record<string, number>;
  systems: SystemMeasurement[];
  /** p50/p95/... per stage from the tool's `artifact.timings`; null when the artifact has none. */
  toolStages: Record<string, LatencySummary> | null;
  /** Timed tool calls whose artifact had no `timings`. */
  toolCallsWithoutTimings: number;
  /** Peak resident set of this process (our index plus every baseline's), KiB. */
  maxRssKiB: number;
}

/** Texts embedded per `embedDocuments` call for the raw and LangChain vector stores. */
const EMBED_BATCH = 512;

/** The chunk text our build embeds for a one-chunk-per-document corpus: breadcrumb (the title), then the text. */
function embeddedText(chunk: Chunk): string {
  return [chunk.breadcrumb.join(" \n "), chunk.content].filter((part) => part.length > 0).join("\n");
}

async function embedAll(embeddings: EmbeddingsInterface, chunks: readonly Chunk[]): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    vectors.push(...(await embeddings.embedDocuments(chunks.slice(start, start + EMBED_BATCH).map(embeddedText))));
  }
  return vectors;
}

/**
 * Loads our index, builds the raw engines and LangChain's ensemble over the same chunks and
 * vectors, and times all systems side by side on the same queries (see `measureSystems`).
 */
export async function runQueryTask(
  spec: QuerySpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<QueryResult> {
  const { queries: texts } = await loadSciFact(spec.dataset);
  const { value: kb, ms: loadMs } = await timed(() => KnowledgeBase.load(spec.indexDir));
  const embeddings = kb.embeddings;
  if (embeddings === null)
    throw new BenchError("the saved index has no embeddings; the bench needs the default embedder.");
  const graphNodes = graphNodeIds(createRetrievalGraph({ knowledgeBase: kb, tracePath: null }));
  const nodeCount = graphNodes.length;
  log(
    `loaded ${kb.chunks.length} chunks in ${(loadMs / 1000).toFixed(2)} s; retrieval graph has ${nodeCount} nodes; setting up the other systems`,
  );

  const setupMs: Record<string, number> = {};
  const { value: docVectors, ms: embedMs } = await timed(() => embedAll(embeddings, kb.chunks));
  setupMs.document_vectors = embedMs;
  const queryVectors = await Promise.all(texts.map((text) => embeddings.embedQuery(text)));
  const queries: BenchQuery[] = texts.map((text, index) => ({ index, text, vector: queryVectors[index] }));

  const prepared: Record<string, PreparedSystem> = {};
  const prepare = async (id: string, make: () => Promise<PreparedSystem>) => {
    prepared[id] = await make();
    setupMs[id] = prepared[id].setupMs;
    log(`set up ${id} in ${(prepared[id].setupMs / 1000).toFixed(1)} s`);
  };
  await prepare("langgraph_floor", () => createLangGraphFloor(nodeCount));
  await prepare("raw_flexsearch", () => createRawFlexSearch(kb.chunks));
  await prepare("raw_hnswlib", () => createRawHnswlib(docVectors, { ...kb.settings.hnsw, efSearch: 100 }));
  await prepare("langchain_ensemble", () => createLangChainEnsemble(kb.chunks, docVectors, embeddings));
  keep({ size: spec.size, loadMs, setupMs });

  const toolTrace = join(spec.workDir, "tool-trace.jsonl");
  const tool = createToolSystem(kb, toolTrace);
  // One real lookup gives the trace record that the "trace append alone" system writes.
  await tool.system.run(queries[0]);
  const records = (await readTraceFile(toolTrace)).records;
  const record = records[records.length - 1];
  if (record === undefined || record.tool_name !== TOOL_NAME)
    throw new BenchError(`the tool wrote no trace line to ${toolTrace}.`);

  const systems = [
    prepared.langgraph_floor.system,
    prepared.raw_flexsearch.system,
    prepared.raw_hnswlib.system,
    tool.system,
    createL0System(kb),
    createL1System(kb),
    createEmbedQuerySystem(embeddings),
    createTraceAppendSystem(join(spec.workDir, "append-trace.jsonl"), record),
    prepared.langchain_ensemble.system,
  ];
  const measured = await measureSystems(systems, queries, spec.measure, {
    log,
    afterWarmup: () => {
      tool.collect(true);
      (globalThis as { gc?: () => void }).gc?.();
    },
  });
  const stages = Object.entries(tool.stageSamples);
  return {
    size: spec.size,
    queryCount: queries.length,
    graphNodes,
    loadMs,
    setupMs,
    systems: measured,
    toolStages:
      stages.length === 0 ? null : Object.fromEntries(stages.map(([stage, samples]) => [stage, summarize(samples)])),
    toolCallsWithoutTimings: tool.callsWithoutTimings(),
    maxRssKiB: process.resourceUsage().maxRSS,
  };
}
