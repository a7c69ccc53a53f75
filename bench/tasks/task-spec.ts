import type { MeasureSettings } from "../measure/measure-systems.js";

/** Build the index of `size` replicated documents with `fromChunks` and save it to `indexDir`. */
export interface BuildSpec {
  task: "build";
  size: number;
  dataset: string;
  indexDir: string;
}

/** Load the saved index in a fresh process and serve every query once through the traced tool. */
export interface LoadSpec {
  task: "load";
  size: number;
  dataset: string;
  indexDir: string;
  workDir: string;
  /** Queries to serve after the load (the first ones); null: all. */
  serveQueries: number | null;
}

/** Time every system side by side on the same queries. */
export interface QuerySpec {
  task: "query";
  size: number;
  dataset: string;
  indexDir: string;
  workDir: string;
  measure: MeasureSettings;
}

/** Re-index one edited Markdown file of a `size`-section corpus, against a full rebuild. */
export interface IncrementalSpec {
  task: "incremental";
  size: number;
  dataset: string;
  workDir: string;
  /** Sections (documents) per Markdown file. */
  sectionsPerFile: number;
}

/** One edited source of a `size`-section corpus: re-indexed as a corpus file and synced as a LangChain document. */
export interface DocumentSyncSpec {
  task: "sync";
  size: number;
  dataset: string;
  workDir: string;
  /** Sections (documents of SciFact) per Markdown file, and so per LangChain document. */
  sectionsPerFile: number;
}

/** Filtered lookups: label a `size`-chunk corpus with access groups and domains, build once, time and check recall per filter. */
export interface FilterSpec {
  task: "filter";
  size: number;
  dataset: string;
  workDir: string;
  measure: MeasureSettings;
  /** Admitted-set sizes at which both L1 plans (exact scan, graph with the filter) are timed. */
  planSizes: number[];
}

/** Serve lookups from a followed index of `size` chunks while a new generation is saved into its folder. */
export interface ReloadSpec {
  task: "reload";
  size: number;
  dataset: string;
  indexDir: string;
}

/** Parse the sample corpus and a generated one of `size` files through the previous and the gray-matter frontmatter paths, side by side. */
export interface ParseSpec {
  task: "parse";
  /** Files of the generated corpus (one replicated SciFact document each). */
  size: number;
  dataset: string;
  workDir: string;
  /** Timed rounds per corpus; medians are kept. */
  rounds: number;
}

/** Serve a `size`-chunk index with `serve --http` in a child process and time SDK clients against it: another token idle and under one token's flood, and load from many clients. */
export interface ServeSpec {
  task: "serve";
  size: number;
  dataset: string;
  workDir: string;
}

/** What a child process is asked to do. */
export type TaskSpec =
  | BuildSpec
  | LoadSpec
  | QuerySpec
  | IncrementalSpec
  | DocumentSyncSpec
  | FilterSpec
  | ReloadSpec
  | ParseSpec
  | ServeSpec;

/** What a child writes to its result file (never to stdout, where logs may go). */
export type ChildOutput<T> = { ok: true; result: T } | { ok: false; error: string; partial?: unknown };

/** Lets a task leave what it measured so far, so a failure later on still reports it. */
export type KeepPartial = (partial: unknown) => void;
