import { describe, expect, it } from "vitest";
import {
  childTimeoutMs,
  parseChildTimeoutMs,
  FULL_SIZES,
  parseBenchArgs,
  QUICK_MEASURE,
  type BenchOptions,
} from "../../bench/bench-options.js";
import { BenchError } from "../../bench/bench-error.js";

const parse = (args: string[]) => parseBenchArgs(args, "/home/user/lookup-knowledge") as BenchOptions;

describe("parseBenchArgs", () => {
  it("runs every size and the incremental re-index at 10k by default", () => {
    const options = parse([]);
    expect(options.mode).toBe("full");
    expect(options.sizes).toEqual(FULL_SIZES);
    expect(options.incrementalSize).toBe(10_000);
    expect(options.serveQueries).toBeNull();
  });

  it("makes --quick a 1k smoke run without the incremental step", () => {
    const options = parse(["--quick"]);
    expect(options).toMatchObject({
      mode: "quick",
      sizes: [1_000],
      incrementalSize: null,
      measure: QUICK_MEASURE,
      serveQueries: 20,
    });
  });

  it("reads sizes, folders relative to the working folder and the budget", () => {
    const options = parse([
      "--sizes",
      "10000,1000,1_000",
      "--dataset",
      "data/scifact",
      "--out",
      "/tmp/out",
      "--budget-s",
      "5",
      "--no-incremental",
    ]);
    expect(options.sizes).toEqual([1_000, 10_000]);
    expect(options.dataset).toBe("/home/user/lookup-knowledge/data/scifact");
    expect(options.outDir).toBe("/tmp/out");
    expect(options.measure.budgetMs).toBe(5_000);
    expect(options.incrementalSize).toBeNull();
  });

  it("runs the filtered lookups at the largest size unless told otherwise, and alone with --only filter", () => {
    expect(parse([]).filterSize).toBe(100_000);
    expect(parse(["--sizes", "1000,10000"]).filterSize).toBe(10_000);
    expect(parse(["--no-filter"]).filterSize).toBeNull();
    expect(parse(["--only", "filter", "--filter-size", "50000", "--filter-plan-sizes", "3000,1000"])).toMatchObject({
      only: "filter",
      filterSize: 50_000,
      filterPlanSizes: [1_000, 3_000],
    });
    expect(parse([]).only).toBeNull();
    expect(() => parse(["--only", "query"])).toThrow(/--only takes filter, reload, sync, parse or serve/);
    expect(() => parse(["--only", "filter", "--no-filter"])).toThrow(BenchError);
  });

  it("runs the reloads at 10k and 100k in a full run, none in a quick one, and takes sizes or --no-reload", () => {
    expect(parse([]).reloadSizes).toEqual([10_000, 100_000]);
    expect(parse(["--quick"]).reloadSizes).toEqual([]);
    expect(parse(["--reload-sizes", "5000,2000,5000"]).reloadSizes).toEqual([2_000, 5_000]);
    expect(parse(["--no-reload"]).reloadSizes).toEqual([]);
    expect(parse(["--only", "reload"]).only).toBe("reload");
    expect(() => parse(["--only", "reload", "--no-reload"])).toThrow(/leave nothing to run/);
  });

  it("parses the sample corpus and 10,000 generated files in a full run, 1,000 in a quick one, and takes a count, --no-parse or --only parse", () => {
    expect(parse([])).toMatchObject({ parseFiles: 10_000, parseRounds: 15 });
    expect(parse(["--quick"])).toMatchObject({ parseFiles: 1_000, parseRounds: 3 });
    expect(parse(["--parse-files", "2000"]).parseFiles).toBe(2_000);
    expect(parse(["--no-parse"]).parseFiles).toBeNull();
    expect(parse(["--only", "parse"])).toMatchObject({ only: "parse", parseFiles: 10_000 });
    expect(() => parse(["--only", "parse", "--no-parse"])).toThrow(/leave nothing to run/);
  });

  it("serves 10,000 chunks in a full run, none in a quick one but 1,000 with --only serve, and takes a size, --no-serve or --only serve", () => {
    expect(parse([]).serveSize).toBe(10_000);
    expect(parse(["--quick"]).serveSize).toBeNull();
    expect(parse(["--quick", "--only", "serve"]).serveSize).toBe(1_000);
    expect(parse(["--serve-size", "2000"]).serveSize).toBe(2_000);
    expect(parse(["--no-serve"]).serveSize).toBeNull();
    expect(parse(["--only", "serve"])).toMatchObject({ only: "serve", serveSize: 10_000 });
    expect(() => parse(["--only", "serve", "--no-serve"])).toThrow(/leave nothing to run/);
  });

  it("runs the document sync at 100k in a full run, none in a quick one, and takes a size, --no-sync or --only sync", () => {
    expect(parse([]).syncSize).toBe(100_000);
    expect(parse(["--quick"]).syncSize).toBeNull();
    expect(parse(["--sync-size", "20000"]).syncSize).toBe(20_000);
    expect(parse(["--no-sync"]).syncSize).toBeNull();
    expect(parse(["--only", "sync", "--sync-size", "1000"])).toMatchObject({ only: "sync", syncSize: 1_000 });
    expect(() => parse(["--only", "sync", "--no-sync"])).toThrow(/leave nothing to run/);
  });

  it("refuses unknown flags and bad numbers with a BenchError naming them", () => {
    expect(() => parse(["--size", "1000"])).toThrow(/unknown argument --size/);
    expect(() => parse(["--sizes", "10k"])).toThrow(BenchError);
    expect(() => parse(["--sizes"])).toThrow(/--sizes needs a value/);
    expect(parseBenchArgs(["--help"])).toBe("help");
  });

  it("gives a child 30 s per 1,000 chunks and at least 5 minutes unless told otherwise", () => {
    expect(childTimeoutMs({ childTimeoutMs: null }, 1_000)).toBe(300_000);
    expect(childTimeoutMs({ childTimeoutMs: null }, 100_000)).toBe(3_000_000);
    expect(childTimeoutMs({ childTimeoutMs: 5_000 }, 100_000)).toBe(5_000);
  });

  it("gives the corpus-parse child 8 s per 1,000 files and round and at least 5 minutes unless told otherwise", () => {
    expect(parseChildTimeoutMs({ childTimeoutMs: null }, 10_000, 15)).toBe(1_200_000);
    expect(parseChildTimeoutMs({ childTimeoutMs: null }, 1_000, 3)).toBe(300_000);
    expect(parseChildTimeoutMs({ childTimeoutMs: 5_000 }, 10_000, 15)).toBe(5_000);
  });
});
