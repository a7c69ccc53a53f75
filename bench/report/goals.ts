import type { IncrementalResult } from "../tasks/incremental-task.js";
import type { SizeReport } from "./report-model.js";
import { SYSTEM_IDS } from "./ratios.js";

/** One goal from the issue: a measured figure that must stay at or below `limit`. */
export interface Goal {
  id: string;
  label: string;
  /** Chunk count the goal is stated for. */
  goalSize: number;
  limit: number;
  unit: "x floor" | "ms" | "s" | "MB" | "GB";
  /** The figure at one size, in `unit`; undefined when that size did not measure it. */
  value(size: SizeReport, incremental: Partial<IncrementalResult> | null): number | undefined;
}

/** A goal checked at one size from measured values. */
export interface GoalCheck {
  id: string;
  label: string;
  goalSize: number;
  size: number;
  limit: number;
  unit: Goal["unit"];
  /** null: not measured at this size. */
  value: number | null;
  /** null: not measured. */
  met: boolean | null;
}

const KIB_PER_GB = 1024 * 1024;
const tool = (size: SizeReport) => size.ratios?.toFloor.find((r) => r.id === SYSTEM_IDS.tool);
const finite = (value: number | undefined) => (value !== undefined && Number.isFinite(value) ? value : undefined);

/** The goals of the issue. */
export const GOALS: readonly Goal[] = [
  {
    id: "tool_p50_floor",
    label: "tool p50 <= 2x floor p50",
    goalSize: 100_000,
    limit: 2,
    unit: "x floor",
    value: (s) => finite(tool(s)?.p50ToFloor),
  },
  {
    id: "tool_p99_floor",
    label: "tool p99 <= 6x floor p50",
    goalSize: 100_000,
    limit: 6,
    unit: "x floor",
    value: (s) => finite(tool(s)?.p99ToFloor),
  },
  {
    id: "l0_p50",
    label: "L0 p50 <= 2 ms",
    goalSize: 100_000,
    limit: 2,
    unit: "ms",
    value: (s) => finite(s.query?.systems.find((m) => m.id === "l0")?.latency.p50),
  },
  {
    id: "build",
    label: "build (fromChunks) <= 30 s",
    goalSize: 100_000,
    limit: 30,
    unit: "s",
    value: (s) => (s.build ? s.build.buildMs / 1000 : undefined),
  },
  {
    id: "load",
    label: "load (fresh process) <= 0.5 s",
    goalSize: 100_000,
    limit: 0.5,
    unit: "s",
    value: (s) => (s.load ? s.load.loadMs / 1000 : undefined),
  },
  {
    id: "index_bytes",
    label: "index folder <= 250 MB",
    goalSize: 100_000,
    limit: 250,
    unit: "MB",
    value: (s) => (s.build ? s.build.indexBytes / 1e6 : undefined),
  },
  {
    id: "rss_build",
    label: "peak RSS of the build <= 1.5 GB",
    goalSize: 100_000,
    limit: 1.5,
    unit: "GB",
    value: (s) => (s.build ? s.build.maxRssKiB / KIB_PER_GB : undefined),
  },
  {
    id: "rss_serve",
    label: "peak RSS of load + serve <= 600 MB",
    goalSize: 100_000,
    limit: 600,
    unit: "MB",
    value: (s) => (s.load ? s.load.maxRssKiB / 1024 : undefined),
  },
  {
    id: "incremental",
    label: "one edited file: update + save <= 1 s",
    goalSize: 10_000,
    limit: 1,
    unit: "s",
    value: (s, inc) => (inc?.size === s.size && inc.inMemory ? inc.inMemory.totalMs / 1000 : undefined),
  },
  {
    id: "incremental_cli",
    label: "one edited file, CLI path: load + update + save <= 1 s",
    goalSize: 10_000,
    limit: 1,
    unit: "s",
    value: (s, inc) => (inc?.size === s.size && inc.cliPath ? inc.cliPath.totalMs / 1000 : undefined),
  },
];

/**
 * Checks every goal at every measured size (the incremental goals at the incremental run's size)
 * from the measured values; a goal whose size was not run gets a "not measured" row. Pure.
 */
export function checkGoals(
  sizes: readonly SizeReport[],
  incremental: Partial<IncrementalResult> | null,
  goals: readonly Goal[] = GOALS,
): GoalCheck[] {
  const out: GoalCheck[] = [];
  const incrementalRow = (size: number): SizeReport => ({ size, build: null, load: null, query: null, ratios: null });
  for (const goal of goals) {
    const rows = goal.id.startsWith("incremental")
      ? incremental?.size !== undefined
        ? [incrementalRow(incremental.size)]
        : []
      : sizes;
    for (const row of rows) {
      const value = goal.value(row, incremental);
      out.push({
        id: goal.id,
        label: goal.label,
        goalSize: goal.goalSize,
        size: row.size,
        limit: goal.limit,
        unit: goal.unit,
        value: value ?? null,
        met: value === undefined ? null : value <= goal.limit,
      });
    }
    if (!rows.some((row) => row.size === goal.goalSize)) {
      out.push({
        id: goal.id,
        label: goal.label,
        goalSize: goal.goalSize,
        size: goal.goalSize,
        limit: goal.limit,
        unit: goal.unit,
        value: null,
        met: null,
      });
    }
  }
  return out;
}
