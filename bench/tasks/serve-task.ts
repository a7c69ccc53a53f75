import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { KnowledgeBase } from "../../src/index.js";
import { DEFAULT_MAX_CALLS_IN_FLIGHT, DEFAULT_MAX_QUEUED_CALLS } from "../../src/mcp/call-lane.js";
import { summarize, type LatencySummary } from "../measure/percentile.js";
import { connectClient, startFlood, timedLookups, type FloodCounts } from "../serve/mcp-load.js";
import { startServeProcess } from "../serve/serve-process.js";
import { benchChunks } from "./bench-chunks.js";
import type { KeepPartial, ServeSpec } from "./task-spec.js";

/** Lookups another token times while idle, and again while one token floods: each test claim once. */
const TIMED_LOOKUPS = 300;
/** Untimed lookups before anything is timed (JIT, caches). */
const WARMUP_LOOKUPS = 30;
/** The flood of the issue: one token keeps 5 batches of 100 lookups in flight. */
const FLOOD = { concurrent: 5, batchSize: 100 };
/** Client counts of the load rows, and the lookups each client makes one after another. */
const LOAD_ROWS = [
  { clients: 10, callsEach: 40 },
  { clients: 50, callsEach: 10 },
];

/** One load row: `clients` SDK clients, each with its own token, each making lookups one after another. */
export interface ServeLoadRow {
  clients: number;
  calls: number;
  wallMs: number;
  /** Lookups answered per second over the row's wall time. */
  throughputPerS: number;
  latency: LatencySummary;
}

/** What the serve child measured. */
export interface ServeResult {
  size: number;
  chunkCount: number;
  /** The server's fair share per token (its defaults: no flag is given). */
  fairShare: { maxCallsInFlight: number; maxQueuedCalls: number };
  /** Another token's lookups with nothing else running. */
  idle: LatencySummary;
  /** The same token's lookups while one token floods. */
  underFlood: LatencySummary;
  flood: typeof FLOOD & FloodCounts;
  /** underFlood p50 and p99 over idle p50 (the targets: 3 and 10). */
  ratios: { p50: number; p99: number };
  targetsMet: { p50Within3x: boolean; p99Within10x: boolean };
  load: ServeLoadRow[];
  /** The server's exit code after SIGTERM (0 expected). */
  serverExit: number | null;
}

/** Builds a `size`-chunk SciFact index, serves it with `serve --http` in a child process, and times SDK clients against it. */
export async function runServeTask(
  spec: ServeSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<ServeResult> {
  const { chunks, queries } = await benchChunks(spec.dataset, spec.size);
  const indexDir = join(spec.workDir, "index");
  const kb = await KnowledgeBase.fromChunks(chunks);
  await kb.save(indexDir);
  log(`built and saved ${kb.chunks.length} chunks; starting serve --http`);
  const token = (name: string) => `bench-${name}-token-0123456789`;
  const clientTokens = Array.from({ length: Math.max(...LOAD_ROWS.map((row) => row.clients)) }, (_, i) =>
    token(`client${i}`),
  );
  const tokenFile = join(spec.workDir, "tokens.txt");
  await writeFile(tokenFile, [token("flood"), token("other"), ...clientTokens].map((t) => `${t} *\n`).join(""));
  const served = await startServeProcess([
    "--index",
    indexDir,
    "--token-file",
    tokenFile,
    "--trace",
    join(spec.workDir, "trace.jsonl"),
  ]);
  try {
    const other = await connectClient(served.url, token("other"));
    await timedLookups(other, queries, WARMUP_LOOKUPS, 0);
    const idle = summarize(await timedLookups(other, queries, TIMED_LOOKUPS, WARMUP_LOOKUPS));
    keep({ size: spec.size, idle });
    log(`idle p50 ${idle.p50.toFixed(1)} ms; flooding`);
    const flood = startFlood(served.url, token("flood"), queries, FLOOD);
    // Let the flood's first batches arrive before the first timed lookup.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const underFloodTimes = await timedLookups(other, queries, TIMED_LOOKUPS, WARMUP_LOOKUPS);
    const counts = await flood.stop();
    const underFlood = summarize(underFloodTimes);
    log(`under flood p50 ${underFlood.p50.toFixed(1)} ms, p99 ${underFlood.p99.toFixed(1)} ms`);
    await other.close();
    const ratios = { p50: underFlood.p50 / idle.p50, p99: underFlood.p99 / idle.p50 };
    const load: ServeLoadRow[] = [];
    for (const row of LOAD_ROWS) {
      const clients = await Promise.all(clientTokens.slice(0, row.clients).map((t) => connectClient(served.url, t)));
      const began = performance.now();
      const times = await Promise.all(
        clients.map((client, i) => timedLookups(client, queries, row.callsEach, i * row.callsEach)),
      );
      const wallMs = performance.now() - began;
      const calls = row.clients * row.callsEach;
      load.push({
        clients: row.clients,
        calls,
        wallMs,
        throughputPerS: calls / (wallMs / 1000),
        latency: summarize(times.flat()),
      });
      log(`${row.clients} clients: ${(calls / (wallMs / 1000)).toFixed(0)} lookups/s`);
      await Promise.all(clients.map((client) => client.close()));
    }
    return {
      size: spec.size,
      chunkCount: kb.chunks.length,
      fairShare: { maxCallsInFlight: DEFAULT_MAX_CALLS_IN_FLIGHT, maxQueuedCalls: DEFAULT_MAX_QUEUED_CALLS },
      idle,
      underFlood,
      flood: { ...FLOOD, ...counts },
      ratios,
      targetsMet: { p50Within3x: ratios.p50 <= 3, p99Within10x: ratios.p99 <= 10 },
      load,
      serverExit: await served.stop(),
    };
  } catch (error) {
    await served.stop();
    throw error;
  }
}
