import { PGVectorStore, type DistanceStrategy } from "@langchain/community/vectorstores/pgvector";
import { FakeEmbeddings } from "@langchain/core/utils/testing";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { EventEmitter } from "node:events";
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { pgvectorDialect } from "../../../src/l1/vector-store/pgvector-dialect.js";

type Normalization = "distance" | "similarity";

/** A real `PGVectorStore` on a pool object that is never queried: constructing one opens no connection. */
function pgStore(
  fields: {
    distanceStrategy?: DistanceStrategy;
    scoreNormalization?: Normalization;
    tableName?: string;
    schemaName?: string;
    collectionName?: string;
    collectionTableName?: string;
  } = {},
): PGVectorStore {
  return new PGVectorStore(new FakeEmbeddings(), {
    pool: new EventEmitter() as unknown as pg.Pool,
    tableName: "lk_rows",
    ...fields,
  });
}

/** A real `PGVectorStore` on a pool that records each query and answers no rows. */
function recordingPgStore(fields: { schemaName?: string } = {}): {
  store: PGVectorStore;
  queries: { sql: string; params: unknown[] }[];
} {
  const queries: { sql: string; params: unknown[] }[] = [];
  const pool = Object.assign(new EventEmitter(), {
    query: async (sql: string, params: unknown[]) => {
      queries.push({ sql, params });
      return { rows: [] };
    },
  });
  return {
    store: new PGVectorStore(new FakeEmbeddings(), {
      pool: pool as unknown as pg.Pool,
      tableName: "lk_rows",
      ...fields,
    }),
    queries,
  };
}

/** Unit vectors in 3-D whose cosine is `cosine`: (1, 0, 0) and (c, √(1 − c²), 0). */
function unitPair(cosine: number): [number[], number[]] {
  return [
    [1, 0, 0],
    [cosine, Math.sqrt(1 - cosine * cosine), 0],
  ];
}

const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0);

/** What pgvector's operators return for `a` and `b`: `<=>` cosine distance, `<->` L2 distance, `<#>` negative inner product. */
function pgvectorDistance(a: number[], b: number[], strategy: DistanceStrategy): number {
  if (strategy === "cosine") return 1 - dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
  if (strategy === "euclidean") return Math.sqrt(a.reduce((sum, x, i) => sum + (x - b[i]) ** 2, 0));
  return -dot(a, b);
}

/**
 * The score `PGVectorStore.similaritySearchVectorWithScore` returns for a raw distance, written out
 * from its `convertDistanceToScore` / `convertDistanceToSimilarity`
 * (`@langchain/community/dist/vectorstores/pgvector.js`).
 */
function storeScore(distance: number, strategy: DistanceStrategy, normalization: Normalization): number {
  if (normalization === "distance") return distance;
  if (strategy === "cosine") return (2 - distance) / 2;
  if (strategy === "euclidean") return 1 / (1 + distance);
  return -distance;
}

const STRATEGIES: DistanceStrategy[] = ["cosine", "euclidean", "innerProduct"];
const NORMALIZATIONS: Normalization[] = ["distance", "similarity"];
const COSINES = [0.9, 0.3, 0, -0.5];

