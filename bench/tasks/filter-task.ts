import { existsSync, readdirSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { applyScope, type AppliedScope } from "../../src/access/access-scope.js";
import type { ChunkFilter } from "../../src/access/chunk-filter.js";
import {
  EXACT_SCAN_MAX_CHUNKS,
  exactNearest,
  LabelVectorCache,
  OVERSAMPLE_FACTOR,
  OVERSAMPLE_MAX_DEPTH,
  OVERSAMPLE_MAX_SHARE,
} from "../../src/l1/exact-search.js";
import { VECTOR_INDEX_DEFAULTS, VectorIndex } from "../../src/l1/vector-index.js";
import { decodeVectorLabels } from "../../src/l1/vector-labels.js";
import { KnowledgeBase, type LookupResult } from "../../src/index.js";
import { BenchError } from "../bench-error.js";
import { measureSystems } from "../measure/measure-systems.js";
import { summarize, type LatencySummary } from "../measure/percentile.js";
import type { BenchQuery } from "../systems/bench-system.js";
import { createToolSystem, type ToolSystem } from "../systems/lookup-tool.js";
import { benchChunks } from "./bench-chunks.js";
import {
  countFor,
  domainOf,
  groupOf,
  labelChunks,
  percentLabel,
  sampleIds,
  SELECTIVITIES,
  type FilterLabelCounts,
} from "./filter-labels.js";
import type { FilterSpec, KeepPartial } from "./task-spec.js";

/** Neighbours compared for recall. */
const RECALL_K = 10;
/** Seed of the admitted sets of the plan rows (one per size, added to it). */
const PLAN_SEED = 0x9a7e_0000;
/** Untimed calls per plan and size before the timed ones. */
const PLAN_WARMUP = 20;

/** Plan L1 takes for a filter: none, the exact scan of the admitted set, an oversampled unfiltered search, or the graph with the filter inside. */
export type L1Plan = "unfiltered" | "exact" | "oversampled" | "hnsw";

/** The tool's L1 k (the default `l1.k`), which decides whether the oversampled plan applies. */
const TOOL_L1_K = 20;

/** One row of the filtered-lookup table. */
export interface FilterRow {
  id: string;
  kind: "none" | "access" | "domain";
  /** Share of the chunks admitted (1 for the unfiltered row). */
  selectivity: number;
  /** The group of the scope, or the forced domain; null for the unfiltered tool. */
  value: string | null;
  /** Chunks the filter admits (`kb.access.filter(...).size`; every chunk when it is null). */
  admitted: number;
  /** The plan `VectorIndex.search` picks for it (exact scan up to EXACT_SCAN_MAX_CHUNKS). */
  plan: L1Plan;
  /** The traced tool, timed round-robin with every other row. */
  tool: { calls: number; cappedByBudget: boolean; latency: LatencySummary };
  /** Tool p50 over the unfiltered tool's p50. */
  p50ToUnfiltered: number;
  /** `kb.l1.search` alone (query embedding included), one call per query in the recall pass. */
  l1: LatencySummary;
  /** Mean over the queries of |L1 top 10 ∩ exact top 10 among the admitted| / |exact top 10|. */
  recallAt10: number;
  /** Queries whose L1 top 10 is not the exact one. */
  queriesBelowFullRecall: number;
}

/** One admitted-set size of the plan comparison, both plans timed on the same queries. */
export interface PlanRow {
  admitted: number;
  exact: LatencySummary;
  hnsw: LatencySummary;
  /** Recall@10 of the graph plan against the exact top 10 (the exact plan's is 1 by construction). */
  hnswRecallAt10: number;
  /** The plan with the lower p50. */
  faster: "exact" | "hnsw";
  /** hnsw p50 / exact p50: above 1, the scan wins. */
  hnswToExactP50: number;
  /** The plan `VectorIndex.search` picks at this size. */
  chosen: Exclude<L1Plan, "unfiltered">;
}

/** What the filter child measured. */
export interface FilterResult {
  size: number;
  queryCount: number;
  labels: FilterLabelCounts;
  generateMs: number;
  buildMs: number;
  /** `kb.save` to the temp folder, then hnswlib's file read back for the raw plan rows. */
  saveMs: number;
  dimensions: number;
  efSearch: number;
  exactScanMaxChunks: number;
  rows: FilterRow[];
  planRows: PlanRow[];
  /** Smallest measured admitted size from which on the graph plan's p50 stays below the scan's; null when the scan wins at every measured size. */
  graphWinsFrom: number | null;
  /** Largest measured admitted size below which the scan wins everywhere. */
  scanWinsUpTo: number | null;
  maxRssKiB: number;
}

interface FilterCase {
  id: string;
  kind: FilterRow["kind"];
  selectivity: number;
  value: string | null;
  scope: AppliedScope | null;
  domain: string | null;
  filter: ChunkFilter | null;
}

function scopeOf(group: string): AppliedScope {
  const applied = applyScope({ groups: [group] });
  if (typeof applied === "string") throw new BenchError(`scope of ${group}: ${applied}`);
  return applied;
}

function planOf(filter: ChunkFilter | null, total: number): L1Plan {
  return filter === null ? "unfiltered" : planForSize(filter.size, total);
}

/** The plan VectorIndex.search picks for a filter admitting `size` of `total` chunks (the tool asks for TOOL_L1_K). */
function planForSize(size: number, total: number): Exclude<L1Plan, "unfiltered"> {
  if (size <= EXACT_SCAN_MAX_CHUNKS) return "exact";
  const share = size / total;
  return share <= OVERSAMPLE_MAX_SHARE && Math.ceil((OVERSAMPLE_FACTOR * TOOL_L1_K) / share) <= OVERSAMPLE_MAX_DEPTH
    ? "oversampled"
    : "hnsw";
}

/** The unit-length query vector as a Float32Array, the way `exactNearest` scores it. */
function unitQuery(vector: readonly number[]): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from(vector, (v) => v * scale);
}

