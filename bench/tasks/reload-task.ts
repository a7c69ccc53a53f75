import {
  createLookupKnowledgeTool,
  followKnowledgeBase,
  KnowledgeBase,
  TOOL_NAME,
  type TraceSink,
} from "../../src/index.js";
import { BenchError } from "../bench-error.js";
import { summarize, type LatencySummary } from "../measure/percentile.js";
import { benchChunks } from "./bench-chunks.js";
import type { KeepPartial, ReloadSpec } from "./task-spec.js";

/** Lookups timed before the reload, and after the swap. */
const STEADY_LOOKUPS = 300;
/** How often the follower reads the manifest (besides its file watcher). */
const POLL_MS = 100;

/** What the reload child measured. */
export interface ReloadResult {
  size: number;
  /** Follower poll interval, ms (the file watcher usually fires first). */
  pollMs: number;
  /** `save()` of the new generation into the followed folder, in the serving process. */
  saveMs: number;
  /** From the save's commit (its promise resolving, right after the manifest rename and the old folder's removal) to the end of the first lookup answered from the new generation; 0 when that lookup ended first. */
  commitToFirstAnswerMs: number;
  /** From the start of the save to the end of the first lookup answered from the new generation. */
  saveStartToFirstAnswerMs: number;
  /** Lookups before the reload (steady state). */
  before: LatencySummary;
  /** Lookups from the start of the save to the first answer from the new generation. */
  during: LatencySummary;
  /** Lookups after the swap. */
  after: LatencySummary;
  /** Lookups that failed at any point (must be 0). */
  failures: number;
  /** Lookups answered from the old generation after the commit. */
  oldAnswersAfterCommit: number;
  rssBytes: { before: number; peakDuring: number; after: number };
  /** Whether the garbage collector was run before the "after" figure (`--expose-gc`). */
  gcForced: boolean;
  /** Whether the replaced generation was garbage-collected once the lookups after the swap ran (a WeakRef to it came back empty); null without `--expose-gc`. */
  oldGenerationCollected: boolean | null;
}

/**
 * Serves lookups from a followed index while the same process saves a new generation into its
 * folder (as `serve --watch` does), and times how soon lookups answer from it, how slow they get
 * meanwhile, and what the swap costs in memory.
 */
export async function runReloadTask(
  spec: ReloadSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<ReloadResult> {
  const { chunks, queries } = await benchChunks(spec.dataset, spec.size);
  const built = await KnowledgeBase.fromChunks(chunks, {});
  await built.save(spec.indexDir);
  const followed = await followKnowledgeBase(spec.indexDir, {
    pollMs: POLL_MS,
    onWarning: log,
    onGeneration: ({ generation }) => log(`now serving ${generation}`),
  });
  const first = followed.generation;
  const generationOf = new Map<string, string | null>();
  const traceSink: TraceSink = {
    async append(record) {
      const line = record as { invocation_id: string; index_generation?: string | null };
      generationOf.set(line.invocation_id, line.index_generation ?? null);
      return true;
    },
  };
  const lookup = createLookupKnowledgeTool({ knowledgeBase: followed, traceSink });
  let failures = 0;
  let next = 0;
  /** One lookup: its duration and the generation it ran on. */
  const once = async (): Promise<{ ms: number; generation: string | null; doneAt: number }> => {
    // Requests reach a server through I/O: yield to the event loop as they would, or a loop of
    // lookups that never wait on I/O would starve the save's (and the watcher's) file callbacks.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const query = queries[next++ % queries.length];
    const t = performance.now();
    try {
      const message = await lookup.invoke({
        type: "tool_call",
        id: `reload-${next}`,
        name: TOOL_NAME,
        args: { query },
      });
      const id = (message.artifact as { invocationId: string }).invocationId;
      return { ms: performance.now() - t, generation: generationOf.get(id) ?? null, doneAt: performance.now() };
    } catch {
      failures++;
      return { ms: performance.now() - t, generation: null, doneAt: performance.now() };
    }
  };
  for (let i = 0; i < 50; i++) await once();
  const before: number[] = [];
  for (let i = 0; i < STEADY_LOOKUPS; i++) before.push((await once()).ms);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const rssBefore = process.memoryUsage().rss;
  keep({ size: spec.size, before: summarize(before) });
  log(`steady p50 ${summarize(before).p50.toFixed(2)} ms; saving a new generation`);

  const oldGeneration = new WeakRef(followed.current);
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const during: number[] = [];
  let committedAt: number | null = null;
  const saveStarted = performance.now();
  let saveError: unknown = null;
  const saving = built.save(spec.indexDir).then(
    () => (committedAt = performance.now()),
    (error: unknown) => (saveError = error ?? new Error("save failed")),
  );
  let oldAfterCommit = 0;
  let firstNewAt: number | null = null;
  const deadline = performance.now() + 600_000;
  while (firstNewAt === null) {
    if (saveError !== null)
      throw new BenchError(`reload ${spec.size}: the save of the new generation failed: ${String(saveError)}`);
    if (performance.now() > deadline)
      throw new BenchError(`reload ${spec.size}: no lookup answered from the new generation within 600 s of the save`);
    const run = await once();
    during.push(run.ms);
    if (run.generation !== null && run.generation !== first) firstNewAt = run.doneAt;
    else if (committedAt !== null) oldAfterCommit++;
  }
  await saving;
  const saveMs = (committedAt ?? performance.now()) - saveStarted;
  const after: number[] = [];
  for (let i = 0; i < STEADY_LOOKUPS; i++) after.push((await once()).ms);
  clearInterval(sampler);
  let oldGenerationCollected: boolean | null = null;
  if (gc !== undefined) {
    // Finalisation runs between turns: collect, let the loop turn, collect again.
    gc();
    await new Promise<void>((resolve) => setTimeout(resolve, 50));
    gc();
    oldGenerationCollected = oldGeneration.deref() === undefined;
  }
  const rssAfter = process.memoryUsage().rss;
  followed.close();
  await lookup.close();
  return {
    size: spec.size,
    pollMs: POLL_MS,
    saveMs,
    commitToFirstAnswerMs: Math.max(0, firstNewAt - (committedAt ?? firstNewAt)),
    saveStartToFirstAnswerMs: firstNewAt - saveStarted,
    before: summarize(before),
    during: summarize(during),
    after: summarize(after),
    failures,
    oldAnswersAfterCommit: oldAfterCommit,
    rssBytes: { before: rssBefore, peakDuring: peak, after: rssAfter },
    gcForced: gc !== undefined,
    oldGenerationCollected,
  };
}
