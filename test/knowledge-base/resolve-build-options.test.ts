import { describe, expect, it } from "vitest";
import {
  chunkProblem,
  resolveBuildOptions,
  LARGE_CORPUS_CHUNKS,
  LARGE_CORPUS_EF_CONSTRUCTION,
  withLargeCorpusDefaults,
} from "../../src/knowledge-base/resolve-build-options.js";
import { makeChunk } from "../helpers/retrieval-fakes.js";

describe("resolveBuildOptions", () => {
  it("applies the documented defaults", () => {
    expect(resolveBuildOptions({})).toEqual({
      bm25: { k1: 0.9, b: 0.4 },
      hnsw: { m: 16, efConstruction: 200, efSearch: 100, randomSeed: 100 },
      embedBatchSize: 64,
      embedTimeoutMs: 120_000,
      calibration: { pseudoQueries: 200, seed: 42 },
    });
  });

  it("keeps a calibration the caller chose, including 0 pseudo-queries (off) and the 10000 limit", () => {
    expect(resolveBuildOptions({ calibration: { pseudoQueries: 0 } }).calibration).toEqual({
      pseudoQueries: 0,
      seed: 42,
    });
    expect(resolveBuildOptions({ calibration: { pseudoQueries: 10_000, seed: -7 } }).calibration).toEqual({
      pseudoQueries: 10_000,
      seed: -7,
    });
  });

  it.each([
    [
      { calibration: { pseudoQueries: -1 } },
      /calibration\.pseudoQueries must be an integer from 0 \(off\) to 10000, got -1/,
    ],
    [
      { calibration: { pseudoQueries: 1.5 } },
      /calibration\.pseudoQueries must be an integer from 0 \(off\) to 10000, got 1\.5/,
    ],
    [
      { calibration: { pseudoQueries: 10_001 } },
      /calibration\.pseudoQueries must be an integer from 0 \(off\) to 10000, got 10001/,
    ],
    [{ calibration: { seed: 4.2 } }, /calibration\.seed must be an integer, got 4\.2/],
    [{ calibration: 200 as never }, /option calibration must be an object or left out, got 200/],
  ])("refuses the calibration option %j with INVALID_OPTION", (options, message) => {
    expect(() => resolveBuildOptions(options)).toThrow(
      expect.objectContaining({
        name: "LookupKnowledgeError",
        code: "INVALID_OPTION",
        message: expect.stringMatching(message),
      }),
    );
  });

  it.each([
    [{ bm25: { k1: -1 } }, /bm25\.k1 must be a finite number >= 0/],
    [{ bm25: { b: Number.NaN } }, /bm25\.b must be a number from 0 to 1/],
    [{ hnsw: { m: 1 } }, /hnsw\.m must be an integer from 2 to 512, got 1/],
    [{ hnsw: { m: 0 } }, /hnsw\.m/],
    [{ hnsw: { efConstruction: 0 } }, /hnsw\.efConstruction/],
    [{ hnsw: { randomSeed: 1.5 } }, /hnsw\.randomSeed/],
    [{ embedBatchSize: 0 }, /embedBatchSize must be an integer from 1, got 0/],
    [{ embedBatchSize: 2.5 }, /embedBatchSize/],
    [{ embedTimeoutMs: -1 }, /embedTimeoutMs must be a number/],
    [{ embeddings: {} as never }, /embeddings must be LangChain embeddings/],
  ])("refuses %j with INVALID_OPTION before any work", (options, message) => {
    expect(() => resolveBuildOptions(options)).toThrow(
      expect.objectContaining({
        name: "LookupKnowledgeError",
        code: "INVALID_OPTION",
        message: expect.stringMatching(message),
      }),
    );
  });
});

describe("chunkProblem", () => {
  it("accepts a well-formed chunk", () => {
    expect(chunkProblem(makeChunk("a.md#top", { title: "A", meta: { domain: "ops" } }))).toBeNull();
  });

  it.each([
    ["null", null, /not an object/],
    ["no source", { ...makeChunk("a.md#top"), source: "" }, /no source/],
    ["numeric content", { ...makeChunk("a.md#top"), content: 5 }, /content strings/],
    ["a breadcrumb string", { ...makeChunk("a.md#top"), breadcrumb: "A > B" }, /breadcrumb list/],
    ["no meta", { ...makeChunk("a.md#top"), meta: null }, /no meta object/],
    [
      "keywords as a string",
      { ...makeChunk("a.md#top"), meta: { keywords: "a,b", entities: [], aliases: [] } },
      /meta\.keywords/,
    ],
    [
      "a numeric domain",
      { ...makeChunk("a.md#top"), meta: { keywords: [], entities: [], aliases: [], domain: 5 } },
      /domain that is not a string/,
    ],
  ])("names what is wrong with %s", (_name, chunk, message) => {
    expect(chunkProblem(chunk)).toMatch(message);
  });
});

describe("withLargeCorpusDefaults", () => {
  it("lowers efConstruction from 50,000 chunks unless the caller chose it", () => {
    const resolved = resolveBuildOptions({});
    expect(withLargeCorpusDefaults(resolved, {}, LARGE_CORPUS_CHUNKS - 1).hnsw.efConstruction).toBe(200);
    expect(withLargeCorpusDefaults(resolved, {}, LARGE_CORPUS_CHUNKS).hnsw.efConstruction).toBe(
      LARGE_CORPUS_EF_CONSTRUCTION,
    );
    const chosen = resolveBuildOptions({ hnsw: { efConstruction: 300 } });
    expect(withLargeCorpusDefaults(chosen, { hnsw: { efConstruction: 300 } }, 100_000).hnsw.efConstruction).toBe(300);
  });
});