describe("pgvectorDialect.similarity", () => {
  it.each(STRATEGIES.flatMap((strategy) => NORMALIZATIONS.map((normalization) => [strategy, normalization] as const)))(
    "agrees with PGVectorStore's own score conversion for %s distances normalised as %s",
    (strategy, normalization) => {
      const store = pgStore({ distanceStrategy: strategy, scoreNormalization: normalization });
      const convert = (
        store as unknown as { convertDistanceToScore(distance: number): number }
      ).convertDistanceToScore.bind(store);
      for (const distance of [0, 0.2, 0.75, 1.4])
        expect(storeScore(distance, strategy, normalization)).toBeCloseTo(convert(distance), 12);
    },
  );

  it.each(STRATEGIES.flatMap((strategy) => NORMALIZATIONS.map((normalization) => [strategy, normalization] as const)))(
    "recovers the true cosine of unit vectors from a %s score normalised as %s",
    (strategy, normalization) => {
      const store = pgStore({ distanceStrategy: strategy, scoreNormalization: normalization });
      for (const cosine of COSINES) {
        const [a, b] = unitPair(cosine);
        const score = storeScore(pgvectorDistance(a, b, strategy), strategy, normalization);
        expect(pgvectorDialect.similarity(score, store)).toBeCloseTo(cosine, 10);
      }
    },
  );

  it("reads cosine distance with the store's default scoreNormalization (distance)", () => {
    const store = pgStore();
    expect(store.distanceStrategy).toBe("cosine");
    expect(store.scoreNormalization).toBe("distance");
    expect(pgvectorDialect.similarity(0.25, store)).toBeCloseTo(0.75, 12);
  });

  it("treats a store without distanceStrategy or scoreNormalization fields as cosine distances", () => {
    expect(pgvectorDialect.similarity(0.4, {} as VectorStoreInterface)).toBeCloseTo(0.6, 12);
    expect(pgvectorDialect.similarity(2, {} as VectorStoreInterface)).toBeCloseTo(-1, 12);
  });

  it("orders hits by similarity as the store orders them by distance, for every strategy", () => {
    for (const strategy of STRATEGIES) {
      const store = pgStore({ distanceStrategy: strategy });
      const similarities = COSINES.map((cosine) =>
        pgvectorDialect.similarity(pgvectorDistance(...unitPair(cosine), strategy), store),
      );
      expect([...similarities].sort((x, y) => y - x)).toEqual(similarities);
    }
  });
});

describe("pgvectorDialect.filter", () => {
  const GEN = "0123456789abcdef";

  it("is PGVectorStore's metadata filter on lk_kb, lk_gen and the domain", () => {
    expect(pgvectorDialect.filter({ namespace: "handbook", generation: GEN, domain: "billing" })).toEqual({
      lk_kb: "handbook",
      lk_gen: GEN,
      domain: "billing",
    });
  });

  it("leaves the domain out, rather than matching a null one, for a lookup without domain", () => {
    const filter = pgvectorDialect.filter({ namespace: "handbook", generation: GEN, domain: null });
    expect(filter).toEqual({ lk_kb: "handbook", lk_gen: GEN });
    expect(filter).not.toHaveProperty("domain");
  });

  it("becomes equality clauses with bound parameters in PGVectorStore's own search query", async () => {
    const { store, queries } = recordingPgStore();
    await store.similaritySearchVectorWithScore(
      [1, 0, 0],
      5,
      pgvectorDialect.filter({ namespace: "handbook", generation: GEN, domain: "billing" }) as never,
    );
    expect(queries).toHaveLength(1);
    const [{ sql, params }] = queries;
    expect(sql).toMatch(
      /FROM lk_rows\s+WHERE metadata->>'lk_kb' = \$3 AND metadata->>'lk_gen' = \$4 AND metadata->>'domain' = \$5\s+ORDER BY/,
    );
    expect(params).toEqual(["[1,0,0]", 5, "handbook", GEN, "billing"]);
  });

  it("keeps a hostile namespace or domain in the parameters, never in the SQL", async () => {
    const { store, queries } = recordingPgStore();
    const hostile = "x'; DROP TABLE lk_rows; --";
    await store.similaritySearchVectorWithScore(
      [1, 0, 0],
      5,
      pgvectorDialect.filter({ namespace: hostile, generation: GEN, domain: hostile }) as never,
    );
    expect(queries[0].sql).not.toContain("DROP");
    expect(queries[0].params).toEqual(["[1,0,0]", 5, hostile, GEN, hostile]);
  });
});

describe("pgvectorDialect.deleteOtherGenerations", () => {
  const GEN = "0123456789abcdef";

  it("asks the store to delete the namespace's rows whose lk_gen is not the current one", async () => {
    const deletes: unknown[] = [];
    const store = { delete: async (params: unknown) => void deletes.push(params) } as unknown as VectorStoreInterface;
    await pgvectorDialect.deleteOtherGenerations!(store, { namespace: "handbook", generation: GEN });
    expect(deletes).toEqual([{ filter: { lk_kb: "handbook", lk_gen: { neq: GEN } } }]);
  });

  it("passes the store's failure on, for the save to turn into a warning", async () => {
    const store = {
      delete: async () => Promise.reject(new Error("permission denied for table lk_rows")),
    } as unknown as VectorStoreInterface;
    await expect(
      pgvectorDialect.deleteOtherGenerations!(store, { namespace: "handbook", generation: GEN }),
    ).rejects.toThrow("permission denied for table lk_rows");
  });

  it("is one DELETE in PGVectorStore, of the namespace's rows with another or no generation", async () => {
    const { store, queries } = recordingPgStore({ schemaName: "kb" });
    await pgvectorDialect.deleteOtherGenerations!(store, { namespace: "handbook", generation: GEN });
    expect(queries).toHaveLength(1);
    const [{ sql, params }] = queries;
    expect(sql.replace(/\s+/g, " ").trim()).toBe(
      `DELETE FROM "kb"."lk_rows" WHERE metadata->>'lk_kb' = $1 AND (metadata->>'lk_gen' IS NULL OR (metadata->>'lk_gen')::text != $2)`,
    );
    expect(params).toEqual(["handbook", GEN]);
  });
});

