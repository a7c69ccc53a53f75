import { join } from "node:path";
import { createLookupKnowledgeTool, KnowledgeBase, TOOL_NAME } from "../../src/index.js";
import { loadSciFact } from "../dataset/load-scifact.js";
import { summarize, type LatencySummary } from "../measure/percentile.js";
import type { KeepPartial, LoadSpec } from "./task-spec.js";

/** What the load child measured: a fresh process that loads the index and serves. */
export interface LoadResult {
  size: number;
  /** `KnowledgeBase.load(dir)` wall time in a fresh process. */
  loadMs: number;
  /** Resident set right after the load, bytes. */
  rssAfterLoadBytes: number;
  /** The test claims (all, or the first `serveQueries`) once each through the traced tool, right after the load (cold-ish figures). */
  serve: LatencySummary;
  /** Peak resident set of the load-and-serve process, KiB. */
  maxRssKiB: number;
}

/** Loads the saved index and answers every query once, as a freshly started agent would. */
export async function runLoadTask(spec: LoadSpec, keep: KeepPartial, log: (line: string) => void): Promise<LoadResult> {
  const { queries: all } = await loadSciFact(spec.dataset);
  const queries = spec.serveQueries === null ? all : all.slice(0, spec.serveQueries);
  const start = performance.now();
  const kb = await KnowledgeBase.load(spec.indexDir);
  const loadMs = performance.now() - start;
  const rssAfterLoadBytes = process.memoryUsage().rss;
  keep({ size: spec.size, loadMs, rssAfterLoadBytes });
  log(`loaded in ${(loadMs / 1000).toFixed(2)} s; serving ${queries.length} queries`);

  const lookup = createLookupKnowledgeTool({ knowledgeBase: kb, tracePath: join(spec.workDir, "serve-trace.jsonl") });
  const durations: number[] = [];
  for (const [i, query] of queries.entries()) {
    const t = performance.now();
    await lookup.invoke({ type: "tool_call", id: `serve-${i}`, name: TOOL_NAME, args: { query } });
    durations.push(performance.now() - t);
  }
  return {
    size: spec.size,
    loadMs,
    rssAfterLoadBytes,
    serve: summarize(durations),
    maxRssKiB: process.resourceUsage().maxRSS,
  };
}
