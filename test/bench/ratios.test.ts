import { describe, expect, it } from "vitest";
import { checkGoals, GOALS } from "../../bench/report/goals.js";
import { computeRatios, ratio } from "../../bench/report/ratios.js";
import type { SizeReport } from "../../bench/report/report-model.js";
import { callBudget, rotatingSchedule } from "../../bench/measure/schedule.js";

const LATENCY = {
  langgraph_floor: { p50: 2, p99: 3 },
  raw_flexsearch: { p50: 1, p99: 2 },
  raw_hnswlib: { p50: 0.25, p99: 0.5 },
  tool: { p50: 5, p99: 20 },
  langchain_ensemble: { p50: 100, p99: 150 },
};

describe("computeRatios", () => {
  it("divides every system's p50 and p99 by the floor's p50", () => {
    const ratios = computeRatios(LATENCY);
    expect(ratios.floorP50).toBe(2);
    expect(ratios.toFloor.find((r) => r.id === "tool")).toEqual({ id: "tool", p50ToFloor: 2.5, p99ToFloor: 10 });
    expect(ratios.toFloor.find((r) => r.id === "langgraph_floor")?.p50ToFloor).toBe(1);
  });

  it("relates the tool to the raw engines, to floor plus engines and to the EnsembleRetriever", () => {
    const ratios = computeRatios(LATENCY);
    expect(ratios.toolToRawEngines).toBe(4);
    expect(ratios.toolToFloorPlusEngines).toBeCloseTo(5 / 3.25);
    expect(ratios.toolToEnsemble).toBe(0.05);
    expect(ratios.ensembleToTool).toBe(20);
  });

  it("gives NaN, not a made-up figure, when a system is missing", () => {
    const ratios = computeRatios({ tool: { p50: 5, p99: 9 } });
    expect(ratios.toolToRawEngines).toBeNaN();
    expect(ratios.toFloor[0].p50ToFloor).toBeNaN();
    expect(ratio(1, 0)).toBeNaN();
  });
});

describe("checkGoals", () => {
  const size = (n: number, toolP50: number, buildS: number): SizeReport => ({
    size: n,
    build: {
      size: n,
      chunkCount: n,
      generateMs: 0,
      phases: [],
      buildMs: buildS * 1000,
      saveSteps: [],
      saveMs: 0,
      indexBytes: 100e6,
      files: {},
      maxRssKiB: 1024 * 1024,
    },
    load: null,
    query: null,
    ratios: computeRatios({ ...LATENCY, tool: { p50: toolP50, p99: toolP50 * 2 } }),
  });

  it("marks each goal met or not from the measured value at every size", () => {
    const checks = checkGoals([size(1_000, 4, 2), size(100_000, 10, 120)], null);
    const at = (id: string, n: number) => checks.find((c) => c.id === id && c.size === n);
    expect(at("tool_p50_floor", 1_000)).toMatchObject({ value: 2, met: true });
    expect(at("tool_p50_floor", 100_000)).toMatchObject({ value: 5, met: false });
    expect(at("build", 100_000)).toMatchObject({ value: 120, met: false });
    expect(at("index_bytes", 100_000)).toMatchObject({ value: 100, met: true });
    expect(at("load", 100_000)).toMatchObject({ value: null, met: null });
  });

  it("reports a goal whose size was not run as not measured", () => {
    const checks = checkGoals([size(1_000, 4, 2)], null);
    expect(checks.filter((c) => c.size === 100_000 && c.met === null).map((c) => c.id)).toEqual(
      GOALS.filter((g) => g.goalSize === 100_000).map((g) => g.id),
    );
    expect(checks.find((c) => c.id === "incremental")).toMatchObject({ size: 10_000, met: null });
  });

  it("checks the incremental goal only when the update was timed", () => {
    const partial = {
      size: 10_000,
      initialBuild: { buildMs: 1, saveMs: 1, totalMs: 2, phases: [], chunkCount: 10_000 },
    };
    expect(checkGoals([], partial).find((c) => c.id === "incremental")).toMatchObject({ value: null, met: null });
    const done = { ...partial, inMemory: { updateMs: 300, saveMs: 400, totalMs: 700, changes: null } };
    expect(checkGoals([], done).find((c) => c.id === "incremental")).toMatchObject({ value: 0.7, met: true });
  });
});

describe("rotatingSchedule", () => {
  it("asks every system the same query in a round, starting with another system each round", () => {
    const schedule = rotatingSchedule([2, 2, 2], 5);
    expect(schedule.map((c) => [c.round, c.system, c.query])).toEqual([
      [0, 0, 0],
      [0, 1, 0],
      [0, 2, 0],
      [1, 1, 1],
      [1, 2, 1],
      [1, 0, 1],
    ]);
  });

  it("skips systems whose calls are used up and cycles through the queries", () => {
    const schedule = rotatingSchedule([3, 1], 2);
    expect(schedule.filter((c) => c.system === 1)).toHaveLength(1);
    expect(schedule.filter((c) => c.system === 0).map((c) => c.query)).toEqual([0, 1, 0]);
  });

  it("budgets calls by warm-up cost within the minimum and maximum", () => {
    expect(callBudget(10, 60_000, 20, 1_200)).toBe(1_200);
    expect(callBudget(300, 60_000, 20, 1_200)).toBe(200);
    expect(callBudget(4_000, 60_000, 20, 1_200)).toBe(20);
  });
});
