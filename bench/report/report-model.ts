import type { MeasureSettings } from "../measure/measure-systems.js";
import type { BuildResult } from "../tasks/build-task.js";
import type { FilterResult } from "../tasks/filter-task.js";
import type { ReloadResult } from "../tasks/reload-task.js";
import type { IncrementalResult } from "../tasks/incremental-task.js";
import type { DocumentSyncResult } from "../tasks/document-sync-task.js";
import type { LoadResult } from "../tasks/load-task.js";
import type { ParseResult } from "../tasks/parse-task.js";
import type { QueryResult } from "../tasks/query-task.js";
import type { ServeResult } from "../tasks/serve-task.js";
import type { GoalCheck } from "./goals.js";
import type { Ratios } from "./ratios.js";

/** The machine the figures come from. */
export interface MachineInfo {
  os: string;
  arch: string;
  cpuModel: string;
  cpuCount: number;
  totalMemoryBytes: number;
  node: string;
  /** 1, 5 and 15 minute load averages when the run started and ended: other work on the box shows here. */
  loadavgStart: number[];
  loadavgEnd: number[];
}

/** A step that did not finish. */
export interface Failure {
  step: "build" | "load" | "query" | "incremental" | "sync" | "filter" | "reload" | "parse" | "serve";
  size: number;
  message: string;
  /** What the step measured before it failed. */
  partial?: unknown;
}

/** Everything measured at one size. */
export interface SizeReport {
  size: number;
  build: BuildResult | null;
  load: LoadResult | null;
  query: QueryResult | null;
  ratios: Ratios | null;
}

/** `bench/results/latest.json`. */
export interface BenchReport {
  schema: "lookup-knowledge-bench/1";
  mode: "full" | "quick";
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  command: string;
  machine: MachineInfo;
  packages: Record<string, string>;
  dataset: string;
  measure: MeasureSettings;
  sizes: SizeReport[];
  /** The incremental run; a failed one keeps what it measured before it failed (the full build). */
  incremental: Partial<IncrementalResult> | null;
  /** The filtered-lookup run (access groups and domains of 0.1% to 100%); a failed one keeps what it measured before. Absent in older reports. */
  filter?: Partial<FilterResult> | null;
  /** The reload runs, one per size; a failed one keeps what it measured before. Absent in older reports. */
  reloads?: Array<Partial<ReloadResult>>;
  /** The document-sync run (one edited source as a corpus file and as a LangChain document); a failed one keeps what it measured before. Absent in older reports. */
  documentSync?: Partial<DocumentSyncResult> | null;
  /** The corpus-parse run (the previous frontmatter path against gray-matter); a failed one keeps what it measured before. Absent in older reports. */
  corpusParse?: Partial<ParseResult> | null;
  /** The serve run (`serve --http` against SDK clients: another token idle and under a flood, 10 and 50 clients); a failed one keeps what it measured before. Absent in older reports. */
  serve?: Partial<ServeResult> | null;
  goals: GoalCheck[];
  failures: Failure[];
  notes: string[];
}
