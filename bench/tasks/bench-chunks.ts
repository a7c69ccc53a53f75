import { beirDocumentToChunk } from "../../src/eval/beir/to-chunks.js";
import type { Chunk } from "../../src/index.js";
import { loadSciFact } from "../dataset/load-scifact.js";
import { replicateCorpus } from "../dataset/replicate-corpus.js";

/**
 * The `size` chunks of the benchmark corpus, one per (replicated) SciFact document, made the way
 * the BEIR eval makes them, and the test claims as queries.
 */
export async function benchChunks(
  dataset: string,
  size: number,
): Promise<{ chunks: Chunk[]; queries: string[]; generateMs: number }> {
  const start = performance.now();
  const { docs, queries } = await loadSciFact(dataset);
  const chunks = replicateCorpus(docs, size).map(beirDocumentToChunk);
  return { chunks, queries, generateMs: performance.now() - start };
}
