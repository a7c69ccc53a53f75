import { describe, expect, it } from "vitest";
import { publishedBaselines } from "../../src/eval/beir/published-baselines.js";
import { stringifyCompact } from "../../src/eval/report/compact-json.js";
import { compareVariantsPaired, pairwiseSignificance } from "../../src/eval/report/pairwise-significance.js";
import type { ReportVariant } from "../../src/eval/report/report-model.js";
import { beirReport } from "../../src/eval/runner/beir-report.js";
import { fakeBeirResult, fakeVariant } from "./helpers/beir-eval-result.js";

const qrels = new Map([
  ["q1", new Map([["d1", 1], ["d9", 0]])],
  ["q2", new Map([["d2", 1], ["d7", 2]])],
  ["q3", new Map([["d3", 1]])],
]);
const l0 = fakeVariant("L0", { q1: 1, q2: 0.5, q3: 0 }, { q1: ["d1", "d4"], q2: ["d5", "d2"], q3: ["d6"] }, 8);
const fused = fakeVariant("L0+L1", { q1: 1, q2: 1, q3: 0.5 }, { q1: ["d1"], q2: ["d2", "d7"], q3: ["d8", "d3"] }, 10);

describe("beirReport", () => {
  const report = beirReport(fakeBeirResult([l0, fused], qrels));

  it("records the fusion weight in effect and where it came from, never null", () => {
    expect(report.config.l0Weight).toBe(0.8);
    expect(report.calibration?.values["fusion l0Weight"]).toBe(0.8);
    expect(report.calibration?.values["l0Weight from"]).toBe("built-in default");
    expect(report.calibration?.summary).toMatch(/^calibration: defaults \(hand-made\)/);
  });

  it("carries each variant's latency and stage medians, and the graph floor", () => {
    expect(report.variants[0].latency).toMatchObject({ p50Ms: 8, p95Ms: 16, p99Ms: 24, meanMs: 9, stagesP50Ms: { l0: 4 } });
    expect(report.variants[0].extra).toEqual({ "p50 ms": 8, "p95 ms": 16, "p99 ms": 24 });
    expect(report.latencyFloor).toMatchObject({ p50Ms: 1, queries: 10 });
  });

  it("lists the gold documents (grade above 0) and each one's rank in every variant's run", () => {
    const r = report.rankings!;
    expect(r.gold).toEqual({ q1: ["d1"], q2: ["d2", "d7"], q3: ["d3"] });
    expect(r.byVariant.L0.q2.goldRanks).toEqual({ d2: 2, d7: null });
    expect(r.byVariant["L0+L1"].q3.goldRanks).toEqual({ d3: 2 });
    expect(r.byVariant.L0.q1.top[0]).toEqual({ doc: "d1", score: 1, reasons: "L0:bm25:9.00" });
    expect(r.titles.d7).toBe("Title of d7");
    expect(r.shown).toBe(2);
  });

  it("tests L0+L1 against the other variant on per-query nDCG@10", () => {
    const [comparison] = report.significance!.comparisons;
    expect(comparison).toMatchObject({ a: "L0+L1", b: "L0", n: 3, meanA: 2.5 / 3, meanB: 0.5 });
    expect(comparison.meanDifference).toBeCloseTo(1 / 3, 12);
    // Differences 0, 0.5, 0.5: |sum| >= 1 for 4 of the 8 sign assignments (the zero's sign is free).
    expect(comparison.randomizationP).toBe(0.5);
  });

  it("has no published baselines for an unknown dataset", () => {
    expect(report.baselines).toBeUndefined();
  });
});

describe("publishedBaselines", () => {
  it("knows SciFact's test split only with its exact size, from the BEIR paper and Anserini", () => {
    const scifact = publishedBaselines({ name: "scifact", split: "test", documents: 5183, queries: 300 });
    expect(scifact.map((b) => [b.system, b.metrics["nDCG@10"]])).toEqual([
      ["BM25 (Elasticsearch)", 0.665],
      ["BM25 flat (Lucene, title + text)", 0.6789],
    ]);
    expect(scifact[0].source).toMatch(/Thakur et al\. 2021/);
    expect(publishedBaselines({ name: "scifact", split: "train", documents: 5183, queries: 809 })).toEqual([]);
    expect(publishedBaselines({ name: "scifact-copy", split: "test", documents: 100, queries: 300 })).toEqual([]);
  });
});

describe("pairwiseSignificance", () => {
  const variant = (name: string, scores: number[]): ReportVariant => ({ name, label: name, mean: {}, perQuery: Object.fromEntries(scores.map((s, i) => [`q${i}`, { m: s }])) });

  it("compares the reference first, then the remaining pairs, each pair once", () => {
    const result = pairwiseSignificance([variant("L0", [1, 0]), variant("L1", [0, 0]), variant("L0+L1", [1, 1])], "m");
    expect(result.comparisons.map((c) => `${c.a}/${c.b}`)).toEqual(["L0+L1/L0", "L0+L1/L1", "L0/L1"]);
    expect(result).toMatchObject({ metric: "m", permutations: 10_000, seed: 42 });
  });

  it("pairs only the queries both variants scored", () => {
    const a: ReportVariant = { name: "a", label: "a", mean: {}, perQuery: { q1: { m: 1 }, q2: { m: 0.5 }, q3: { m: 0 } } };
    const b: ReportVariant = { name: "b", label: "b", mean: {}, perQuery: { q1: { m: 0 }, q3: { m: 0 }, q4: { m: 1 } } };
    expect(compareVariantsPaired(a, b, "m")).toMatchObject({ n: 2, meanA: 0.5, meanB: 0, meanDifference: 0.5 });
  });
});

describe("stringifyCompact", () => {
  it("parses back to the same value and puts values below the depth on one line", () => {
    const value = { a: 1, b: { c: [1, 2, { d: "x" }], e: { f: { g: [3] } } }, skip: undefined };
    const text = stringifyCompact(value, 2);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
    expect(text).toContain('"c": [1,2,{"d":"x"}]');
    expect(text.split("\n")[0]).toBe("{");
  });
});
