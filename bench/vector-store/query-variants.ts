import type pg from "pg";
import {
  connectPgVectorStore,
  createLookupKnowledgeTool,
  KnowledgeBase,
  TOOL_NAME,
  type Candidate,
  type LookupResult,
} from "../../src/index.js";
import { loadSciFact } from "../dataset/load-scifact.js";
import { percentile, summarize } from "../measure/percentile.js";
import type { KeepPartial } from "../tasks/task-spec.js";
import { meanOverlap, rotate } from "./pass-math.js";
import { adminClient, columnType, outcomeOf, relationBytes, timedQuery } from "./pg-admin.js";
import type {
  IndexNotes,
  PassRatio,
  QueryVariantsResult,
  QueryVariantsSpec,
  StoreSearchPlans,
  SystemTimings,
  TimingPhase,
} from "./sizing-spec.js";

/**
 * How pgvector answers a block of queries: `exact` a sequential scan (`enable_indexscan = off`),
 * `index` the HNSW index forced (`enable_seqscan = off`) at pgvector's default `hnsw.ef_search`
 * (40), `index_ef100` the same at `hnsw.ef_search = 100` (hnswlib's efSearch here), `planner` all
 * reset (the planner's own choice); null for systems that do not touch Postgres.
 */
type PgMode = "exact" | "index" | "index_ef100" | "planner" | null;

/** `hnsw.ef_search` of the `index_ef100` mode: the efSearch our hnswlib graph searches with (VECTOR_INDEX_DEFAULTS). */
const MATCHED_EF_SEARCH = 100;

interface TimedSystem {
  id: string;
  label: string;
  mode: PgMode;
  /** Answers one query: the top sources for L1 systems, the L1 status for tool systems. */
  run(query: string): Promise<string[] | string>;
}

/** What timing a list of systems gave: per system, its passes, L1 statuses and first-pass answers. */
interface PassSamples {
  durations: Map<string, number[][]>;
  statuses: Map<string, Record<string, number>>;
  firstAnswers: Map<string, string[][]>;
}

const L1_OPTIONS = { domain: null, k: 10, minScore: -1 } as const;

function sourcesOf(candidates: readonly Candidate[]): string[] {
  return candidates.map((candidate) => candidate.chunk.source);
}

async function setMode(client: pg.Client, mode: PgMode): Promise<void> {
  if (mode === null) return;
  // PGlite serves every connection from one session, so this applies to the store's pool too.
  await client.query(mode === "exact" ? "SET enable_indexscan = off" : "RESET enable_indexscan");
  await client.query(mode === "index" || mode === "index_ef100" ? "SET enable_seqscan = off" : "RESET enable_seqscan");
  await client.query(mode === "index_ef100" ? `SET hnsw.ef_search = ${MATCHED_EF_SEARCH}` : "RESET hnsw.ef_search");
}

/** A search as the store sent it: its SQL and parameters, caught on the store's pool. */
interface CapturedSearch {
  text: string;
  values: unknown[];
}

/** Keeps the last similarity search `PGVectorStore` sends through its pool (the SQL that names `_distance`). */
function captureSearches(store: unknown): { last(): CapturedSearch | null } {
  const pool = (store as { pool: { query: (...args: unknown[]) => unknown } }).pool;
  const query = pool.query.bind(pool);
  let last: CapturedSearch | null = null;
  pool.query = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text === "string" && text.includes('"_distance"') && Array.isArray(values)) last = { text, values };
    return query(...args);
  };
  return { last: () => last };
}

