import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  connectPgVectorStore,
  KnowledgeBase,
  TOOL_NAME,
  createLookupKnowledgeTool,
  type LookupResult,
} from "../../src/index.js";
import { loadSciFact } from "../dataset/load-scifact.js";
import { fileSizes } from "../measure/dir-bytes.js";
import { summarize } from "../measure/percentile.js";
import type { KeepPartial } from "../tasks/task-spec.js";
import { vectorFileBytesOf } from "./build-variant.js";
import { gcAvailable, peakRssBytes, settledMemory } from "./process-memory.js";
import type { LoadVariantResult, LoadVariantSpec } from "./sizing-spec.js";

/** Milliseconds to read and SHA-256 the index's vector file: what a load spends on it before hnswlib parses it. */
async function readAndHashVectorFile(indexDir: string): Promise<number> {
  const { generation } = JSON.parse(await readFile(join(indexDir, "manifest.json"), "utf8")) as { generation: string };
  const start = performance.now();
  const bytes = await readFile(join(indexDir, generation, "vectors.hnsw"));
  createHash("sha256").update(bytes).digest("hex");
  return performance.now() - start;
}

/**
 * The claims to serve, read in a frame of their own: an async function keeps the value it last
 * awaited alive, and the whole SciFact corpus would then count in the memory before the load.
 */
async function serveClaims(dataset: string, count: number): Promise<string[]> {
  const { queries } = await loadSciFact(dataset);
  return queries.slice(0, count);
}

/**
 * A serving instance in a fresh process: `KnowledgeBase.load(dir)` (HNSW) or
 * `KnowledgeBase.load(dir, { vectorStore })` (pgvector), memory after a forced GC, then a few
 * tool lookups and memory again.
 */
export async function runLoadVariant(
  spec: LoadVariantSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<LoadVariantResult> {
  const claims = await serveClaims(spec.dataset, spec.serveQueries);
  const connectStart = performance.now();
  const connection =
    spec.variant === "store" && spec.pg
      ? await connectPgVectorStore({ connectionString: spec.pg.url, tableName: spec.pg.tableName })
      : null;
  const connectMs = connection ? performance.now() - connectStart : 0;
  try {
    const beforeLoad = settledMemory();
    const start = performance.now();
    const kb = await KnowledgeBase.load(spec.indexDir, connection ? { vectorStore: connection } : {});
    const loadMs = performance.now() - start;
    const afterLoad = settledMemory();
    keep({ variant: spec.variant, size: spec.size, loadMs, afterLoad });
    log(`${spec.variant}: loaded in ${(loadMs / 1000).toFixed(2)} s, rss ${(afterLoad.rss / 2 ** 20).toFixed(0)} MiB`);
    const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: null });
    const durations: number[] = [];
    const l1Statuses: Record<string, number> = {};
    for (const [i, query] of claims.entries()) {
      const t = performance.now();
      const message = await lookup.invoke({ type: "tool_call", id: `serve-${i}`, name: TOOL_NAME, args: { query } });
      durations.push(performance.now() - t);
      const status = (message as { artifact?: LookupResult }).artifact?.l1Status ?? "none";
      l1Statuses[status] = (l1Statuses[status] ?? 0) + 1;
    }
    const afterServe = settledMemory();
    const maxRssBytes = peakRssBytes();
    return {
      variant: spec.variant,
      size: spec.size,
      gcAvailable: gcAvailable(),
      beforeLoad,
      connectMs,
      loadMs,
      afterLoad,
      afterServe,
      serve: summarize(durations),
      l1Statuses,
      maxRssBytes,
      vectorFileBytes: vectorFileBytesOf(await fileSizes(spec.indexDir)),
      vectorFileReadHashMs: await readAndHashVectorFile(spec.indexDir),
    };
  } finally {
    await connection?.store.end();
  }
}
