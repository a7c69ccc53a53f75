import { connectPgVectorStore, KnowledgeBase } from "../../src/index.js";
import { dirBytes, fileSizes } from "../measure/dir-bytes.js";
import { benchChunks } from "../tasks/bench-chunks.js";
import type { KeepPartial } from "../tasks/task-spec.js";
import { peakRssBytes } from "./process-memory.js";
import type { BuildVariantResult, BuildVariantSpec, StoreCallTimes } from "./sizing-spec.js";
import { timeStoreCalls } from "./store-call-timer.js";

/** Bytes of the saved vector graph (`<generation>/vectors.hnsw`). */
export function vectorFileBytesOf(files: Record<string, number>): number {
  return Object.entries(files).reduce((sum, [name, bytes]) => (name.endsWith("vectors.hnsw") ? sum + bytes : sum), 0);
}

/**
 * `KnowledgeBase.fromChunks` over the replicated SciFact chunks, HNSW only or with the pgvector
 * store (which also writes one row per chunk), then `save`. The store's calls are timed around.
 */
export async function runBuildVariant(
  spec: BuildVariantSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<BuildVariantResult> {
  const { chunks, generateMs } = await benchChunks(spec.dataset, spec.size);
  let storeCalls: StoreCallTimes | null = null;
  const connection =
    spec.variant === "store" && spec.pg
      ? await connectPgVectorStore({ connectionString: spec.pg.url, tableName: spec.pg.tableName })
      : null;
  if (connection) storeCalls = timeStoreCalls(connection.store);
  try {
    const phaseStartMs: Record<string, number> = {};
    const start = performance.now();
    const kb = await KnowledgeBase.fromChunks(chunks, {
      ...(connection ? { vectorStore: connection } : {}),
      onProgress: ({ phase }) => void (phaseStartMs[phase] ??= performance.now() - start),
    });
    const buildMs = performance.now() - start;
    log(`${spec.variant}: built ${chunks.length} chunks in ${(buildMs / 1000).toFixed(1)} s`);
    keep({ variant: spec.variant, size: spec.size, buildMs, storeCalls });
    const saveStart = performance.now();
    await kb.save(spec.indexDir);
    const saveMs = performance.now() - saveStart;
    const files = await fileSizes(spec.indexDir);
    return {
      variant: spec.variant,
      size: spec.size,
      dimensions: kb.settings.embedder.dimensions,
      generateMs,
      buildMs,
      phaseStartMs,
      storeCalls,
      saveMs,
      indexBytes: await dirBytes(spec.indexDir),
      vectorFileBytes: vectorFileBytesOf(files),
      files,
      fingerprint: kb.fingerprint,
      maxRssBytes: peakRssBytes(),
    };
  } finally {
    await connection?.store.end();
  }
}