describe("pgvectorDialect.target", () => {
  it("records the table, with a null schema and no collection when the store has none", () => {
    expect(pgvectorDialect.target!(pgStore())).toEqual({ schema: null, table: "lk_rows", collection: null });
  });

  it("ignores PGVectorStore's default collection name when the store has no collection table", () => {
    const store = pgStore({ tableName: "kb_rows" });
    expect(store.collectionName).toBe("langchain");
    expect(pgvectorDialect.target!(store)).toEqual({ schema: null, table: "kb_rows", collection: null });
  });

  it("records the schema and the collection of a store that uses a collection table", () => {
    const store = pgStore({
      schemaName: "kb",
      tableName: "rows",
      collectionTableName: "collections",
      collectionName: "handbook",
    });
    expect(pgvectorDialect.target!(store)).toEqual({ schema: "kb", table: "rows", collection: "handbook" });
  });

  it("gives nulls for a store object without any of those fields", () => {
    expect(pgvectorDialect.target!({} as VectorStoreInterface)).toEqual({
      schema: null,
      table: null,
      collection: null,
    });
  });
});

describe("pgvectorDialect.attach", () => {
  it("gives the pool and the checked-out client an error listener when they have none", () => {
    const pool = new EventEmitter();
    const client = new EventEmitter();
    pgvectorDialect.attach!({ pool, client } as unknown as VectorStoreInterface);
    expect(pool.listenerCount("error")).toBe(1);
    expect(client.listenerCount("error")).toBe(1);
  });

  it("keeps the process alive when the pool or the client emits error afterwards", () => {
    const pool = new EventEmitter();
    const client = new EventEmitter();
    expect(() => pool.emit("error", new Error("unguarded"))).toThrow("unguarded");
    pgvectorDialect.attach!({ pool, client } as unknown as VectorStoreInterface);
    expect(() => pool.emit("error", new Error("terminating connection due to administrator command"))).not.toThrow();
    expect(() => client.emit("error", new Error("Connection terminated unexpectedly"))).not.toThrow();
  });

  it("adds nothing to an emitter that already has the app's own error listener", () => {
    const pool = new EventEmitter();
    const seen: unknown[] = [];
    pool.on("error", (error) => seen.push(error));
    pgvectorDialect.attach!({ pool } as unknown as VectorStoreInterface);
    expect(pool.listenerCount("error")).toBe(1);
    pool.emit("error", "dropped");
    expect(seen).toEqual(["dropped"]);
  });

  it("adds one listener only when it is attached twice (a build, then a load of the same store)", () => {
    const store = pgStore();
    pgvectorDialect.attach!(store);
    pgvectorDialect.attach!(store);
    expect((store.pool as unknown as EventEmitter).listenerCount("error")).toBe(1);
  });

  it("leaves alone a store without a pool or client, or whose fields are not emitters", () => {
    expect(() => pgvectorDialect.attach!({} as VectorStoreInterface)).not.toThrow();
    expect(() =>
      pgvectorDialect.attach!({ pool: {}, client: { on: () => {} } } as unknown as VectorStoreInterface),
    ).not.toThrow();
  });
});

describe("pgvectorDialect", () => {
  it("is named pgvector, leaves deletes by id to PGVectorStore's own delete, and deletes other generations itself", () => {
    expect(pgvectorDialect.name).toBe("pgvector");
    expect(pgvectorDialect.deleteIds).toBeUndefined();
    expect(typeof pgvectorDialect.deleteOtherGenerations).toBe("function");
  });
});
