import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BenchReport } from "./report-model.js";

/** The figures one step of a run adds to its committed file. */
export interface CommittedStep {
  /** The file below the output folder, e.g. `reloads.json`. */
  file: string;
  /** Its `schema` field, e.g. `lookup-knowledge-bench-reload/1`. */
  schema: string;
  /** The step's key and figures, e.g. `{ reloads }`. */
  figures: Record<string, unknown>;
}

/** The run's own fields (when, what machine, which command and packages, the measure settings), without any step's figures. Pure. */
export function runFields(report: BenchReport): Record<string, unknown> {
  const {
    schema: _schema,
    sizes: _sizes,
    incremental: _incremental,
    goals: _goals,
    filter: _filter,
    reloads: _reloads,
    documentSync: _documentSync,
    corpusParse: _corpusParse,
    serve: _serve,
    notes: _notes,
    ...run
  } = report;
  return run;
}

/** Writes each step's committed file: the run's fields and the step's figures; returns the paths written. */
export async function writeCommittedResults(
  outDir: string,
  report: BenchReport,
  steps: readonly CommittedStep[],
): Promise<string[]> {
  const written: string[] = [];
  for (const { file, schema, figures } of steps) {
    const path = join(outDir, file);
    await writeFile(path, `${JSON.stringify({ schema, ...runFields(report), ...figures }, null, 2)}\n`);
    written.push(path);
  }
  return written;
}