/** Cosine of the query with every stored vector (rows of `vectors` are unit length). */
function allSimilarities(query: Float32Array, vectors: Float32Array, count: number, d: number): Float64Array {
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let dot = 0;
    const base = i * d;
    for (let j = 0; j < d; j++) dot += query[j] * vectors[base + j];
    out[i] = dot;
  }
  return out;
}

/** The exact top `k` chunk numbers among `ids` (null: all of 0..count-1) by `sims`, ties by smaller number. */
function topK(sims: Float64Array, ids: ArrayLike<number> | null, k: number): number[] {
  const best: number[] = [];
  const n = ids === null ? sims.length : ids.length;
  for (let i = 0; i < n; i++) {
    const id = ids === null ? i : ids[i];
    const s = sims[id];
    if (best.length === k && !(s > sims[best[k - 1]])) continue;
    let at = best.length === k ? k - 1 : best.length;
    if (best.length < k) best.push(id);
    while (at > 0 && (sims[best[at - 1]] < s || (sims[best[at - 1]] === s && best[at - 1] > id))) {
      best[at] = best[at - 1];
      at--;
    }
    best[at] = id;
  }
  return best;
}

function recallOf(found: readonly number[], exact: readonly number[]): number {
  if (exact.length === 0) return 1;
  const set = new Set(found);
  let hit = 0;
  for (const id of exact) if (set.has(id)) hit++;
  return hit / exact.length;
}

/** hnswlib's file of a freshly saved index: in its one generation folder (or at the top, flat layout). */
function graphFileIn(indexDir: string): string {
  const candidates = [
    join(indexDir, "vectors.hnsw"),
    ...readdirSync(indexDir)
      .filter((name) => name.startsWith("gen-"))
      .map((name) => join(indexDir, name, "vectors.hnsw")),
  ];
  const found = candidates.filter((file) => existsSync(file));
  if (found.length !== 1) throw new BenchError(`expected one vectors.hnsw in ${indexDir}, found ${found.length}.`);
  return found[0];
}