/** The plan of a captured search, one line per node, the vector literal elided. */
async function explain(client: pg.Client, search: CapturedSearch): Promise<string> {
  const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${search.text}`, search.values);
  return rows.map((row) => row["QUERY PLAN"].replace(/'\[[^\]]*\]'/g, "'[...]'").trim()).join(" | ");
}

/** Every system once per pass over the claims, in rotating order; `passes` passes. */
async function timePasses(
  systems: readonly TimedSystem[],
  claims: readonly string[],
  passes: number,
  admin: pg.Client,
  log: (line: string) => void,
  name: string,
): Promise<PassSamples> {
  const samples: PassSamples = {
    durations: new Map(systems.map((s) => [s.id, []])),
    statuses: new Map(),
    firstAnswers: new Map(),
  };
  for (let pass = 0; pass < passes; pass++) {
    for (const system of rotate(systems, pass)) {
      await setMode(admin, system.mode);
      const durations: number[] = [];
      const answers: string[][] = [];
      for (const claim of claims) {
        const start = performance.now();
        const answer = await system.run(claim);
        durations.push(performance.now() - start);
        if (typeof answer === "string") {
          const counts = samples.statuses.get(system.id) ?? {};
          counts[answer] = (counts[answer] ?? 0) + 1;
          samples.statuses.set(system.id, counts);
        } else answers.push(answer);
      }
      samples.durations.get(system.id)!.push(durations);
      if (pass === 0) samples.firstAnswers.set(system.id, answers);
    }
    log(`${name}: pass ${pass + 1}/${passes} done`);
  }
  return samples;
}

function timingsOf(systems: readonly TimedSystem[], samples: PassSamples, phase: TimingPhase): SystemTimings[] {
  return systems.map((system) => {
    const runs = samples.durations.get(system.id)!;
    const status = samples.statuses.get(system.id);
    const answers = samples.firstAnswers.get(system.id) ?? [];
    const isL1 = !system.id.startsWith("tool_") && system.id !== "embed";
    return {
      id: system.id,
      label: system.label,
      phase,
      perRepeat: runs.map(summarize),
      pooled: summarize(runs.flat()),
      ...(status ? { l1Statuses: status } : {}),
      ...(isL1 && answers.length > 0
        ? { fullAnswers: answers.filter((answer) => answer.length === 10).length / answers.length }
        : {}),
    };
  });
}

function passRatio(timings: readonly SystemTimings[], over: string, under: string): PassRatio {
  const a = timings.find((t) => t.id === over)!.perRepeat;
  const b = timings.find((t) => t.id === under)!.perRepeat;
  const perRepeat = a.map((s, i) => s.p50 / b[i].p50);
  return { perRepeat, median: percentile(perRepeat, 50), min: Math.min(...perRepeat), max: Math.max(...perRepeat) };
}

/**
 * Both variants loaded in one process and timed side by side on the same claims: L1 alone
 * (`kb.l1.search`) on hnswlib, on pgvector as a sequential scan (exact) and through its HNSW index,
 * the query embedding alone, and the untraced tool on each; then one pass with the planner left
 * to choose, one after giving it statistics on the row-scope filter, and the recall@10 of the
 * approximate answers against the exact ones.
 */
export async function runQueryVariants(
  spec: QueryVariantsSpec,
  keep: KeepPartial,
  log: (line: string) => void,
): Promise<QueryVariantsResult> {
  // The claims benchChunks returns (the SciFact test queries); the chunks live in the saved indexes.
  const { queries: claims } = await loadSciFact(spec.dataset);
  const timedClaims = claims.slice(0, spec.queries);
  const warmClaims = claims.slice(spec.queries, spec.queries + spec.warmup);
  const table = spec.pg.tableName;
  const hnswKb = await KnowledgeBase.load(spec.hnswDir);
  const connection = await connectPgVectorStore({ connectionString: spec.pg.url, tableName: table });
  const captured = captureSearches(connection.store);
  const admin = await adminClient(spec.pg.url);
  try {
    const storeKb = await KnowledgeBase.load(spec.storeDir, { vectorStore: connection });
    const dimensions = storeKb.settings.embedder.dimensions ?? 0;
    const probe = await storeKb.embeddings!.embedQuery(timedClaims[0]);
    const probeHnsw = await hnswKb.embeddings!.embedQuery(timedClaims[0]);
    const queryVectorMaxDiff = Math.max(...probe.map((value, i) => Math.abs(value - probeHnsw[i])));
    await storeKb.l1!.search(timedClaims[0], L1_OPTIONS);
    const search = captured.last();
    if (search === null) throw new Error("the pgvector store sent no similarity search through its pool");
    const pgvectorVersion =
      (await admin.query<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'")).rows[0]
        ?.v ?? "unknown";

    const columnTypeBefore = await columnType(admin, table);
    let indexNotes: IndexNotes | null = null;
    if (spec.indexNotes) {
      const plainIndexOnCreatedColumn = await outcomeOf(
        admin,
        `CREATE INDEX lk_sizing_plain_probe ON ${table} USING hnsw (embedding vector_cosine_ops)`,
      );
      if (plainIndexOnCreatedColumn === "ok") await admin.query("DROP INDEX lk_sizing_plain_probe");
      const store = connection.store as unknown as { createHnswIndex(config: { dimensions: number }): Promise<void> };
      const start = performance.now();
      await store.createHnswIndex({ dimensions });
      const langchainCreateHnswIndexMs = performance.now() - start;
      await setMode(admin, "index");
      const langchainCreateHnswIndexPlan = await explain(admin, search);
      await setMode(admin, "planner");
      await admin.query("DROP INDEX IF EXISTS embedding_embedding_hnsw_idx");
      indexNotes = {
        columnType: columnTypeBefore,
        plainIndexOnCreatedColumn,
        langchainCreateHnswIndexPlan,
        langchainCreateHnswIndexMs,
      };
      log(`LangChain createHnswIndex, seq scans off: ${langchainCreateHnswIndexPlan}`);
    }
    // connectPgVectorStore creates `embedding vector` without dimensions, which an HNSW index refuses.
    const alterColumnMs = /^vector$/.test(columnTypeBefore)
      ? await timedQuery(admin, `ALTER TABLE ${table} ALTER COLUMN embedding TYPE vector(${dimensions})`)
      : null;
    await admin.query(`SET maintenance_work_mem = '${spec.maintenanceWorkMem}'`);
    log("building the pgvector HNSW index (m 16, ef_construction 64)...");
    const createIndexMs = await timedQuery(
      admin,
      `CREATE INDEX lk_sizing_hnsw ON ${table} USING hnsw (embedding vector_cosine_ops)`,
    );
    await admin.query(`ANALYZE ${table}`);
    const efSearch = (await admin.query<{ "hnsw.ef_search": string }>("SHOW hnsw.ef_search")).rows[0]["hnsw.ef_search"];
    const plans: StoreSearchPlans = {
      sql: search.text.replace(/\s+/g, " ").trim(),
      params: search.values.slice(1),
      exact: "",
      index: "",
      planner: "",
      scopeStats: "",
    };
    for (const mode of ["exact", "index", "planner"] as const) {
      await setMode(admin, mode);
      plans[mode] = await explain(admin, search);
    }
    const sizes = await relationBytes(admin, table);
    keep({ size: spec.size, createIndexMs, alterColumnMs, plans, ...sizes });
    log(`index built in ${(createIndexMs / 1000).toFixed(1)} s; plans: ${JSON.stringify(plans)}`);

    const hnswTool = createLookupKnowledgeTool({ knowledgeBase: hnswKb, tracePath: null });
    const storeTool = createLookupKnowledgeTool({ knowledgeBase: storeKb, tracePath: null });
    let calls = 0;
    const viaTool = (tool: typeof hnswTool) => async (query: string) => {
      const message = await tool.invoke({
        type: "tool_call",
        id: `sizing-${calls++}`,
        name: TOOL_NAME,
        args: { query },
      });
      return (message as { artifact?: LookupResult }).artifact?.l1Status ?? "none";
    };
    const l1Hnsw: TimedSystem = {
      id: "l1_hnsw",
      label: "L1 hnswlib (in process)",
      mode: null,
      run: async (q) => sourcesOf(await hnswKb.l1!.search(q, L1_OPTIONS)),
    };
    const l1Store = (id: string, label: string, mode: PgMode): TimedSystem => ({
      id,
      label,
      mode,
      run: async (q) => sourcesOf(await storeKb.l1!.search(q, L1_OPTIONS)),
    });
    const toolHnsw: TimedSystem = { id: "tool_hnsw", label: "tool, L1 hnswlib", mode: null, run: viaTool(hnswTool) };
    const toolStore = (id: string, label: string, mode: PgMode): TimedSystem => ({
      id,
      label,
      mode,
      run: viaTool(storeTool),
    });
    const repeated: TimedSystem[] = [
      {
        id: "embed",
        label: "query embedding alone",
        mode: null,
        run: async (q) => (await hnswKb.embeddings!.embedQuery(q), []),
      },
      l1Hnsw,
      l1Store("l1_pg_exact", "L1 pgvector, sequential scan (exact)", "exact"),
      l1Store("l1_pg_index", "L1 pgvector, HNSW index (forced)", "index"),
      l1Store("l1_pg_index_ef100", `L1 pgvector, HNSW index (forced), ef_search ${MATCHED_EF_SEARCH}`, "index_ef100"),
      toolHnsw,
      toolStore("tool_pg_exact", "tool, L1 pgvector sequential scan", "exact"),
      toolStore("tool_pg_index", "tool, L1 pgvector HNSW index (forced)", "index"),
    ];
    for (const system of repeated) {
      await setMode(admin, system.mode);
      for (const claim of warmClaims) await system.run(claim);
    }
    const main = await timePasses(repeated, timedClaims, spec.repeats, admin, log, "repeated");
    const plannerSystems = [
      l1Hnsw,
      l1Store("l1_pg_planner", "L1 pgvector, index present, planner's choice", "planner"),
    ];
    const planner = await timePasses(plannerSystems, timedClaims, 1, admin, log, "planner's choice");

    // The scope filter (lk_kb, lk_gen) on JSON expressions has no statistics: the planner guesses
    // a handful of matching rows and scans the table. A btree on the expressions gives ANALYZE some.
    const scopeIndexMs = await timedQuery(
      admin,
      `CREATE INDEX lk_sizing_scope ON ${table} ((metadata->>'lk_kb'), (metadata->>'lk_gen'))`,
    );
    await admin.query(`ANALYZE ${table}`);
    await setMode(admin, "planner");
    plans.scopeStats = await explain(admin, search);
    log(`with scope statistics: ${plans.scopeStats}`);
    const scopedSystems = [
      l1Hnsw,
      l1Store("l1_pg_scope_stats", "L1 pgvector, planner's choice with scope statistics", "planner"),
      toolHnsw,
      toolStore("tool_pg_scope_stats", "tool, L1 pgvector, planner's choice with scope statistics", "planner"),
    ];
    for (const system of scopedSystems) for (const claim of warmClaims) await system.run(claim);
    const scoped = await timePasses(scopedSystems, timedClaims, 1, admin, log, "scope statistics");
    await setMode(admin, "planner");

    const timings = [
      ...timingsOf(repeated, main, "repeated"),
      ...timingsOf(plannerSystems, planner, "planner"),
      ...timingsOf(scopedSystems, scoped, "scope_stats"),
    ];
    const repeatedTimings = timings.filter((t) => t.phase === "repeated");
    const plannerTimings = timings.filter((t) => t.phase === "planner");
    const scopedTimings = timings.filter((t) => t.phase === "scope_stats");
    const exact = main.firstAnswers.get("l1_pg_exact")!;
    return {
      size: spec.size,
      queries: timedClaims.length,
      repeats: spec.repeats,
      warmup: warmClaims.length,
      dimensions,
      domains: storeKb.domains.length,
      pgvectorVersion,
      sameFingerprint: storeKb.fingerprint === hnswKb.fingerprint,
      queryVectorMaxDiff,
      columnTypeBefore,
      alterColumnMs,
      indexNotes,
      createIndexMs,
      scopeIndexMs,
      maintenanceWorkMem: spec.maintenanceWorkMem,
      efSearch,
      plans,
      ...sizes,
      systems: timings,
      recallAt10: {
        pgIndexVsExact: meanOverlap(exact, main.firstAnswers.get("l1_pg_index")!),
        pgIndexEf100VsExact: meanOverlap(exact, main.firstAnswers.get("l1_pg_index_ef100")!),
        pgScopeStatsVsExact: meanOverlap(exact, scoped.firstAnswers.get("l1_pg_scope_stats")!),
        hnswlibVsPgExact: meanOverlap(exact, main.firstAnswers.get("l1_hnsw")!),
      },
      ratios: {
        l1_pg_exact_over_l1_hnsw: passRatio(repeatedTimings, "l1_pg_exact", "l1_hnsw"),
        l1_pg_index_over_l1_hnsw: passRatio(repeatedTimings, "l1_pg_index", "l1_hnsw"),
        l1_pg_index_ef100_over_l1_hnsw: passRatio(repeatedTimings, "l1_pg_index_ef100", "l1_hnsw"),
        l1_pg_exact_over_l1_pg_index: passRatio(repeatedTimings, "l1_pg_exact", "l1_pg_index"),
        tool_pg_exact_over_tool_hnsw: passRatio(repeatedTimings, "tool_pg_exact", "tool_hnsw"),
        tool_pg_index_over_tool_hnsw: passRatio(repeatedTimings, "tool_pg_index", "tool_hnsw"),
        l1_hnsw_over_embed: passRatio(repeatedTimings, "l1_hnsw", "embed"),
        l1_pg_planner_over_l1_hnsw: passRatio(plannerTimings, "l1_pg_planner", "l1_hnsw"),
        l1_pg_scope_stats_over_l1_hnsw: passRatio(scopedTimings, "l1_pg_scope_stats", "l1_hnsw"),
        tool_pg_scope_stats_over_tool_hnsw: passRatio(scopedTimings, "tool_pg_scope_stats", "tool_hnsw"),
      },
    };
  } finally {
    await admin.end().catch(() => undefined);
    await connection.store.end().catch(() => undefined);
  }
}