/** Times `work` once, ms. */
function timeOnce(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

/**
 * Filtered lookups at one size: labels the replicated corpus (see `labelChunks`), builds once,
 * then in this process times the unfiltered traced tool, the tool per access selectivity and per
 * forced domain side by side (round-robin), measures L1 recall@10 of every filter against the
 * exact top 10 among the admitted chunks, and times both L1 plans (exact scan, graph with the
 * filter callback) on admitted sets around the cut-over `EXACT_SCAN_MAX_CHUNKS`.
 */
export async function runFilterTask(
  spec: FilterSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<FilterResult> {
  const { chunks: plain, queries: texts, generateMs } = await benchChunks(spec.dataset, spec.size);
  const { chunks, counts } = labelChunks(plain);
  log(
    `generated and labelled ${chunks.length} chunks in ${(generateMs / 1000).toFixed(1)} s (groups ${JSON.stringify(counts.groups)}, domains ${JSON.stringify(counts.domains)}); building`,
  );
  const buildStart = performance.now();
  const kb = await KnowledgeBase.fromChunks(chunks);
  const buildMs = performance.now() - buildStart;
  const l1 = kb.l1;
  const embeddings = kb.embeddings;
  if (l1 === null || embeddings === null)
    throw new BenchError("the knowledge base has no L1 layer; the filter rows need the default embedder.");
  log(`built in ${(buildMs / 1000).toFixed(1)} s; saving to read the graph back`);

  // The same graph as the knowledge base's (hnswlib's file of it), for the raw plan rows and the stored vectors.
  const indexDir = join(spec.workDir, "filter-index");
  const saveStart = performance.now();
  await kb.save(indexDir);
  const saveMs = performance.now() - saveStart;
  const queryVectors = await Promise.all(texts.map((text) => embeddings.embedQuery(text)));
  const d = queryVectors[0]?.length ?? 0;
  // vectors.hnsw is hnswlib's bytes plus the label-map trailer (src/l1/vector-labels.ts): hnswlib reads the former alone.
  const { graph: graphBytes, chunkOfLabel } = decodeVectorLabels(await readFile(graphFileIn(indexDir)));
  const rawFile = join(spec.workDir, "filter-graph.hnsw");
  await writeFile(rawFile, graphBytes);
  const { index: graph } = await VectorIndex.readGraph(rawFile, d);
  const n = kb.chunks.length;
  const map = chunkOfLabel ?? Int32Array.from({ length: graph.getCurrentCount() }, (_, i) => i); // label -> chunk
  const labelOf = new Int32Array(n).fill(-1); // chunk -> label
  map.forEach((chunk, label) => {
    if (chunk >= 0 && chunk < n) labelOf[chunk] = label;
  });
  if (labelOf.includes(-1))
    throw new BenchError("the saved graph has no vector for some chunk; the bench expects one per chunk.");
  // Stored (unit-length) vectors by chunk number.
  const vectors = new Float32Array(n * d);
  for (let chunk = 0; chunk < n; chunk++) vectors.set(graph.getPoint(labelOf[chunk]), chunk * d);
  const efSearch = VECTOR_INDEX_DEFAULTS.efSearch;
  keep({ size: spec.size, labels: counts, generateMs, buildMs, saveMs });

  const cases: FilterCase[] = [
    { id: "unfiltered", kind: "none", selectivity: 1, value: null, scope: null, domain: null, filter: null },
  ];
  for (const s of SELECTIVITIES) {
    const group = groupOf(s);
    const scope = scopeOf(group);
    cases.push({
      id: `access_${group}`,
      kind: "access",
      selectivity: s,
      value: group,
      scope,
      domain: null,
      filter: kb.access.filter(scope, null),
    });
  }
  for (const s of SELECTIVITIES) {
    if (s >= 1) continue; // 100%: no domain filter, the unfiltered row
    const domain = domainOf(s);
    cases.push({
      id: `domain_${domain}`,
      kind: "domain",
      selectivity: s,
      value: domain,
      scope: null,
      domain,
      filter: kb.access.filter(null, domain),
    });
  }
  for (const c of cases) {
    const expected = c.kind === "none" ? n : countFor(c.selectivity, n);
    const admitted = c.filter?.size ?? n;
    if (admitted !== expected) throw new BenchError(`filter ${c.id} admits ${admitted} chunks, expected ${expected}.`);
  }

  // Sanity: label = chunk number in the graph read back (the unfiltered L1 top hit is the raw graph's).
  const probe = await l1.search(texts[0], { domain: null, filter: null, k: 1, minScore: -1 });
  graph.setEf(Math.max(efSearch, 1));
  const rawTop = map[graph.searchKnn(queryVectors[0], 1).neighbors[0]];
  if (probe[0]?.id !== rawTop)
    throw new BenchError(
      `the graph read back does not answer like the knowledge base (top ${rawTop} vs ${probe[0]?.id}); labels are not chunk numbers.`,
    );

  // Recall pass: exact top 10 among the admitted chunks by brute force over the stored vectors, against kb.l1.search, filters round-robin per query.
  log(`recall pass: ${texts.length} queries x ${cases.length} filters`);
  const recall = cases.map(() => ({ sum: 0, below: 0, ms: [] as number[] }));
  for (const [q, text] of texts.entries()) {
    const sims = allSimilarities(unitQuery(queryVectors[q]), vectors, n, d);
    for (let step = 0; step < cases.length; step++) {
      const c = (q + step) % cases.length;
      const { domain, filter } = cases[c];
      const exact = topK(sims, filter === null ? null : filter.ids, RECALL_K);
      const start = performance.now();
      const hits = await l1.search(text, { domain, filter, k: RECALL_K, minScore: -1 });
      recall[c].ms.push(performance.now() - start);
      const r = recallOf(
        hits.map((hit) => hit.id),
        exact,
      );
      recall[c].sum += r;
      if (r < 1) recall[c].below++;
    }
  }

  // Tool latency: the traced tool per filter, side by side in rotating round-robin order.
  const queries: BenchQuery[] = texts.map((text, index) => ({ index, text, vector: queryVectors[index] }));
  const tools: ToolSystem[] = cases.map((c) =>
    createToolSystem(kb, join(spec.workDir, `filter-trace-${c.id}.jsonl`), {
      id: c.id,
      label: c.kind === "none" ? "tool, unfiltered" : `tool, ${c.kind} ${c.value} (${percentLabel(c.selectivity)})`,
      ...(c.scope !== null ? { access: { groups: [c.value as string] } } : {}),
      ...(c.domain !== null ? { domain: c.domain } : {}),
    }),
  );
  // Sanity: a filtered tool hands on only admitted chunks.
  const idOfSource = new Map(kb.chunks.map((chunk, id) => [chunk.source, id]));
  for (const [i, tool] of tools.entries()) {
    const filter = cases[i].filter;
    const message = (await tool.system.run(queries[0])) as { artifact?: LookupResult };
    for (const block of message.artifact?.evidence ?? []) {
      const id = idOfSource.get(block.source);
      if (filter !== null && (id === undefined || filter.admitted[id] !== 1))
        throw new BenchError(`tool ${cases[i].id} returned ${block.source}, which its filter does not admit.`);
    }
  }
  log(`timing ${tools.length} tool variants round-robin`);
  const measured = await measureSystems(
    tools.map((t) => t.system),
    queries,
    spec.measure,
    { log, afterWarmup: () => (globalThis as { gc?: () => void }).gc?.() },
  );
  const unfilteredP50 = measured[0].latency.p50;
  const rows: FilterRow[] = cases.map((c, i) => ({
    id: c.id,
    kind: c.kind,
    selectivity: c.selectivity,
    value: c.value,
    admitted: c.filter?.size ?? n,
    plan: planOf(c.filter, n),
    tool: { calls: measured[i].calls, cappedByBudget: measured[i].cappedByBudget, latency: measured[i].latency },
    p50ToUnfiltered: measured[i].latency.p50 / unfilteredP50,
    l1: summarize(recall[i].ms),
    recallAt10: recall[i].sum / texts.length,
    queriesBelowFullRecall: recall[i].below,
  }));
  keep({ size: spec.size, labels: counts, generateMs, buildMs, saveMs, rows });

  // Plan rows: both plans of VectorIndex.search on random admitted sets around the cut-over.
  const cache = new LabelVectorCache(d, (label) => vectors.subarray(map[label] * d, (map[label] + 1) * d));
  const planRows: PlanRow[] = [];
  const k = RECALL_K;
  for (const [p, size] of spec.planSizes.filter((s) => s <= n).entries()) {
    const ids = sampleIds(n, size, PLAN_SEED + p);
    const admitted = new Uint8Array(n);
    for (const id of ids) admitted[id] = 1;
    const accepts = (label: number) => label < map.length && map[label] >= 0 && admitted[map[label]] === 1;
    const exactPlan = (q: number) => exactNearest(queryVectors[q], k, ids, labelOf, cache);
    const hnswPlan = (q: number) => {
      graph.setEf(Math.max(efSearch, k));
      return graph.searchKnn(queryVectors[q], k, accepts);
    };
    for (let w = 0; w < PLAN_WARMUP; w++) {
      exactPlan(texts.length - 1 - w);
      hnswPlan(texts.length - 1 - w);
    }
    const exactMs: number[] = [];
    const hnswMs: number[] = [];
    let recallSum = 0;
    for (let q = 0; q < texts.length; q++) {
      let exactHits: number[] = [];
      let graphHits: number[] = [];
      const runExact = () => exactMs.push(timeOnce(() => (exactHits = exactPlan(q).map((hit) => hit.id))));
      const runHnsw = () => hnswMs.push(timeOnce(() => (graphHits = hnswPlan(q).neighbors.map((label) => map[label]))));
      if (q % 2 === 0) {
        runExact();
        runHnsw();
      } else {
        runHnsw();
        runExact();
      }
      recallSum += recallOf(graphHits, exactHits);
    }
    const exact = summarize(exactMs);
    const hnsw = summarize(hnswMs);
    planRows.push({
      admitted: size,
      exact,
      hnsw,
      hnswRecallAt10: recallSum / texts.length,
      faster: hnsw.p50 < exact.p50 ? "hnsw" : "exact",
      hnswToExactP50: hnsw.p50 / exact.p50,
      chosen: planForSize(size, spec.size),
    });
    log(
      `plans at ${size} admitted: exact p50 ${exact.p50.toFixed(3)} ms, hnsw p50 ${hnsw.p50.toFixed(3)} ms (recall ${(recallSum / texts.length).toFixed(3)})`,
    );
  }
  let graphWinsFrom: number | null = null;
  for (let i = planRows.length - 1; i >= 0 && planRows[i].faster === "hnsw"; i--) graphWinsFrom = planRows[i].admitted;
  let scanWinsUpTo: number | null = null;
  for (let i = 0; i < planRows.length && planRows[i].faster === "exact"; i++) scanWinsUpTo = planRows[i].admitted;

  return {
    size: spec.size,
    queryCount: texts.length,
    labels: counts,
    generateMs,
    buildMs,
    saveMs,
    dimensions: d,
    efSearch,
    exactScanMaxChunks: EXACT_SCAN_MAX_CHUNKS,
    rows,
    planRows,
    graphWinsFrom,
    scanWinsUpTo,
    maxRssKiB: process.resourceUsage().maxRSS,
  };
}
